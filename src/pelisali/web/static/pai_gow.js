// Pai Gow Poker on the banked page (#/banked/pai-gow-poker): the player's seven cards as
// toggles choosing the two of the low hand (each a 44 px target on a phone; seven wrap to
// two rows at 360 px), the house way's setting of them beside, the high hand the other
// five make and a warning before a setting that fouls (it is taken, and loses), a House
// way button and a Set button enabled when exactly two cards are chosen; the dealer's
// seven face down until the showdown, which shows both hands of the box and of the dealer
// (set by the house way) and, on a win, the commission in euros. The page (banked.js)
// sends the decisions; this module draws the game's own parts.

import { addStrings, cardEl, el, euros, t } from "./core.js";

export const PAI_GOW = "pai-gow-poker";

addStrings({
  fi: {
    "hand.five_aces": "Viisi ässää",
    "paigow.high": "Viiden kortin käsi", "paigow.low": "Kahden kortin käsi",
    "paigow.dealer_down": "Jakaja · 7 korttia",
    "paigow.pick_note": "Valitse kaksi korttia kahden kortin käteen; muut viisi ovat viiden kortin käsi.",
    "paigow.house_way": "Talon tapa: {high} ({hand}) · {low}",
    "paigow.preview": "Viiden kortin käsi: {hand} · kahden kortin käsi: {low}",
    "paigow.foul": "Virheellinen asetus: kahden kortin käsi on yhtä vahva tai vahvempi kuin viiden kortin käsi, ja se häviää.",
    "paigow.house": "Talon tapa", "paigow.pick_two": "Valitse kaksi korttia",
    "paigow.set": "Aseta · {low}", "paigow.set_foul": "Aseta silti · {low} (häviää)",
    "paigow.fouled": "virheellinen asetus",
    "paigow.who.box": "sinun", "paigow.who.dealer": "jakajan", "paigow.who.copy": "tasan, jakajan",
    "paigow.res": "{word}: viiden kortin käsi {high}, kahden kortin käsi {low}",
    "paigow.res_fouled": "{word}, virheellinen asetus",
    "paigow.commission": "Provisio {amount} ({percent} % voitosta) talolle",
    "paigow.summary": "Kierros {round}: panokset {staked}, maksettu {paid}, provisio {commission}",
    "paigow.ranking": "Viiden kortin kädet parhaasta alkaen",
    "paigow.note_win": "Molemmat kädet jakajan käsiä vahvemmat: voitto 1:1, josta talo ottaa {percent} % provision.",
    "paigow.rounding_up": "Provisio pyöristetään ylöspäin täyteen senttiin.",
    "paigow.rounding_down": "Provisio pyöristetään alaspäin täyteen senttiin.",
    "paigow.note_push": "Toinen käsi vahvempi, toinen heikompi: tasapeli. Tasavahva käsi (kopio) on jakajan; molemmat heikommat tai tasan: häviö.",
    "paigow.note_foul": "Kahden kortin käden on oltava heikompi kuin viiden kortin käden; muuten asetus on virheellinen ja häviää.",
    "paigow.note_joker": "Jokeri on ässä tai täydentää suoran, värin tai värisuoran; viisi ässää on paras käsi.",
    "paigow.note_wheel_second": "A-2-3-4-5 on toiseksi paras suora.",
    "paigow.note_wheel_low": "A-2-3-4-5 on pienin suora.",
    "paigow.note_house": "Jakaja asettaa kätensä talon tavalla; sinäkin voit valita sen.",
  },
  sv: {
    "hand.five_aces": "Fem ess",
    "paigow.high": "Femkortshanden", "paigow.low": "Tvåkortshanden",
    "paigow.dealer_down": "Given · 7 kort",
    "paigow.pick_note": "Välj två kort till tvåkortshanden; de andra fem är femkortshanden.",
    "paigow.house_way": "Husets sätt: {high} ({hand}) · {low}",
    "paigow.preview": "Femkortshanden: {hand} · tvåkortshanden: {low}",
    "paigow.foul": "Felaktig uppdelning: tvåkortshanden är lika stark som eller starkare än femkortshanden, och den förlorar.",
    "paigow.house": "Husets sätt", "paigow.pick_two": "Välj två kort",
    "paigow.set": "Dela upp · {low}", "paigow.set_foul": "Dela upp ändå · {low} (förlorar)",
    "paigow.fouled": "felaktig uppdelning",
    "paigow.who.box": "din", "paigow.who.dealer": "givens", "paigow.who.copy": "lika, givens",
    "paigow.res": "{word}: femkortshanden {high}, tvåkortshanden {low}",
    "paigow.res_fouled": "{word}, felaktig uppdelning",
    "paigow.commission": "Provision {amount} ({percent} % av vinsten) till huset",
    "paigow.summary": "Omgång {round}: insatser {staked}, utbetalt {paid}, provision {commission}",
    "paigow.ranking": "Femkortshänderna, den bästa först",
    "paigow.note_win": "Båda händerna starkare än givens: vinst 1:1, varav huset tar {percent} % i provision.",
    "paigow.rounding_up": "Provisionen avrundas uppåt till hel cent.",
    "paigow.rounding_down": "Provisionen avrundas nedåt till hel cent.",
    "paigow.note_push": "En hand starkare och en svagare: oavgjort. En lika stark hand (kopia) är givens; båda svagare eller lika: förlust.",
    "paigow.note_foul": "Tvåkortshanden ska vara svagare än femkortshanden; annars är uppdelningen felaktig och förlorar.",
    "paigow.note_joker": "Jokern är ett ess eller fullbordar en stege, en färg eller en färgstege; fem ess är den bästa handen.",
    "paigow.note_wheel_second": "A-2-3-4-5 är den näst bästa stegen.",
    "paigow.note_wheel_low": "A-2-3-4-5 är den lägsta stegen.",
    "paigow.note_house": "Given delar upp sin hand på husets sätt; du kan också välja det.",
  },
  en: {
    "hand.five_aces": "Five aces",
    "paigow.high": "High hand (five cards)", "paigow.low": "Low hand (two cards)",
    "paigow.dealer_down": "Dealer · 7 cards",
    "paigow.pick_note": "Choose two cards for the low hand; the other five are the high hand.",
    "paigow.house_way": "The house way: {high} ({hand}) · {low}",
    "paigow.preview": "High hand: {hand} · low hand: {low}",
    "paigow.foul": "A foul: the low hand ranks as high as the high hand or higher, and it loses.",
    "paigow.house": "House way", "paigow.pick_two": "Choose two cards",
    "paigow.set": "Set · {low}", "paigow.set_foul": "Set anyway · {low} (loses)",
    "paigow.fouled": "a foul",
    "paigow.who.box": "yours", "paigow.who.dealer": "the dealer's", "paigow.who.copy": "a copy, the dealer's",
    "paigow.res": "{word}: high hand {high}, low hand {low}",
    "paigow.res_fouled": "{word}, a foul",
    "paigow.commission": "Commission {amount} ({percent} % of the win) to the house",
    "paigow.summary": "Round {round}: staked {staked}, paid {paid}, commission {commission}",
    "paigow.ranking": "The five-card hands, best first",
    "paigow.note_win": "Both hands above the dealer's: a win paid 1:1, of which the house takes a {percent} % commission.",
    "paigow.rounding_up": "The commission is rounded up to the whole cent.",
    "paigow.rounding_down": "The commission is rounded down to the whole cent.",
    "paigow.note_push": "One hand above and one below: a push. An equal hand (a copy) is the dealer's; both below or equal: a loss.",
    "paigow.note_foul": "The low hand must rank below the high hand; otherwise the setting fouls and loses.",
    "paigow.note_joker": "The joker is an ace, or completes a straight, a flush or a straight flush; five aces is the best hand.",
    "paigow.note_wheel_second": "A-2-3-4-5 is the second-highest straight.",
    "paigow.note_wheel_low": "A-2-3-4-5 is the lowest straight.",
    "paigow.note_house": "The dealer sets by the house way; you may choose it too.",
  },
});

/** The round's stage as the page's data-street says it: "set" while the hand waits to be
 * set, "" when no decision waits. */
export function paiGowStage(round) {
  return round?.status === "playing" ? "set" : "";
}

/** The setting whose low hand is the two cards chosen (the server's list of all 21,
 * each with its high hand and whether it fouls), or null. */
function chosen(round, picked) {
  if (picked.size !== 2) return null;
  return (round.settings ?? []).find((s) => s.low.every((c) => picked.has(c))) ?? null;
}

/** A hand set: its five cards and its two, each under its name. */
function setting(high, low, who) {
  return el("div", { class: "paigow-setting", "data-who": who },
    el("div", { class: "paigow-part", "data-hand": "high" },
      el("span", { class: "small", text: t("paigow.high") }),
      el("div", { class: "cards" }, high.map((c) => cardEl(c, { small: true })))),
    el("div", { class: "paigow-part", "data-hand": "low" },
      el("span", { class: "small", text: t("paigow.low") }),
      el("div", { class: "cards" }, low.map((c) => cardEl(c, { small: true })))));
}

/** The table: while the hand waits, the dealer's seven face down, the player's seven as
 * toggles (``picked`` the low hand's cards chosen, ``toggle`` called with a card), the
 * house way's setting and what the two chosen make (a foul warned of); at the showdown
 * both hands of the dealer and of the player. */
export function paiGowHands(round, picked, toggle, handName) {
  if (round.status === "settled") {
    const mine = `${t("banked.you")}: ${handName(round.high_hand)}`
      + (round.foul ? ` · ${t("paigow.fouled")}` : "");
    return [
      el("div", { class: "banked-hand banked-dealer" },
        el("span", { class: "small", text: `${t("banked.dealer")}: ${handName(round.dealer_hand)}` }),
        setting(round.dealer_high, round.dealer_low, "dealer")),
      el("div", { class: "banked-hand banked-player", "data-foul": String(Boolean(round.foul)) },
        el("span", { class: "small", text: mine }),
        setting(round.high, round.low, "box")),
    ];
  }
  const backs = Array.from({ length: round.dealer_cards || 7 }, () => cardEl(null, { small: true }));
  const parts = [
    el("div", { class: "banked-hand banked-dealer" },
      el("span", { class: "small", text: t("paigow.dealer_down") }),
      el("div", { class: "cards paigow-backs" }, backs)),
    el("div", { class: "banked-hand banked-player" },
      el("span", { class: "small", text: t("banked.you") }),
      el("div", { class: "cards paigow-cards" }, (round.cards ?? []).map((card) =>
        el("button", { type: "button", class: "paigow-pick", "data-card": card,
          "aria-pressed": String(picked.has(card)), "aria-label": card, onclick: () => toggle(card) },
        cardEl(card))))),
    el("p", { class: "small paigow-note", text: t("paigow.pick_note") }),
  ];
  const way = round.house_way;
  if (way) {
    parts.push(el("p", { class: "small paigow-house-way", "data-low": way.low.join(" "),
      text: t("paigow.house_way", { high: way.high.join(" "), hand: handName(houseHand(round)), low: way.low.join(" ") }) }));
  }
  const made = chosen(round, picked);
  if (made) {
    parts.push(el("p", { class: "small paigow-preview", "data-hand": made.high_hand,
      text: t("paigow.preview", { hand: handName(made.high_hand), low: made.low.join(" ") }) }));
    if (made.foul) parts.push(el("p", { class: "paigow-foul", role: "alert", text: t("paigow.foul") }));
  }
  return parts;
}

/** The house way's high hand by name: the setting with its low hand. */
function houseHand(round) {
  const low = round.house_way.low;
  return (round.settings ?? []).find((s) => low.every((c) => s.low.includes(c)))?.high_hand ?? "";
}

/** The decision's buttons: House way, and Set with the two cards chosen (disabled until
 * exactly two are; "Set anyway" when the setting fouls); ``send`` posts a decision. */
export function paiGowControls(round, picked, send) {
  const made = chosen(round, picked);
  const low = [...picked];
  return [
    el("button", { type: "button", class: made && !made.foul ? "primary" : "", "data-action": "set",
      "data-foul": String(Boolean(made?.foul)), disabled: !made,
      text: !made ? t("paigow.pick_two")
        : t(made.foul ? "paigow.set_foul" : "paigow.set", { low: low.join(" ") }),
      onclick: () => send("decide", { action: "set", cards: low }) }),
    el("button", { type: "button", class: made ? "" : "primary", "data-action": "house",
      text: t("paigow.house"), onclick: () => send("decide", { action: "house" }) }),
  ];
}

/** A bet's result in the page's language: the word, who took each hand, or the foul
 * (the engine's "win: high box, low box", "push: high box, low copy", "lose, fouled"). */
export function paiGowResult(result) {
  const found = String(result).match(/^(win|push|lose)(?:: high (\w+), low (\w+)|, fouled)?$/);
  if (!found) return result;
  const word = t(`banked.res.${found[1]}`);
  if (found[2]) {
    return t("paigow.res", { word, high: t(`paigow.who.${found[2]}`), low: t(`paigow.who.${found[3]}`) });
  }
  return result.endsWith("fouled") ? t("paigow.res_fouled", { word }) : word;
}

/** After the settlements: the commission taken on a win, in euros, and the summary. */
export function paiGowSummary(round, rules) {
  const parts = [];
  if (round.commission) {
    parts.push(el("p", { class: "paigow-commission", "data-commission": String(round.commission), text: t("paigow.commission", {
      amount: euros(round.commission), percent: rules.pays.commission_percent }) }));
  }
  parts.push(el("p", { class: "banked-summary", role: "status", text: t("paigow.summary", {
    round: round.round_id, staked: euros(round.staked), paid: euros(round.paid ?? 0),
    commission: euros(round.commission ?? 0) }) }));
  return parts;
}

/** The five-card hands, best first, and the game's notes. */
export function paiGowPays(pays, handName) {
  return [
    el("table", { class: "data" }, el("tbody", {},
      el("tr", {}, el("th", { colspan: "2", text: t("paigow.ranking") })),
      pays.hands.map((hand, i) => el("tr", { "data-table": "hands", "data-hand": hand },
        el("td", { text: String(i + 1) }), el("td", { text: handName(hand) }))))),
    el("ul", { class: "notes small" },
      el("li", { text: t("paigow.note_win", { percent: pays.commission_percent }) }),
      el("li", { text: t(pays.commission_rounding === "down" ? "paigow.rounding_down" : "paigow.rounding_up") }),
      el("li", { text: t("paigow.note_push") }),
      el("li", { text: t("paigow.note_foul") }),
      el("li", { text: t("paigow.note_joker") }),
      el("li", { text: t(pays.wheel === "low" ? "paigow.note_wheel_low" : "paigow.note_wheel_second") }),
      el("li", { text: t("paigow.note_house") })),
  ];
}
