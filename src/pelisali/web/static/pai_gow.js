// Pai Gow Poker on the banked page (#/banked/pai-gow-poker): the player's seven cards as
// toggles choosing the two of the low hand (each a 44 px target on a phone; seven wrap to
// two rows at 360 px), the house way's setting of them beside, the high hand the other
// five make and a warning before a setting that fouls (it is taken, and loses), a House
// way button and a Set button enabled when exactly two cards are chosen; the dealer's
// seven face down until the showdown, which shows both hands of the box and of the dealer
// (set by the house way) and, on a win, the commission in euros. Where the rules let a
// player bank, the deal offers a choice beside the stake (bet against the house's bank,
// or be the bank: the dealer's hand plays against the player's and copies are the
// bank's) with the rule that a bank follows a round against the house's bank, for at
// most its bet and the rule data's share more; a bank's result is read from its side.
// The page (banked.js) sends the deal and the decisions; this module draws the game's
// own parts.

import { addStrings, cardEl, el, euros, t } from "./core.js";

export const PAI_GOW = "pai-gow-poker";
const BANK = "bank"; // the spot of a box that banks
// The deal's side, kept as the player left it from round to round: against the house's
// bank (the ante) or banking.
const side = { bank: false };

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
    "paigow.who_banks": "Kuka on pankki", "paigow.vs_house": "Pelaa talon pankkia vastaan",
    "paigow.be_bank": "Ole pankki", "paigow.bank_stake": "Pankki (€)", "banked.spot.bank": "Pankki",
    "paigow.bank_rule": "Pankkina jakajan käsi (talon tapa) pelaa sinun kättäsi vastaan yhtä suurella panoksella, ja kopiot ovat pankin.",
    "paigow.bank_follows": "Voit olla pankki talon pankkia vastaan pelatun kierroksen jälkeen, enintään sen panos + {percent} %.",
    "paigow.bank_after": "Voit olla pankki, kun olet pelannut talon pankkia vastaan, enintään viimeisin panoksesi + {percent} %.",
    "paigow.banking": "Olet pankki: jakajan käsi pelaa sinun kättäsi vastaan, ja kopiot ovat pankin.",
    "paigow.banked": "Olit pankki: jakajan käsi pelasi sinun kättäsi vastaan, ja kopiot olivat pankin.",
    "paigow.who.copy_bank": "tasan, pankin",
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
    "paigow.who_banks": "Vem är bank", "paigow.vs_house": "Spela mot husets bank",
    "paigow.be_bank": "Var bank", "paigow.bank_stake": "Bank (€)", "banked.spot.bank": "Bank",
    "paigow.bank_rule": "Som bank spelar givens hand (husets sätt) mot din med lika stor insats, och kopior är bankens.",
    "paigow.bank_follows": "Du kan vara bank efter en omgång mot husets bank, högst dess insats + {percent} %.",
    "paigow.bank_after": "Du kan vara bank när du har spelat mot husets bank, högst din senaste insats + {percent} %.",
    "paigow.banking": "Du är bank: givens hand spelar mot din, och kopior är bankens.",
    "paigow.banked": "Du var bank: givens hand spelade mot din, och kopior var bankens.",
    "paigow.who.copy_bank": "lika, bankens",
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
    "paigow.who_banks": "Who banks", "paigow.vs_house": "Bet against the house's bank",
    "paigow.be_bank": "Be the bank", "paigow.bank_stake": "Bank (€)", "banked.spot.bank": "Bank",
    "paigow.bank_rule": "As the bank, the dealer's hand (set by the house way) plays against yours for as much, and copies are the bank's.",
    "paigow.bank_follows": "You may bank after a round against the house's bank, for at most its bet + {percent} %.",
    "paigow.bank_after": "You may bank once you have bet against the house's bank, for at most your last bet + {percent} %.",
    "paigow.banking": "You bank: the dealer's hand plays against yours, and copies are the bank's.",
    "paigow.banked": "You banked: the dealer's hand played against yours, and copies were the bank's.",
    "paigow.who.copy_bank": "a copy, the bank's",
  },
});

/** The deal's stake and, where the rules let a player bank, the choice of side beside it:
 * two buttons, one pressed (against the house's bank, or be the bank), the stake's label
 * following it. ``amountInput(id, label, value)`` is the page's amount field; the stake
 * keeps its id (#banked-ante) either way. */
export function paiGowStake(rules, amountInput) {
  const label = () => t(side.bank ? "paigow.bank_stake" : "banked.ante");
  const input = amountInput("banked-ante", label(), euros(rules.min).replace(/\s*€$/, ""));
  if (!rules.spots.includes(BANK)) return [input];
  const buttons = ["house", BANK].map((which) => el("button", { type: "button", class: "paigow-side",
    "data-side": which, "aria-pressed": String(side.bank === (which === BANK)),
    text: t(which === BANK ? "paigow.be_bank" : "paigow.vs_house"), onclick: () => {
      side.bank = which === BANK;
      for (const button of buttons) {
        button.setAttribute("aria-pressed", String(side.bank === (button.dataset.side === BANK)));
      }
      input.querySelector("span").textContent = label();
    } }));
  return [el("div", { class: "paigow-sides", role: "group", "aria-label": t("paigow.who_banks") }, buttons),
    input];
}

/** The rule of banking under the deal: what a bank plays against and when it may bank. */
export function paiGowBankNote(rules) {
  if (!rules.spots.includes(BANK)) return [];
  return [el("p", { class: "small paigow-bank-rule", text: bankRule(rules.pays) })];
}

function bankRule(pays) {
  const percent = pays.bank_most_percent - 100;
  return `${t("paigow.bank_rule")} `
    + t(pays.bank_house_between ? "paigow.bank_follows" : "paigow.bank_after", { percent });
}

/** The deal's bets: the stake on the bank when the player banks, else on the ante. */
export function paiGowBets(rules, bets) {
  return side.bank && rules.spots.includes(BANK) && bets.ante ? { [BANK]: bets.ante } : bets;
}

/** Whether the player banks the round. */
function banks(round) {
  return (round.bets ?? []).some((b) => b.spot === BANK);
}

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
  if (banks(round)) parts.unshift(el("p", { class: "paigow-banking", text: t("paigow.banking") }));
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
 * (the engine's "win: high box, low box", "push: high box, low copy", "lose, fouled"; a
 * bank's read from its side, its copies its own: "win: high copy, low box (the bank's)"). */
export function paiGowResult(result) {
  const found = String(result)
    .match(/^(win|push|lose)(?:: high (\w+), low (\w+)( \(the bank's\))?|, fouled)?$/);
  if (!found) return result;
  const word = t(`banked.res.${found[1]}`);
  const who = (taken) => t(`paigow.who.${taken === "copy" && found[4] ? "copy_bank" : taken}`);
  if (found[2]) return t("paigow.res", { word, high: who(found[2]), low: who(found[3]) });
  return result.endsWith("fouled") ? t("paigow.res_fouled", { word }) : word;
}

/** After the settlements: the commission taken on a win, in euros, and the summary. */
export function paiGowSummary(round, rules) {
  const parts = banks(round) ? [el("p", { class: "paigow-banked", text: t("paigow.banked") })] : [];
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
      el("li", { text: t("paigow.note_house") }),
      pays.player_banks ? el("li", { class: "paigow-bank-rule", text: bankRule(pays) }) : null),
  ];
}
