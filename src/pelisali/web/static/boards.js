// Table-game and slot tournaments in the browser (#/tournaments/board/ID): the settings
// (game, tournament chips, the limits a round, the rounds or the time), the time left
// counting down from the server's seconds, the payout table, registration under an
// idempotency key per request, the player's own entries (chips and rounds played) with
// a round's bet chosen from the bets the game offers and, at blackjack, the decisions of
// the hand in play; the leaderboard throughout, and the prizes at the end. The page is
// read again every two seconds while the tournament registers or runs.

import {
  $, addStrings, api, ApiError, cardEl, clock, el, euros, setMessage, state, t, uniqueKey,
} from "./core.js";

addStrings({
  fi: {
    "board.list": "Pöytäpeli- ja peliautomaattiturnaukset",
    "board.chips": "Aloituspelimerkit {chips}", "board.limits": "Panos kierroksella {min}–{max}",
    "board.rounds": "{n} kierrosta", "board.time": "Aikaa {time}", "board.minutes": "{n} min",
    "board.leaderboard": "Tulostaulu", "board.row": "{place}. {player}: {chips} ({rounds})",
    "board.prize": "{place}. {player}: {chips}, palkinto {prize}",
    "board.entry": "Pelimerkkisi {chips} · pelattu {rounds}", "board.bet": "Panos",
    "board.amount": "Pelimerkit", "board.play": "Pelaa kierros",
    "board.result": "Kierros {round}: panos {staked}, takaisin {paid}",
    "board.decide": "Valitse", "board.dealer": "Jakaja", "board.done": "Olet pelannut kierroksesi.",
    "board.pool": "Palkintopotti {pool}",
  },
  sv: {
    "board.list": "Bords- och automatturneringar",
    "board.chips": "Startmarker {chips}", "board.limits": "Insats per omgång {min}–{max}",
    "board.rounds": "{n} omgångar", "board.time": "Tid kvar {time}", "board.minutes": "{n} min",
    "board.leaderboard": "Resultattavla", "board.row": "{place}. {player}: {chips} ({rounds})",
    "board.prize": "{place}. {player}: {chips}, pris {prize}",
    "board.entry": "Dina marker {chips} · spelat {rounds}", "board.bet": "Insats",
    "board.amount": "Marker", "board.play": "Spela omgången",
    "board.result": "Omgång {round}: insats {staked}, tillbaka {paid}",
    "board.decide": "Välj", "board.dealer": "Given", "board.done": "Du har spelat dina omgångar.",
    "board.pool": "Prispott {pool}",
  },
  en: {
    "board.list": "Table-game and slot tournaments",
    "board.chips": "Starting chips {chips}", "board.limits": "Stake a round {min}–{max}",
    "board.rounds": "{n} rounds", "board.time": "Time left {time}", "board.minutes": "{n} min",
    "board.leaderboard": "Leaderboard", "board.row": "{place}. {player}: {chips} ({rounds})",
    "board.prize": "{place}. {player}: {chips}, prize {prize}",
    "board.entry": "Your chips {chips} · played {rounds}", "board.bet": "Bet",
    "board.amount": "Chips", "board.play": "Play the round",
    "board.result": "Round {round}: staked {staked}, back {paid}",
    "board.decide": "Choose", "board.dealer": "Dealer", "board.done": "You have played your rounds.",
    "board.pool": "Prize pool {pool}",
  },
});

let timer = null;
let poll = null;
// The last round's answer and the last refusal, kept over the page's re-reads.
let said = { text: "", kind: "error", until: 0 };
// What the page last showed (a re-read that finds nothing new leaves the page alone, so
// a choice being made is not redrawn under the player), and the bet and amount chosen.
let shown = "";
let chosen = { bet: null, amount: null };

export function closeBoard() {
  if (timer !== null) clearInterval(timer);
  if (poll !== null) clearInterval(poll);
  timer = poll = null;
  shown = "";
}

/** The lobby's list of table-game and slot tournaments (null when there are none). */
export async function boardList() {
  const { tournaments } = await api("/api/leaderboard-tournaments");
  if (!tournaments.length) return null;
  return el("section", { class: "board-lobby" },
    el("h3", { text: t("board.list") }),
    el("ul", { class: "tour-list" }, tournaments.map((b) =>
      el("li", { class: "card tour-row", "data-board": b.id },
        el("h3", { text: b.name }),
        el("div", { class: "small", text: [b.game, t("tour.buyin", { buy: euros(b.buy_in),
          fee: euros(b.fee) }), t("tour.entries", { n: b.entries, cap: b.capacity }),
        t(`tour.status.${b.status}`)].join(" · ") }),
        el("a", { class: "button", href: `#/tournaments/board/${b.id}`, text: t("tour.open") })))));
}

/** One table-game or slot tournament's page, kept up to date while it runs. */
export async function openBoard(id) {
  closeBoard();
  await renderBoard(id);
}

async function renderBoard(id) {
  const d = await api(`/api/leaderboard-tournaments/${encodeURIComponent(id)}`);
  const seen = JSON.stringify({ ...d, seconds_left: null, said: said.until > Date.now() ? said : null });
  if (seen === shown && $("#tournaments-body").dataset.board === String(d.id)) return;
  shown = seen;
  if (timer !== null) clearInterval(timer);
  timer = null;
  const box = $("#tournaments-body");
  const message = el("p", { class: "message", role: "status" });
  if (said.until > Date.now()) setMessage(message, said.text, said.kind);
  const note = (text, kind = "error") => {
    said = { text, kind, until: Date.now() + 6000 };
    setMessage(message, text, kind);
  };
  const post = async (path, body) => {
    try {
      const answer = await api(`/api/leaderboard-tournaments/${d.id}/${path}`,
        { method: "POST", body: { ...body, key: uniqueKey() } });
      if (answer.round !== undefined) {
        note(t("board.result", { round: answer.round, staked: answer.staked,
          paid: answer.paid }), "ok");
      }
      await renderBoard(id);
    } catch (error) {
      if (error instanceof ApiError) note(error.detail);
      else throw error;
    }
  };
  const parts = [header(d), ...mine(d, post)];
  if (state.me?.role === "player" && d.status === "registering") {
    const entered = d.mine.length > 0;
    parts.push(el("button", { type: "button", class: "tour-entry",
      text: t(entered ? "tour.unregister" : "tour.register"),
      onclick: () => post(entered ? "unregister" : "register", {}) }));
  }
  parts.push(message, leaderboard(d));
  box.replaceChildren(el("div", { class: "card board-page" }, parts));
  box.dataset.status = d.status;
  box.dataset.board = String(d.id);
  const live = d.status === "running" || d.status === "registering";
  if (live && poll === null) {
    poll = setInterval(() => {
      if (location.hash === `#/tournaments/board/${id}`) renderBoard(id).catch(() => {});
    }, 2000);
  } else if (!live && poll !== null) {
    clearInterval(poll);
    poll = null;
  }
}

function header(d) {
  const facts = [t("board.chips", { chips: d.starting_chips }),
    t("board.limits", { min: d.min_bet, max: d.max_bet })];
  if (d.rounds) facts.push(t("board.rounds", { n: d.rounds }));
  if (d.seconds) facts.push(t("board.minutes", { n: Math.round(d.seconds / 60) }));
  const parts = [el("h2", { text: d.name }),
    el("p", { class: "small", text: `${d.game} · ${t(`tour.status.${d.status}`)} · `
      + `${t("tour.entries", { n: d.entries, cap: d.capacity })} · `
      + t("tour.buyin", { buy: euros(d.buy_in), fee: euros(d.fee) }) }),
    el("p", { class: "board-facts", text: facts.join(" · ") })];
  if (d.seconds_left !== null && d.status === "running") {
    const left = el("p", { class: "board-time" });
    let seconds = d.seconds_left;
    const tick = () => { left.textContent = t("board.time", { time: clock(seconds) }); seconds -= 1; };
    tick();
    timer = setInterval(tick, 1000);
    parts.push(left);
  }
  parts.push(el("p", { class: "small", text: t("board.pool", { pool: euros(d.pool) }) }));
  if (d.payouts.length) {
    parts.push(el("ol", { class: "tour-payouts" }, d.payouts.map((p) =>
      el("li", { text: t("tour.place", { place: p.place, prize: euros(p.prize) }) }))));
  }
  return el("div", { class: "board-head" }, parts);
}

/** The player's entries: chips and rounds, the hand in play or the next round's bet. */
function mine(d, post) {
  return d.mine.map((entry) => {
    const parts = [el("p", { class: "board-entry", "data-entry": entry.entry,
      text: t("board.entry", { chips: entry.chips, rounds: entry.rounds }) })];
    if (entry.open) {
      parts.push(hand(entry.open.view));
      parts.push(el("div", { class: "board-decide" }, entry.open.actions.map((action) =>
        el("button", { type: "button", "data-action": action, text: action,
          onclick: () => post("decide", { entry: entry.entry, action }) }))));
    } else if (d.status === "running" && !entry.done && d.choices.length) {
      parts.push(betForm(d, entry, post));
    } else if (d.status === "running" && entry.done) {
      parts.push(el("p", { class: "small", text: entry.why_not || t("board.done") }));
    }
    return el("div", { class: "card board-mine" }, parts);
  });
}

/** A blackjack hand in play: the dealer's card and the player's hands. */
function hand(view) {
  const parts = [];
  if (view.dealer) {
    parts.push(el("div", { class: "board-dealer" },
      el("span", { class: "small", text: t("board.dealer") }),
      el("div", { class: "cards" }, view.dealer.map((c) => cardEl(c, { small: true })))));
  }
  for (const b of view.boxes ?? []) {
    for (const h of b.hands) {
      parts.push(el("div", { class: "cards board-hand" }, h.cards.map((c) => cardEl(c, { small: true })),
        el("span", { class: "small", text: ` ${h.total}` })));
    }
  }
  return el("div", { class: "board-table" }, parts);
}

/** The next round's bet: one of the game's bets and its chips (a slot: its levels). */
function betForm(d, entry, post) {
  const bet = el("select", { class: "board-bet", "aria-label": t("board.bet") },
    d.choices.map((c, i) => el("option", { value: String(i), text: c.bet })));
  const before = d.choices.findIndex((c) => c.bet === chosen.bet);
  if (before >= 0) bet.value = String(before);
  const amountBox = el("span", { class: "board-amount-box" });
  let amount = null;
  const pick = () => {
    const choice = d.choices[Number(bet.value)];
    const [low, high] = [choice.amounts[0], choice.amounts[choice.amounts.length - 1]];
    if (choice.amounts.length > 2) { // a slot's levels: one of them
      amount = el("select", { class: "board-amount", "aria-label": t("board.amount") },
        choice.amounts.map((a) => el("option", { value: String(a), text: String(a) })));
    } else {
      const top = Math.min(high, d.max_bet);
      amount = el("input", { type: "number", class: "board-amount", inputmode: "numeric",
        min: low, max: top, step: 1, value: Math.min(Math.max(d.min_bet, low), top),
        "aria-label": t("board.amount") });
    }
    const kept = [...(amount.options ?? [])].some((o) => o.value === chosen.amount);
    if (chosen.amount !== null && (amount.tagName === "INPUT" || kept)) amount.value = chosen.amount;
    amount.addEventListener("input", () => { chosen.amount = amount.value; });
    amount.addEventListener("change", () => { chosen.amount = amount.value; });
    amountBox.replaceChildren(amount);
  };
  bet.addEventListener("change", () => {
    chosen = { bet: d.choices[Number(bet.value)].bet, amount: null };
    pick();
  });
  pick();
  const play = el("button", { type: "button", class: "board-play", text: t("board.play"),
    onclick: () => post("play", { entry: entry.entry,
      bets: [`${d.choices[Number(bet.value)].bet} ${amount.value}`] }) });
  return el("div", { class: "board-form" }, bet, amountBox, play);
}

function leaderboard(d) {
  const finished = d.status === "finished";
  return el("div", { class: "board-leaderboard" },
    el("h3", { text: t("board.leaderboard") }),
    el("ol", { class: "board-places" }, d.leaderboard.map((row) => el("li", {
      "data-player": row.player, "data-chips": row.chips, "data-prize": row.prize,
      text: finished
        ? t("board.prize", { place: row.place, player: row.player, chips: row.chips,
          prize: euros(row.prize) })
        : t("board.row", { place: row.place, player: row.player, chips: row.chips,
          rounds: row.rounds }) }))));
}
