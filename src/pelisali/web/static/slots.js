// The RNG slots: one machine a player plays alone. The window is a grid of reels ×
// rows; a spin scrolls each reel's strip and stops it, reel by reel, on the window the
// server drew; the winning lines' cells are lit and listed, the scatters marked. Free
// spins are one request each (the Spin button turns into "Free spin"); a round left
// mid-feature resumes where it stopped when the page is opened again. A spin is sent
// once: the button is off while it is in flight, and a spin that got no answer is sent
// again under the same key.

import {
  $, addStrings, api, el, euros, setBalance, setMessage, showView, state, t, uniqueKey,
} from "./core.js";

addStrings({
  fi: {
    "slot.lines": "Linjat", "slot.level": "Panos linjaa kohden", "slot.total": "Kokonaispanos",
    "slot.spin": "Pyöräytä", "slot.free": "Ilmaiskierros", "slot.spinning": "Kiekot pyörivät…",
    "slot.freeLeft": "Ilmaiskierroksia jäljellä: {n}",
    "slot.line": "Linja {n}: {count} × {symbol} voittaa {amount}",
    "slot.scatter": "{count} × {symbol} missä tahansa voittaa {amount}",
    "slot.win": "Voitto {amount}", "slot.noWin": "Ei voittoa tällä pyöräytyksellä",
    "slot.roundWin": "Kierroksen voitot tähän asti {amount}",
    "slot.awarded": "{n} ilmaiskierrosta! Ilmaiskierrosten voitot × {m}.",
    "slot.summary": "Voitit yhteensä {win}: lompakkoon {wallet}, bonussaldolle {bonus}.",
    "slot.resumed": "Kesken jäänyt kierros jatkuu: pelaa ilmaiskierrokset loppuun.",
    "slot.window": "Kiekot", "slot.balance": "Saldo", "slot.paytable": "Voittotaulukko",
    "slot.payUnit": "Linjavoitot ovat linjapanoksen kerrannaisia, scatter-voitot kokonaispanoksen.",
    "slot.wild": "{symbol} korvaa symbolit {subs}; voitto × {m}.",
    "slot.scatterRule": "{symbol} missä tahansa: {pays} × kokonaispanos.",
    "slot.featureRule": "{n} × {symbol} antaa {spins} ilmaiskierrosta (uudelleen {re}); voitot × {m}.",
    "slot.cap": "Kierroksen suurin voitto on {x} × kokonaispanos.",
    "slot.round": "Kierros {id}", "slot.bet": "{lines} linjaa × {level}",
    "slot.retry": "Lähetä pyöräytys uudelleen painamalla Pyöräytä: samalla tunnisteella se veloitetaan vain kerran.",
    "slot.symbol": "Symboli", "slot.pays": "Voitto",
  },
  sv: {
    "slot.lines": "Linjer", "slot.level": "Insats per linje", "slot.total": "Total insats",
    "slot.spin": "Snurra", "slot.free": "Gratissnurr", "slot.spinning": "Hjulen snurrar…",
    "slot.freeLeft": "Gratissnurr kvar: {n}",
    "slot.line": "Linje {n}: {count} × {symbol} vinner {amount}",
    "slot.scatter": "{count} × {symbol} var som helst vinner {amount}",
    "slot.win": "Vinst {amount}", "slot.noWin": "Ingen vinst på det här snurret",
    "slot.roundWin": "Omgångens vinster hittills {amount}",
    "slot.awarded": "{n} gratissnurr! Vinsterna på gratissnurren × {m}.",
    "slot.summary": "Du vann totalt {win}: till plånboken {wallet}, till bonussaldot {bonus}.",
    "slot.resumed": "Den avbrutna omgången fortsätter: spela färdigt gratissnurren.",
    "slot.window": "Hjulen", "slot.balance": "Saldo", "slot.paytable": "Vinsttabell",
    "slot.payUnit": "Linjevinster är gånger linjeinsatsen, scattervinster gånger den totala insatsen.",
    "slot.wild": "{symbol} ersätter {subs}; vinsten × {m}.",
    "slot.scatterRule": "{symbol} var som helst: {pays} × den totala insatsen.",
    "slot.featureRule": "{n} × {symbol} ger {spins} gratissnurr (igen {re}); vinsterna × {m}.",
    "slot.cap": "Omgångens största vinst är {x} × den totala insatsen.",
    "slot.round": "Omgång {id}", "slot.bet": "{lines} linjer × {level}",
    "slot.retry": "Tryck på Snurra för att skicka det igen: med samma nyckel debiteras det bara en gång.",
    "slot.symbol": "Symbol", "slot.pays": "Vinst",
  },
  en: {
    "slot.lines": "Lines", "slot.level": "Bet a line", "slot.total": "Total bet",
    "slot.spin": "Spin", "slot.free": "Free spin", "slot.spinning": "The reels are spinning…",
    "slot.freeLeft": "Free spins left: {n}",
    "slot.line": "Line {n}: {count} × {symbol} pays {amount}",
    "slot.scatter": "{count} × {symbol} anywhere pays {amount}",
    "slot.win": "Win {amount}", "slot.noWin": "No win on this spin",
    "slot.roundWin": "The round's wins so far {amount}",
    "slot.awarded": "{n} free spins! Free-spin wins × {m}.",
    "slot.summary": "Total win {win}: {wallet} to the wallet, {bonus} to the bonus balance.",
    "slot.resumed": "The unfinished round goes on: play out the free spins.",
    "slot.window": "The reels", "slot.balance": "Balance", "slot.paytable": "Pay table",
    "slot.payUnit": "Line wins are times the line bet, scatter wins times the total bet.",
    "slot.wild": "{symbol} stands for {subs}; the win × {m}.",
    "slot.scatterRule": "{symbol} anywhere: {pays} × the total bet.",
    "slot.featureRule": "{n} × {symbol} give {spins} free spins (again {re}); wins × {m}.",
    "slot.cap": "A round wins at most {x} × the total bet.",
    "slot.round": "Round {id}", "slot.bet": "{lines} lines × {level}",
    "slot.retry": "Tap Spin to send it again: under the same key it is charged only once.",
    "slot.symbol": "Symbol", "slot.pays": "Pays",
  },
});

// The symbols' names in each language (the server names them in capitals).
const NAMES = {
  fi: { WILD: "Villi", STAR: "Tähti", CROWN: "Kruunu", DIAMOND: "Timantti", RUBY: "Rubiini",
    EMERALD: "Smaragdi", TEN: "10", SEVEN: "Seitsemän", BAR: "BAR", BELL: "Kello",
    PLUM: "Luumu", ORANGE: "Appelsiini", LEMON: "Sitruuna", CHERRY: "Kirsikka" },
  sv: { WILD: "Wild", STAR: "Stjärna", CROWN: "Krona", DIAMOND: "Diamant", RUBY: "Rubin",
    EMERALD: "Smaragd", TEN: "10", SEVEN: "Sjua", BAR: "BAR", BELL: "Klocka",
    PLUM: "Plommon", ORANGE: "Apelsin", LEMON: "Citron", CHERRY: "Körsbär" },
  en: { WILD: "Wild", STAR: "Star", CROWN: "Crown", DIAMOND: "Diamond", RUBY: "Ruby",
    EMERALD: "Emerald", TEN: "10", SEVEN: "Seven", BAR: "BAR", BELL: "Bell",
    PLUM: "Plum", ORANGE: "Orange", LEMON: "Lemon", CHERRY: "Cherry" },
};

export function symbolName(symbol) {
  return NAMES[state.lang]?.[symbol] ?? NAMES.en[symbol] ?? symbol;
}

// Each symbol drawn in a 100 × 100 box: shapes and letters, no external images.
const LETTER = (text, fill, size = 62) => `<text x="50" y="52" text-anchor="middle"
  dominant-baseline="central" font-family="Georgia, serif" font-weight="700"
  font-size="${size}" fill="${fill}" stroke="#1b1008" stroke-width="2">${text}</text>`;
const ART = {
  WILD: `<rect x="6" y="22" width="88" height="56" rx="12" fill="#6b1fa2" stroke="#f3dc85"
    stroke-width="5"/>${LETTER("WILD", "#f3dc85", 30)}`,
  STAR: `<polygon points="50,6 62,38 96,38 68,58 79,92 50,71 21,92 32,58 4,38 38,38"
    fill="#ffd54a" stroke="#a86b00" stroke-width="4"/>`,
  CROWN: `<polygon points="12,78 8,30 30,52 50,18 70,52 92,30 88,78" fill="#f3c540"
    stroke="#8a5a00" stroke-width="4"/><rect x="12" y="78" width="76" height="10" fill="#c9961a"/>
    <circle cx="50" cy="62" r="7" fill="#d81b60"/>`,
  DIAMOND: `<polygon points="50,8 90,40 50,92 10,40" fill="#7fd3ff" stroke="#0d5c8a"
    stroke-width="4"/><polyline points="10,40 90,40" stroke="#0d5c8a" stroke-width="3" fill="none"/>
    <polyline points="30,40 50,92 70,40" stroke="#0d5c8a" stroke-width="2" fill="none"/>`,
  RUBY: `<polygon points="50,8 88,30 88,70 50,92 12,70 12,30" fill="#e0223a" stroke="#6d0010"
    stroke-width="4"/><polygon points="50,26 72,38 72,62 50,74 28,62 28,38" fill="#ff6b7d"/>`,
  EMERALD: `<polygon points="30,10 70,10 90,30 90,70 70,90 30,90 10,70 10,30" fill="#1fae5b"
    stroke="#0a4d26" stroke-width="4"/><rect x="32" y="32" width="36" height="36" fill="#63e39a"/>`,
  A: LETTER("A", "#ff7043"), K: LETTER("K", "#42a5f5"), Q: LETTER("Q", "#ec407a"),
  J: LETTER("J", "#66bb6a"), TEN: LETTER("10", "#ffca28", 52),
  SEVEN: LETTER("7", "#e53935", 84),
  BAR: `<rect x="8" y="30" width="84" height="40" rx="6" fill="#111" stroke="#f5f1e6"
    stroke-width="4"/>${LETTER("BAR", "#f5f1e6", 30)}`,
  BELL: `<path d="M50 10c-18 0-26 16-26 34v18l-10 14h72l-10-14V44c0-18-8-34-26-34z"
    fill="#ffcc33" stroke="#8a5a00" stroke-width="4"/><circle cx="50" cy="84" r="8" fill="#8a5a00"/>`,
  PLUM: `<ellipse cx="50" cy="58" rx="32" ry="34" fill="#7b3fa0" stroke="#3b1456"
    stroke-width="4"/><path d="M50 24c4-10 14-14 24-12-4 10-14 14-24 12z" fill="#43a047"/>`,
  ORANGE: `<circle cx="50" cy="55" r="36" fill="#fb8c00" stroke="#8a4300" stroke-width="4"/>
    <path d="M50 19c6-8 16-10 22-6-6 8-16 10-22 6z" fill="#43a047"/>`,
  LEMON: `<ellipse cx="50" cy="52" rx="40" ry="28" fill="#fdd835" stroke="#8a7a00"
    stroke-width="4"/>`,
  CHERRY: `<path d="M34 66C40 40 52 22 72 12M66 66C64 44 66 28 72 12" stroke="#2e7d32"
    stroke-width="5" fill="none"/><circle cx="32" cy="70" r="18" fill="#d32f2f"
    stroke="#5d0000" stroke-width="4"/><circle cx="68" cy="70" r="18" fill="#d32f2f"
    stroke="#5d0000" stroke-width="4"/>`,
};

function symbolArt(symbol) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.innerHTML = ART[symbol] ?? LETTER(String(symbol).slice(0, 3), "#f5f1e6", 36);
  return svg;
}

// ---------------------------------------------------------------------------------------
// State

const slot = {
  game: null, // the open machine's game
  machine: null, // GET /api/slots/{game}
  round: null, // the last answer: the round in play or the last one settled
  shown: 0, // how many spins of the round the page has shown
  busy: false, // a spin in flight or its reels turning
  pending: null, // {key, lines, cents}: a spin sent that got no answer, to send again
  lines: null, // the chosen lines played
  cents: null, // the chosen bet level (cents a line)
  list: null, // GET /api/slots: the games for the lobby
};

const view = () => $("#slot-view");
const playing = () => slot.round?.status === "playing";
const scatterSymbol = () => slot.machine?.scatter?.symbol ?? null;

/** The slot games for the lobby (asked once). */
export async function slotList() {
  if (!slot.list) {
    try {
      slot.list = (await api("/api/slots")).slots ?? [];
    } catch {
      return [];
    }
  }
  return slot.list;
}

/** The lobby's card of each slot: its name, description and a Play link. */
export function slotCards(list) {
  return list.map((game) => el("article", { class: "game-card slot-card", "data-game": game.game },
    el("div", { class: "game-art slot-art", "aria-hidden": "true" },
      symbolArt(game.game === "slot-fruit" ? "CHERRY" : "STAR")),
    el("h3", { text: game.name[state.lang] ?? game.name.en }),
    el("p", { class: "small slot-card-text",
      text: game.description?.[state.lang] ?? game.description?.en ?? "" }),
    el("a", { class: "button primary game-open", href: `#/slot/${encodeURIComponent(game.game)}`,
      "data-game": game.game, text: t("lobby.play") })));
}

// ---------------------------------------------------------------------------------------
// Opening the page

export async function openSlot(game) {
  const machine = await api(`/api/slots/${encodeURIComponent(game)}`);
  if (state.route.split("/")[1] !== game) return;  // the player went on meanwhile
  if (slot.game !== game) {
    slot.pending = null;
    slot.lines = null;
    slot.cents = null;
  }
  slot.game = game;
  slot.machine = machine;
  slot.busy = false;
  if (!slot.lines || !machine.lines_played.includes(slot.lines)) {
    slot.lines = machine.lines_played[machine.lines_played.length - 1];
  }
  if (!slot.cents || !machine.cents_per_line.includes(slot.cents)) {
    slot.cents = machine.cents_per_line[0];
  }
  slot.round = machine.playing;  // a round left mid-feature goes on where it stopped
  slot.shown = machine.playing ? machine.playing.spins.length : 0;
  if (machine.playing) setBalance(machine.playing.balance);
  renderAll();
  setMessage($("#slot-message"), machine.playing ? t("slot.resumed") : "", "info");
  showView("slot");
}

/** Everything drawn again (a language change, the page opened). */
export function rerenderSlot() {
  if (!slot.machine) return;
  renderAll();
}

function renderAll() {
  const machine = slot.machine;
  const root = view();
  root.dataset.game = slot.game;
  $("#slot-title").textContent = machine.name[state.lang] ?? machine.name.en;
  renderControls();
  renderPaytable();
  const last = slot.round?.spins?.[slot.shown - 1];
  if (!slot.busy) {  // a turning reel is left to stop
    renderWindow(last?.window ?? null);
    clearResult();
    if (last) showSpin(last, slot.round);
    else renderFree();
  } else renderFree();
  markState();
}

// ---------------------------------------------------------------------------------------
// The window

function cell(symbol, reel, row) {
  return el("div", {
    class: "slot-cell", "data-symbol": symbol, "data-reel": String(reel),
    "data-row": String(row), role: "img", "aria-label": symbolName(symbol),
  }, symbolArt(symbol));
}

/** The window at rest: ``window[row][reel]``, or blank cells before the first spin. */
function renderWindow(window) {
  const { rows, reels, symbols } = slot.machine;
  const grid = $("#slot-window");
  grid.style.setProperty("--reels", String(reels));
  grid.style.setProperty("--rows", String(rows));
  grid.setAttribute("aria-label", t("slot.window"));
  grid.replaceChildren(...Array.from({ length: reels }, (_, reel) => el("div", {
    class: "slot-reel", "data-reel": String(reel),
  }, el("div", { class: "slot-strip" }, Array.from({ length: rows }, (_, row) => cell(
    window ? window[row][reel] : symbols[(reel * rows + row + reel) % symbols.length],
    reel, row))))));
  grid.dataset.blank = String(!window);
}

function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Turn the reels and stop them, the leftmost first, on the spin's window. */
async function turnReels(spin) {
  const { rows, symbols } = slot.machine;
  const reels = [...document.querySelectorAll("#slot-window .slot-reel")];
  const motion = !reducedMotion();
  $("#slot-window").dataset.blank = "false";
  const turning = reels.map((reel, r) => {
    reel.dataset.stop = String(spin.stops[r]);
    const blur = motion ? 10 + 4 * r : 0; // symbols passing before the stop
    const strip = el("div", { class: "slot-strip" },
      Array.from({ length: rows }, (_, row) => cell(spin.window[row][r], r, row)),
      Array.from({ length: blur }, (_, k) => {
        // The strip's own symbols below the window: those that have just passed.
        const reelStrip = (spin.free ? slot.machine.strips?.free : slot.machine.strips?.base)?.[r];
        const passing = cell(reelStrip
          ? reelStrip[(spin.stops[r] + rows + k) % reelStrip.length]
          : symbols[k % symbols.length], r, -1);
        passing.classList.add("passing");
        passing.removeAttribute("data-row");
        passing.setAttribute("aria-hidden", "true");
        return passing;
      }));
    reel.replaceChildren(strip);
    if (!motion || !strip.animate) return Promise.resolve();
    // The strip runs downwards: from its far end (the passing symbols) to the window.
    const from = (100 * blur) / (blur + rows);
    const turn = strip.animate(
      [{ transform: `translateY(-${from}%)` }, { transform: "translateY(0)" }],
      { duration: 650 + 260 * r, easing: "cubic-bezier(0.25, 0.6, 0.3, 1.08)" });
    return turn.finished.catch(() => {}).then(() => {
      for (const node of strip.querySelectorAll(".passing")) node.remove();
      reel.classList.add("stopped");
    });
  });
  await Promise.all(turning);
  for (const node of document.querySelectorAll("#slot-window .passing")) node.remove();
}

// ---------------------------------------------------------------------------------------
// The result of a spin

const multiplier = (spin) => (spin.free ? slot.machine.feature?.multiplier ?? 1 : 1);

function scatterPays(count) {
  let pays = 0;
  for (const entry of slot.machine.scatter?.pays ?? []) if (count >= entry.count) pays = entry.pays;
  return pays;
}

/** The spin's wins in cents: each line's, and the scatters' on the total bet. */
function spinWins(spin, round) {
  const cents = round.bet?.cents ?? slot.cents;
  const lines = round.bet?.lines ?? slot.lines;
  const mult = multiplier(spin);
  const lineWins = spin.lines.map((win) => ({ ...win, amount: win.pays * cents * mult }));
  const scatter = scatterPays(spin.scatters) * lines * cents * mult;
  return { lineWins, scatter, total: lineWins.reduce((s, w) => s + w.amount, 0) + scatter };
}

function clearResult() {
  $("#slot-lines-won").replaceChildren();
  $("#slot-win").textContent = "";
  $("#slot-win").dataset.cents = "";
  $("#slot-summary").hidden = true;
  $("#slot-summary").textContent = "";
}

/** The spin's wins shown: the winning lines' cells lit and listed, the scatters marked. */
function showSpin(spin, round) {
  const { paylines } = slot.machine;
  const grid = $("#slot-window");
  for (const node of grid.querySelectorAll(".slot-cell")) {
    node.classList.remove("win", "scatter");
    node.removeAttribute("data-lines");
  }
  const { lineWins, scatter, total } = spinWins(spin, round);
  for (const win of lineWins) {
    paylines[win.line].slice(0, win.count).forEach((row, reel) => {
      const node = grid.querySelector(`.slot-cell[data-reel="${reel}"][data-row="${row}"]`);
      if (!node) return;
      node.classList.add("win");
      node.dataset.lines = `${node.dataset.lines ?? ""} ${win.line + 1}`.trim();
    });
  }
  const scatterName = scatterSymbol();
  if (scatterName && spin.scatters) {
    for (const node of grid.querySelectorAll(`.slot-cell[data-symbol="${scatterName}"]`)) {
      node.classList.add("scatter");
    }
  }
  const items = lineWins.map((win) => el("li", {
    class: "slot-line-win", "data-line": String(win.line + 1), "data-cents": String(win.amount),
    text: t("slot.line", { n: win.line + 1, count: win.count, symbol: symbolName(win.symbol),
      amount: euros(win.amount) }),
  }));
  if (scatter) {
    items.push(el("li", { class: "slot-line-win scatter", "data-cents": String(scatter),
      text: t("slot.scatter", { count: spin.scatters, symbol: symbolName(scatterName),
        amount: euros(scatter) }) }));
  }
  $("#slot-lines-won").replaceChildren(...items);
  const win = $("#slot-win");
  win.textContent = total ? t("slot.win", { amount: euros(total) }) : t("slot.noWin");
  win.dataset.cents = String(total);
  win.classList.toggle("won", total > 0);
  renderFree(spin);
  renderSummary(round);
}

function renderFree(spin = null) {
  const free = $("#slot-free");
  const round = slot.round;
  if (round && playing()) {
    const awarded = spin && spin.scatters >= (slot.machine.feature?.trigger ?? Infinity);
    const parts = [t("slot.freeLeft", { n: round.free_left })];
    if (awarded) {
      parts.push(t("slot.awarded", {
        n: spin.free ? slot.machine.feature.retrigger : slot.machine.feature.spins,
        m: slot.machine.feature.multiplier }));
    }
    parts.push(t("slot.roundWin", { amount: euros(round.win) }));
    free.textContent = parts.join(" · ");
    free.dataset.left = String(round.free_left);
    free.hidden = false;
  } else {
    free.textContent = "";
    free.dataset.left = "0";
    free.hidden = true;
  }
}

/** At a round's end: what it won, and what went to the wallet and to the bonus balance. */
function renderSummary(round) {
  const box = $("#slot-summary");
  const feature = round.spins.length > 1;
  if (round.status !== "settled" || !feature) {
    box.hidden = true;
    box.textContent = "";
    return;
  }
  box.textContent = `${t("slot.round", { id: round.round_id })}: ${t("slot.summary", {
    win: euros(round.win), wallet: euros(round.to_wallet ?? 0), bonus: euros(round.to_bonus ?? 0),
  })}`;
  box.dataset.win = String(round.win);
  box.dataset.wallet = String(round.to_wallet ?? 0);
  box.dataset.bonus = String(round.to_bonus ?? 0);
  box.hidden = false;
}

// ---------------------------------------------------------------------------------------
// The bet and the Spin button

function renderControls() {
  const { lines_played: lines, cents_per_line: levels } = slot.machine;
  const lineSelect = $("#slot-lines");
  lineSelect.replaceChildren(...lines.map((n) => el("option", { value: String(n), text: String(n) })));
  const levelSelect = $("#slot-level");
  levelSelect.replaceChildren(...levels.map((c) => el("option", { value: String(c), text: euros(c) })));
  const bet = playing() ? slot.round.bet : null;
  lineSelect.value = String(bet?.lines ?? slot.lines);
  levelSelect.value = String(bet?.cents ?? slot.cents);
  markState();
}

function markState() {
  const root = view();
  const round = slot.round;
  const bet = playing() ? round.bet : { lines: slot.lines, cents: slot.cents };
  $("#slot-total").textContent = euros(bet.lines * bet.cents);
  $("#slot-total").dataset.cents = String(bet.lines * bet.cents);
  $("#slot-balance").textContent = euros(state.me?.balance ?? 0);
  const button = $("#slot-spin");
  button.textContent = slot.busy ? t("slot.spinning") : playing() ? t("slot.free") : t("slot.spin");
  button.dataset.action = playing() ? "free-spin" : "spin";
  button.disabled = slot.busy;
  button.setAttribute("aria-busy", String(slot.busy));
  $("#slot-lines").disabled = slot.busy || playing();
  $("#slot-level").disabled = slot.busy || playing();
  root.dataset.busy = String(slot.busy);
  root.dataset.status = round ? round.status : "none";
  root.dataset.shown = String(slot.shown);
  root.dataset.round = round ? String(round.round_id) : "";
  root.classList.toggle("feature", playing());
}

async function spin() {
  if (slot.busy || !slot.machine) return;  // a double tap sends one spin
  const game = slot.game;
  const free = playing();
  slot.busy = true;
  markState();
  const message = $("#slot-message");
  setMessage(message, "");
  let answer;
  try {
    if (free) {
      answer = await api(`/api/slots/${encodeURIComponent(game)}/free-spin`, {
        method: "POST", body: { seen: slot.shown } });
    } else {
      const { lines, cents } = slot;
      const again = slot.pending && slot.pending.lines === lines && slot.pending.cents === cents;
      const key = again ? slot.pending.key : uniqueKey();
      slot.pending = { key, lines, cents };
      answer = await api(`/api/slots/${encodeURIComponent(game)}/spin`, {
        method: "POST", body: { lines, cents, key } });
      slot.pending = null;
    }
  } catch (error) {
    slot.busy = false;
    if (error.status !== 0) slot.pending = null;  // refused: a new spin gets a new key
    setMessage(message, error.status === 0 && !free ? `${error.detail} ${t("slot.retry")}`
      : error.detail);
    markState();
    if (error.status === 400 || error.status === 409) await resync(game);
    return;
  }
  if (slot.game !== game) return;
  const fresh = free ? answer.spins.length > slot.shown : true;
  slot.round = answer;
  setBalance(answer.balance);
  const last = answer.spins[answer.spins.length - 1];
  clearResult();
  if (fresh) await turnReels(last);
  else renderWindow(last.window);
  slot.shown = answer.spins.length;
  slot.busy = false;
  showSpin(last, answer);
  markState();
}

/** After a refusal: the machine as the server has it (a round another tab started). */
async function resync(game) {
  try {
    const machine = await api(`/api/slots/${encodeURIComponent(game)}`);
    if (slot.game !== game || slot.busy) return;
    const mine = slot.round;
    if (machine.playing && (!mine || mine.round_id !== machine.playing.round_id
        || machine.playing.spins.length !== slot.shown)) {
      slot.machine = machine;
      slot.round = machine.playing;
      slot.shown = machine.playing.spins.length;
      setBalance(machine.playing.balance);
      renderAll();
    }
  } catch { /* the message said what went wrong */ }
}

// ---------------------------------------------------------------------------------------
// The pay table

function renderPaytable() {
  const { pays, wilds, scatter, feature, cap } = slot.machine;
  const bySymbol = new Map();
  for (const entry of pays) {
    bySymbol.set(entry.symbol, [...(bySymbol.get(entry.symbol) ?? []), entry]);
  }
  const rows = [...bySymbol].map(([symbol, entries]) => el("tr", { "data-symbol": symbol },
    el("td", { class: "slot-pay-symbol" },
      el("span", { class: "slot-mini", "aria-hidden": "true" }, symbolArt(symbol)),
      el("span", { text: symbolName(symbol) })),
    el("td", { text: entries.slice().sort((a, b) => a.count - b.count)
      .map((e) => `${e.count} × ${e.pays}`).join(" · ") })));
  const notes = [t("slot.payUnit")];
  for (const wild of wilds) {
    notes.push(t("slot.wild", { symbol: symbolName(wild.symbol),
      subs: wild.substitutes.map(symbolName).join(", "), m: wild.multiplier }));
  }
  if (scatter) {
    notes.push(t("slot.scatterRule", { symbol: symbolName(scatter.symbol),
      pays: scatter.pays.map((p) => `${p.count}: ${p.pays}`).join(" · ") }));
  }
  if (feature && scatter) {
    notes.push(t("slot.featureRule", { n: feature.trigger, symbol: symbolName(scatter.symbol),
      spins: feature.spins, re: feature.retrigger, m: feature.multiplier }));
  }
  notes.push(t("slot.cap", { x: cap }));
  $("#slot-paytable-summary").textContent = t("slot.paytable");
  $("#slot-paytable-rows").replaceChildren(...rows);
  $("#slot-paytable-notes").replaceChildren(...notes.map((n) => el("li", { text: n })));
}

// ---------------------------------------------------------------------------------------

export function wireSlot() {
  $("#slot-spin").addEventListener("click", spin);
  $("#slot-lines").addEventListener("change", (event) => {
    slot.lines = Number(event.target.value);
    markState();
  });
  $("#slot-level").addEventListener("change", (event) => {
    slot.cents = Number(event.target.value);
    markState();
  });
}
