// Boule, the money wheel, Tuplanoppa and Sic Bo: one player against the house, each on a
// felt layout of its own, played through the table of table.js (chips, Spin or Roll, the
// result and each bet's settlement).

import { $, addStrings, dieEl, el, t } from "./core.js";
import { buildWheel, motion, registerGame, settleWheel, wait } from "./table.js";

addStrings({
  fi: {
    "bet.sum": "Summa", "bet.total": "Summa", "bet.any_pair": "Mikä tahansa pari",
    "bet.under_7": "Alle 7", "bet.over_7": "Yli 7", "bet.small": "Pieni", "bet.big": "Iso",
    "bet.single": "Silmäluku", "bet.two_dice": "Yhdistelmä", "bet.double": "Tupla",
    "bet.any_triple": "Mikä tahansa kolmoset", "bet.specific_triple": "Kolmoset",
    "bet.joker": "Jokeri", "bet.logo": "Logo",
    "dice.total": "Silmäluku", "dice.pair": "pari", "dice.triple": "kolmoset",
    "boule.five": "5: tasapanokset häviävät", "colour.yellow": "keltainen",
    "sicbo.small": "4–10 · häviää kolmosilla", "sicbo.big": "11–17 · häviää kolmosilla",
    "sicbo.single": "1 noppa 1:1 · 2 noppaa 2:1 · 3 noppaa 12:1",
    "wheel.symbol": "Symboli {symbol}",
  },
  sv: {
    "bet.sum": "Summa", "bet.total": "Summa", "bet.any_pair": "Vilket par som helst",
    "bet.under_7": "Under 7", "bet.over_7": "Över 7", "bet.small": "Small", "bet.big": "Big",
    "bet.single": "Ögontal", "bet.two_dice": "Kombination", "bet.double": "Dubbel",
    "bet.any_triple": "Valfri trippel", "bet.specific_triple": "Trippel",
    "bet.joker": "Joker", "bet.logo": "Logo",
    "dice.total": "Summa", "dice.pair": "par", "dice.triple": "trippel",
    "boule.five": "5: de enkla chanserna förlorar", "colour.yellow": "gul",
    "sicbo.small": "4–10 · förlorar på trippel", "sicbo.big": "11–17 · förlorar på trippel",
    "sicbo.single": "1 tärning 1:1 · 2 tärningar 2:1 · 3 tärningar 12:1",
    "wheel.symbol": "Symbol {symbol}",
  },
  en: {
    "bet.sum": "Sum", "bet.total": "Total", "bet.any_pair": "Any pair",
    "bet.under_7": "Under 7", "bet.over_7": "Over 7", "bet.small": "Small", "bet.big": "Big",
    "bet.single": "Single", "bet.two_dice": "Combination", "bet.double": "Double",
    "bet.any_triple": "Any triple", "bet.specific_triple": "Triple",
    "bet.joker": "Joker", "bet.logo": "Logo",
    "dice.total": "Total", "dice.pair": "pair", "dice.triple": "triple",
    "boule.five": "5: every even chance loses", "colour.yellow": "yellow",
    "sicbo.small": "4–10 · loses on a triple", "sicbo.big": "11–17 · loses on a triple",
    "sicbo.single": "one die 1:1 · two dice 2:1 · three dice 12:1",
    "wheel.symbol": "Symbol {symbol}",
  },
});

const pays = (layout, key) => layout.spots.find((s) => s.key === key)?.pays ?? "";
const faces = (round) => String(round.result ?? "").split("-").filter(Boolean);

// ---------------------------------------------------------------------------------------
// Boule: 1–9 on a 36-pocket wheel, 5 (yellow) in no even chance

const BOULE_COLOUR = { 1: "black", 2: "red", 3: "black", 4: "red", 5: "yellow", 6: "black",
  7: "red", 8: "black", 9: "red" };
const BOULE_GROUPS = { low: [1, 2, 3, 4], high: [6, 7, 8, 9], even: [2, 4, 6, 8],
  odd: [1, 3, 7, 9], red: [2, 4, 7, 9], black: [1, 3, 6, 8] };

function bouleNumber(round) {
  return faces(round)[0] ?? "";
}

function showNumber(round, colour) {
  const number = $("#result-number");
  number.textContent = bouleNumber(round);
  number.className = `result-number ${colour} show`;
  number.dataset.round = String(round.round_id);
}

registerGame("boule", {
  setup() {
    const fills = { red: "#b3141b", black: "#151515", yellow: "#d9a514" };
    const order = [];
    for (let copy = 0; copy < 4; copy += 1) {
      for (let n = 1; n <= 9; n += 1) order.push(String(n));
    }
    buildWheel(order, { fill: (p) => fills[BOULE_COLOUR[p]], kind: "boule" });
  },
  render(root, layout, spot) {
    const side = (keys) => el("div", { class: "boule-side" }, keys.map((key) => {
      const face = {
        low: () => [el("strong", { text: "1–4" }), el("small", { text: t("bet.low") })],
        high: () => [el("strong", { text: "6–9" }), el("small", { text: t("bet.high") })],
        even: () => [el("strong", { text: t("bet.even") })],
        odd: () => [el("strong", { text: t("bet.odd") })],
        red: () => [el("span", { class: "diamond red", title: t("bet.red") })],
        black: () => [el("span", { class: "diamond black", title: t("bet.black") })],
      }[key]();
      return spot(key, `outside boule-chance bc-${key}`,
        el("span", { class: "face" }, face, el("em", { class: "pays", text: pays(layout, key) })));
    }));
    const grid = el("div", { class: "boule-grid" });
    for (let n = 1; n <= 9; n += 1) {
      grid.append(spot(`straight ${n}`, `num ${BOULE_COLOUR[n]}`,
        el("span", { class: "num-face", text: String(n) })));
    }
    root.append(el("div", { class: "boule-board" },
      side(["low", "even", "red"]), grid, side(["high", "odd", "black"])),
    el("p", { class: "felt-print", text: `${t("bet.straight")} ${pays(layout, "straight 1")} · ${t("boule.five")}` }));
  },
  start: () => $("#wheel").classList.add("busy"),
  abort: () => $("#wheel").classList.remove("busy"),
  reveal: (round) => settleWheel(bouleNumber(round)),
  show: (round) => showNumber(round, BOULE_COLOUR[bouleNumber(round)] ?? ""),
  extra(round) {
    const n = bouleNumber(round);
    return n === "5" ? `${t("colour.yellow")} · ${t("boule.five")}` : t(`colour.${BOULE_COLOUR[n]}`);
  },
  recent: (round) => ({ text: bouleNumber(round), cls: BOULE_COLOUR[bouleNumber(round)] }),
  winners(round) {
    const n = Number(bouleNumber(round));
    return [`straight ${n}`, ...Object.entries(BOULE_GROUPS)
      .filter(([, numbers]) => numbers.includes(n)).map(([key]) => key)];
  },
  covers: (key) => (BOULE_GROUPS[key] ?? []).map((n) => `straight ${n}`),
});

// ---------------------------------------------------------------------------------------
// The money wheel: 54 sectors, a symbol pays its odds

const SECTORS = { 1: 23, 2: 15, 5: 8, 10: 4, 20: 2, joker: 1, logo: 1 }; // RAY 2016 1.2.3
const SYMBOL_FILL = { 1: "#e9c341", 2: "#2f6fcf", 5: "#7b3fb5", 10: "#2e8b57", 20: "#c62828",
  joker: "#111111", logo: "#d4af37" };
const SYMBOL_TEXT = { joker: "★", logo: "✪" };

/** The sectors spread round the wheel: each symbol's copies as evenly apart as may be. */
function moneyOrder(symbols) {
  const total = symbols.reduce((n, s) => n + (SECTORS[s] ?? 1), 0);
  const places = [];
  symbols.forEach((symbol, rank) => {
    const count = SECTORS[symbol] ?? 1;
    for (let i = 0; i < count; i += 1) {
      places.push({ symbol, at: ((i + 0.5) * total) / count + rank * 0.01 });
    }
  });
  return places.sort((a, b) => a.at - b.at).map((p) => p.symbol);
}

function symbolFace(symbol, cls = "") {
  if (symbol === "logo") {
    return el("span", { class: `mw-face mw-logo ${cls}` },
      el("img", { src: "/static/logo.svg", alt: t("bet.logo"), width: "40", height: "40" }));
  }
  return el("span", { class: `mw-face mw-${symbol} ${cls}`, text: SYMBOL_TEXT[symbol] ?? symbol });
}

registerGame("money-wheel", {
  caption: "table.symbol",
  setup(layout) {
    const symbols = layout.spots.map((s) => s.key);
    buildWheel(moneyOrder(symbols), {
      fill: (s) => SYMBOL_FILL[s] ?? "#555", label: (s) => SYMBOL_TEXT[s] ?? s,
      textFill: (s) => (s === "1" || s === "logo" ? "#1a1a1a" : "#fff"), kind: "money",
    });
  },
  render(root, layout, spot) {
    root.append(el("div", { class: "mw-board" }, layout.spots.map((s) =>
      spot(s.key, `mw-box mw-${s.key}`,
        el("span", { class: "mw-inner" }, symbolFace(s.key),
          el("em", { class: "pays", text: s.pays }))))),
    el("p", { class: "felt-print", text: t("game.money-wheel") }));
  },
  start: () => $("#wheel").classList.add("busy"),
  abort: () => $("#wheel").classList.remove("busy"),
  reveal: (round) => settleWheel(faces(round)[0]),
  show(round) {
    const symbol = faces(round)[0] ?? "";
    const number = $("#result-number");
    number.replaceChildren(symbolFace(symbol));
    number.dataset.symbol = symbol;
    number.className = `result-number symbol mw-${symbol} show`;
    number.dataset.round = String(round.round_id);
  },
  extra: (round) => {
    const symbol = faces(round)[0] ?? "";
    return t(`bet.${symbol}`) !== `bet.${symbol}` ? t(`bet.${symbol}`) : t("wheel.symbol", { symbol });
  },
  recent: (round) => ({ text: SYMBOL_TEXT[faces(round)[0]] ?? faces(round)[0], cls: `mw-${faces(round)[0]}` }),
  winners: (round) => [faces(round)[0]],
});

// ---------------------------------------------------------------------------------------
// Dice: Tuplanoppa (two dice) and Sic Bo (three)

let rolling = null;

function showDice(values, cls = "") {
  $("#dice").replaceChildren(...values.map((v, i) => dieEl(v, `${cls} d${i + 1}`)));
}

function rollDice(count) {
  stopDice();
  const random = () => Array.from({ length: count }, () => 1 + Math.floor(Math.random() * 6));
  showDice(random(), "rolling");
  rolling = setInterval(() => showDice(random(), "rolling"), 110);
}

function stopDice() {
  if (rolling) clearInterval(rolling);
  rolling = null;
}

function diceGame(name, count, spec) {
  registerGame(name, {
    stage: "dice",
    action: "table.roll",
    busyText: "table.rolling",
    caption: "dice.total",
    setup: () => showDice(count === 2 ? [5, 2] : [6, 3, 1], "idle"),
    start: () => rollDice(count),
    abort() {
      stopDice();
      showDice(count === 2 ? [5, 2] : [6, 3, 1], "idle");
    },
    async reveal(round) {
      await wait(motion(450));
      stopDice();
      showDice(faces(round), "landed");
    },
    show(round, fresh) {
      if (!fresh || !$("#dice .landed")) showDice(faces(round), "landed");
      const values = faces(round).map(Number);
      const number = $("#result-number");
      number.textContent = String(values.reduce((a, b) => a + b, 0));
      number.className = "result-number dice-total show";
      number.dataset.round = String(round.round_id);
    },
    extra(round) {
      const values = faces(round).map(Number);
      const same = new Set(values).size;
      const word = values.length === 3 && same === 1 ? t("dice.triple")
        : same < values.length ? t("dice.pair") : "";
      return [values.join(" + "), word].filter(Boolean).join(" · ");
    },
    recent: (round) => ({ text: String(faces(round).map(Number).reduce((a, b) => a + b, 0)) }),
    ...spec,
  });
}

function dicePair(a, b) {
  return el("span", { class: "dice-pair" }, dieEl(a, "mini"), dieEl(b, "mini"));
}

diceGame("tuplanoppa", 2, {
  render(root, layout, spot) {
    const sums = [];
    for (let n = 2; n <= 12; n += 1) {
      sums.push(spot(`sum_${n}`, "sum-box",
        el("span", { class: "face" }, el("strong", { text: String(n) }),
          el("em", { class: "pays", text: pays(layout, `sum_${n}`) }))));
    }
    root.append(el("div", { class: "tupla-board" },
      el("div", { class: "sum-row" }, sums),
      el("div", { class: "tupla-bottom" },
        spot("under_7", "outside wide", el("span", { class: "face" },
          el("strong", { text: t("bet.under_7") }), el("small", { text: "2–6" }),
          el("em", { class: "pays", text: pays(layout, "under_7") }))),
        spot("any_pair", "outside wide pair-box", el("span", { class: "face" },
          el("span", { class: "pair-dice" }, dicePair(3, 3), dicePair(6, 6)),
          el("strong", { text: t("bet.any_pair") }),
          el("em", { class: "pays", text: pays(layout, "any_pair") }))),
        spot("over_7", "outside wide", el("span", { class: "face" },
          el("strong", { text: t("bet.over_7") }), el("small", { text: "8–12" }),
          el("em", { class: "pays", text: pays(layout, "over_7") }))))),
    el("p", { class: "felt-print", text: t("game.tuplanoppa") }));
  },
  winners(round) {
    const [a, b] = faces(round).map(Number);
    const sum = a + b;
    return [`sum_${sum}`, a === b ? "any_pair" : null, sum < 7 ? "under_7" : null,
      sum > 7 ? "over_7" : null].filter(Boolean);
  },
});

diceGame("sic-bo", 3, {
  render(root, layout, spot) {
    const triples = el("div", { class: "triples" },
      el("div", { class: "triple-row" }, [1, 2, 3].map((n) => spot(`specific_triple ${n}`,
        "triple", el("span", { class: "face" }, dieEl(n, "mini"), dieEl(n, "mini"), dieEl(n, "mini"))))),
      spot("any_triple", "any-triple", el("span", { class: "face" },
        el("strong", { text: t("bet.any_triple") }),
        el("em", { class: "pays", text: pays(layout, "any_triple") }))),
      el("div", { class: "triple-row" }, [4, 5, 6].map((n) => spot(`specific_triple ${n}`,
        "triple", el("span", { class: "face" }, dieEl(n, "mini"), dieEl(n, "mini"), dieEl(n, "mini"))))),
      el("div", { class: "triple-pays", text: `${t("bet.specific_triple")} ${pays(layout, "specific_triple 1")}` }));
    const doubles = (numbers) => el("div", { class: "doubles" }, numbers.map((n) =>
      spot(`double ${n}`, "double", el("span", { class: "face" }, dieEl(n, "mini"), dieEl(n, "mini"),
        el("em", { class: "pays", text: pays(layout, `double ${n}`) })))));
    const big = (key) => spot(key, `outside sicbo-${key}`, el("span", { class: "face" },
      el("strong", { text: t(`bet.${key}`) }), el("small", { text: t(`sicbo.${key}`) }),
      el("em", { class: "pays", text: pays(layout, key) })));
    const totals = [];
    for (let n = 4; n <= 17; n += 1) {
      totals.push(spot(`total_${n}`, "total", el("span", { class: "face" },
        el("strong", { text: String(n) }), el("em", { class: "pays", text: pays(layout, `total_${n}`) }))));
    }
    const combos = [];
    for (let a = 1; a <= 6; a += 1) {
      for (let b = a + 1; b <= 6; b += 1) {
        combos.push(spot(`two_dice ${a}-${b}`, "combo", el("span", { class: "face" },
          dieEl(a, "mini"), dieEl(b, "mini"))));
      }
    }
    const singles = [1, 2, 3, 4, 5, 6].map((n) => spot(`single ${n}`, "single",
      el("span", { class: "face" }, dieEl(n, "single-die"))));
    root.append(el("div", { class: "sicbo-board" },
      el("div", { class: "sicbo-top" }, big("small"), doubles([1, 2, 3]), triples,
        doubles([4, 5, 6]), big("big")),
      el("div", { class: "sicbo-totals" }, totals),
      el("div", { class: "sicbo-combos" }, combos,
        el("div", { class: "row-pays", text: pays(layout, "two_dice 1-2") })),
      el("div", { class: "sicbo-singles" }, singles,
        el("div", { class: "row-pays", text: t("sicbo.single") }))));
  },
  winners(round) {
    const values = faces(round).map(Number);
    const sum = values.reduce((a, b) => a + b, 0);
    const count = (n) => values.filter((v) => v === n).length;
    const triple = new Set(values).size === 1;
    const out = [`total_${sum}`];
    if (!triple && sum >= 4 && sum <= 10) out.push("small");
    if (!triple && sum >= 11 && sum <= 17) out.push("big");
    for (let n = 1; n <= 6; n += 1) {
      if (count(n)) out.push(`single ${n}`);
      if (count(n) >= 2) out.push(`double ${n}`);
    }
    if (triple) out.push("any_triple", `specific_triple ${values[0]}`);
    for (let a = 1; a <= 6; a += 1) {
      for (let b = a + 1; b <= 6; b += 1) {
        if (count(a) && count(b)) out.push(`two_dice ${a}-${b}`);
      }
    }
    return out;
  },
});
