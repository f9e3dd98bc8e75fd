// Three Card Poker, Red Dog and Ultimate Texas Hold'em in the browser (#/banked/GAME),
// each player at their own RNG table: the bets in euros (Three Card Poker's ante and
// Pair Plus, Red Dog's ante, Ultimate Texas Hold'em's ante, its equal blind and Trips),
// Deal, then the decisions the round allows (play or fold; raise up to the ante or
// stand; Ultimate Texas Hold'em's check or play 4x/3x before the flop, check or play 2x
// on it and play 1x or fold after the river, the board turned between them) and every
// bet's settlement. A round waiting for its decision comes back on a reload (GGPoker
// house rules 2.3). Every request carries a new idempotency key; a refusal is shown in
// the player's language and changes nothing. Texas Hold'em Bonus goes as Ultimate Texas
// Hold'em does: the ante and the Bonus, then fold or the flop bet (2x), check or the turn
// bet (1x), check or the river bet (1x), the board turned between them. Oasis Stud
// Poker's own parts (the cards chosen to exchange, the fee, the showdown) are oasis.js's;
// Pai Gow Poker's (the side at the deal, against the house's bank or banking; the low
// hand chosen, the house way, a foul warned of, both hands and the commission)
// pai_gow.js's; Russian Poker's (the draw, the bet, a game bought for the dealer, the
// combinations paid) russian.js's.

import {
  $, addStrings, api, ApiError, cardEl, el, euros, parseEuros, setBalance, setMessage,
  showView, state, t, uniqueKey,
} from "./core.js";
import { OASIS, oasisControls, oasisHands, oasisPays, oasisStage } from "./oasis.js";
import {
  PAI_GOW, paiGowBankNote, paiGowBets, paiGowControls, paiGowHands, paiGowPays, paiGowResult,
  paiGowStage, paiGowStake, paiGowSummary,
} from "./pai_gow.js";
import {
  RUSSIAN, russianControls, russianHands, russianPays, russianResult, russianSpot, russianStage,
} from "./russian.js";

addStrings({
  fi: {
    "bet.ante": "Ante", "bet.pair-plus": "Pair Plus", "bet.play": "Play-panos", "bet.raise": "Korotus",
    "banked.ante": "Ante (€)", "banked.pair-plus": "Pair Plus (€)", "banked.deal": "Jaa",
    "banked.play": "Pelaa", "banked.fold": "Luovuta", "banked.stand": "Älä korota",
    "banked.raise": "Korota", "banked.raise_amount": "Korotus (€)",
    "banked.dealer": "Jakaja", "banked.you": "Sinun korttisi", "banked.cards": "Kortit",
    "banked.spread": "Väli {spread}, maksaa {pays}:1", "banked.standard": "Vakiosäännöt",
    "banked.standard_full": "Vakiosäännöt: RAY:n sääntökirjassa, sellaisena kuin se on poimittu, ei ole tämän pelin tekstiä",
    "banked.limits": "Panos {min} – {max}", "banked.staked": "Panokset {amount}",
    "banked.result": "Kierros {round}: panokset {staked}, maksettu {paid}",
    "banked.resumed": "Kierros odottaa päätöstäsi.", "banked.pays": "Voitonmaksut",
    "banked.bad_amount": "Anna summa euroina, esim. 5 tai 2.50.",
    "banked.spot.ante": "Ante", "banked.spot.pair-plus": "Pair Plus",
    "banked.spot.play": "Play", "banked.spot.raise": "Korotus",
    "banked.res.win": "voitto", "banked.res.lose": "häviö", "banked.res.push": "tasapeli",
    "banked.res.fold": "luovutettu",
    "bet.blind": "Blind", "bet.trips": "Trips",
    "banked.trips": "Trips (€)", "banked.check": "Sökö", "banked.play_times": "Pelaa {n}× · {amount}",
    "banked.progressive": "Progressiivinen jackpot {fee}", "banked.pool": "Potti {amount}",
    "banked.spot.progressive": "Progressiivinen", "banked.bet.progressive": "Progressiivinen",
    "banked.jackpot_won": "Progressiivinen jackpot maksaa {percent} % potista: {amount}",
    "banked.progressive_note": "Jackpot maksaa kahdesta kortistasi ja flopista, myös jos luovutat.",
    "banked.board": "Pöytäkortit", "banked.spot.blind": "Blind", "banked.spot.trips": "Trips",
    "banked.blind_note": "Blind on yhtä suuri kuin ante ja asetetaan sen mukana.",
    "banked.street.preflop": "Ennen floppia", "banked.street.flop": "Flopilla",
    "banked.street.river": "Riverin jälkeen",
    "banked.uth_plays": "Play-panos: ennen floppia {preflop} antesta, flopilla 2×, riverin jälkeen 1× (tai luovuta).",
    "banked.uth_qualifies": "Jakaja pelaa parilla tai paremmalla; muuten ante on tasapeli.",
    "banked.uth_blind": "Blind maksaa, kun voitat suoralla tai paremmalla; pienemmällä voittavalla kädellä blind on tasapeli.",
    // Hand names as RAY 2016 (fi) and 2015 (sv) 1.4.1.1.1 give them.
    "hand.high_card": "Korkein kortti", "hand.pair": "Pari", "hand.two_pair": "Kaksi paria", "hand.three_of_a_kind": "Kolmoset", "hand.straight": "Suora",
    "hand.flush": "Väri", "hand.full_house": "Täyskäsi", "hand.four_of_a_kind": "Neloset", "hand.straight_flush": "Värisuora", "hand.royal_flush": "Royal Flush",
    "banked.ante_bonus": "Ante-bonus",
  },
  sv: {
    "bet.ante": "Ante", "bet.pair-plus": "Pair Plus", "bet.play": "Play-insats", "bet.raise": "Höjning",
    "banked.ante": "Ante (€)", "banked.pair-plus": "Pair Plus (€)", "banked.deal": "Dela",
    "banked.play": "Spela", "banked.fold": "Lägg ner", "banked.stand": "Höj inte",
    "banked.raise": "Höj", "banked.raise_amount": "Höjning (€)",
    "banked.dealer": "Given", "banked.you": "Dina kort", "banked.cards": "Korten",
    "banked.spread": "Spread {spread}, betalar {pays}:1", "banked.standard": "Standardregler",
    "banked.standard_full": "Standardregler: RAY:s text för detta spel finns inte i regelboken som den extraherats",
    "banked.limits": "Insats {min} – {max}", "banked.staked": "Insatser {amount}",
    "banked.result": "Omgång {round}: insatser {staked}, utbetalt {paid}",
    "banked.resumed": "Omgången väntar på ditt beslut.", "banked.pays": "Utbetalningar",
    "banked.bad_amount": "Ange ett belopp i euro, t.ex. 5 eller 2.50.",
    "banked.spot.ante": "Ante", "banked.spot.pair-plus": "Pair Plus",
    "banked.spot.play": "Play", "banked.spot.raise": "Höjning",
    "banked.res.win": "vinst", "banked.res.lose": "förlust", "banked.res.push": "oavgjort",
    "banked.res.fold": "lagd",
    "bet.blind": "Blind", "bet.trips": "Trips",
    "banked.trips": "Trips (€)", "banked.check": "Passa", "banked.play_times": "Spela {n}× · {amount}",
    "banked.progressive": "Progressiv jackpot {fee}", "banked.pool": "Pott {amount}",
    "banked.spot.progressive": "Progressiv", "banked.bet.progressive": "Progressiv",
    "banked.jackpot_won": "Den progressiva jackpotten betalar {percent} % av potten: {amount}",
    "banked.progressive_note": "Jackpotten betalar på dina två kort och floppen, även om du lägger dig.",
    "banked.board": "Bordskorten", "banked.spot.blind": "Blind", "banked.spot.trips": "Trips",
    "banked.blind_note": "Blind är lika stor som ante och läggs med den.",
    "banked.street.preflop": "Före floppen", "banked.street.flop": "På floppen",
    "banked.street.river": "Efter rivern",
    "banked.uth_plays": "Play-insats: före floppen {preflop} ante, på floppen 2×, efter rivern 1× (eller lägg ner).",
    "banked.uth_qualifies": "Given kvalificerar med ett par eller bättre; annars är ante oavgjort.",
    "banked.uth_blind": "Blind betalar när du vinner med stege eller bättre; med en lägre vinnande hand är blind oavgjord.",
    // Hand names as RAY 2016 (fi) and 2015 (sv) 1.4.1.1.1 give them.
    "hand.high_card": "Högsta kortet", "hand.pair": "Par", "hand.two_pair": "Två par", "hand.three_of_a_kind": "Triss", "hand.straight": "Stege",
    "hand.flush": "Färg", "hand.full_house": "Kåk", "hand.four_of_a_kind": "Fyrtal", "hand.straight_flush": "Färgstege", "hand.royal_flush": "Royal Flush",
    "banked.ante_bonus": "Antebonus",
  },
  en: {
    "bet.ante": "Ante", "bet.pair-plus": "Pair Plus", "bet.play": "Play bet", "bet.raise": "Raise",
    "banked.ante": "Ante (€)", "banked.pair-plus": "Pair Plus (€)", "banked.deal": "Deal",
    "banked.play": "Play", "banked.fold": "Fold", "banked.stand": "Stand",
    "banked.raise": "Raise", "banked.raise_amount": "Raise (€)",
    "banked.dealer": "Dealer", "banked.you": "Your cards", "banked.cards": "Cards",
    "banked.spread": "Spread {spread}, pays {pays}:1", "banked.standard": "Standard rules",
    "banked.standard_full": "Standard rules: RAY's text for this game is not in the rulebook as extracted",
    "banked.limits": "Bet {min} – {max}", "banked.staked": "Bets {amount}",
    "banked.result": "Round {round}: staked {staked}, paid {paid}",
    "banked.resumed": "The round waits for your decision.", "banked.pays": "Pay tables",
    "banked.bad_amount": "Give an amount in euros, e.g. 5 or 2.50.",
    "banked.spot.ante": "Ante", "banked.spot.pair-plus": "Pair Plus",
    "banked.spot.play": "Play", "banked.spot.raise": "Raise",
    "banked.res.win": "win", "banked.res.lose": "lose", "banked.res.push": "push",
    "banked.res.fold": "folded",
    "bet.blind": "Blind", "bet.trips": "Trips",
    "banked.trips": "Trips (€)", "banked.check": "Check", "banked.play_times": "Play {n}× · {amount}",
    "banked.progressive": "Progressive jackpot {fee}", "banked.pool": "Pool {amount}",
    "banked.spot.progressive": "Progressive", "banked.bet.progressive": "Progressive",
    "banked.jackpot_won": "The progressive pays {percent} % of the pool: {amount}",
    "banked.progressive_note": "The jackpot pays on your two cards and the flop, even if you fold.",
    "banked.board": "Board", "banked.spot.blind": "Blind", "banked.spot.trips": "Trips",
    "banked.blind_note": "The blind equals the ante and is placed with it.",
    "banked.street.preflop": "Before the flop", "banked.street.flop": "On the flop",
    "banked.street.river": "After the river",
    "banked.uth_plays": "Play bet: {preflop} the ante before the flop, 2× on the flop, 1× after the river (or fold).",
    "banked.uth_qualifies": "The dealer qualifies with a pair or better; if not, the ante pushes.",
    "banked.uth_blind": "The blind pays on a winning straight or better; a lesser winning hand pushes it.",
    // Hand names as RAY 2016 (fi) and 2015 (sv) 1.4.1.1.1 give them.
    "hand.high_card": "High card", "hand.pair": "Pair", "hand.two_pair": "Two pair", "hand.three_of_a_kind": "Three of a kind", "hand.straight": "Straight",
    "hand.flush": "Flush", "hand.full_house": "Full house", "hand.four_of_a_kind": "Four of a kind", "hand.straight_flush": "Straight flush", "hand.royal_flush": "Royal flush",
    "banked.ante_bonus": "Ante bonus",
  },
});

const banked = { list: null, game: null, rules: null, round: null, busy: false, progressive: false,
  picked: new Set() }; // Oasis Stud and Russian Poker's cards chosen to exchange, Pai Gow's low hand
const UTH = "ultimate-texas-holdem";
const THB = "texas-holdem-bonus";
const HOLDEM = [UTH, THB]; // the games with a board, turned street by street
// The hold'em games' decision points as the server names them, by string key.
const STREETS = { "before the flop": "preflop", "on the flop": "flop", "on the turn": "turn",
  "after the river": "river" };
const ART = { "red-dog": "♦", [UTH]: "♠", [THB]: "♥", [OASIS]: "♧", [PAI_GOW]: "♤", [RUSSIAN]: "♢" };

// Texas Hold'em Bonus: its bets, buttons, notes and the Bonus table's hands.
addStrings({
  fi: {
    "bet.bonus": "Bonus", "bet.flop": "Flop-panos", "bet.turn": "Turn-panos", "bet.river": "River-panos",
    "banked.bonus": "Bonus (€)", "banked.spot.bonus": "Bonus", "banked.spot.flop": "Flop",
    "banked.spot.turn": "Turn", "banked.spot.river": "River", "banked.street.turn": "Turnilla",
    "banked.bet_street": "{street}-panos · {amount}", "banked.below": "pienempi kuin {hand}",
    "banked.thb_ante": "Voittava käsi voittaa anten 1:1, kun se on {hand} tai parempi; muuten ante on tasapeli.",
    "banked.thb_bets": "Ennen floppia luovuta tai panosta flop (2× ante); flopilla ja turnilla sökö tai panosta 1× ante. Voittava käsi voittaa flop-, turn- ja river-panoksen 1:1, tasapeli palauttaa ne.",
    "banked.thb_bonus": "Bonus maksetaan kahdesta kortistasi, myös jos luovutat.",
    "banked.thb_bonus_fold": "Luovutus häviää myös Bonus-panoksen.",
    "banked.progressive_note_fold": "Jackpot maksaa kahdesta kortistasi ja flopista; jos luovutat, menetät sen.",
    "hand.aces_against_aces": "Ässäpari jakajan ässäparia vastaan", "hand.aces": "Ässäpari",
    "hand.ace_king_suited": "Ässä ja kuningas samaa maata", "hand.ace_queen_or_jack_suited": "Ässä ja rouva tai jätkä samaa maata",
    "hand.ace_king": "Ässä ja kuningas", "hand.kings_queens_or_jacks": "Kuningas-, rouva- tai jätkäpari",
    "hand.ace_queen_or_jack": "Ässä ja rouva tai jätkä", "hand.twos_to_tens": "Pari kakkosista kymppeihin",
  },
  sv: {
    "bet.bonus": "Bonus", "bet.flop": "Flop-insats", "bet.turn": "Turn-insats", "bet.river": "River-insats",
    "banked.bonus": "Bonus (€)", "banked.spot.bonus": "Bonus", "banked.spot.flop": "Flop",
    "banked.spot.turn": "Turn", "banked.spot.river": "River", "banked.street.turn": "På turn",
    "banked.bet_street": "{street}-insats · {amount}", "banked.below": "lägre än {hand}",
    "banked.thb_ante": "En vinnande hand vinner ante 1:1 med {hand} eller bättre; annars är ante oavgjort.",
    "banked.thb_bets": "Före floppen lägg ner eller satsa flop (2× ante); på floppen och turn checka eller satsa 1× ante. En vinnande hand vinner flop-, turn- och river-insatsen 1:1, oavgjort ger dem tillbaka.",
    "banked.thb_bonus": "Bonus betalas på dina två kort, även om du lägger ner.",
    "banked.thb_bonus_fold": "Den som lägger ner förlorar också bonusinsatsen.",
    "banked.progressive_note_fold": "Jackpotten betalar på dina två kort och floppen; den som lägger ner förlorar den.",
    "hand.aces_against_aces": "Par i ess mot givens par i ess", "hand.aces": "Par i ess",
    "hand.ace_king_suited": "Ess och kung i samma färg", "hand.ace_queen_or_jack_suited": "Ess och dam eller knekt i samma färg",
    "hand.ace_king": "Ess och kung", "hand.kings_queens_or_jacks": "Par i kungar, damer eller knektar",
    "hand.ace_queen_or_jack": "Ess och dam eller knekt", "hand.twos_to_tens": "Par i tvåor till tior",
  },
  en: {
    "bet.bonus": "Bonus", "bet.flop": "Flop bet", "bet.turn": "Turn bet", "bet.river": "River bet",
    "banked.bonus": "Bonus (€)", "banked.spot.bonus": "Bonus", "banked.spot.flop": "Flop",
    "banked.spot.turn": "Turn", "banked.spot.river": "River", "banked.street.turn": "On the turn",
    "banked.bet_street": "{street} bet · {amount}", "banked.below": "below {hand}",
    "banked.thb_ante": "A winning hand wins the ante 1:1 with {hand} or better; below it the ante pushes.",
    "banked.thb_bets": "Before the flop fold or bet the flop (2× the ante); on the flop and the turn check or bet 1× the ante. A winning hand wins the flop, turn and river bets 1:1; a tie pushes them.",
    "banked.thb_bonus": "The Bonus pays on your two cards, even if you fold.",
    "banked.thb_bonus_fold": "A fold loses the Bonus bet too.",
    "banked.progressive_note_fold": "The jackpot pays on your two cards and the flop; a fold loses it.",
    "hand.aces_against_aces": "Aces against the dealer's aces", "hand.aces": "Pair of aces",
    "hand.ace_king_suited": "Ace-king suited", "hand.ace_queen_or_jack_suited": "Ace-queen or ace-jack suited",
    "hand.ace_king": "Ace-king", "hand.kings_queens_or_jacks": "Kings, queens or jacks",
    "hand.ace_queen_or_jack": "Ace-queen or ace-jack", "hand.twos_to_tens": "A pair of twos to tens",
  },
});

/** A hand's category as the engine names it ("three_of_a_kind", or Three Card Poker's
 * "three of a kind") in the player's language: "Kolmoset", "Triss", "Three of a kind". */
const handName = (hand) => {
  const key = `hand.${String(hand).replace(/ /g, "_")}`;
  const name = t(key);
  return name === key ? String(hand).replace(/_/g, " ") : name;
};

/** The banked games of the lobby (empty when the server has none or cannot say). */
export async function bankedList() {
  if (!banked.list) {
    try {
      banked.list = (await api("/api/banked")).games ?? [];
    } catch {
      return [];
    }
  }
  return banked.list;
}

/** The lobby's card of each banked game: its name, limits and a Play link. */
export function bankedCards(list) {
  return list.map((game) => el("article", { class: "game-card banked-card", "data-game": game.game },
    el("div", { class: "game-art", "aria-hidden": "true", text: ART[game.game] ?? "♣" }),
    el("h3", { text: game.name[state.lang] ?? game.name.en }),
    el("p", { class: "small", text: `${t("banked.standard")} · `
      + t("banked.limits", { min: euros(game.min), max: euros(game.max) }) }),
    el("a", { class: "button primary game-open", href: `#/banked/${encodeURIComponent(game.game)}`,
      "data-game": game.game, text: t("lobby.play") })));
}

export async function openBanked(game) {
  const rules = await api(`/api/banked/${encodeURIComponent(game)}`);
  if (state.route.split("/")[1] !== game) return; // the player went on meanwhile
  banked.game = game;
  banked.rules = rules;
  banked.round = rules.playing;
  banked.busy = false;
  banked.picked = new Set();
  render();
  setMessage($("#banked-message"), rules.playing ? t("banked.resumed") : "", "info");
  showView("banked");
}

export function rerenderBanked() {
  if (banked.rules) render();
}

function render() {
  const rules = banked.rules;
  const view = $("#banked-view");
  view.dataset.game = banked.game;
  view.dataset.status = banked.round?.status ?? "none";
  view.dataset.round = String(banked.round?.round_id ?? 0);
  // Ultimate Texas Hold'em's round stays the same between its decisions: the street (and
  // the board's cards) tell the page's states apart.
  view.dataset.street = STREETS[banked.round?.street]
    ?? (banked.game === OASIS ? oasisStage(banked.round)
      : banked.game === PAI_GOW ? paiGowStage(banked.round)
        : banked.game === RUSSIAN ? russianStage(banked.round) : "");
  $("#banked-title").textContent = rules.name[state.lang] ?? rules.name.en;
  $("#banked-note").textContent = `${t("banked.standard_full")} · `
    + t("banked.limits", { min: euros(rules.min), max: euros(rules.max) });
  renderTable();
  renderControls();
  renderPays();
}

function renderTable() {
  const round = banked.round;
  const table = $("#banked-table");
  if (!round) {
    table.replaceChildren();
    return;
  }
  const parts = [];
  if (HOLDEM.includes(banked.game)) {
    parts.push(...uthHands(round));
  } else if (banked.game === OASIS) {
    parts.push(...oasisHands(round, banked.picked, pick, handName));
  } else if (banked.game === PAI_GOW) {
    parts.push(...paiGowHands(round, banked.picked, pick, handName));
  } else if (banked.game === RUSSIAN) {
    parts.push(...russianHands(round, banked.picked, pick, handName));
  } else if (banked.game === "three-card-poker") {
    const dealer = round.dealer?.length ? round.dealer : [null, null, null];
    parts.push(el("div", { class: "banked-hand banked-dealer" },
      el("span", { class: "small", text: round.dealer_hand
        ? `${t("banked.dealer")}: ${handName(round.dealer_hand)}` : t("banked.dealer") }),
      el("div", { class: "cards" }, dealer.map((c) => cardEl(c)))));
    parts.push(el("div", { class: "banked-hand banked-player" },
      el("span", { class: "small", text: round.hand
        ? `${t("banked.you")}: ${handName(round.hand)}` : t("banked.you") }),
      el("div", { class: "cards" }, (round.cards ?? []).map((c) => cardEl(c)))));
  } else {
    parts.push(el("div", { class: "banked-hand banked-player" },
      el("span", { class: "small", text: round.spread
        ? t("banked.spread", { spread: round.spread, pays: round.pays }) : t("banked.cards") }),
      el("div", { class: "cards" }, (round.cards ?? []).map((c) => cardEl(c)))));
  }
  if (round.status === "settled") {
    parts.push(el("ul", { class: "banked-settlements" }, (round.settlements ?? []).map((s) =>
      el("li", { "data-bet": s.spot, "data-paid": s.paid, text:
        `${spotName(s.spot)}: ${euros(s.stake)} → ${euros(s.paid)} `
        + (banked.game === RUSSIAN ? `(${russianResult(s.result, handName)})`
          : s.spot === "exchange" ? `(${t("banked.res.fee")})` // Oasis Stud Poker's fee
          : banked.game === PAI_GOW ? `(${paiGowResult(s.result)})`
            : `(${t(`banked.res.${s.result.split(",")[0]}`)}${detail(s.result)})`) }))));
    if (banked.game === PAI_GOW) {
      parts.push(...paiGowSummary(round, banked.rules));
      return table.replaceChildren(...parts);
    }
    if (round.jackpot) {
      parts.push(el("p", { class: "banked-jackpot", "data-paid": round.jackpot.paid, text: t("banked.jackpot_won", {
        percent: round.jackpot.percent, amount: euros(round.jackpot.paid) }) }));
    }
    parts.push(el("p", { class: "banked-summary", role: "status", text: t("banked.result", {
      round: round.round_id, staked: euros(round.staked), paid: euros(round.paid ?? 0) }) }));
  } else {
    if (HOLDEM.includes(banked.game) || [OASIS, PAI_GOW, RUSSIAN].includes(banked.game)) {
      parts.push(el("ul", { class: "banked-bets small", style: "margin: 0; padding-left: 1.2rem" },
        (round.bets ?? []).map((b) => el("li", { "data-bet": b.spot,
          text: `${spotName(b.spot)}: ${euros(b.stake)}` }))));
    }
    parts.push(el("p", { class: "small", text: t("banked.staked", { amount: euros(round.staked) }) }));
  }
  table.replaceChildren(...parts);
}

/** A bet's spot in the player's language (Russian Poker calls its raise the bet). */
function spotName(spot) {
  return banked.game === RUSSIAN ? russianSpot(spot) : t(`banked.spot.${spot}`);
}

/** A settlement's detail after its word: as the engine says it, or for Texas Hold'em
 * Bonus with its hand in the page's language ("aces 30:1", "below a straight"). */
function detail(result) {
  const tail = result.includes(",") ? result.slice(result.indexOf(",") + 2) : "";
  if (!tail) return "";
  if (banked.game === OASIS && tail === "the dealer does not qualify") return `, ${t("banked.no_qualify")}`;
  if (banked.game !== THB && banked.game !== OASIS) return `, ${tail}`;
  const below = tail.match(/^below an? (.+)$/);
  if (below) return `, ${t("banked.below", { hand: handName(below[1]) })}`;
  const odds = tail.match(/^(.+) (\d+:1)$/);
  return odds ? `, ${handName(odds[1])} ${odds[2]}` : `, ${tail}`;
}

/** The hold'em games' table: the dealer's two cards (face down until the round is
 * settled), the board's five places and the player's two cards with their hand. */
function uthHands(round) {
  const dealer = round.dealer?.length ? round.dealer : [null, null];
  const board = round.board ?? [];
  const street = STREETS[round.street];
  return [
    el("div", { class: "banked-hand banked-dealer" },
      el("span", { class: "small", text: round.dealer_hand
        ? `${t("banked.dealer")}: ${handName(round.dealer_hand)}` : t("banked.dealer") }),
      el("div", { class: "cards" }, dealer.map((c) => cardEl(c)))),
    el("div", { class: "banked-hand banked-board" },
      el("span", { class: "small", text: street && round.status === "playing"
        ? `${t("banked.board")} · ${t(`banked.street.${street}`)}` : t("banked.board") }),
      el("div", { class: "cards" }, Array.from({ length: 5 }, (_, i) => (board[i]
        ? cardEl(board[i], { small: true }) : el("span", { class: "pcard slot small" }))))),
    el("div", { class: "banked-hand banked-player" },
      el("span", { class: "small", text: round.hand
        ? `${t("banked.you")}: ${handName(round.hand)}` : t("banked.you") }),
      el("div", { class: "cards" }, (round.cards ?? []).map((c) => cardEl(c)))),
  ];
}

function amountInput(id, label, value) {
  return el("label", { class: "slot-choice" }, el("span", { text: label }),
    el("input", { id, type: "text", inputmode: "decimal", value, autocomplete: "off" }));
}

function renderControls() {
  const box = $("#banked-controls");
  const round = banked.round;
  if (round?.status === "playing" && banked.game === OASIS) {
    box.replaceChildren(el("div", { class: "banked-decide" }, oasisControls(round, banked.rules, banked.picked, send)));
    return;
  }
  if (round?.status === "playing" && banked.game === RUSSIAN) {
    box.replaceChildren(el("div", { class: "banked-decide" }, russianControls(round, banked.rules, banked.picked, send)));
    return;
  }
  if (round?.status === "playing" && banked.game === PAI_GOW) {
    box.replaceChildren(el("div", { class: "banked-decide" }, paiGowControls(round, banked.picked, send)));
    return;
  }
  if (round?.status === "playing") {
    const buttons = [];
    const raises = round.actions.filter((a) => a.startsWith("raise "));
    if (raises.length) {
      const top = Math.max(...raises.map((a) => Number(a.split(" ")[1])));
      buttons.push(amountInput("banked-raise-amount", t("banked.raise_amount"), euros(top).replace(/\s*€$/, "")));
      buttons.push(el("button", { type: "button", class: "primary", "data-action": "raise",
        text: t("banked.raise"), onclick: () => {
          const cents = parseEuros($("#banked-raise-amount").value);
          if (cents === null) return setMessage($("#banked-message"), t("banked.bad_amount"));
          return send("decide", { action: "raise", amount: cents });
        } }));
    }
    const ante = (round.bets ?? []).find((b) => b.spot === "ante")?.stake ?? 0;
    for (const action of round.actions.filter((a) => !a.startsWith("raise "))) {
      const [word, times] = action.split(" "); // Ultimate Texas Hold'em's "play 3"
      if (word === "bet") { // Texas Hold'em Bonus' "bet flop": its street's multiple of the ante
        const amount = (banked.rules.pays.street_bets?.[times] ?? 0) * ante;
        buttons.push(el("button", { type: "button", class: "primary", "data-action": "bet", "data-street": times,
          text: t("banked.bet_street", { street: t(`banked.spot.${times}`), amount: euros(amount) }),
          onclick: () => send("decide", { action: "bet", street: times }) }));
        continue;
      }
      const multiple = times ? Number(times) : null;
      buttons.push(el("button", { type: "button", class: word === "play" ? "primary" : "",
        "data-action": word, ...(multiple ? { "data-multiple": String(multiple) } : {}),
        text: multiple ? t("banked.play_times", { n: multiple, amount: euros(multiple * ante) })
          : t(`banked.${word}`),
        onclick: () => send("decide", multiple ? { action: word, multiple } : { action: word }) }));
    }
    box.replaceChildren(el("div", { class: "banked-decide" }, buttons));
    return;
  }
  const inputs = banked.game === PAI_GOW ? paiGowStake(banked.rules, amountInput) // one stake, a side
    : banked.rules.spots.map((spot) =>
      amountInput(`banked-${spot}`, t(`banked.${spot}`), spot === "ante" ? euros(banked.rules.min).replace(/\s*€$/, "") : ""));
  box.replaceChildren(...inputs, ...progressiveToggle(), el("button", { type: "button", id: "banked-deal", class: "primary spin",
    text: t("banked.deal"), onclick: deal }),
  ...(banked.game === UTH ? [el("p", { class: "small banked-blind-note", text: t("banked.blind_note") })] : []),
  ...(banked.game === PAI_GOW ? paiGowBankNote(banked.rules) : []));
}

/** Where the casino runs the game's progressive: a toggle for its fee, with the pool as it
 * stands. It stays as the player left it from round to round. */
function progressiveToggle() {
  const running = banked.rules.progressive;
  if (!running) return [];
  return [el("button", { type: "button", id: "banked-progressive", class: "toggle",
    "aria-pressed": String(banked.progressive === true), "data-pool": running.pool,
    text: `${t("banked.progressive", { fee: euros(running.fee) })} · ${t("banked.pool", { amount: euros(running.pool) })}`,
    onclick: (event) => {
      banked.progressive = !banked.progressive;
      event.currentTarget.setAttribute("aria-pressed", String(banked.progressive));
    } })];
}

function renderPays() {
  const pays = banked.rules.pays;
  if (banked.game === UTH) return renderUthPays(pays);
  if (banked.game === THB) return renderThbPays(pays);
  if (banked.game === OASIS) {
    return $("#banked-pays").replaceChildren(el("summary", { text: t("banked.pays") }), ...oasisPays(pays, handName));
  }
  if (banked.game === PAI_GOW) {
    return $("#banked-pays").replaceChildren(el("summary", { text: t("banked.pays") }), ...paiGowPays(pays, handName));
  }
  if (banked.game === RUSSIAN) {
    return $("#banked-pays").replaceChildren(el("summary", { text: t("banked.pays") }), ...russianPays(pays, handName));
  }
  const rows = banked.game === "three-card-poker"
    ? [...Object.entries(pays.ante_bonus).map(([hand, n]) => [`${t("banked.ante_bonus")}: ${handName(hand)}`, `${n}:1`]),
      ...Object.entries(pays.pair_plus).map(([hand, n]) => [`${t("banked.spot.pair-plus")}: ${handName(hand)}`, `${n}:1`])]
    : [...Object.entries(pays.spread).map(([spread, n]) => [`${t("banked.spread", { spread, pays: n })}`, `${n}:1`]),
      [handName("three_of_a_kind"), `${pays.three_of_a_kind}:1`]];
  $("#banked-pays").replaceChildren(el("summary", { text: t("banked.pays") }),
    el("table", { class: "data" }, el("tbody", {}, rows.map(([what, pay]) =>
      el("tr", {}, el("td", { text: what }), el("td", { text: pay }))))));
}

/** Ultimate Texas Hold'em's blind and Trips tables, with how the play bet and the
 * dealer's qualifying go. */
function renderUthPays(pays) {
  const rows = [
    ...Object.entries(pays.blind).map(([hand, ratio]) => ["blind", hand, ratio]),
    ...Object.entries(pays.trips).map(([hand, n]) => ["trips", hand, `${n}:1`]),
  ];
  const preflop = [...pays.preflop].sort((a, b) => b - a).map((n) => `${n}×`).join(" / ");
  $("#banked-pays").replaceChildren(el("summary", { text: t("banked.pays") }),
    el("table", { class: "data" }, el("tbody", {}, rows.map(([spot, hand, pay]) =>
      el("tr", { "data-table": spot, "data-hand": hand },
        el("td", { text: `${t(`banked.spot.${spot}`)}: ${handName(hand)}` }), el("td", { text: pay }))))),
    ...progressivePays(),
    el("ul", { class: "notes small" },
      el("li", { text: t("banked.uth_plays", { preflop }) }),
      el("li", { text: t("banked.uth_qualifies") }),
      el("li", { text: t("banked.uth_blind") })));
}

/** Texas Hold'em Bonus' Bonus table (the player's two cards) with how the ante and the
 * street bets go. */
function renderThbPays(pays) {
  $("#banked-pays").replaceChildren(el("summary", { text: t("banked.pays") }),
    el("table", { class: "data" }, el("tbody", {}, Object.entries(pays.bonus).map(([hand, n]) =>
      el("tr", { "data-table": "bonus", "data-hand": hand },
        el("td", { text: `${t("banked.spot.bonus")}: ${handName(hand)}` }), el("td", { text: `${n}:1` }))))),
    ...progressivePays("banked.progressive_note_fold"),
    el("ul", { class: "notes small" },
      el("li", { text: t("banked.thb_ante", { hand: handName(pays.ante_pays_from) }) }),
      el("li", { text: t("banked.thb_bets") }),
      el("li", { text: t(pays.fold_loses_bonus ? "banked.thb_bonus_fold" : "banked.thb_bonus") })));
}

/** The progressive's table (a share of the pool, or a fixed sum in euros) and its note
 * (Texas Hold'em Bonus' says a fold, before the flop, loses it). */
function progressivePays(note = "banked.progressive_note") {
  const running = banked.rules.progressive;
  if (!running) return [];
  return [el("table", { class: "data banked-progressive-pays" }, el("tbody", {},
    Object.entries(running.pays).map(([hand, pay]) => el("tr", { "data-table": "progressive", "data-hand": hand },
      el("td", { text: `${t("banked.spot.progressive")}: ${handName(hand)}` }),
      el("td", { text: typeof pay === "number" ? euros(pay) : pay }))))),
  el("p", { class: "small banked-progressive-note", text: t(note) })];
}

async function deal() {
  const bets = {};
  for (const spot of banked.game === PAI_GOW ? ["ante"] : banked.rules.spots) {
    const text = $(`#banked-${spot}`).value.trim();
    if (!text) continue;
    const cents = parseEuros(text);
    if (cents === null) return setMessage($("#banked-message"), t("banked.bad_amount"));
    if (cents > 0) bets[spot] = cents;
  }
  if (banked.rules.progressive && banked.progressive) bets.progressive = banked.rules.progressive.fee;
  if (!Object.keys(bets).length) return setMessage($("#banked-message"), t("banked.bad_amount"));
  return send("deal", { bets: banked.game === PAI_GOW ? paiGowBets(banked.rules, bets) : bets });
}

/** Oasis Stud and Russian Poker: a card tapped is chosen to exchange, or no longer; Pai
 * Gow Poker: for the low hand. */
function pick(card) {
  if (banked.busy) return;
  if (banked.picked.has(card)) banked.picked.delete(card);
  else banked.picked.add(card);
  renderTable();
  renderControls();
}

async function send(what, body) {
  if (banked.busy) return;
  banked.busy = true;
  const message = $("#banked-message");
  setMessage(message, "");
  try {
    const round = await api(`/api/banked/${encodeURIComponent(banked.game)}/${what}`,
      { method: "POST", body: { ...body, key: uniqueKey() } });
    banked.round = round;
    banked.picked = new Set(); // a new round, or its exchange made: nothing chosen
    setBalance(round.balance);
    if (round.status === "settled" && banked.rules.progressive) {
      // the pool has changed (a share paid, a seed restored): show it as it stands now
      const rules = await api(`/api/banked/${encodeURIComponent(banked.game)}`).catch(() => null);
      if (rules?.progressive) banked.rules.progressive = rules.progressive;
    }
    render();
  } catch (error) {
    if (error instanceof ApiError) setMessage(message, error.detail);
    else throw error;
  } finally {
    banked.busy = false;
  }
}
