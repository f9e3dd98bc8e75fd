// A live roulette table: one wheel for everyone at the table over a websocket. The
// betting window with its countdown, "no more bets", the result and the player's own
// settlement; bets go over the socket; a dropped connection comes back by itself and
// asks for every event it missed (hello since the last sequence number).

import {
  $, ApiError, addStrings, api, el, euros, hooks, refreshMe, setBalance, setMessage, state, t,
  uniqueKey,
} from "./core.js";
import {
  clearMarks, markWinner, openTable, pocketOf, pushRecent, renderChips, renderSettlements,
  renderStacks, settleWheel, showPocket, spec, table,
} from "./table.js";

addStrings({
  fi: {
    "live.bus-down": "Pöydän tapahtumat viivästyvät – tehdyt panokset ovat voimassa.", "live.bus-back": "Pöydän tapahtumat kulkevat taas.", "live.resumed": "Pöytä siirtyi toiselle palvelimelle; panokset ovat voimassa.",
    "live.bet": "Lyö vetoa", "live.betting": "Panokset auki", "live.closed": "Ei enää panoksia",
    "live.dropped": "lähettämättömät pelimerkit ({amount}) poistettiin pöydältä",
    "live.result": "Tulos", "live.waiting": "Odotetaan seuraavaa kierrosta…",
    "live.connecting": "Yhdistetään pöytään…", "live.reconnecting": "Yhteys katkesi – yhdistetään uudelleen…",
    "live.connected": "Live", "live.accepted": "Panokset hyväksytty: {amount}",
    "live.refused": "Panos hylätty: {reason}", "live.mine": "Panoksesi tällä kierroksella: {amount}",
    "live.notable": "Live-pöytää {name} ei ole.", "live.place": "Tee panoksesi",
    "live.seconds": "{s} s", "live.round": "Kierros #{n}", "live.gone": "Pöytä sulki yhteyden: {reason}",
    "colour.title": "Värimerkit", "colour.buy": "Osta värimerkit", "colour.unit": "Merkin arvo (€)",
    "colour.count": "Merkkejä", "colour.exchange": "Vaihda arvomerkeiksi",
    "colour.mine": "{colour}: {chips} × {unit}", "colour.exchanged": "Vaihdettu lompakkoon: {amount}",
  },
  sv: {
    "live.bus-down": "Bordets händelser är försenade – lagda insatser står kvar.", "live.bus-back": "Bordets händelser kommer igen.", "live.resumed": "Bordet flyttade till en annan server; insatserna står kvar.",
    "live.bet": "Satsa", "live.betting": "Insatserna öppna", "live.closed": "Inga fler insatser",
    "live.dropped": "marker som inte skickades ({amount}) togs bort från bordet",
    "live.result": "Resultat", "live.waiting": "Väntar på nästa omgång…",
    "live.connecting": "Ansluter till bordet…", "live.reconnecting": "Förbindelsen bröts – ansluter igen…",
    "live.connected": "Live", "live.accepted": "Insatserna godkända: {amount}",
    "live.refused": "Insatsen avvisad: {reason}", "live.mine": "Dina insatser i omgången: {amount}",
    "live.notable": "Det finns inget livebord {name}.", "live.place": "Placera era insatser",
    "live.seconds": "{s} s", "live.round": "Omgång #{n}", "live.gone": "Bordet stängde förbindelsen: {reason}",
    "colour.title": "Färgmarker", "colour.buy": "Köp färgmarker", "colour.unit": "Markens värde (€)",
    "colour.count": "Marker", "colour.exchange": "Växla till värdemarker",
    "colour.mine": "{colour}: {chips} × {unit}", "colour.exchanged": "Växlat till plånboken: {amount}",
  },
  en: {
    "live.bus-down": "The table's events are delayed – bets placed stand.", "live.bus-back": "The table's events are back.", "live.resumed": "The table moved to another server; bets placed stand.",
    "live.bet": "Place bets", "live.betting": "Bets open", "live.closed": "No more bets",
    "live.dropped": "chips not sent in time ({amount}) were taken off the felt",
    "live.result": "Result", "live.waiting": "Waiting for the next round…",
    "live.connecting": "Connecting to the table…", "live.reconnecting": "Connection lost – reconnecting…",
    "live.connected": "Live", "live.accepted": "Bets accepted: {amount}",
    "live.refused": "Bet refused: {reason}", "live.mine": "Your bets this round: {amount}",
    "live.notable": "There is no live table {name}.", "live.place": "Place your bets",
    "live.seconds": "{s} s", "live.round": "Round #{n}", "live.gone": "The table closed the connection: {reason}",
    "colour.title": "Colour chips", "colour.buy": "Buy colour chips", "colour.unit": "Value of a chip (€)",
    "colour.count": "Chips", "colour.exchange": "Exchange for value chips",
    "colour.mine": "{colour}: {chips} × {unit}", "colour.exchanged": "Exchanged to the wallet: {amount}",
  },
});

const live = {
  name: null, // the table's name
  mode: null, // what table.js is given: the action, the confirmed bets, submit()
  socket: null,
  connected: false,
  closed: true, // left on purpose: no reconnecting
  retry: 0,
  reconnects: 0,
  retryTimer: null,
  seq: 0, // the last event's sequence number
  seen: new Set(),
  phase: "waiting",
  roundId: 0,
  closesAt: 0,
  window: 0,
  ticker: null,
  queue: Promise.resolve(),
  slips: new Map(), // key -> the slip sent, until answered
  lastResult: null,
};

/** Open the live table ``name`` (from the lobby's tables) and connect to it. */
export async function openLive(name) {
  if (live.name !== name) {
    closeLive();
    live.name = name;
    live.seq = 0;
    live.seen = new Set();
    live.phase = "waiting";
    live.roundId = 0;
    live.lastResult = null;
    live.mode = null;
  }
  state.lobby = await api("/api/lobby");
  const entry = state.lobby.tables.find((tb) => tb.name === name && tb.mode === "live");
  if (!entry) throw new ApiError(404, t("live.notable", { name }));
  live.mode ??= {
    table: name, action: "live.bet", confirmed: new Map(),
    limits: { min: entry.min, max: entry.max },
    canSubmit: () => live.connected && live.phase === "betting",
    submit, rerender: renderStatus,
  };
  await openTable(entry.game, entry.variant, live.mode);
  await renderColour();
  if (!live.socket) {
    live.closed = false;
    connect();
  }
  renderStatus();
}

/** The table's colour chips (RAY 1.2.1, 1.2.2, 1.3.2): where the table takes them, the
 * player buys a stack of a free colour or plays and exchanges their own; their chips on
 * the layout are drawn in their colour, and the one chip they bet with is their stack's. */
async function renderColour() {
  const box = $("#colour-box");
  const view = await api(`/api/tables/${encodeURIComponent(live.name)}/colour-chips`)
    .catch(() => null);
  const mine = view?.mine ?? null;
  const felt = $("#table-view");
  felt.classList.toggle("colour-chips", !!mine);
  felt.style.setProperty("--own-chip", mine ? mine.css : "");
  $("#chips").hidden = !!mine;
  if (mine) state.chip = mine.unit;
  else renderChips();
  box.hidden = !view || view.chips === "value";
  if (box.hidden) return box.replaceChildren();
  const colourName = (c) => t(`colour.${c}`);
  const tell = (error) => setMessage($("#table-message"), error.detail ?? String(error));
  if (mine) {
    box.replaceChildren(
      el("div", { class: "result-caption", text: t("colour.title") }),
      el("div", { class: "colour-mine" },
        el("span", { class: "colour-swatch", style: `background:${mine.css}` }),
        el("span", { text: t("colour.mine", {
          colour: colourName(mine.colour), chips: String(mine.chips), unit: euros(mine.unit) }) })),
      el("button", { type: "button", class: "ghost", text: t("colour.exchange"), onclick: async () => {
        try {
          const out = await api(`/api/tables/${encodeURIComponent(live.name)}/colour-chips/exchange`,
            { method: "POST", body: { key: uniqueKey() } });
          setBalance(out.balance);
          setMessage($("#table-message"), t("colour.exchanged", { amount: euros(out.exchanged) }), "ok");
          await renderColour();
        } catch (error) { tell(error); }
      } }));
    return undefined;
  }
  const pick = el("select", { "aria-label": t("colour.title") },
    ...view.palette.filter((c) => !c.taken).map((c) => el("option", { value: c.colour, text: colourName(c.colour) })));
  const unit = el("input", { type: "number", min: String(view.min / 100), max: String(view.max / 100),
    step: "0.01", value: String(view.min / 100), "aria-label": t("colour.unit") });
  const count = el("input", { type: "number", min: "1", max: "1000", step: "1", value: "10",
    "aria-label": t("colour.count") });
  box.replaceChildren(
    el("div", { class: "result-caption", text: t("colour.title") }), pick, unit, count,
    el("button", { type: "button", text: t("colour.buy"), onclick: async () => {
      try {
        const bought = await api(`/api/tables/${encodeURIComponent(live.name)}/colour-chips`, {
          method: "POST", body: { colour: pick.value, unit: Math.round(Number(unit.value) * 100),
            chips: Number(count.value), key: uniqueKey() } });
        setBalance(bought.balance);
        await renderColour();
      } catch (error) { tell(error); }
    } }));
  return undefined;
}

/** Leave the table: the socket closes and stays closed (bets placed stand). */
export function closeLive() {
  $("#table-view").classList.remove("colour-chips");
  $("#colour-box").hidden = true;
  $("#chips").hidden = false;
  live.closed = true;
  clearTimeout(live.retryTimer);
  clearInterval(live.ticker);
  live.ticker = null;
  const socket = live.socket;
  live.socket = null;
  live.connected = false;
  if (socket) socket.close(1000, "left the table");
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/live/${encodeURIComponent(live.name)}`);
  live.socket = socket;
  live.connected = false;
  renderStatus();
  socket.addEventListener("open", () => {
    if (live.socket !== socket) return;
    live.connected = true;
    live.retry = 0;
    // Back after a drop: every event since the last one seen.
    if (live.seq > 0) socket.send(JSON.stringify({ type: "hello", since: live.seq }));
    renderStatus();
  });
  socket.addEventListener("message", (event) => {
    if (live.socket !== socket) return;
    let message;
    try { message = JSON.parse(event.data); } catch { return; }
    live.queue = live.queue.then(() => onMessage(message)).catch((error) => console.error(error));
  });
  socket.addEventListener("close", (event) => {
    if (live.socket !== socket) return;
    live.socket = null;
    live.connected = false;
    if (live.closed) return;
    const said = hooks.closeText?.(event.code, event.reason);
    if (said) setMessage($("#table-message"), t("live.gone", { reason: said }));
    if (event.code === 4403) { // not logged in, or no such table: coming back will not help
      live.closed = true;
      renderStatus();
      return;
    }
    const delay = Math.min(5000, 400 * 2 ** live.retry);
    live.retry += 1;
    live.reconnects += 1;
    live.retryTimer = setTimeout(() => { if (!live.closed) connect(); }, delay);
    renderStatus();
  });
}

async function onMessage(message) {
  if (typeof message.seq === "number" && message.type !== "state") {
    if (live.seen.has(message.seq)) return;
    live.seen.add(message.seq);
    live.seq = Math.max(live.seq, message.seq);
  }
  switch (message.type) {
    case "state":
      live.roundId = message.round_id ?? live.roundId;
      live.phase = message.phase;
      if (message.phase === "betting") setWindow(message.closes_in, null);
      break;
    case "betting": {
      if (message.round_id < live.roundId) return;
      const fresh = message.round_id !== live.roundId || live.phase !== "betting";
      live.roundId = message.round_id;
      live.phase = "betting";
      if (fresh) {
        live.mode.confirmed.clear();
        clearMarks();
        setWindow(message.closes_in, message.closes_in);
        setMessage($("#table-message"), t("live.place"), "info");
      }
      break;
    }
    case "no-more-bets": {
      if (message.round_id < live.roundId) return;
      live.phase = "closed";
      const dropped = dropUnsent();
      setMessage($("#table-message"), dropped
        ? `${t("live.closed")} · ${t("live.dropped", { amount: euros(dropped) })}`
        : t("live.closed"), dropped ? "error" : "info");
      $("#wheel").classList.add("busy");
      break;
    }
    case "result":
      await showResult(message);
      break;
    case "settled":
      showSettled(message);
      break;
    case "bet-accepted":
      accepted(message);
      break;
    case "bet-refused": {
      const slip = live.slips.get(message.key);
      live.slips.delete(message.key);
      if (slip && live.phase !== "betting") takeOff(slip);  // too late: its chips leave too
      setMessage($("#table-message"), t("live.refused", {
        reason: hooks.errorText?.(400, message) ?? message.reason }));
      break;
    }
    case "error":
      setMessage($("#table-message"), hooks.errorText?.(400, message) ?? message.reason);
      break;
    case "notice":
      setMessage($("#table-message"), t(`live.${message.code}`), "info");
      break;
    case "resumed":
      setMessage($("#table-message"), t("live.resumed"), "info");
      break;
    default:
      break;
  }
  renderStatus();
  renderStacks();
}

function setWindow(closesIn, full) {
  live.closesAt = Date.now() + Math.max(0, closesIn) * 1000;
  live.window = full ?? Math.max(live.window, closesIn);
  clearInterval(live.ticker);
  live.ticker = setInterval(tick, 200);
  tick();
}

function tick() {
  const left = Math.max(0, live.closesAt - Date.now());
  const bar = $("#live-bar");
  const count = $("#live-countdown");
  if (live.phase !== "betting" || left <= 0) {
    clearInterval(live.ticker);
    live.ticker = null;
    count.textContent = "";
    bar.style.width = "0%";
    renderStacks();
    return;
  }
  count.textContent = t("live.seconds", { s: Math.ceil(left / 1000) });
  bar.style.width = `${live.window ? Math.min(100, (100 * left) / (live.window * 1000)) : 0}%`;
}

async function showResult(message) {
  const round = { round_id: message.round_id, result: message.result };
  const current = message.round_id >= live.roundId;
  if (current) {
    live.phase = "result";
    await settleWheel(pocketOf(round));
    showPocket(round);
    $("#result-extra").textContent = spec().extra(round);
    markWinner(round, true);
    live.lastResult = round;
    state.lastRound = { ...round };
  }
  pushRecent(spec().recent(round));
}

function showSettled(message) {
  const round = {
    ...(live.lastResult?.round_id === message.round_id ? live.lastResult : {}),
    round_id: message.round_id, settlements: message.settlements, balance: message.balance,
  };
  if (round.result !== undefined) state.lastRound = round;
  setBalance(message.balance);
  renderSettlements(round);
  if (round.result !== undefined) markWinner(round, false);
  if (!$("#colour-box").hidden) renderColour();  // the stack after the payouts
}

function submit() {
  const message = $("#table-message");
  if (!state.bets.size) {
    setMessage(message, t("table.nobets"));
    return;
  }
  if (!live.connected || live.phase !== "betting") {
    setMessage(message, t("live.closed"));
    return;
  }
  const key = uniqueKey();
  const slip = [...state.bets].map(([spot, chips]) => ({
    spot, amount: chips.reduce((a, b) => a + b, 0), chips: [...chips],
  }));
  live.slips.set(key, slip);
  live.socket.send(JSON.stringify({
    type: "bet", key, bets: slip.map(({ spot, amount }) => ({ spot, amount })),
  }));
  $("#spin").disabled = true;
}

/** At "no more bets": the chips on the felt that were not sent in time leave it (a
 * slip already sent keeps its chips until it is answered); what they came to. They are
 * never carried into the next round. */
function dropUnsent() {
  const sending = new Map();
  for (const slip of live.slips.values()) {
    for (const bet of slip) sending.set(bet.spot, (sending.get(bet.spot) ?? 0) + bet.chips.length);
  }
  let dropped = 0;
  for (const [spot, chips] of [...state.bets]) {
    const keep = sending.get(spot) ?? 0;
    for (const chip of chips.splice(keep)) dropped += chip;
    if (!chips.length) state.bets.delete(spot);
  }
  state.placed = state.placed.filter((key) => state.bets.has(key));
  return dropped;
}

/** The chips a slip sent (the first of each spot's) off the felt. */
function takeOff(slip) {
  for (const bet of slip) {
    const chips = state.bets.get(bet.spot);
    if (chips) chips.splice(0, bet.chips.length);
    if (chips && !chips.length) state.bets.delete(bet.spot);
  }
  state.placed = state.placed.filter((key) => state.bets.has(key));
}

function accepted(message) {
  const slip = live.slips.get(message.key);
  live.slips.delete(message.key);
  if (!slip) return;
  if ($("#table-view").classList.contains("colour-chips")) renderColour();  // chips staked
  let total = 0;
  const notes = [];
  slip.forEach((bet, i) => {
    const receipt = message.bets?.[i];
    const amount = receipt ? receipt.accepted : bet.amount;
    if (receipt?.returned > 0 && receipt.message) notes.push(receipt.message);
    if (amount > 0) {
      live.mode.confirmed.set(bet.spot, (live.mode.confirmed.get(bet.spot) ?? 0) + amount);
      total += amount;
    }
  });
  takeOff(slip);  // the chips sent leave the felt; chips added meanwhile stay
  state.lastBets = new Map(slip.map((bet) => [bet.spot, bet.chips]));
  setMessage($("#table-message"), [t("live.accepted", { amount: euros(total) }), ...notes].join(" · "), "ok");
  refreshMe().catch(() => {});
}

function renderStatus() {
  const box = $("#live-box");
  if (!box || !live.mode) return;
  box.dataset.phase = live.phase;
  box.dataset.round = String(live.roundId);
  box.dataset.seq = String(live.seq);
  box.dataset.connected = String(live.connected);
  box.dataset.reconnects = String(live.reconnects);
  const phase = !live.connected ? (live.reconnects ? t("live.reconnecting") : t("live.connecting"))
    : { betting: t("live.betting"), closed: t("live.closed"), result: t("live.result") }[live.phase]
      ?? t("live.waiting");
  $("#live-phase").textContent = phase;
  $("#live-conn").textContent = live.connected ? t("live.connected") : "";
  $("#live-conn").className = `live-dot ${live.connected ? "on" : "off"}`;
  $("#live-round").textContent = live.roundId ? t("live.round", { n: live.roundId }) : "";
  const mine = [...live.mode.confirmed.values()].reduce((a, b) => a + b, 0);
  $("#live-mine").textContent = mine ? t("live.mine", { amount: euros(mine) }) : "";
  if (live.phase === "betting") tick();
  else $("#live-countdown").textContent = "";
}

/** For the tests and the curious: drop the connection as a network would. */
window.pelisaliLive = { drop: () => live.socket?.close(4000, "dropped"), state: () => ({ ...live }) };

