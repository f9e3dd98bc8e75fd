// The betting table: chips on a layout, Spin (Roll, Deal), the result and each bet's
// settlement. Every game one player plays against the house plugs its layout and its
// result display in with registerGame(); the roulette is here, the others in games.js and
// cards.js; live.js turns the table into a live one (bets sent over a websocket).

import {
  $, $$, I18N, addStrings, api, chipLabel, el, euros, localTime, setBalance, setMessage, showView,
  spotLabel, resultLabel, state, t, uniqueKey,
} from "./core.js";

export const CHIPS = [100, 500, 2500, 10000, 50000]; // 1, 5, 25, 100, 500 €
const EVEN_CHANCES = ["low", "even", "red", "black", "odd", "high"];
const EUROPEAN = [0, 32, 15, 19, 4, 21, 2, 25, 17, 34, 6, 27, 13, 36, 11, 30, 8, 23, 10, 5, 24,
  16, 33, 1, 20, 14, 31, 9, 22, 18, 29, 7, 28, 12, 35, 3, 26].map(String);
const AMERICAN = [0, 28, 9, 26, 30, 11, 7, 20, 32, 17, 5, 22, 34, 15, 3, 24, 36, 13, 1, "00", 27,
  10, 25, 29, 12, 8, 19, 31, 18, 6, 21, 33, 16, 4, 23, 35, 14, 2].map(String);

addStrings({
  fi: {
    "table.roll": "Heitä", "table.deal": "Jaa", "table.rolling": "Nopat vierivät…",
    "table.dealing": "Jaetaan…", "table.back": "Takaisin {amount}",
    "table.symbol": "Voittosymboli", "table.dice": "Nopat", "table.result": "Tulos",
  },
  sv: {
    "table.roll": "Kasta", "table.deal": "Dela", "table.rolling": "Tärningarna rullar…",
    "table.dealing": "Korten delas…", "table.back": "Tillbaka {amount}",
    "table.symbol": "Vinnande symbol", "table.dice": "Tärningarna", "table.result": "Resultat",
  },
  en: {
    "table.roll": "Roll", "table.deal": "Deal", "table.rolling": "The dice are rolling…",
    "table.dealing": "Dealing…", "table.back": "{amount} back",
    "table.symbol": "Winning symbol", "table.dice": "Dice", "table.result": "Result",
  },
});

// ---------------------------------------------------------------------------------------
// The games

const GAMES = new Map();

/** A game at the table. ``spec`` says how to load and draw its layout, which endpoint
 * plays a slip, and how to show the result; every hook has a harmless default. */
export function registerGame(name, spec) {
  GAMES.set(name, {
    name,
    stage: "wheel", // which part of the felt's top shows the result: wheel, dice or cards
    action: "table.spin", // the play button
    busyText: "table.spinning",
    caption: "table.winning", // above the result
    title: () => t(`game.${name}`),
    rules: () => `#/rules/${name}`,
    load: () => api(`/api/layout/${name}`),
    setup: () => {},
    render: () => {},
    endpoint: () => `/api/play/${name}`,
    body: (bets, key) => ({ bets, key }),
    start: () => {},
    abort: () => {},
    reveal: async () => {},
    show: () => {},
    extra: () => "",
    recent: () => null,
    winners: () => [],
    covers: () => [],
    spotOf: (key) => key, // a settlement's spot -> the layout's spot
    busy: () => false, // a round still in play (blackjack)
    opened: async () => {},
    ...spec,
  });
}

export function spec() {
  return GAMES.get(state.game);
}

export function hasGame(name) {
  return GAMES.has(name);
}

/** A live table plugs in here: ``{action, submit(), confirmed: Map, canSubmit()}``. */
export const table = { mode: null };

// ---------------------------------------------------------------------------------------
// Opening the table

/** Open ``game`` (``variant`` for roulette) as an RNG table, or with ``mode`` as a live one. */
export async function openTable(game, variant = "", mode = null) {
  const found = GAMES.get(game);
  if (!found) throw new Error(`no table for ${game}`);
  variant = game === "roulette" ? (variant || "C").toUpperCase() : "";
  const key = `${mode ? `live:${mode.table}` : "rng"}:${game}:${variant}`;
  if (state.tableKey !== key || !state.layout) {
    const layout = await found.load(variant);
    if (mode && mode.limits) Object.assign(layout, mode.limits);
    clearBets();
    state.lastBets = null;
    state.lastRound = null;
    state.spinning = false;
    state.game = game;
    state.variant = variant;
    state.layout = layout;
    state.tableKey = key;
    table.mode = mode;
    $("#result-panel").hidden = true;
    $("#settlements").replaceChildren();
    resetResult();
    clearStage();
    found.setup(layout);
  }
  table.mode = mode;
  const view = $("#table-view");
  view.dataset.game = game;
  view.dataset.variant = variant;  // which version's layout is drawn (G and H look alike)
  view.dataset.stage = found.stage;
  view.dataset.mode = mode ? "live" : "rng";
  $("#wheel").hidden = found.stage !== "wheel";
  $("#dice").hidden = found.stage !== "dice";
  $("#cards").hidden = found.stage !== "cards";
  $("#live-box").hidden = !mode;
  $("#spin").hidden = false;
  $("#bj-actions").hidden = true;
  $("#nav-rules").href = found.rules(state.layout) ?? "#/rules/roulette/C";
  renderTableHead();
  renderChips();
  renderLayout();
  renderRecent();
  setMessage($("#table-message"), "");
  showView("table");
  await found.opened();
}

function clearStage() {
  $("#dice").replaceChildren();
  $("#cards").replaceChildren();
  $("#wheel").className = "wheel";
  $("#wheel .rotor")?.remove();
}

export function resetResult() {
  const number = $("#result-number");
  number.textContent = "";
  number.className = "result-number";
  delete number.dataset.round;
  $("#result-extra").textContent = "";
}

export function renderTableHead() {
  const s = spec();
  const layout = state.layout;
  $("#table-title").textContent = table.mode ? `${s.title(layout)} · ${table.mode.table}` : s.title(layout);
  $("#table-limits").textContent = t("table.limits", { min: euros(layout.min), max: euros(layout.max) });
  const rules = s.rules(layout);
  $("#table-rules").hidden = !rules;
  if (rules) $("#table-rules").href = rules;
  $("#result-caption").textContent = t(s.caption);
  $("#spin").textContent = t(table.mode ? table.mode.action : s.action);
}

export function renderChips() {
  const box = $("#chips");
  if (!box.children.length) {
    box.replaceChildren(...CHIPS.map((value) => el("button", {
      type: "button", class: `chip chip-${value}`, "data-value": String(value),
      title: euros(value), "aria-label": euros(value),
      onclick: () => selectChip(value),
    }, el("span", { class: "chip-face", text: chipLabel(value) }))));
  }
  // A chip under the table's minimum is not offered: alone it could not be a bet.
  const least = state.layout?.min ?? 0;
  for (const chip of $$("#chips .chip")) chip.hidden = Number(chip.dataset.value) < least;
  const offered = CHIPS.filter((value) => value >= least);
  selectChip(offered.includes(state.chip) ? state.chip : offered[0] ?? CHIPS[0]);
}

function selectChip(value) {
  state.chip = value;
  if (state.removing) toggleRemoving(false);
  for (const chip of $$("#chips .chip")) {
    const on = Number(chip.dataset.value) === value;
    chip.classList.toggle("selected", on);
    chip.setAttribute("aria-pressed", String(on));
  }
}

/** A button for a spot the server offers (a dead cell for one it does not). */
export function spotButtonFor(layout, label = spotLabel) {
  const offered = new Map(layout.spots.map((spot) => [spot.key, spot]));
  return (key, cls, content, extra = {}) => {
    const spot = offered.get(key);
    if (!spot) return el("div", { class: `${cls} spot-off` }, content);
    return el("button", {
      type: "button", class: `spot ${cls}`, "data-spot": key, "data-bet-type": spot.bet_type,
      title: `${label(key)} · ${spot.pays}`, "aria-label": `${label(key)}, ${spot.pays}`,
      "data-label": `${label(key)}, ${spot.pays}`,
      ...extra,
    }, content);
  };
}

export function renderLayout() {
  const root = $("#layout");
  root.className = `layout game-${state.game}`;
  root.removeAttribute("style");
  root.replaceChildren();
  const s = spec();
  s.render(root, state.layout, spotButtonFor(state.layout, s.label ?? spotLabel));
  renderStacks();
  if (state.lastRound && state.lastRound.status !== "playing") markWinner(state.lastRound, false);
}

// ---------------------------------------------------------------------------------------
// Chips on the layout

let hovered = null;

function onLayoutOver(event) {
  const spot = event.target.closest("[data-spot]");
  const key = spot?.dataset.spot ?? null;
  if (key === hovered) return;
  hovered = key;
  for (const node of $$("#layout .covered")) node.classList.remove("covered");
  if (!key || !state.layout) return;
  for (const covered of spec().covers(key)) {
    if (covered !== key) $(`#layout [data-spot="${CSS.escape(covered)}"]`)?.classList.add("covered");
  }
}

function locked() {
  return state.spinning || spec()?.busy();
}

function onLayoutClick(event) {
  const toggle = event.target.closest("#between");
  if (toggle) {
    const on = $("#layout").classList.toggle("between-on");
    toggle.setAttribute("aria-pressed", String(on));
    return;
  }
  const spot = event.target.closest("[data-spot]");
  if (!spot || locked()) return;
  if (state.removing) removeChip(spot.dataset.spot);
  else placeChip(spot.dataset.spot, state.chip);
}

/** Delete or Backspace on a spot takes its last chip off (as a right-click does). */
function onLayoutKey(event) {
  if (event.key !== "Delete" && event.key !== "Backspace") return;
  const spot = event.target.closest("[data-spot]");
  if (!spot || locked()) return;
  event.preventDefault();
  removeChip(spot.dataset.spot);
}

/** The remove mode: a tap on a spot takes a chip off it (for touch, with no right
 * button); pressed again, taps put chips down again. */
function toggleRemoving(on = !state.removing) {
  state.removing = on;
  $("#remove").setAttribute("aria-pressed", String(on));
  $("#layout").classList.toggle("removing", on);
}

function onLayoutContext(event) {
  const spot = event.target.closest("[data-spot]");
  if (!spot) return;
  event.preventDefault();
  if (!locked()) removeChip(spot.dataset.spot);
}

export function placeChip(key, value) {
  const chips = state.bets.get(key) ?? [];
  chips.push(value);
  state.bets.set(key, chips);
  state.placed.push(key);
  setMessage($("#table-message"), "");
  renderStacks();
}

function removeChip(key) {
  const chips = state.bets.get(key);
  if (!chips) return;
  chips.pop();
  if (!chips.length) state.bets.delete(key);
  const at = state.placed.lastIndexOf(key);
  if (at >= 0) state.placed.splice(at, 1);
  renderStacks();
}

function undo() {
  const key = state.placed.at(-1);
  if (key) removeChip(key);
}

export function clearBets() {
  state.bets.clear();
  state.placed = [];
  if (state.layout) renderStacks();
}

function rebet() {
  if (!state.lastBets || locked()) return;
  clearBets();
  for (const [key, chips] of state.lastBets) {
    for (const chip of chips) placeChip(key, chip);
  }
}

export function betTotal() {
  let total = 0;
  for (const chips of state.bets.values()) total += chips.reduce((a, b) => a + b, 0);
  return total;
}

function stackOf(chips, cls = "") {
  const amount = chips.reduce((a, b) => a + b, 0);
  const shown = chips.slice(-5);
  return el("span", { class: `stack ${cls}`.trim(), title: euros(amount), "aria-hidden": "true" },
    shown.map((value, i) => el("span", {
      class: `stack-chip chip-${value}`, style: `--i:${i}`,
    })),
    el("span", { class: "stack-total", style: `--i:${shown.length - 1}`, text: chipLabel(amount) }));
}

/** The chips worth ``amount``, biggest first (for stakes the server holds). */
export function chipsFor(amount) {
  const out = [];
  let left = amount;
  for (const value of [...CHIPS].reverse()) {
    while (left >= value && out.length < 12) {
      out.push(value);
      left -= value;
    }
  }
  if (left > 0 || !out.length) out.push(CHIPS[0]);
  return out.reverse();
}

export function renderStacks() {
  const confirmed = table.mode?.confirmed ?? new Map();
  for (const spot of $$("#layout [data-spot]")) {
    const key = spot.dataset.spot;
    const chips = state.bets.get(key);
    for (const old of spot.querySelectorAll(":scope > .stack")) old.remove();
    const held = confirmed.get(key);
    if (held) {
      spot.dataset.confirmed = String(held);
      spot.append(stackOf(chipsFor(held), "confirmed"));
    } else {
      delete spot.dataset.confirmed;
    }
    const amount = chips ? chips.reduce((a, b) => a + b, 0) : 0;
    // Its spoken name says what is on it: the chips put down and the bet the table holds.
    const on = [amount ? t("table.onit", { amount: euros(amount) }) : "",
      held ? t("table.held", { amount: euros(held) }) : ""].filter(Boolean);
    if (spot.dataset.label) spot.setAttribute("aria-label", [spot.dataset.label, ...on].join(", "));
    if (!chips) {
      spot.classList.toggle("has-bet", Boolean(held));
      delete spot.dataset.amount;
      continue;
    }
    spot.classList.add("has-bet");
    spot.dataset.amount = String(amount);
    spot.append(stackOf(chips, held ? "pending" : ""));
  }
  $("#bet-total").textContent = euros(betTotal());
  const busy = locked();
  $("#spin").disabled = busy || (table.mode ? !table.mode.canSubmit() : false);
  $("#rebet").disabled = busy || !state.lastBets;
  $("#undo").disabled = busy;
  $("#clear").disabled = busy;
}

// ---------------------------------------------------------------------------------------
// Wheels: roulette, boule and the money wheel

const NS = "http://www.w3.org/2000/svg";

/** A wheel of ``order`` (pockets or sectors, clockwise from the top). */
export function buildWheel(order, { fill, label = (p) => p, textFill = () => "#fff", kind = "" }) {
  const span = 360 / order.length;
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "-100 -100 200 200");
  svg.setAttribute("class", "rotor");
  const point = (r, deg) => {
    const rad = ((deg - 90) * Math.PI) / 180;
    return `${(r * Math.cos(rad)).toFixed(3)} ${(r * Math.sin(rad)).toFixed(3)}`;
  };
  const inner = kind === "money" ? 40 : 58;
  order.forEach((pocket, i) => {
    const a = i * span;
    const b = a + span;
    const path = document.createElementNS(NS, "path");
    path.setAttribute("d", `M ${point(96, a)} A 96 96 0 0 1 ${point(96, b)} `
      + `L ${point(inner, b)} A ${inner} ${inner} 0 0 0 ${point(inner, a)} Z`);
    path.setAttribute("fill", fill(pocket));
    path.setAttribute("stroke", "#c9a640");
    path.setAttribute("stroke-width", "0.6");
    svg.append(path);
    const text = document.createElementNS(NS, "text");
    text.textContent = label(pocket);
    const radius = kind === "money" ? 80 : 84;
    text.setAttribute("transform", `rotate(${a + span / 2}) translate(0 -${radius})`
      + (kind === "money" ? " rotate(90)" : ""));
    text.setAttribute("text-anchor", "middle");
    text.setAttribute("dominant-baseline", "middle");
    text.setAttribute("fill", textFill(pocket));
    text.setAttribute("font-size", kind === "money" ? "8" : order.length > 20 ? "8.5" : "13");
    svg.append(text);
  });
  const wheel = $("#wheel");
  wheel.className = `wheel ${kind}`.trim();
  wheel.querySelector(".rotor")?.remove();
  wheel.prepend(svg);
  state.wheelOrder = order;
  state.rotation = 0;
}

function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

export function wait(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function motion(ms) {
  return reducedMotion() ? 0 : ms;
}

/** Turn the wheel until ``face`` stops at the top (one of its pockets, if it has many). */
export function settleWheel(face) {
  const order = state.wheelOrder ?? [];
  const rotor = $("#wheel .rotor");
  $("#wheel").classList.remove("busy");
  const places = order.flatMap((p, i) => (p === face ? [i] : []));
  if (!places.length || !rotor) return Promise.resolve();
  const index = places[Math.floor(Math.random() * places.length)];
  const span = 360 / order.length;
  const want = (360 - (index + 0.5) * span) % 360;
  const now = ((state.rotation % 360) + 360) % 360;
  const turn = ((want - now + 360) % 360) + 720;
  state.rotation += turn;
  const ms = motion(1300);
  rotor.style.transition = `transform ${ms}ms cubic-bezier(.15,.7,.2,1)`;
  rotor.style.transform = `rotate(${state.rotation}deg)`;
  return wait(ms + 50);
}

// ---------------------------------------------------------------------------------------
// Playing a slip

async function spin() {
  if (table.mode) {
    table.mode.submit();
    return;
  }
  const s = spec();
  if (locked()) return;
  const message = $("#table-message");
  if (!state.bets.size) {
    setMessage(message, t("table.nobets"));
    return;
  }
  const slip = new Map([...state.bets].map(([key, chips]) => [key, [...chips]]));
  const bets = [...slip].map(([spot, chips]) => ({
    spot, amount: chips.reduce((a, b) => a + b, 0),
  }));
  state.spinning = true;
  setMessage(message, t(s.busyText), "info");
  clearMarks();
  $("#layout").classList.add("locked");
  resetResult();
  s.start();
  renderStacks();
  let round;
  try {
    round = await api(s.endpoint(state.variant), {
      method: "POST", body: s.body(bets, uniqueKey()),
    });
  } catch (error) {
    // Refused: nothing was taken; the chips stay where they are.
    s.abort();
    state.spinning = false;
    $("#layout").classList.remove("locked");
    setMessage(message, error.detail);
    renderStacks();
    return;
  }
  await s.reveal(round);
  state.spinning = false;
  $("#layout").classList.remove("locked");
  state.lastBets = slip;
  state.lastRound = round;
  clearBets();
  showRound(round);
  const cut = cutNotes(bets, round);
  if (deciding()) setMessage(message, [t("choice.waiting"), ...cut].join(" · "), "info");
  else setMessage(message, [outcomeText(round), ...cut].join(" · "), "ok");
}

/** The bets the table took less of than was sent (over its maximum, the excess void
 * and returned, RAY 1.1), each in a line: never cut silently. */
function cutNotes(bets, round) {
  const staked = new Map();
  for (const s of round.settlements ?? []) {
    const spot = spec().spotOf(s.spot);
    staked.set(spot, (staked.get(spot) ?? 0) + s.stake);
  }
  if (!round.settlements?.length) return [];
  return bets.filter((bet) => (staked.get(bet.spot) ?? bet.amount) < bet.amount)
    .map((bet) => t("table.cut", { spot: spotLabel(bet.spot),
      taken: euros(staked.get(bet.spot)), returned: euros(bet.amount - staked.get(bet.spot)) }));
}

/** A settled round in a line, shown in the rail (in view wherever the layout is
 * scrolled): the result, what was paid and the net; empty while a round plays on. */
export function outcomeText(round) {
  if (round.status === "playing" || !round.settlements?.length) return "";
  const stake = round.settlements.reduce((sum, s) => sum + s.stake, 0);
  const paid = round.settlements.reduce((sum, s) => sum + s.paid, 0);
  const net = paid - stake;
  return t("table.outcome", {
    result: $("#result-number").textContent || round.result, paid: euros(paid),
    net: `${net > 0 ? "+" : ""}${euros(net)}`,
  });
}

/** A round's answer on the table: the result, the balance, and (once it is over) each
 * bet's settlement. */
export function showRound(round, fresh = true) {
  const s = spec();
  setBalance(round.balance);
  s.show(round, fresh);
  const item = fresh ? s.recent(round) : null;
  if (item) pushRecent(item);
  else renderRecent();
  if (round.status === "playing") {
    $("#result-panel").hidden = true;
    renderStacks();
    return;
  }
  renderSettlements(round);
  markWinner(round, fresh);
  renderStacks();
}

export function renderSettlements(round) {
  $("#result-extra").textContent = spec().extra(round) ?? "";
  renderChoices(round);
  $("#round-id").textContent = `#${round.round_id}`;
  const rows = round.settlements.map((s) => el("tr", {
    class: `settlement ${s.paid > 0 ? "won" : "lost"}`, "data-spot": s.spot,
    "data-bet-id": String(s.bet_id),
  },
  el("td", { class: "spot-name", title: s.spot }, spotLabel(s.spot)),
  el("td", { class: "stake", text: euros(s.stake) }),
  el("td", { class: "paid", text: euros(s.paid) }),
  el("td", { class: `result result-${s.result}`, text: resultLabel(s.result) })));
  $("#settlements").replaceChildren(...rows);
  const stake = round.settlements.reduce((a, s) => a + s.stake, 0);
  const paid = round.settlements.reduce((a, s) => a + s.paid, 0);
  $("#round-stake").textContent = euros(stake);
  $("#round-paid").textContent = euros(paid);
  const net = $("#round-net");
  net.textContent = `${paid - stake > 0 ? "+" : ""}${euros(paid - stake)}`;
  net.className = paid - stake > 0 ? "up" : paid - stake < 0 ? "down" : "";
  $("#result-panel").hidden = false;
  if (!round.settlements.length) return;
  setMessage($("#table-message"),
    paid > stake ? t("table.won", { amount: euros(paid) })
      : paid > 0 ? t("table.back", { amount: euros(paid) }) : t("table.lost"),
    paid > 0 ? "ok" : "info");
}

/** Roulette D with both zero rules: a bet hit by zero waits for the player's choice. */
function renderChoices(round) {
  const box = $("#choices");
  const pending = Object.entries(round.pending ?? {});
  box.hidden = pending.length === 0;
  $("#result-panel").hidden = $("#result-panel").hidden && pending.length === 0;
  if (!pending.length) {
    box.replaceChildren();
    return;
  }
  // Each bet by its spot and stake, its options, and until when the player may choose.
  box.replaceChildren(el("h3", { text: t("choice.title") }), ...pending.map(([n, options]) => {
    const bet = round.bets?.[n];
    const name = bet ? t("choice.which", { spot: spotLabel(bet.spot), stake: euros(bet.stake) })
      : t("choice.bet", { n });
    return el("div", { class: "choice", "data-bet-id": n },
      el("span", { class: "choice-bet", text: name }),
      options.map((option) => el("button", {
        type: "button", class: "ghost", "data-option": option,
        text: I18N[state.lang][`choice.${option}`] ? t(`choice.${option}`) : option,
        "aria-label": `${name}: ${I18N[state.lang][`choice.${option}`] ? t(`choice.${option}`) : option}`,
        onclick: () => choose(round, Number(n), option),
      })));
  }), round.deadline ? el("p", { class: "small choice-deadline", text: t("choice.deadline", {
    at: localTime(round.deadline) }) }) : null);
}

async function choose(round, betId, option) {
  for (const button of $$("#choices button")) button.disabled = true;
  try {
    const answer = await api(`/api/play/${state.game}/choose`, {
      method: "POST", body: { round_id: round.round_id, bet_id: betId, option },
    });
    state.lastRound = answer;
    setBalance(answer.balance);
    renderSettlements(answer);
    markWinner(answer, false);
    renderStacks();
    setMessage($("#table-message"), deciding() ? t("choice.waiting") : outcomeText(answer),
      deciding() ? "info" : "ok");
  } catch (error) {
    setMessage($("#table-message"), error.detail);
    for (const button of $$("#choices button")) button.disabled = false;
  }
}

/** Light up the result's spots on the layout and the spots of the bets that won. */
export function markWinner(round, fresh) {
  clearMarks();
  const s = spec();
  if (round.result !== undefined) {
    for (const key of s.winners(round)) {
      for (const node of $$(`#layout [data-spot="${CSS.escape(key)}"]`)) {
        node.classList.add("winner");
        if (fresh) node.classList.add("flash");
      }
    }
  }
  for (const settled of round.settlements ?? []) {
    if (settled.paid > 0) {
      $(`#layout [data-spot="${CSS.escape(s.spotOf(settled.spot))}"]`)?.classList.add("won");
    }
  }
}

export function clearMarks() {
  for (const node of $$("#layout .winner, #layout .won")) {
    node.classList.remove("winner", "won", "flash");
  }
}

function recentKey() {
  return `${table.mode ? `live:${table.mode.table}` : state.game}/${state.variant}`;
}

export function pushRecent(item) {
  const recent = (state.recent[recentKey()] ??= []);
  recent.unshift(item);
  recent.splice(16);
  renderRecent();
}

export function renderRecent() {
  const recent = state.recent[recentKey()] ?? [];
  $("#recent").replaceChildren(...recent.map((item) =>
    el("li", { class: item.cls ?? "", text: item.text ?? "" }, item.node ?? null)));
}

export function rerenderTable() {
  if (!state.layout) return;
  renderTableHead();
  renderLayout();
  renderRecent();
  if (state.lastRound) {
    spec().show(state.lastRound, false);
    if (state.lastRound.status !== "playing" && state.lastRound.settlements) {
      renderSettlements(state.lastRound);
    }
  }
  table.mode?.rerender?.();
}

export function wireTable() {
  $("#layout").addEventListener("click", onLayoutClick);
  $("#layout").addEventListener("contextmenu", onLayoutContext);
  $("#layout").addEventListener("keydown", onLayoutKey);
  $("#remove").addEventListener("click", () => toggleRemoving());
  $("#skip-to-chips").addEventListener("click", (event) => {
    event.preventDefault();  // a hash would be a route
    ($("#chips .chip.selected") ?? $("#chips .chip"))?.focus();
  });
  $("#layout").addEventListener("pointerover", onLayoutOver);
  $("#layout").addEventListener("pointerleave", () => onLayoutOver({ target: document.body }));
  $("#clear").addEventListener("click", () => {
    if (!locked()) {
      clearBets();
      setMessage($("#table-message"), "");
    }
  });
  $("#undo").addEventListener("click", () => { if (!locked()) undo(); });
  $("#rebet").addEventListener("click", rebet);
  $("#spin").addEventListener("click", spin);
  // Turned between upright and across: the layout drawn the other way.
  PORTRAIT.addEventListener("change", () => {
    if (state.layout && !$("#table-view").hidden) renderLayout();
  });
}

// ---------------------------------------------------------------------------------------
// Roulette

function wheelOrder(layout) {
  const pockets = layout.numbers.map((n) => n.number);
  const same = (order) => order.length === pockets.length && order.every((p) => pockets.includes(p));
  if (same(EUROPEAN)) return EUROPEAN;
  if (same(AMERICAN)) return AMERICAN;
  return pockets;
}

function pocketColour(pocket) {
  return state.layout.numbers?.find((n) => n.number === pocket)?.colour ?? "none";
}

/** The winning pocket: the first face drawn ("17", or "17-24:1" with a multiplier). */
export function pocketOf(round) {
  const pockets = state.layout.numbers.map((n) => n.number);
  if (pockets.includes(round.result)) return round.result;
  return String(round.result).split("-")[0];
}

/** The roulette's result on the felt: the number, big, in its colour. */
export function showPocket(round) {
  const pocket = pocketOf(round);
  const number = $("#result-number");
  number.textContent = pocket;
  number.className = `result-number ${pocketColour(pocket)} show`;
  number.dataset.round = String(round.round_id);
}

registerGame("roulette", {
  title: (layout) => t("table.title", { variant: layout.variant }),
  rules: (layout) => `#/rules/roulette/${layout.variant}`,
  load: (variant) => api(`/api/layout/roulette?variant=${encodeURIComponent(variant)}`),
  setup(layout) {
    const colour = new Map(layout.numbers.map((n) => [n.number, n.colour]));
    const fills = { red: "#b3141b", black: "#151515", green: "#0d7a3c" };
    buildWheel(wheelOrder(layout), { fill: (p) => fills[colour.get(p)] ?? fills.black });
  },
  render: renderRouletteLayout,
  body: (bets, key) => ({ variant: state.variant, bets, key }),
  start: () => $("#wheel").classList.add("busy"),
  abort: () => $("#wheel").classList.remove("busy"),
  reveal: (round) => settleWheel(pocketOf(round)),
  show: showPocket,
  extra(round) {
    const pocket = pocketOf(round);
    const colour = pocketColour(pocket);
    const extra = String(round.result).slice(pocket.length).replace(/^-/, "").split("-")
      .filter(Boolean);
    return [I18N[state.lang][`colour.${colour}`] ? t(`colour.${colour}`) : "", ...extra]
      .filter(Boolean).join(" · ");
  },
  recent: (round) => ({ text: pocketOf(round), cls: pocketColour(pocketOf(round)) }),
  winners: (round) => [`straight ${pocketOf(round)}`],
  covers: (key) => (key.startsWith("straight ") ? [] : coversOf(key).map((p) => `straight ${p}`)),
  // Roulette D after a zero: no new spin until every bet's choice is made.
  busy: () => deciding(),
  async opened() {
    if (table.mode) return;
    const found = await api(`/api/play/roulette/waiting?variant=${encodeURIComponent(state.variant)}`);
    if (found.round_id === null) return;
    state.lastRound = found;  // found again after a reload or a return to the table
    showPocket(found, false);
    renderSettlements(found);
    renderStacks();
    setMessage($("#table-message"), t("choice.waiting"), "info");
  },
});

/** The round on the table waits for the player's choice (roulette D's zero). */
function deciding() {
  return Object.keys(state.lastRound?.pending ?? {}).length > 0;
}

function isNumber(pocket) {
  return /^[1-9]\d*$/.test(pocket);
}

/** A phone held upright: the roulette layout stands up (zeros at the top, the numbers
 * in three columns, dozens and even chances at the side) and the bets between numbers
 * are offered only in the "between numbers" mode, where they are finger-sized. */
export const PORTRAIT = window.matchMedia("(max-width: 599px)");

/** Draw the layout: zeros, the 3 × n number grid with the columns at the row ends,
 * dozens and the even chances below, and hot spots between numbers for inside bets;
 * upright on a phone (:data:`PORTRAIT`). */
function renderRouletteLayout(root, layout, spotButton) {
  const offered = new Map(layout.spots.map((spot) => [spot.key, spot]));
  const colour = new Map(layout.numbers.map((n) => [n.number, n.colour]));
  const zeros = layout.numbers.map((n) => n.number).filter((n) => !isNumber(n));
  const numbers = layout.numbers.map((n) => n.number).filter(isNumber).map(Number);
  const top = Math.max(...numbers);
  const cols = Math.ceil(top / 3);
  const upright = PORTRAIT.matches;
  root.style.setProperty("--cols", String(cols));
  root.classList.toggle("upright", upright);
  root.classList.toggle("small-wheel", cols < 12);
  root.classList.toggle("no-columns", ![1, 2, 3].some((c) => offered.has(`column ${c}`)));

  // The zeros: 00 above 0 (00 beside 2 and 3, 0 beside 1 and 2); upright, 0 left of 00.
  const zeroOrder = upright ? zeros : [...zeros].reverse();
  const zeroBox = el("div", { class: `zeros zeros-${zeros.length}` },
    zeroOrder.map((z) => spotButton(`straight ${z}`, `num green`,
      el("span", { class: "num-face", text: z }))));

  // Across (a desktop): row 1 holds 3, 6, 9 …, row 3 holds 1, 4, 7 …; upright: the
  // first row holds 1, 2, 3. ``x`` runs along the columns of three, ``y`` across them
  // from 3's side, both in cells; a point is placed where it falls either way.
  const rowOf = (n) => 2 - ((n - 1) % 3);
  const colOf = (n) => Math.floor((n - 1) / 3);
  const place = (x, y) => (upright
    ? `left:${(100 * (3 - y)) / 3}%;top:${(100 * x) / cols}%`
    : `left:${(100 * x) / cols}%;top:${(100 * y) / 3}%`);
  const cell = (n) => (upright
    ? `grid-column:${3 - rowOf(n)};grid-row:${colOf(n) + 1}`
    : `grid-column:${colOf(n) + 1};grid-row:${rowOf(n) + 1}`);
  const grid = el("div", { class: "numbers" });
  for (const n of numbers) {
    grid.append(spotButton(`straight ${n}`, `num ${colour.get(String(n)) ?? "black"}`,
      el("span", { class: "num-face", text: String(n) }), { style: `${cell(n)};` }));
  }
  // Hot spots for the bets between numbers.
  for (const spot of layout.spots) {
    const [type, rest = ""] = spot.key.split(" ");
    if (!["split", "street", "corner", "sixline", "first_five"].includes(type)) continue;
    const members = type === "first_five" ? ["0", "00", "1", "2", "3"] : rest.split("-");
    const nums = members.filter(isNumber).map(Number).sort((a, b) => a - b);
    let x;
    let y;
    let host = grid;
    if (nums.length === members.length) {
      const [a] = nums;
      if (type === "split" && nums[1] === a + 1) { x = colOf(a) + 0.5; y = rowOf(a); }
      else if (type === "split") { x = colOf(a) + 1; y = rowOf(a) + 0.5; }
      else if (type === "street") { x = colOf(a) + 0.5; y = 3; }
      else if (type === "corner") { x = colOf(a) + 1; y = rowOf(a); }
      else if (type === "sixline") { x = colOf(a) + 1; y = 3; }
      else continue;
    } else if (nums.length === 0) { // 0-00, on the line between the two zeros
      host = zeroBox;
      x = null;
    } else {
      x = 0;
      if (nums.length === 1) y = rowOf(nums[0]) + 0.5;
      else if (nums.length === 2) y = Math.max(...nums.map(rowOf));
      else y = 3;
    }
    const style = x === null ? "left:50%;top:50%" : place(x, y);
    host.append(spotButton(spot.key, `hot hot-${type}`, null, { style }));
  }

  // The column bets at the ends of the rows (upright: under the columns, 1 to 3).
  const columns = (upright ? [1, 2, 3] : [3, 2, 1]).map((c, i) => spotButton(`column ${c}`,
    "outside column-bet", el("span", { text: t("table.twotoone") }),
    { style: upright ? `grid-column:${i + 1}` : `grid-row:${i + 1}` }));

  // Dozens and the even chances.
  const dozens = [1, 2, 3].filter((d) => offered.has(`dozen ${d}`)).map((d) =>
    spotButton(`dozen ${d}`, "outside dozen", el("span", { text: `${12 * d - 11}–${12 * d}` })));
  const half = Math.floor(top / 2);
  const evenFace = {
    low: () => el("span", { text: `1–${half}` }),
    high: () => el("span", { text: `${half + 1}–${top}` }),
    even: () => el("span", { text: t("bet.even") }),
    odd: () => el("span", { text: t("bet.odd") }),
    red: () => el("span", { class: "diamond red", title: t("bet.red") }),
    black: () => el("span", { class: "diamond black", title: t("bet.black") }),
  };
  const evens = EVEN_CHANCES.filter((k) => offered.has(k)).map((k) =>
    spotButton(k, `outside even-chance ec-${k}`, evenFace[k]()));
  const extras = [...offered.keys()].filter((k) => k.startsWith("quarter ")).map((k) =>
    spotButton(k, "outside quarter", el("span", { text: spotLabel(k) })));

  const between = upright && [...grid.children, ...zeroBox.children]
    .some((node) => node.classList.contains("hot"))
    ? el("button", {
      type: "button", id: "between", class: "ghost between", "aria-pressed": "false",
      text: t("table.between") })
    : null;
  root.replaceChildren(...[
    between,
    zeroBox,
    grid,
    root.classList.contains("no-columns") ? null : el("div", { class: "columns" }, columns),
    dozens.length ? el("div", { class: "dozens" }, dozens) : null,
    evens.length ? el("div", { class: "evens" }, evens) : null,
    extras.length ? el("div", { class: "quarters" }, extras) : null,
  ].filter(Boolean));
  root.classList.remove("between-on");
}

/** The pockets a spot covers, to light them up while the pointer is over the spot. */
function coversOf(key) {
  const [type, rest = ""] = key.split(" ");
  const pockets = state.layout.numbers;
  const numbers = pockets.map((p) => p.number).filter(isNumber).map(Number);
  const top = Math.max(...numbers);
  const pick = (test) => numbers.filter(test).map(String);
  const n = Number(rest);
  switch (type) {
    case "straight": case "split": case "street": case "corner": case "sixline":
      return rest.split("-");
    case "first_five": return ["0", "00", "1", "2", "3"];
    case "dozen": return pick((x) => x > 12 * (n - 1) && x <= 12 * n);
    case "column": return pick((x) => (x - 1) % 3 === n - 1);
    case "quarter": return pick((x) => x > 9 * (n - 1) && x <= 9 * n);
    case "red": case "black":
      return pockets.filter((p) => p.colour === type).map((p) => p.number);
    case "even": return pick((x) => x % 2 === 0);
    case "odd": return pick((x) => x % 2 === 1);
    case "low": return pick((x) => x <= top / 2);
    case "high": return pick((x) => x > top / 2);
    default: return [];
  }
}
