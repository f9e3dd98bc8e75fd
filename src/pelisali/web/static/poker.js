// A poker table over a websocket: an oval table with its seats, your own two cards face
// up and everyone else's face down (the server never sends them before the showdown),
// the board, the pot and the bets, the action timer as a bar, and fold / check / call /
// raise with a slider between the smallest and the largest raise.

import {
  $, $$, ApiError, addStrings, api, cardEl, el, euros, hooks, parseEuros, refreshMe,
  setMessage, showView, state, t, uniqueKey,
} from "./core.js";
import { chipsFor } from "./table.js";

addStrings({
  fi: {
    "poker.bus-down": "Pöydän tapahtumat viivästyvät.", "poker.bus-back": "Pöydän tapahtumat kulkevat taas.", "poker.resumed": "Pöytä siirtyi toiselle palvelimelle.", "poker.void": "Pöytä siirtyi toiselle palvelimelle: keskeytynyt käsi on mitätön ja pinot ovat kuten sen alussa.",
    "game.poker": "Pokeri", "poker.title": "Pokeripöytä {name}",
    "poker.desc": "Texas hold'em, no limit · blindit {sb}/{bb} · sisäänosto vähintään {min}",
    "poker.blinds": "Blindit {sb} / {bb}", "poker.pot": "Potti", "poker.empty": "Vapaa paikka",
    "poker.buyin": "Sisäänosto (€)", "poker.sit": "Istu pöytään", "poker.sitout": "Istu sivuun",
    "poker.sitin": "Palaa peliin", "poker.leave": "Poistu pöydästä", "poker.fold": "Luovuta", "poker.foldfree": "Luovuta, vaikka voisit sanoa sökö? Napauta uudelleen",
    "poker.check": "Sökö", "poker.call": "Maksa {amount}", "poker.raise": "Korota: {amount}",
    "poker.bet": "Panosta: {amount}", "poker.allin": "All-in", "poker.min": "Min",
    "poker.halfpot": "½ potti", "poker.potsize": "Potti",
    "poker.folded": "Luovutti", "poker.out": "Sivussa", "poker.button": "Jakaja",
    "poker.toact": "Vuorossa: {name}", "poker.yourturn": "Sinun vuorosi",
    "poker.waiting": "Odotetaan pelaajia – käsi alkaa, kun kaksi istuu pöydässä.",
    "poker.seated": "Istut paikalla {seat}.", "poker.cashedout": "Nostit pöydästä {amount}.",
    "poker.leaving": "Poistut, kun tämä käsi päättyy.", "poker.refused": "Ei onnistu: {reason}",
    "poker.won": "{name} voitti {amount}", "poker.handover": "Käsi #{n} päättyi",
    "poker.rake": "Rake {amount}", "poker.connecting": "Yhdistetään pöytään…",
    "poker.reconnecting": "Yhteys katkesi – yhdistetään uudelleen…",
    "poker.notable": "Pokeripöytää {name} ei ole.", "poker.you": "sinä",
    "poker.chips": "Pelimerkit", "poker.seconds": "{s} s",
  },
  sv: {
    "poker.bus-down": "Bordets händelser är försenade.", "poker.bus-back": "Bordets händelser kommer igen.", "poker.resumed": "Bordet flyttade till en annan server.", "poker.void": "Bordet flyttade till en annan server: den avbrutna given är ogiltig och stackarna är som vid dess början.",
    "game.poker": "Poker", "poker.title": "Pokerbord {name}",
    "poker.desc": "Texas hold'em, no limit · blinds {sb}/{bb} · inköp minst {min}",
    "poker.blinds": "Blinds {sb} / {bb}", "poker.pot": "Pott", "poker.empty": "Ledig plats",
    "poker.buyin": "Inköp (€)", "poker.sit": "Sätt dig", "poker.sitout": "Sitt över",
    "poker.sitin": "Spela igen", "poker.leave": "Lämna bordet", "poker.fold": "Lägg", "poker.foldfree": "Lägga trots att du kan checka? Tryck igen",
    "poker.check": "Passa", "poker.call": "Syna {amount}", "poker.raise": "Höj: {amount}",
    "poker.bet": "Satsa: {amount}", "poker.allin": "All-in", "poker.min": "Min",
    "poker.halfpot": "½ pott", "poker.potsize": "Pott",
    "poker.folded": "Lade sig", "poker.out": "Sitter över", "poker.button": "Giv",
    "poker.toact": "På tur: {name}", "poker.yourturn": "Din tur",
    "poker.waiting": "Väntar på spelare – given börjar när två sitter vid bordet.",
    "poker.seated": "Du sitter på plats {seat}.", "poker.cashedout": "Du tog ut {amount} från bordet.",
    "poker.leaving": "Du lämnar när given är slut.", "poker.refused": "Går inte: {reason}",
    "poker.won": "{name} vann {amount}", "poker.handover": "Giv #{n} är slut",
    "poker.rake": "Rake {amount}", "poker.connecting": "Ansluter till bordet…",
    "poker.reconnecting": "Förbindelsen bröts – ansluter igen…",
    "poker.notable": "Det finns inget pokerbord {name}.", "poker.you": "du",
    "poker.chips": "Marker", "poker.seconds": "{s} s",
  },
  en: {
    "poker.bus-down": "The table's events are delayed.", "poker.bus-back": "The table's events are back.", "poker.resumed": "The table moved to another server.", "poker.void": "The table moved to another server: the hand cut off is void and every stack is as at its start.",
    "game.poker": "Poker", "poker.title": "Poker table {name}",
    "poker.desc": "Texas hold'em, no limit · blinds {sb}/{bb} · buy-in at least {min}",
    "poker.blinds": "Blinds {sb} / {bb}", "poker.pot": "Pot", "poker.empty": "Empty seat",
    "poker.buyin": "Buy-in (€)", "poker.sit": "Take a seat", "poker.sitout": "Sit out",
    "poker.sitin": "Sit in", "poker.leave": "Leave the table", "poker.fold": "Fold", "poker.foldfree": "Fold when you could check? Tap again",
    "poker.check": "Check", "poker.call": "Call {amount}", "poker.raise": "Raise to {amount}",
    "poker.bet": "Bet {amount}", "poker.allin": "All-in", "poker.min": "Min",
    "poker.halfpot": "½ pot", "poker.potsize": "Pot",
    "poker.folded": "Folded", "poker.out": "Sitting out", "poker.button": "Dealer",
    "poker.toact": "To act: {name}", "poker.yourturn": "Your turn",
    "poker.waiting": "Waiting for players – a hand starts when two are seated.",
    "poker.seated": "You sit in seat {seat}.", "poker.cashedout": "You took {amount} off the table.",
    "poker.leaving": "You leave when this hand ends.", "poker.refused": "Not possible: {reason}",
    "poker.won": "{name} won {amount}", "poker.handover": "Hand #{n} is over",
    "poker.rake": "Rake {amount}", "poker.connecting": "Connecting to the table…",
    "poker.reconnecting": "Connection lost – reconnecting…",
    "poker.notable": "There is no poker table {name}.", "poker.you": "you",
    "poker.chips": "Chips", "poker.seconds": "{s} s",
  },
});

const poker = {
  name: null,
  socket: null,
  connected: false,
  closed: true,
  retry: 0,
  reconnects: 0,
  retryTimer: null,
  view: null, // the last view
  lastHand: null, // the last hand seen (kept for the showdown after it is recorded)
  result: null, // the last hand-result, until the next hand starts
  resultSeq: 0,
  results: 0,
  startChips: {}, // everyone's chips as the hand began
  turnKey: "",
  turnTotal: 0,
  raiseTo: 0,
  sent: false, // an action sent and not yet answered
  clock: null,
};

export async function openPoker(name) {
  if (poker.name !== name) {
    closePoker();
    Object.assign(poker, {
      name, view: null, lastHand: null, result: null, resultSeq: 0, results: 0,
      startChips: {}, reconnects: 0, retry: 0,
    });
  }
  state.lobby = await api("/api/lobby");
  const entry = state.lobby.tables.find((tb) => tb.name === name && tb.game === "poker");
  if (!entry) throw new ApiError(404, t("poker.notable", { name }));
  poker.entry = entry;
  setMessage($("#poker-message"), "");
  showView("poker");
  if (!poker.socket) {
    poker.closed = false;
    connect();
  }
  render();
}

export function closePoker() {
  poker.closed = true;
  clearTimeout(poker.retryTimer);
  const socket = poker.socket;
  poker.socket = null;
  poker.connected = false;
  if (socket) socket.close(1000, "left the table");
}

export function rerenderPoker() {
  if (poker.name) render();
}

function send(message) {
  if (poker.socket && !poker.connected && poker.socket.readyState === WebSocket.CONNECTING) {
    poker.unsent.push(message);  // the table is still being reached: sent once it opens
    return true;
  }
  if (!poker.socket || !poker.connected) {
    setMessage($("#poker-message"), t("poker.reconnecting"));
    return false;
  }
  poker.socket.send(JSON.stringify(message));
  return true;
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/poker/${encodeURIComponent(poker.name)}`);
  poker.socket = socket;
  poker.unsent = [];
  poker.connected = false;
  socket.addEventListener("open", () => {
    if (poker.socket !== socket) return;
    poker.connected = true;
    poker.retry = 0;
    if (poker.resultSeq > 0) send({ type: "hello", since: poker.resultSeq });
    for (const message of poker.unsent.splice(0)) send(message);
    render();
  });
  socket.addEventListener("message", (event) => {
    if (poker.socket !== socket) return;
    let message;
    try { message = JSON.parse(event.data); } catch { return; }
    onMessage(message);
  });
  socket.addEventListener("close", (event) => {
    if (poker.socket !== socket) return;
    poker.socket = null;
    poker.connected = false;
    if (poker.closed) return;
    const said = hooks.closeText?.(event.code, event.reason);
    if (said) setMessage($("#poker-message"), t("poker.refused", { reason: said }));
    if (event.code === 4403) {
      poker.closed = true;
      render();
      return;
    }
    const delay = Math.min(5000, 400 * 2 ** poker.retry);
    poker.retry += 1;
    poker.reconnects += 1;
    poker.retryTimer = setTimeout(() => { if (!poker.closed) connect(); }, delay);
    render();
  });
}

function onMessage(message) {
  const note = $("#poker-message");
  switch (message.type) {
    case "view": {
      const hand = message.hand;
      if (hand && !hand.finished && (!poker.lastHand || poker.handOver)) {
        // A new hand: the last one's result goes, everyone's chips as it starts.
        poker.handOver = false;
        poker.result = null;
        poker.raiseTo = 0;
        poker.startChips = Object.fromEntries(message.seats.map((s) => [s.player, s.chips]));
      }
      if (hand) poker.lastHand = hand;
      poker.view = message;
      poker.sent = false;
      break;
    }
    case "hand-result":
      if (message.seq <= poker.resultSeq) return;
      poker.resultSeq = message.seq;
      poker.result = message;
      poker.results += 1;
      poker.handOver = true;
      break;
    case "seated":
      setMessage(note, t("poker.seated", { seat: message.seat + 1 }), "ok");
      refreshMe().catch(() => {});
      break;
    case "cashed-out":
      setMessage(note, t("poker.cashedout", { amount: euros(message.amount) }), "ok");
      refreshMe().catch(() => {});
      break;
    case "leaving":
      setMessage(note, t("poker.leaving"), "info");
      break;
    case "acted": case "sitting-out": case "sitting-in":
      setMessage(note, "");
      break;
    case "notice":
      setMessage(note, t(`poker.${message.code}`), "info");
      break;
    case "resumed":
      setMessage(note, t(message.hand_void ? "poker.void" : "poker.resumed"), "info");
      break;
    case "refused": case "error":
      poker.sent = false;
      setMessage(note, t("poker.refused", {
        reason: hooks.errorText?.(400, message) ?? message.reason }));
      break;
    default:
      break;
  }
  render();
}

// ---------------------------------------------------------------------------------------
// Drawing the table

function money(cents) {
  return euros(cents);
}

function describe(view, entry) {
  const text = view?.game ?? "";
  const blinds = /blinds (\d+\.\d\d)\/(\d+\.\d\d)/.exec(text);
  const buyIn = /buy-in (\d+\.\d\d)/.exec(text);
  if (!blinds) return text || (entry ? t("poker.blinds", { sb: money(entry.min), bb: money(entry.max) }) : "");
  return t("poker.desc", { sb: blinds[1], bb: `${blinds[2]} €`, min: buyIn ? `${buyIn[1]} €` : "" });
}

function minBuyIn(view) {
  const found = /buy-in (\d+\.\d\d)/.exec(view?.game ?? "");
  return found ? found[1] : "20";
}

/** Slot k of n round the oval, k = 0 at the bottom centre, clockwise. */
function slot(k, n) {
  const angle = Math.PI / 2 + (2 * Math.PI * k) / n;
  return { x: 50 + 45 * Math.cos(angle), y: 50 + 41 * Math.sin(angle) };
}

function betChips(amount) {
  const chips = chipsFor(amount).slice(-5);
  return el("span", { class: "p-bet-chips" },
    el("span", { class: "stack" }, chips.map((value, i) => el("span", {
      class: `stack-chip chip-${value}`, style: `--i:${i}`,
    }))),
    el("span", { class: "p-bet-amount", text: money(amount) }));
}

function render() {
  if (!poker.name) return;
  const view = poker.view;
  const me = state.me?.name;
  $("#poker-title").textContent = t("poker.title", { name: poker.name });
  $("#poker-game").textContent = describe(view, poker.entry);
  const live = view?.hand ?? null;
  const hand = live ?? (poker.result ? poker.lastHand : null);
  const players = hand?.players ?? [];
  const seats = view?.seats ?? [];
  const mine = seats.find((s) => s.player === me);
  const tableNode = $("#poker-table");
  tableNode.dataset.seq = String(view?.seq ?? 0);
  tableNode.dataset.toAct = view?.to_act ?? "";
  tableNode.dataset.hand = live && !live.finished ? "on" : "off";
  tableNode.dataset.results = String(poker.results);
  tableNode.dataset.connected = String(poker.connected);
  tableNode.dataset.reconnects = String(poker.reconnects);
  tableNode.classList.toggle("over", !live && Boolean(poker.result));

  // The seats, yours at the bottom.
  const count = Math.min(10, Math.max(6, ...seats.map((s) => s.seat + 1)));
  const base = mine ? mine.seat : 0;
  const shownByName = poker.result?.shown ?? {};
  const nodes = [];
  for (let seat = 0; seat < count; seat += 1) {
    const at = slot((seat - base + count) % count, count);
    const taken = seats.find((s) => s.seat === seat);
    const style = `left:${at.x.toFixed(2)}%;top:${at.y.toFixed(2)}%`;
    if (!taken) {
      nodes.push(el("div", { class: "p-seat empty", "data-seat": String(seat), style },
        el("div", { class: "p-plate" }, el("span", { class: "p-name", text: t("poker.empty") }))));
      continue;
    }
    const index = players.indexOf(taken.player);
    const inHand = index >= 0;
    const folded = inHand && hand.folded?.[index];
    const isMe = taken.player === me;
    const toAct = live && !live.finished && view.to_act === taken.player;
    let cards = [];
    if (inHand && !folded) {
      const shown = hand.shown?.[String(index)] ?? shownByName[taken.player];
      if (isMe && hand.hole?.length) cards = hand.hole.map((c) => cardEl(c));
      else if (shown?.length) cards = shown.map((c) => cardEl(c));
      else cards = Array.from({ length: Math.max(2, hand.hole?.length ?? 2) }, () => cardEl(null));
    }
    const stack = live && inHand ? live.stacks[index] : taken.chips;
    const bet = live && inHand ? live.bets[index] : 0;
    const won = poker.result && !live ? (poker.result.chips?.[taken.player] ?? taken.chips)
      - (poker.startChips[taken.player] ?? taken.chips) : 0;
    const classes = ["p-seat", isMe ? "me" : "", toAct ? "to-act" : "", folded ? "folded" : "",
      taken.sitting_out ? "out" : "", won > 0 ? "winner" : ""].filter(Boolean).join(" ");
    // Toward the centre: the bet and the dealer button sit between the seat and the pot.
    const inward = `left:${(50 + (at.x - 50) * 0.62).toFixed(2)}%;top:${(50 + (at.y - 50) * 0.55).toFixed(2)}%`;
    nodes.push(el("div", { class: classes, "data-seat": String(seat), "data-player": taken.player, style },
      el("div", { class: "p-cards" }, cards),
      el("div", { class: "p-plate" },
        el("span", { class: "p-name", text: isMe ? `${taken.player} (${t("poker.you")})` : taken.player }),
        el("span", { class: "p-chips", "data-cents": String(stack), text: money(stack) }),
        folded ? el("span", { class: "p-status", text: t("poker.folded") })
          : taken.sitting_out ? el("span", { class: "p-status", text: t("poker.out") }) : null,
        won ? el("span", { class: `p-won ${won > 0 ? "up" : "down"}`, text: `${won > 0 ? "+" : ""}${money(won)}` }) : null),
      toAct ? el("div", { class: "p-timer" }, el("span", { class: "p-timer-bar" })) : null));
    if (bet > 0) {
      nodes.push(el("div", { class: "p-bet", "data-player": taken.player, style: inward }, betChips(bet)));
    }
    if (hand && inHand && hand.button === index) {
      const spot = `left:${(at.x + 9).toFixed(2)}%;top:${(50 + (at.y - 50) * 0.78).toFixed(2)}%`;
      nodes.push(el("div", { class: "p-dealer", style: spot, title: t("poker.button"), text: "D" }));
    }
  }

  // The centre: the board and the pot (or the hand's result).
  const board = hand?.board ?? [];
  const center = el("div", { class: "p-center" },
    el("div", { class: "p-board", id: "poker-board" },
      Array.from({ length: 5 }, (_, i) => (board[i] ? cardEl(board[i]) : el("span", { class: "pcard slot" })))),
    live ? el("div", { class: "p-pot", id: "poker-pot", "data-cents": String(live.pot) },
      el("span", { text: t("poker.pot") }), el("strong", { text: money(live.pot + live.bets.reduce((a, b) => a + b, 0)) }))
      : null,
    !live && poker.result ? resultBanner(poker.result) : null,
    !live && !poker.result ? el("div", { class: "p-waiting", text: t("poker.waiting") }) : null);
  $("#poker-seats").replaceChildren(center, ...nodes);
  startTimer(view);
  renderControls(view, mine);
  $("#poker-conn").textContent = poker.connected ? "" : poker.reconnects ? t("poker.reconnecting") : t("poker.connecting");
}

function resultBanner(result) {
  const lines = Object.entries(result.chips ?? {}).map(([name, chips]) => {
    const diff = chips - (poker.startChips[name] ?? chips);
    return { name, diff };
  }).filter((line) => line.diff > 0);
  return el("div", { class: "p-result", id: "poker-result", "data-round": String(result.round_id) },
    el("div", { class: "p-result-title", text: t("poker.handover", { n: result.round_id }) }),
    lines.map((line) => el("div", { class: "p-result-line", "data-player": line.name,
      text: t("poker.won", { name: line.name, amount: money(line.diff) }) })),
    // The hands shown, named in the page's language.
    Object.entries(result.hands ?? {}).map(([name, named]) => el("div", {
      class: "p-hand-name", "data-player": name, text: `${name}: ${named[state.lang] ?? named.en}` })),
    result.rake ? el("div", { class: "small", text: t("poker.rake", { amount: money(result.rake) }) }) : null);
}

function startTimer(view) {
  const bar = $("#poker-seats .p-timer-bar");
  if (!bar || !view?.to_act) return;
  const key = `${view.to_act}:${view.hand?.actions?.length ?? 0}`;
  if (key !== poker.turnKey) {
    poker.turnKey = key;
    poker.turnTotal = view.seconds_left;
  }
  const total = Math.max(poker.turnTotal, view.seconds_left, 0.001);
  const left = Math.max(0, view.seconds_left);
  bar.style.transition = "none";
  bar.style.width = `${(100 * left) / total}%`;
  bar.getBoundingClientRect();
  bar.style.transition = `width ${left}s linear`;
  bar.style.width = "0%";
}

function renderControls(view, mine) {
  const legal = view?.legal;
  const hand = view?.hand;
  $("#poker-sit-form").hidden = Boolean(mine);
  $("#poker-seat-controls").hidden = !mine;
  if (!mine && !$("#poker-buyin").value) $("#poker-buyin").value = minBuyIn(view);
  if (mine) {
    const out = $("#poker-sitout");
    out.textContent = mine.sitting_out ? t("poker.sitin") : t("poker.sitout");
    out.dataset.out = String(mine.sitting_out);
  }
  const actions = $("#poker-actions");
  actions.hidden = !legal;
  $("#poker-turn").textContent = legal ? t("poker.yourturn")
    : view?.to_act ? t("poker.toact", { name: view.to_act }) : "";
  if (!legal) return;
  const fold = $("#poker-fold");
  fold.hidden = !legal.fold;
  // A table may take a fold when a check is free (RULINGS): the first tap asks again.
  fold.dataset.free = String(Boolean(legal.fold && legal.check));
  fold.dataset.asked = "false";
  fold.textContent = t("poker.fold");
  const checkCall = $("#poker-check-call");
  checkCall.dataset.action = legal.check ? "check" : "call";
  checkCall.textContent = legal.check ? t("poker.check") : t("poker.call", { amount: money(legal.call) });
  const canRaise = legal.raise_min !== null && legal.raise_max !== null && legal.raise_min !== undefined;
  $("#poker-raise-box").hidden = !canRaise;
  for (const button of $$("#poker-actions button")) button.disabled = poker.sent;
  if (!canRaise) return;
  const range = $("#poker-raise-range");
  range.setAttribute("aria-label", t("poker.raise", { amount: "" }).replace(/[:\s]+$/, ""));
  range.min = String(legal.raise_min);
  range.max = String(legal.raise_max);
  range.step = "1";
  const value = Math.min(legal.raise_max, Math.max(legal.raise_min, poker.raiseTo || legal.raise_min));
  range.value = String(value);
  poker.raiseTo = value;
  const betting = Math.max(0, ...(hand?.bets ?? [0])) === 0;
  $("#poker-raise").dataset.action = betting ? "bet" : "raise";
  showRaise();
}

function showRaise() {
  const value = Number($("#poker-raise-range").value);
  poker.raiseTo = value;
  const betting = $("#poker-raise").dataset.action === "bet";
  $("#poker-raise").textContent = t(betting ? "poker.bet" : "poker.raise", { amount: money(value) });
  $("#poker-raise-amount").textContent = money(value);
}

function presetRaise(kind) {
  const legal = poker.view?.legal;
  const hand = poker.view?.hand;
  if (!legal || legal.raise_min === null) return;
  const bets = hand?.bets ?? [];
  const pot = (hand?.pot ?? 0) + bets.reduce((a, b) => a + b, 0);
  const facing = Math.max(0, ...bets);
  const wanted = { min: legal.raise_min, max: legal.raise_max,
    half: facing + Math.round((pot + (legal.call || 0)) / 2),
    pot: facing + pot + (legal.call || 0) }[kind];
  $("#poker-raise-range").value = String(Math.min(legal.raise_max, Math.max(legal.raise_min, wanted)));
  showRaise();
}

function act(action, amount) {
  if (poker.sent) return;
  const message = { type: "act", action };
  if (amount !== undefined) message.amount = amount;
  if (send(message)) {
    poker.sent = true;
    poker.raiseTo = 0;
    for (const button of $$("#poker-actions button")) button.disabled = true;
  }
}

export function wirePoker() {
  $("#poker-sit-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const cents = parseEuros($("#poker-buyin").value);
    if (cents === null) {
      setMessage($("#poker-message"), t("wallet.bad"));
      return;
    }
    send({ type: "sit", amount: cents, key: uniqueKey() });
  });
  $("#poker-sitout").addEventListener("click", (event) => {
    send({ type: event.currentTarget.dataset.out === "true" ? "sit-in" : "sit-out" });
  });
  $("#poker-leave").addEventListener("click", () => send({ type: "leave", key: uniqueKey() }));
  $("#poker-fold").addEventListener("click", (event) => {
    const fold = event.currentTarget;
    if (fold.dataset.free === "true" && fold.dataset.asked !== "true") {
      fold.dataset.asked = "true";
      fold.textContent = t("poker.foldfree");
      return;
    }
    act("fold");
  });
  $("#poker-check-call").addEventListener("click", (event) => act(event.currentTarget.dataset.action));
  $("#poker-raise").addEventListener("click", (event) => {
    act(event.currentTarget.dataset.action, Number($("#poker-raise-range").value));
  });
  $("#poker-raise-range").addEventListener("input", showRaise);
  for (const button of $$("#poker-presets [data-preset]")) {
    button.addEventListener("click", () => presetRaise(button.dataset.preset));
  }
}

window.pelisaliPoker = { drop: () => poker.socket?.close(4000, "dropped") };
