// Poker tournaments in the browser: the lobby (each tournament's game, buy-in, entrants
// and state, with registration and unregistration under an idempotency key per request)
// and one tournament's board (the level, the blinds, the time to the next level counting
// down from the server's seconds, the players left, the average stack and the payouts);
// while it runs, the player's own seat (place, stack, hole cards and, on their turn, the
// actions); at the end the final ranking with the prizes. A registered player follows a
// running tournament over its socket (/ws/tournaments/ID), which pushes a message each
// time their table, the level or the standings change; the board is read again then.
// Without the socket (a spectator, registration still open, or the socket down and
// reconnecting with backoff) the board is read again every two seconds.

import {
  $, addStrings, api, ApiError, cardEl, clock, el, euros, setMessage, showView, state, t,
  uniqueKey,
} from "./core.js";
import { boardList, closeBoard, openBoard } from "./boards.js";

addStrings({
  fi: {
    "tour.rebuy": "Lisäosto: {chips} merkkiä, {cost}", "tour.addon": "Add-on: {chips} merkkiä, {cost}",
    "tour.pending": "Otetaan tämän käden päättyessä.", "tour.bought": "Pelimerkit lisätty.",
    "tour.you": "Sijasi {place} · pinosi {chips}", "tour.turn": "Sinun vuorosi",
    "tour.waiting": "Vuorossa {name}", "tour.fold": "Luovuta", "tour.check": "Sököä",
    "tour.call": "Maksa {chips}", "tour.raise": "Korota {chips}", "tour.ranking": "Loppusijoitukset",
    "tour.ranked": "{place}. {name}: {prize}",
    "nav.tournaments": "Turnaukset", "tour.title": "Turnaukset", "tour.none": "Ei turnauksia.",
    "tour.register": "Ilmoittaudu", "tour.unregister": "Peru ilmoittautuminen",
    "tour.entries": "{n}/{cap} pelaajaa", "tour.buyin": "Sisäänosto {buy} + {fee}",
    "tour.level": "Taso {n}", "tour.blinds": "Blindit {sb}/{bb}", "tour.next": "Seuraava taso {time}",
    "tour.left": "Jäljellä {n}", "tour.average": "Keskipino {chips}", "tour.open": "Avaa",
    "tour.place": "{place}. sija: {prize}", "tour.registered": "Olet ilmoittautunut.",
    "tour.status.registering": "Ilmoittautuminen auki", "tour.status.running": "Käynnissä",
    "tour.status.finished": "Päättynyt", "tour.status.cancelled": "Peruttu",
  },
  sv: {
    "tour.rebuy": "Återköp: {chips} marker, {cost}", "tour.addon": "Add-on: {chips} marker, {cost}",
    "tour.pending": "Tas när given är slut.", "tour.bought": "Markerna har lagts till.",
    "tour.you": "Din plats {place} · din stack {chips}", "tour.turn": "Din tur",
    "tour.waiting": "{name} agerar", "tour.fold": "Lägg", "tour.check": "Checka",
    "tour.call": "Syna {chips}", "tour.raise": "Höj {chips}", "tour.ranking": "Slutplaceringar",
    "tour.ranked": "{place}. {name}: {prize}",
    "nav.tournaments": "Turneringar", "tour.title": "Turneringar", "tour.none": "Inga turneringar.",
    "tour.register": "Anmäl dig", "tour.unregister": "Ångra anmälan",
    "tour.entries": "{n}/{cap} spelare", "tour.buyin": "Insats {buy} + {fee}",
    "tour.level": "Nivå {n}", "tour.blinds": "Blinds {sb}/{bb}", "tour.next": "Nästa nivå {time}",
    "tour.left": "Kvar {n}", "tour.average": "Snittstack {chips}", "tour.open": "Öppna",
    "tour.place": "Plats {place}: {prize}", "tour.registered": "Du är anmäld.",
    "tour.status.registering": "Anmälan öppen", "tour.status.running": "Pågår",
    "tour.status.finished": "Avslutad", "tour.status.cancelled": "Inställd",
  },
  en: {
    "tour.rebuy": "Rebuy: {chips} chips, {cost}", "tour.addon": "Add-on: {chips} chips, {cost}",
    "tour.pending": "Taken as this hand ends.", "tour.bought": "Chips added.",
    "tour.you": "Your place {place} · your stack {chips}", "tour.turn": "Your turn",
    "tour.waiting": "{name} to act", "tour.fold": "Fold", "tour.check": "Check",
    "tour.call": "Call {chips}", "tour.raise": "Raise to {chips}", "tour.ranking": "Final ranking",
    "tour.ranked": "{place}. {name}: {prize}",
    "nav.tournaments": "Tournaments", "tour.title": "Tournaments", "tour.none": "No tournaments.",
    "tour.register": "Register", "tour.unregister": "Unregister",
    "tour.entries": "{n}/{cap} players", "tour.buyin": "Buy-in {buy} + {fee}",
    "tour.level": "Level {n}", "tour.blinds": "Blinds {sb}/{bb}", "tour.next": "Next level {time}",
    "tour.left": "{n} left", "tour.average": "Average stack {chips}", "tour.open": "Open",
    "tour.place": "Place {place}: {prize}", "tour.registered": "You are registered.",
    "tour.status.registering": "Registration open", "tour.status.running": "Running",
    "tour.status.finished": "Finished", "tour.status.cancelled": "Cancelled",
  },
});

let timer = null;
let poll = null;
// The socket a registered player follows their running tournament on (null: none).
let follow = null;
// What the last request said, kept over the page's re-reads for a few seconds.
let notice = { text: "", kind: "error", until: 0 };

function noted(node, text, kind = "error") {
  notice = { text, kind, until: Date.now() + 6000 };
  setMessage(node, text, kind);
}

function stopPolling() {
  if (poll !== null) clearInterval(poll);
  poll = null;
}

function stopFollowing() {
  if (follow === null) return;
  follow.closed = true;
  if (follow.retryTimer !== null) clearTimeout(follow.retryTimer);
  follow.socket?.close(1000);
  follow = null;
}

export function closeTournaments() {
  if (timer !== null) clearInterval(timer);
  timer = null;
  stopPolling();
  stopFollowing();
  closeBoard();
}

/** #/tournaments: the list (poker, then table-game and slot tournaments);
 * #/tournaments/ID: one poker tournament's board; #/tournaments/board/ID: a table-game
 * or slot tournament's page. */
export async function openTournaments(id, sub) {
  closeTournaments();
  const box = $("#tournaments-body");
  delete box.dataset.board;
  if (id === "board" && /^\d{1,10}$/.test(sub ?? "")) {
    await openBoard(sub);
  } else if (id) {
    await render(String(id));
  } else {
    const [{ tournaments }, boards] = await Promise.all([api("/api/tournaments"), boardList()]);
    const parts = [tournaments.length
      ? el("ul", { class: "tour-list" }, tournaments.map(row))
      : el("p", { text: t("tour.none") })];
    if (boards) parts.push(boards);
    box.replaceChildren(...parts);
  }
  showView("tournaments");
}

// One read of the board at a time; a change pushed during a read asks for one more.
let reading = null;
let readAgain = false;

function refresh(id) {
  if (reading !== null) {
    readAgain = true;
    return reading;
  }
  reading = render(id).catch(() => {}).finally(() => {
    reading = null;
    if (readAgain && location.hash === `#/tournaments/${id}`) {
      readAgain = false;
      refresh(id);
    }
  });
  return reading;
}

/** One tournament's board, read from the server, then how it is kept up to date. */
async function render(id) {
  const box = $("#tournaments-body");
  const detail = await api(`/api/tournaments/${encodeURIComponent(id)}`);
  if (timer !== null) clearInterval(timer);
  timer = null;
  const parts = [board(detail)];
  if (detail.status === "running" && detail.registered) parts.push(await seat(detail));
  if (detail.status === "finished") parts.push(await ranking(detail.id));
  box.replaceChildren(...parts);
  box.dataset.status = detail.status;
  const live = detail.status === "running" || detail.status === "registering";
  if (detail.status === "running" && detail.registered && state.me?.role === "player") {
    followOver(id);
  } else {
    stopFollowing();
  }
  if (live && !follow?.open) startPolling(id);
  else stopPolling();
  box.dataset.follow = follow?.open ? "socket" : live ? "poll" : "none";
}

function startPolling(id) {
  if (poll !== null) return;
  poll = setInterval(() => {
    if (location.hash === `#/tournaments/${id}`) refresh(id);
  }, 2000);
}

/** Follow the running tournament over its socket, reconnecting with backoff. */
function followOver(id) {
  if (follow !== null && follow.id === id) return;
  stopFollowing();
  follow = { id, socket: null, open: false, retry: 0, retryTimer: null, closed: false };
  connect(follow);
}

function connect(f) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/tournaments/${encodeURIComponent(f.id)}`);
  f.socket = socket;
  socket.addEventListener("open", () => {
    if (f.socket !== socket || f.closed) return;
    f.open = true;
    f.retry = 0;
    stopPolling();
    $("#tournaments-body").dataset.follow = "socket";
  });
  socket.addEventListener("message", () => {
    if (f.socket === socket && !f.closed) refresh(f.id);
  });
  socket.addEventListener("close", (event) => {
    if (f.socket !== socket) return;
    f.socket = null;
    f.open = false;
    if (f.closed) return;
    $("#tournaments-body").dataset.follow = "poll";
    startPolling(f.id); // read again every two seconds until the socket is back
    if (event.code === 4403) { // refused (the tournament is over, say): polling tells
      f.closed = true;
      return;
    }
    const delay = Math.min(5000, 400 * 2 ** f.retry);
    f.retry += 1;
    f.retryTimer = setTimeout(() => {
      f.retryTimer = null;
      if (!f.closed && follow === f) connect(f);
    }, delay);
  });
}

function row(tour) {
  return el("li", { class: "card tour-row", "data-tournament": tour.id },
    el("h3", { text: tour.name }),
    el("div", { class: "small", text: [tour.game, t("tour.buyin", { buy: euros(tour.buy_in),
      fee: euros(tour.fee) }), t("tour.entries", { n: tour.entries, cap: tour.capacity }),
    t(`tour.status.${tour.status}`)].join(" · ") }),
    el("a", { class: "button", href: `#/tournaments/${tour.id}`, text: t("tour.open") }));
}

function board(d) {
  const message = el("p", { class: "message", role: "status" });
  const parts = [el("h2", { text: d.name }),
    el("p", { class: "small", text: `${d.game} · ${t(`tour.status.${d.status}`)} · `
      + t("tour.entries", { n: d.entries, cap: d.capacity }) })];
  if (d.status === "running" && d.level) {
    const next = el("span", { class: "tour-next" });
    let left = d.level.seconds_left;
    const tick = () => { next.textContent = t("tour.next", { time: clock(left) }); left -= 1; };
    tick();
    timer = setInterval(tick, 1000);
    parts.push(el("p", { class: "tour-level" },
      el("span", { text: `${t("tour.level", { n: d.level.number })} · ` }),
      el("span", { text: `${t("tour.blinds", { sb: d.level.small_blind, bb: d.level.big_blind })} · ` }),
      next),
    el("p", { text: `${t("tour.left", { n: d.left })} · ${t("tour.average", { chips: d.average })}` }));
  }
  if (d.payouts.length) {
    parts.push(el("ol", { class: "tour-payouts" }, d.payouts.map((p) =>
      el("li", { text: t("tour.place", { place: p.place, prize: euros(p.prize) }) }))));
  }
  if (state.me?.role === "player" && d.status === "registering") {
    const path = d.registered ? "unregister" : "register";
    if (d.registered) parts.push(el("p", { text: t("tour.registered") }));
    parts.push(el("button", { type: "button", class: "tour-entry",
      text: t(d.registered ? "tour.unregister" : "tour.register"),
      onclick: async () => {
        try {
          await api(`/api/tournaments/${d.id}/${path}`, { method: "POST",
            body: { key: uniqueKey() } });
          await refresh(String(d.id));
        } catch (error) {
          if (error instanceof ApiError) setMessage(message, error.detail);
          else throw error;
        }
      } }));
  }
  parts.push(message);
  return el("div", { class: "card tour-board" }, parts);
}

/** The player's own seat: place, stack, hole cards, and their actions on their turn. */
async function seat(detail) {
  const id = detail.id;
  const view = await api(`/api/tournaments/${id}/seat`);
  const message = el("p", { class: "message", role: "status" });
  if (notice.until > Date.now()) setMessage(message, notice.text, notice.kind);
  const parts = [el("p", { class: "tour-you", text: t("tour.you", {
    place: view.place ?? "–", chips: view.stack ?? 0 }) })];
  const hole = view.hand?.hole ?? [];
  if (hole.length) parts.push(el("div", { class: "cards tour-hole" }, hole.map((c) => cardEl(c))));
  if (view.legal) {
    const act = (action, amount) => async () => {
      try {
        await api(`/api/tournaments/${id}/act`, { method: "POST",
          body: amount === undefined ? { action } : { action, amount } });
        await refresh(String(id));
      } catch (error) {
        if (error instanceof ApiError) noted(message, error.detail);
        else throw error;
      }
    };
    const legal = view.legal;
    const buttons = [];
    if (legal.check) buttons.push(el("button", { type: "button", "data-action": "check",
      text: t("tour.check"), onclick: act("check") }));
    else buttons.push(el("button", { type: "button", "data-action": "call",
      text: t("tour.call", { chips: legal.call }), onclick: act("call") }));
    if (legal.fold) buttons.push(el("button", { type: "button", "data-action": "fold",
      text: t("tour.fold"), onclick: act("fold") }));
    if (legal.raise_min !== null) {
      const size = el("input", { type: "number", class: "tour-raise-to", min: legal.raise_min,
        max: legal.raise_max, step: 1, value: legal.raise_min, inputmode: "numeric",
        "aria-label": t("tour.raise", { chips: "" }).trim() });
      const raise = el("button", { type: "button", "data-action": "raise",
        text: t("tour.raise", { chips: legal.raise_min }),
        onclick: () => act("raise", Number(size.value))() });
      size.addEventListener("input", () => {
        raise.textContent = t("tour.raise", { chips: size.value });
      });
      buttons.push(size, raise);
    }
    parts.push(el("p", { class: "tour-turn", text: t("tour.turn") }),
      el("div", { class: "tour-actions" }, buttons));
  } else if (view.to_act) {
    parts.push(el("p", { class: "small", text: t("tour.waiting", { name: view.to_act }) }));
  }
  const buy = (what) => async () => {
    try {
      const answer = await api(`/api/tournaments/${id}/${what}`, { method: "POST",
        body: { key: uniqueKey() } });
      noted(message, t(answer.type === "pending" ? "tour.pending" : "tour.bought"), "ok");
      await refresh(String(id));
    } catch (error) {
      if (error instanceof ApiError) noted(message, error.detail);
      else throw error;
    }
  };
  const s = detail.settings;
  if (s.entry === "rebuy" && detail.level.number <= s.rebuy_until_level && !detail.level.on_break) {
    parts.push(el("button", { type: "button", class: "tour-rebuy", onclick: buy("rebuy"),
      text: t("tour.rebuy", { chips: s.rebuy_chips, cost: euros(s.rebuy_cost) }) }));
  }
  if (s.add_on_chips && detail.level.on_break && detail.level.number === s.rebuy_until_level + 1) {
    parts.push(el("button", { type: "button", class: "tour-add-on", onclick: buy("add-on"),
      text: t("tour.addon", { chips: s.add_on_chips, cost: euros(s.rebuy_cost) }) }));
  }
  parts.push(message);
  return el("div", { class: "card tour-seat" }, parts);
}

/** The final ranking with the prizes. */
async function ranking(id) {
  const { places } = await api(`/api/tournaments/${id}/results`);
  return el("div", { class: "card tour-ranking" },
    el("h3", { text: t("tour.ranking") }),
    el("ol", { class: "tour-places" }, places.map((p) => el("li", {
      "data-player": p.player, "data-prize": p.prize,
      text: t("tour.ranked", { place: p.place, name: p.player, prize: euros(p.prize) }) }))));
}
