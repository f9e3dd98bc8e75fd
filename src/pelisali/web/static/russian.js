// Russian Poker on the banked page (#/banked/russian-poker): the player's five cards as
// toggles to choose an exchange (each a 44 px target on a phone; the rule data's least
// number of cards before Exchange is enabled), the draw's price in euros on its buttons
// before it is sent (an exchange or a sixth card, one ante whatever the cards), the bet
// (2x the ante) and Fold; when the dealer does not qualify, the dealer's five face up with
// Take the ante (1:1) and Buy the dealer a game (its price in euros); then the showdown:
// the dealer's hand (the first hand, the cards put away and the bought game when a game
// was bought), the combinations the hand is paid for ("Pari + Ässä ja kuningas") and
// every bet, the prices among them. The page (banked.js) sends the decisions; this module
// draws the game's own parts, with the helpers it shares with Oasis Stud Poker.

import { addStrings, cardEl, el, euros, t } from "./core.js";
import { anteStake, cardToggles, dealerNamed, exchangeButton } from "./oasis.js";

export const RUSSIAN = "russian-poker";

addStrings({
  fi: {
    "bet.sixth": "Kuudes kortti", "bet.buy": "Jakajan peli",
    "banked.spot.sixth": "Kuudes kortti", "banked.spot.buy": "Jakajan peli",
    "russian.spot.raise": "Panos",
    "russian.bet": "Panos · {amount}",
    "russian.sixth": "Kuudes kortti · maksu {fee}",
    "russian.exchange_least": "Valitse vähintään {n} vaihdettavaa korttia",
    "russian.pick_note": "Vaihda kortteja tai osta kuudes kortti, kerran ennen panosta: napauta kortteja, jotka haluat vaihtaa.",
    "russian.pick_note_no_sixth": "Napauta kortteja, jotka haluat vaihtaa (kerran, ennen panosta).",
    "russian.sixth_bought": "Kuudes kortti ostettu · maksu {fee}",
    "russian.no_game": "Jakaja ei pelaa: ota ante (voitto 1:1, panos palautetaan) tai osta jakajalle peli.",
    "russian.take": "Ota ante 1:1 · {amount}",
    "russian.buy": "Osta jakajalle peli · {fee}",
    "russian.first": "Jakajan ensimmäinen käsi",
    "russian.put_away": "Pois pantu",
    "russian.bought": "Jakajalle ostettu peli",
    "russian.combinations": "Yhdistelmät: {list}",
    "russian.bet_alone": "vain panos maksetaan",
    "russian.note_draw": "Kerran ennen panosta, {price}× anten hinnalla: vaihda {least}–5 korttia tai osta kuudes kortti (kuudesta pelaa paras viisi). Hintaa ei palauteta.",
    "russian.note_exchange": "Kerran ennen panosta, {price}× anten hinnalla: vaihda {least}–5 korttia. Hintaa ei palauteta.",
    "russian.note_bet": "Luovuta (ante menetetään) tai panosta {n}× ante.",
    "russian.note_two": "Voittava panos maksetaan kahdesta parhaasta yhdistelmästä, joista toisessa on kortti, jota ensimmäisessä ei ole; ässä ja kuningas on yhdistelmä.",
    "russian.note_one": "Voittava panos maksetaan parhaasta yhdistelmästä.",
    "russian.note_ante": "Voittava käsi voittaa myös anten 1:1.",
    "russian.note_ante_push": "Voittavalla kädellä ante on tasapeli; vain panos maksetaan.",
    "russian.note_qualifies": "Jakaja pelaa ässä–kuninkaalla tai paremmalla; muuten ante voittaa 1:1 ja panos on tasapeli.",
    "russian.note_buy": "Kun jakaja ei pelaa, voit ottaa anten tai ostaa jakajalle pelin {price}× anten hinnalla (ei palauteta): jakajan korkein kortti pannaan pois, tilalle tulee pakan seuraava kortti ja peli ratkaistaan uutta kättä vastaan.",
    "russian.note_redraw": "Jos uusi kortti on samaa arvoa kuin pois pantu, sekin pannaan pois ja jakaja ottaa seuraavan.",
  },
  sv: {
    "bet.sixth": "Sjätte kortet", "bet.buy": "Givens spel",
    "banked.spot.sixth": "Sjätte kortet", "banked.spot.buy": "Givens spel",
    "russian.spot.raise": "Insats",
    "russian.bet": "Insats · {amount}",
    "russian.sixth": "Sjätte kortet · avgift {fee}",
    "russian.exchange_least": "Välj minst {n} kort att byta",
    "russian.pick_note": "Byt kort eller köp ett sjätte kort, en gång före insatsen: tryck på korten du vill byta.",
    "russian.pick_note_no_sixth": "Tryck på korten du vill byta (en gång, före insatsen).",
    "russian.sixth_bought": "Sjätte kortet köpt · avgift {fee}",
    "russian.no_game": "Given kvalificerar inte: ta ante (vinst 1:1, insatsen tillbaka) eller köp spel åt given.",
    "russian.take": "Ta ante 1:1 · {amount}",
    "russian.buy": "Köp spel åt given · {fee}",
    "russian.first": "Givens första hand",
    "russian.put_away": "Undanlagt",
    "russian.bought": "Spelet köpt åt given",
    "russian.combinations": "Kombinationer: {list}",
    "russian.bet_alone": "bara insatsen betalas",
    "russian.note_draw": "En gång före insatsen, för {price}× ante: byt {least}–5 kort eller köp ett sjätte kort (av sex spelar de bästa fem). Priset betalas inte tillbaka.",
    "russian.note_exchange": "En gång före insatsen, för {price}× ante: byt {least}–5 kort. Priset betalas inte tillbaka.",
    "russian.note_bet": "Lägg ner (ante förloras) eller satsa {n}× ante.",
    "russian.note_two": "En vinnande insats betalas för de två bästa kombinationerna, där den andra har ett kort som inte finns i den första; ess och kung är en kombination.",
    "russian.note_one": "En vinnande insats betalas för den bästa kombinationen.",
    "russian.note_ante": "En vinnande hand vinner också ante 1:1.",
    "russian.note_ante_push": "Med en vinnande hand är ante oavgjort; bara insatsen betalas.",
    "russian.note_qualifies": "Given kvalificerar med ess–kung eller bättre; annars vinner ante 1:1 och insatsen är oavgjord.",
    "russian.note_buy": "När given inte kvalificerar kan du ta ante eller köpa spel åt given för {price}× ante (betalas inte tillbaka): givens högsta kort läggs undan för nästa kort i leken, och spelet avgörs mot den nya handen.",
    "russian.note_redraw": "Är det nya kortet av samma valör som det undanlagda läggs också det undan och given tar nästa.",
  },
  en: {
    "bet.sixth": "Sixth card", "bet.buy": "Dealer's game",
    "banked.spot.sixth": "Sixth card", "banked.spot.buy": "Dealer's game",
    "russian.spot.raise": "Bet",
    "russian.bet": "Bet · {amount}",
    "russian.sixth": "Sixth card · fee {fee}",
    "russian.exchange_least": "Choose at least {n} cards to exchange",
    "russian.pick_note": "Exchange cards or buy a sixth card, once before you bet: tap the cards you want to exchange.",
    "russian.pick_note_no_sixth": "Tap the cards you want to exchange (once, before you bet).",
    "russian.sixth_bought": "Sixth card bought · fee {fee}",
    "russian.no_game": "The dealer does not qualify: take the ante (won 1:1, the bet returned) or buy the dealer a game.",
    "russian.take": "Take the ante 1:1 · {amount}",
    "russian.buy": "Buy the dealer a game · {fee}",
    "russian.first": "The dealer's first hand",
    "russian.put_away": "Put away",
    "russian.bought": "The dealer's bought game",
    "russian.combinations": "Combinations: {list}",
    "russian.bet_alone": "the bet alone is paid",
    "russian.note_draw": "Once before you bet, for {price}× the ante: exchange {least} to 5 cards or buy a sixth card (six cards play their best five). The price is not returned.",
    "russian.note_exchange": "Once before you bet, for {price}× the ante: exchange {least} to 5 cards. The price is not returned.",
    "russian.note_bet": "Fold (the ante is lost) or bet {n}× the ante.",
    "russian.note_two": "A winning bet is paid for its two best combinations, the second holding a card the first does not; ace-king is a combination.",
    "russian.note_one": "A winning bet is paid for its best combination.",
    "russian.note_ante": "A winning hand wins the ante 1:1 too.",
    "russian.note_ante_push": "With a winning hand the ante pushes; the bet alone is paid.",
    "russian.note_qualifies": "The dealer qualifies with ace-king or better; if not, the ante wins 1:1 and the bet pushes.",
    "russian.note_buy": "When the dealer does not qualify you may take the ante or buy the dealer a game for {price}× the ante (not returned): the dealer's highest card is put away for the next card of the deck, and the game is settled against the new hand.",
    "russian.note_redraw": "A new card of the rank put away is put away too, and the dealer draws again.",
  },
});

/** The round's stage as the page's data-street says it: "draw" while an exchange or a
 * sixth card may be bought, "bet" after, "buy" when the dealer does not qualify and the
 * ante may be taken or a game bought, "" when no decision waits. */
export function russianStage(round) {
  if (round?.status !== "playing") return "";
  if (round.actions.includes("take")) return "buy";
  return round.actions.some((a) => a === "sixth" || a.startsWith("exchange ")) ? "draw" : "bet";
}

/** A bet's spot in the player's language: the raise is Russian Poker's bet. */
export function russianSpot(spot) {
  return spot === "raise" ? t("russian.spot.raise") : t(`banked.spot.${spot}`);
}

/** A settlement's result as the engine says it ("win, pair 1:1 and ace king 1:1", "fee,
 * the sixth card's price") in the player's language: "voitto, Pari 1:1 + Ässä ja kuningas 1:1",
 * "maksu". */
export function russianResult(result, handName) {
  if (result.startsWith("fee")) return t("banked.res.fee");
  const [word, ...rest] = result.split(", ");
  const said = t(`banked.res.${word}`);
  const tail = rest.join(", ");
  if (!tail) return said;
  if (tail === "the dealer does not qualify") return `${said}, ${t("banked.no_qualify")}`;
  if (tail === "the bet alone is paid") return `${said}, ${t("russian.bet_alone")}`;
  const paid = tail.split(" and ").map((part) => {
    const odds = part.match(/^(.+) (\d+:1)$/);
    return odds ? `${handName(odds[1])} ${odds[2]}` : part;
  });
  return `${said}, ${paid.join(" + ")}`;
}

function dealerRow(classes, label, cards, small = false) {
  return el("div", { class: `banked-hand ${classes}` },
    el("span", { class: "small", text: label }),
    el("div", { class: "cards oasis-cards" }, cards.map((c) => cardEl(c, { small }))));
}

/** The dealer's cards (four face down and the up card until every decision is made; then
 * the five, or the first hand, the cards put away and the bought game) and the player's
 * five or six: toggles while a draw is open (``picked`` the cards chosen, ``toggle``
 * called with a card), with the hand, the combinations it is paid for and the draw made. */
export function russianHands(round, picked, toggle, handName) {
  const stage = russianStage(round);
  const parts = [];
  if (!round.dealer?.length) {
    parts.push(dealerRow("banked-dealer", t("banked.up_card"), [null, null, null, null, round.dealer_up]));
  } else if (round.put_away?.length) {
    parts.push(dealerRow("banked-dealer russian-first", `${t("russian.first")}: ${
      dealerNamed(round.dealer_first_hand, round.dealer_qualifies, handName)}`, round.dealer_first));
    parts.push(dealerRow("russian-put-away", t("russian.put_away"), round.put_away, true));
    parts.push(dealerRow("russian-bought", `${t("russian.bought")}: ${
      dealerNamed(round.dealer_hand, round.bought_qualifies, handName)}`, round.dealer));
  } else {
    parts.push(dealerRow("banked-dealer", `${t("banked.dealer")}: ${
      dealerNamed(round.dealer_hand, round.dealer_qualifies, handName)}`, round.dealer));
  }
  const paid = round.combinations ?? [];
  parts.push(el("div", { class: "banked-hand banked-player" },
    el("span", { class: "small", text: round.hand
      ? `${t("banked.you")}: ${handName(round.hand)}` : t("banked.you") }),
    el("div", { class: "cards oasis-cards" }, cardToggles(round.cards, stage === "draw", picked, toggle)),
    paid.length ? el("span", { class: "small russian-combinations", "data-combinations": paid.join(" "),
      text: t("russian.combinations", { list: paid.map(handName).join(" + ") }) }) : null));
  const price = (spot) => (round.bets ?? []).find((b) => b.spot === spot)?.stake ?? 0;
  if (stage === "draw") {
    const sixth = round.actions.includes("sixth");
    parts.push(el("p", { class: "small oasis-note", text: t(sixth ? "russian.pick_note" : "russian.pick_note_no_sixth") }));
  }
  if (round.discarded?.length) {
    parts.push(el("p", { class: "small banked-discarded", "data-fee": price("exchange"), text: t("banked.discarded", {
      cards: round.discarded.join(" "), fee: euros(price("exchange")) }) }));
  } else if (round.draws?.includes("sixth")) {
    parts.push(el("p", { class: "small banked-discarded", "data-fee": price("sixth"), text: t("russian.sixth_bought", {
      fee: euros(price("sixth")) }) }));
  }
  if (stage === "buy") parts.push(el("p", { class: "small russian-no-game", text: t("russian.no_game") }));
  return parts;
}

/** The decision's buttons with their amounts in euros: Exchange (the price, enabled once
 * enough cards are chosen) and Sixth card while the draw is open, Bet (2x the ante) and
 * Fold; or, when the dealer does not qualify, Take the ante and Buy the dealer a game.
 * ``send`` posts a decision. */
export function russianControls(round, rules, picked, send) {
  const pays = rules.pays;
  const ante = anteStake(round);
  const stage = russianStage(round);
  if (stage === "buy") {
    const fee = pays.buy_price * ante;
    return [
      el("button", { type: "button", class: "primary", "data-action": "take", "data-amount": String(ante),
        text: t("russian.take", { amount: euros(ante) }), onclick: () => send("decide", { action: "take" }) }),
      el("button", { type: "button", "data-action": "buy", "data-fee": String(fee),
        text: t("russian.buy", { fee: euros(fee) }), onclick: () => send("decide", { action: "buy" }) }),
    ];
  }
  const parts = [];
  if (stage === "draw") {
    const fee = pays.draw_price * ante;
    const least = pays.exchange_least;
    if (round.actions.some((a) => a.startsWith("exchange "))) {
      parts.push(exchangeButton(picked, fee, least, send,
        least > 1 ? t("russian.exchange_least", { n: least }) : undefined));
    }
    if (round.actions.includes("sixth")) {
      parts.push(el("button", { type: "button", "data-action": "sixth", "data-fee": String(fee),
        text: t("russian.sixth", { fee: euros(fee) }), onclick: () => send("decide", { action: "sixth" }) }));
    }
  }
  const bet = pays.bet_multiple * ante;
  parts.push(el("button", { type: "button", class: stage === "bet" ? "primary" : "", "data-action": "raise",
    "data-amount": String(bet), text: t("russian.bet", { amount: euros(bet) }),
    onclick: () => send("decide", { action: "raise" }) }));
  parts.push(el("button", { type: "button", "data-action": "fold", text: t("banked.fold"),
    onclick: () => send("decide", { action: "fold" }) }));
  return parts;
}

/** The bet's pay table by combination and the game's notes, as the rule data has them. */
export function russianPays(pays, handName) {
  const notes = [
    t(pays.sixth_card ? "russian.note_draw" : "russian.note_exchange",
      { price: pays.draw_price, least: pays.exchange_least }),
    t("russian.note_bet", { n: pays.bet_multiple }),
    t(pays.most_combinations === 2 ? "russian.note_two" : "russian.note_one"),
    t(pays.ante_on_win ? "russian.note_ante" : "russian.note_ante_push"),
    t("russian.note_qualifies"),
    ...(pays.buy_game ? [t("russian.note_buy", { price: pays.buy_price })] : []),
    ...(pays.buy_game && pays.redraw_same_rank ? [t("russian.note_redraw")] : []),
  ];
  return [
    el("table", { class: "data" }, el("tbody", {},
      Object.entries(pays.combinations).map(([hand, n]) => el("tr", { "data-table": "combinations", "data-hand": hand },
        el("td", { text: `${t("russian.spot.raise")}: ${handName(hand)}` }), el("td", { text: `${n}:1` }))))),
    el("ul", { class: "notes small" }, notes.map((text) => el("li", { text }))),
  ];
}
