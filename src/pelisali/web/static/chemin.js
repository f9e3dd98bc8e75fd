// Baccara, chemin de fer in the browser (#/chemin/TABLE): players at a shared table, the
// bank passing among them. The page shows the seats (the banker marked, whose turn it
// is), the coup as this player may see it (the first two cards of a hand only to the
// seat that plays it), and the moves open to the player now: put up, carry or pass the
// bank; banco, a stake or pass; draw or stand when asked; and the decision clock (whose
// turn it is and the seconds left before the house acts for that seat). The server
// pushes the table over the page's socket (/ws/chemin/TABLE) as this player may see it
// after every move; the moves go over HTTP, each with a new idempotency key. If the
// socket drops, the page asks again every two seconds with the version it holds (the
// server answers "unchanged" while nothing moved) and reconnects. A refusal is shown in
// the player's language and changes nothing.

import {
  $, addStrings, api, ApiError, cardEl, el, euros, parseEuros, setBalance, setMessage,
  showView, state, t, uniqueKey,
} from "./core.js";

addStrings({
  fi: {
    "chemin.title": "Baccara (chemin de fer)",
    "chemin.note": "Pankki {min} – {max} · talo ottaa {pct} % pankin voitoista",
    "chemin.standard": "Vakiosäännöt: RAY:n sääntökirjassa, sellaisena kuin se on poimittu, ei ole tämän pelin tekstiä",
    "chemin.sit": "Istu pöytään", "chemin.leave": "Poistu pöydästä",
    "chemin.banker": "pankinpitäjä", "chemin.turn": "vuorossa",
    "chemin.player_hand": "Pelaaja", "chemin.banker_hand": "Pankki",
    "chemin.amount": "Summa (€)", "chemin.bank": "Aseta pankki", "chemin.carry": "Pidä pankki",
    "chemin.pass_bank": "Luovu pankista", "chemin.pass": "Ohita", "chemin.banco": "Banco",
    "chemin.bet": "Panosta", "chemin.draw": "Ota kortti", "chemin.stand": "Jää",
    "chemin.bank_is": "Pankki {amount} · katettu {covered}",
    "chemin.waiting": "Odotetaan: {who}", "chemin.alone": "Pankki odottaa toista pelaajaa.",
    "chemin.offered": "Pankki on sinun: aseta se tai luovu siitä.",
    "chemin.carry_or_pass": "Voitit pankin {amount}: pidä se tai luovu siitä.",
    "chemin.res.player": "Pelaaja voittaa", "chemin.res.banker": "Pankki voittaa",
    "chemin.res.tie": "Tasapeli: panokset palautetaan",
    "chemin.res.none": "Kukaan ei panostanut pankkia vastaan",
    "chemin.spot.bank": "Pankki", "chemin.spot.banco": "Banco", "chemin.spot.punt": "Panos",
    "chemin.yours": "{spot}: {stake} → {paid}", "chemin.coup": "Jako {round}",
    "chemin.bad_amount": "Anna summa euroina, esim. 5 tai 2.50.",
    "chemin.clock": "{who}: aikaa {seconds} s, sitten talo toimii",
  },
  sv: {
    "chemin.title": "Baccara (chemin de fer)",
    "chemin.note": "Bank {min} – {max} · huset tar {pct} % av bankens vinster",
    "chemin.standard": "Standardregler: RAY:s text för detta spel finns inte i regelboken som den extraherats",
    "chemin.sit": "Sätt dig vid bordet", "chemin.leave": "Lämna bordet",
    "chemin.banker": "bankir", "chemin.turn": "på tur",
    "chemin.player_hand": "Spelaren", "chemin.banker_hand": "Banken",
    "chemin.amount": "Belopp (€)", "chemin.bank": "Sätt upp banken", "chemin.carry": "Behåll banken",
    "chemin.pass_bank": "Lämna banken", "chemin.pass": "Avstå", "chemin.banco": "Banco",
    "chemin.bet": "Satsa", "chemin.draw": "Dra kort", "chemin.stand": "Stanna",
    "chemin.bank_is": "Bank {amount} · täckt {covered}",
    "chemin.waiting": "Väntar på {who}", "chemin.alone": "Banken väntar på en andra spelare.",
    "chemin.offered": "Banken är din: sätt upp den eller lämna den.",
    "chemin.carry_or_pass": "Du vann banken {amount}: behåll den eller lämna den.",
    "chemin.res.player": "Spelaren vinner", "chemin.res.banker": "Banken vinner",
    "chemin.res.tie": "Oavgjort: insatserna står kvar",
    "chemin.res.none": "Ingen satsade mot banken",
    "chemin.spot.bank": "Bank", "chemin.spot.banco": "Banco", "chemin.spot.punt": "Insats",
    "chemin.yours": "{spot}: {stake} → {paid}", "chemin.coup": "Giv {round}",
    "chemin.bad_amount": "Ange ett belopp i euro, t.ex. 5 eller 2.50.",
    "chemin.clock": "{who}: {seconds} s kvar, sedan agerar huset",
  },
  en: {
    "chemin.title": "Baccara (chemin de fer)",
    "chemin.note": "Bank {min} – {max} · the house takes {pct} % of the bank's wins",
    "chemin.standard": "Standard rules: RAY's text for this game is not in the rulebook as extracted",
    "chemin.sit": "Sit down", "chemin.leave": "Leave the table",
    "chemin.banker": "banker", "chemin.turn": "to move",
    "chemin.player_hand": "Player", "chemin.banker_hand": "Bank",
    "chemin.amount": "Amount (€)", "chemin.bank": "Put up the bank", "chemin.carry": "Carry the bank",
    "chemin.pass_bank": "Pass the bank", "chemin.pass": "Pass", "chemin.banco": "Banco",
    "chemin.bet": "Bet", "chemin.draw": "Draw", "chemin.stand": "Stand",
    "chemin.bank_is": "Bank {amount} · covered {covered}",
    "chemin.waiting": "Waiting for {who}", "chemin.alone": "The bank waits for a second player.",
    "chemin.offered": "The bank is yours: put it up or pass it.",
    "chemin.carry_or_pass": "You won the bank of {amount}: carry it or pass it.",
    "chemin.res.player": "The player wins", "chemin.res.banker": "The bank wins",
    "chemin.res.tie": "A tie: the stakes stay",
    "chemin.res.none": "Nobody bet against the bank",
    "chemin.spot.bank": "Bank", "chemin.spot.banco": "Banco", "chemin.spot.punt": "Stake",
    "chemin.yours": "{spot}: {stake} → {paid}", "chemin.coup": "Coup {round}",
    "chemin.bad_amount": "Give an amount in euros, e.g. 5 or 2.50.",
    "chemin.clock": "{who}: {seconds} s left, then the house acts",
  },
});

const POLL_MS = 2000;
const RECONNECT_MS = 3000;
const chemin = {
  name: null, view: null, busy: false, timer: null, socket: null, retry: null,
  dueAt: null, ticker: null,
};

/** Stop following the table (the player went elsewhere). */
export function closeChemin() {
  chemin.name = null; // first: the socket's close does not reconnect
  stopPoll();
  clearTimeout(chemin.retry);
  clearInterval(chemin.ticker);
  chemin.retry = null;
  chemin.ticker = null;
  if (chemin.socket) chemin.socket.close();
  chemin.socket = null;
}

function startPoll() {
  if (!chemin.timer) chemin.timer = setInterval(poll, POLL_MS);
  $("#chemin-view").dataset.link = "poll";
}

function stopPoll() {
  clearInterval(chemin.timer);
  chemin.timer = null;
}

/** Follow the table over its socket; poll while it is down, and reconnect. */
function connect(name) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/chemin/${encodeURIComponent(name)}`);
  chemin.socket = socket;
  socket.onopen = () => {
    if (chemin.socket !== socket) return;
    stopPoll();
    $("#chemin-view").dataset.link = "socket";
  };
  socket.onmessage = (event) => {
    if (chemin.socket !== socket || chemin.name !== name) return;
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (message.type === "chemin" && message.view) {
      chemin.view = message.view;
      setBalance(message.view.balance);
      render();
    } else if (message.type === "notice" && message.code === "bus-down") {
      startPoll(); // the pushes are delayed: ask meanwhile
    }
  };
  socket.onclose = () => {
    if (chemin.socket !== socket) return;
    chemin.socket = null;
    if (chemin.name !== name) return;
    startPoll();
    chemin.retry = setTimeout(() => { if (chemin.name === name) connect(name); }, RECONNECT_MS);
  };
}

export async function openChemin(name) {
  closeChemin();
  const view = await api(`/api/chemin/${encodeURIComponent(name)}`);
  if (state.route.split("/")[1] !== name) return; // the player went on meanwhile
  chemin.name = name;
  chemin.view = view;
  chemin.busy = false;
  render();
  setMessage($("#chemin-message"), "");
  showView("chemin");
  startPoll(); // until the socket is open
  chemin.ticker = setInterval(renderClock, 250);
  connect(name);
}

export function rerenderChemin() {
  if (chemin.view) render();
}

async function poll() {
  const name = chemin.name;
  if (!name || chemin.busy || document.hidden) return;
  try {
    const found = await api(`/api/chemin/${encodeURIComponent(name)}`
      + `?since=${encodeURIComponent(chemin.view.version)}`);
    if (chemin.name !== name || chemin.busy || found.unchanged) return;
    chemin.view = found;
    setBalance(found.balance);
    render();
  } catch {
    // the next poll asks again
  }
}

/** The decision clock: whose turn it is and the seconds left on the server's count. */
function renderClock() {
  const clock = $("#chemin-clock");
  if (!clock) return;
  const view = chemin.view;
  if (!view || chemin.dueAt === null || !view.to_move) {
    clock.hidden = true;
    return;
  }
  const left = Math.max(0, Math.ceil((chemin.dueAt - Date.now()) / 1000));
  clock.hidden = false;
  clock.dataset.seconds = String(left);
  clock.textContent = t("chemin.clock", { who: view.to_move, seconds: left });
}

function render() {
  const view = chemin.view;
  chemin.dueAt = view.seconds_left === null || view.seconds_left === undefined
    ? null : Date.now() + view.seconds_left * 1000;
  const box = $("#chemin-view");
  box.dataset.deadline = view.deadline ?? "";
  box.dataset.table = view.table;
  box.dataset.status = view.status;
  box.dataset.round = String(view.round_id ?? 0);
  box.dataset.toMove = view.to_move ?? "";
  box.dataset.seated = String(view.seats.includes(state.me?.name));
  $("#chemin-title").textContent = `${t("chemin.title")} · ${view.table}`;
  $("#chemin-note").textContent = `${t("chemin.standard")} · ` + t("chemin.note", {
    min: euros(view.min), max: euros(view.max), pct: view.commission_percent });
  $("#chemin-seats").replaceChildren(el("ul", { class: "chemin-seat-list" }, view.seats.map((name) =>
    el("li", { "data-seat": name, class: name === view.to_move ? "to-move" : "" },
      el("strong", { text: name }),
      name === view.banker ? el("span", { class: "badge", text: t("chemin.banker") }) : null,
      name === view.to_move ? el("span", { class: "small", text: ` · ${t("chemin.turn")}` }) : null))));
  renderCoup();
  renderControls();
}

function hand(coup, side) {
  const cards = (coup.cards ?? []).filter(([s]) => s === side).map(([, card]) => card);
  const points = coup[`${side}_points`];
  const label = t(side === "player" ? "chemin.player_hand" : "chemin.banker_hand");
  return el("div", { class: `banked-hand chemin-${side}`, "data-points": points ?? "" },
    el("span", { class: "small", text: points === null || points === undefined ? label : `${label}: ${points}` }),
    el("div", { class: "cards" }, cards.map((card) => cardEl(card))));
}

function renderCoup() {
  const view = chemin.view;
  const coup = view.coup;
  const table = $("#chemin-table");
  if (!coup) {
    table.replaceChildren();
    return;
  }
  const parts = [el("p", { class: "small", text: `${t("chemin.coup", { round: view.round_id })} · `
    + t("chemin.bank_is", { amount: euros(coup.bank), covered: euros(coup.covered) }) })];
  if (coup.cards?.length) parts.push(hand(coup, "player"), hand(coup, "banker"));
  const stakes = (coup.stakes ?? []).filter((s) => s.spot !== "bank");
  if (stakes.length) {
    parts.push(el("ul", { class: "chemin-stakes small" }, stakes.map((s) =>
      el("li", { "data-seat": view.seats[s.seat] ?? "", "data-stake": s.stake,
        text: `${view.seats[s.seat] ?? s.seat}: ${t(`chemin.spot.${s.spot}`)} ${euros(s.stake)}` }))));
  }
  if (view.status !== "playing" && view.round_id) {
    const result = coup.result ?? "none";
    parts.push(el("p", { class: "chemin-result", role: "status", "data-result": result,
      text: t(`chemin.res.${result}`) }));
    parts.push(el("ul", { class: "banked-settlements" }, (coup.settlements ?? []).map((s) =>
      el("li", { "data-bet": s.spot, "data-paid": s.paid, text: t("chemin.yours", {
        spot: t(`chemin.spot.${s.spot}`), stake: euros(s.stake), paid: euros(s.paid) }) }))));
  }
  table.replaceChildren(...parts);
}

function amountInput(value) {
  return el("label", { class: "slot-choice" }, el("span", { text: t("chemin.amount") }),
    el("input", { id: "chemin-amount", type: "text", inputmode: "decimal", value, autocomplete: "off" }));
}

const plain = (cents) => euros(cents).replace(/\s*€$/, "");

function renderControls() {
  const view = chemin.view;
  const box = $("#chemin-controls");
  const me = state.me?.name;
  const seated = view.seats.includes(me);
  const parts = [];
  const amounts = (word) => view.actions.filter((a) => a.startsWith(`${word} `))
    .map((a) => Number(a.split(" ")[1]));
  const between = view.status !== "playing";
  if (!seated) {
    parts.push(el("button", { type: "button", class: "primary", id: "chemin-sit",
      text: t("chemin.sit"), onclick: () => seat("sit") }));
  } else if (!view.actions.length) {
    parts.push(el("p", { class: "small chemin-waiting", text: view.to_move
      ? t("chemin.waiting", { who: view.to_move }) : t("chemin.alone") }));
  } else if (between) {
    parts.push(el("p", { class: "small", text: view.bank
      ? t("chemin.carry_or_pass", { amount: euros(view.bank) }) : t("chemin.offered") }));
  }
  for (const word of ["bank", "bet"]) {
    const offered = amounts(word);
    if (!offered.length) continue;
    parts.push(amountInput(plain(Math.min(...offered))));
    parts.push(el("button", { type: "button", class: "primary", "data-action": word,
      text: t(`chemin.${word}`), onclick: () => {
        const cents = parseEuros($("#chemin-amount").value);
        if (cents === null || cents <= 0) return setMessage($("#chemin-message"), t("chemin.bad_amount"));
        return move(word, cents);
      } }));
  }
  for (const word of ["carry", "banco", "draw", "stand", "pass"]) {
    if (!view.actions.includes(word)) continue;
    const label = word === "pass" && between ? "chemin.pass_bank" : `chemin.${word}`;
    parts.push(el("button", { type: "button", class: word === "banco" || word === "carry" ? "primary" : "",
      "data-action": word, text: t(label), onclick: () => move(word) }));
  }
  if (seated && between) {
    parts.push(el("button", { type: "button", id: "chemin-leave", text: t("chemin.leave"),
      onclick: () => seat("leave") }));
  }
  box.replaceChildren(el("p", { id: "chemin-clock", class: "small chemin-clock", role: "timer",
    "aria-live": "off", hidden: true }), el("div", { class: "banked-decide" }, parts));
  renderClock();
}

async function send(path, body) {
  if (chemin.busy) return;
  chemin.busy = true;
  const message = $("#chemin-message");
  setMessage(message, "");
  try {
    const view = await api(`/api/chemin/${encodeURIComponent(chemin.name)}/${path}`,
      { method: "POST", body: { ...body, key: uniqueKey() } });
    chemin.view = view;
    setBalance(view.balance);
    render();
  } catch (error) {
    if (error instanceof ApiError) setMessage(message, error.detail);
    else throw error;
  } finally {
    chemin.busy = false;
  }
}

const move = (action, amount) => send("move", amount === undefined ? { action } : { action, amount });
const seat = (what) => send(what, {});

/** The lobby's card of each chemin de fer table: its seats and a Join link. */
export function cheminCards(list) {
  return list.map((table) => el("article", { class: "game-card chemin-card", "data-table": table.table },
    el("div", { class: "game-art", "aria-hidden": "true", text: "♥" }),
    el("h3", { text: `${t("chemin.title")} · ${table.table}` }),
    el("p", { class: "small", text: table.seats.join(", ") || "–" }),
    el("a", { class: "button primary game-open", href: `#/chemin/${encodeURIComponent(table.table)}`,
      text: t("lobby.join") })));
}

/** The chemin de fer tables (empty when the server has none or cannot say). */
export async function cheminList() {
  try {
    return (await api("/api/chemin")).tables ?? [];
  } catch {
    return [];
  }
}
