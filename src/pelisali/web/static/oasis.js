// Oasis Stud Poker on the banked page (#/banked/oasis-stud): the player's five cards as
// toggles to choose the discards (each a 44 px target on a phone), the exchange's fee in
// euros on its button before it is sent (the fee table's multiple of the ante by the
// number of cards; all five raise with them), Raise (2x the ante) and Fold, the dealer's
// up card with the other four face down, then the showdown: the dealer's five, whether
// the dealer qualifies (ace-king or better) and every bet, the fee among them. The page
// (banked.js) sends the decisions; this module draws the game's own parts.

import { addStrings, cardEl, el, euros, t } from "./core.js";

export const OASIS = "oasis-stud";

addStrings({
  fi: {
    "bet.exchange": "Vaihtomaksu", "banked.spot.exchange": "Vaihtomaksu",
    "banked.exchange_none": "Valitse vaihdettavat kortit",
    "banked.exchange_one": "Vaihda 1 kortti · maksu {fee}",
    "banked.exchange_n": "Vaihda {n} korttia · maksu {fee}",
    "banked.exchange_five": "Viiden kortin vaihto korottaa samalla: maksu {fee} ja korotus {raise}.",
    "banked.raise_oasis": "Korota · {amount}",
    "banked.up_card": "Jakaja · avokortti",
    "banked.discarded": "Vaihdettu {cards} · maksu {fee}",
    "banked.pick_note": "Napauta kortteja, jotka haluat vaihtaa (kerran, ennen korotusta).",
    "banked.res.fee": "maksu", "banked.no_qualify": "jakaja ei pelaa",
    "banked.dealer_no_qualify": "{hand}, ei pelaa",
    "banked.fee_cards": "{n} kortin vaihto",
    "banked.fee_times": "{n}× ante",
    "banked.oasis_exchange": "Voit vaihtaa 1–5 korttia kerran ennen korotusta; maksua ei palauteta.",
    "banked.oasis_raise": "Luovuta (ante menetetään) tai korota 2× ante. Kaikki viisi korttia vaihtanut korottaa aina.",
    "banked.oasis_qualifies": "Jakaja pelaa ässä–kuninkaalla tai paremmalla; muuten ante voittaa 1:1 ja korotus on tasapeli.",
  },
  sv: {
    "bet.exchange": "Bytesavgift", "banked.spot.exchange": "Bytesavgift",
    "banked.exchange_none": "Välj korten du vill byta",
    "banked.exchange_one": "Byt 1 kort · avgift {fee}",
    "banked.exchange_n": "Byt {n} kort · avgift {fee}",
    "banked.exchange_five": "Byter du alla fem höjer du samtidigt: avgift {fee} och höjning {raise}.",
    "banked.raise_oasis": "Höj · {amount}",
    "banked.up_card": "Given · öppet kort",
    "banked.discarded": "Bytt {cards} · avgift {fee}",
    "banked.pick_note": "Tryck på korten du vill byta (en gång, före höjningen).",
    "banked.res.fee": "avgift", "banked.no_qualify": "given kvalificerar inte",
    "banked.dealer_no_qualify": "{hand}, kvalificerar inte",
    "banked.fee_cards": "Byte av {n} kort",
    "banked.fee_times": "{n}× ante",
    "banked.oasis_exchange": "Du kan byta 1–5 kort en gång före höjningen; avgiften betalas inte tillbaka.",
    "banked.oasis_raise": "Lägg ner (ante förloras) eller höj 2× ante. Den som bytt alla fem kort höjer alltid.",
    "banked.oasis_qualifies": "Given kvalificerar med ess–kung eller bättre; annars vinner ante 1:1 och höjningen är oavgjord.",
  },
  en: {
    "bet.exchange": "Exchange fee", "banked.spot.exchange": "Exchange fee",
    "banked.exchange_none": "Choose the cards to exchange",
    "banked.exchange_one": "Exchange 1 card · fee {fee}",
    "banked.exchange_n": "Exchange {n} cards · fee {fee}",
    "banked.exchange_five": "Exchanging all five raises with them: the fee {fee} and the raise {raise}.",
    "banked.raise_oasis": "Raise · {amount}",
    "banked.up_card": "Dealer · up card",
    "banked.discarded": "Exchanged {cards} · fee {fee}",
    "banked.pick_note": "Tap the cards you want to exchange (once, before you raise).",
    "banked.res.fee": "fee", "banked.no_qualify": "the dealer does not qualify",
    "banked.dealer_no_qualify": "{hand}, does not qualify",
    "banked.fee_cards": "{n}-card exchange",
    "banked.fee_times": "{n}× the ante",
    "banked.oasis_exchange": "You may exchange 1 to 5 cards once before you raise; the fee is not returned.",
    "banked.oasis_raise": "Fold (the ante is lost) or raise 2× the ante. Exchanging all five cards always raises.",
    "banked.oasis_qualifies": "The dealer qualifies with ace-king or better; if not, the ante wins 1:1 and the raise pushes.",
  },
});

/** The round's stage as the page's data-street says it: "exchange" while the cards may
 * still be exchanged, "raise" after, "" when no decision waits. */
export function oasisStage(round) {
  if (round?.status !== "playing") return "";
  return round.actions.some((a) => a.startsWith("exchange ")) ? "exchange" : "raise";
}

/** The round's ante in cents (0 before it is placed). */
export function anteStake(round) {
  return (round.bets ?? []).find((b) => b.spot === "ante")?.stake ?? 0;
}

/** A dealer's hand named in the player's language, with ", does not qualify" when not. */
export function dealerNamed(hand, qualifies, handName) {
  return qualifies ? handName(hand) : t("banked.dealer_no_qualify", { hand: handName(hand) });
}

/** The player's cards: tappable toggles while ``choosing`` (``picked`` the cards chosen,
 * ``toggle`` called with a card), plain cards otherwise. */
export function cardToggles(cards, choosing, picked, toggle) {
  return (cards ?? []).map((card) => (choosing
    ? el("button", { type: "button", class: "oasis-pick", "data-card": card,
      "aria-pressed": String(picked.has(card)), "aria-label": card, onclick: () => toggle(card) },
    cardEl(card))
    : cardEl(card)));
}

/** The Exchange button: the ``fee`` in euros for the cards ``picked``, disabled (saying
 * ``waiting``) until at least ``least`` are chosen; ``send`` posts the exchange. */
export function exchangeButton(picked, fee, least, send, waiting = t("banked.exchange_none")) {
  const count = picked.size;
  return el("button", { type: "button", class: "primary", "data-action": "exchange",
    "data-fee": String(fee), disabled: count < least,
    text: count < least ? waiting
      : t(count === 1 ? "banked.exchange_one" : "banked.exchange_n", { n: count, fee: euros(fee) }),
    onclick: () => send("decide", { action: "exchange", cards: [...picked] }) });
}

/** The fee in cents for exchanging ``count`` cards on ``ante`` (the rule data's table). */
export function oasisFee(rules, count, ante) {
  return count ? (rules.pays.fees[count - 1] ?? 0) * ante : 0;
}

/** The dealer's five (four face down and the up card until the showdown) and the
 * player's five: tappable toggles while an exchange is open (``picked`` the discards
 * chosen, ``toggle`` called with a card), plain cards after. */
export function oasisHands(round, picked, toggle, handName) {
  const over = round.status === "settled";
  const dealer = over ? round.dealer : [null, null, null, null, round.dealer_up];
  const named = round.dealer_hand && dealerNamed(round.dealer_hand, round.dealer_qualifies, handName);
  const choosing = oasisStage(round) === "exchange";
  const mine = cardToggles(round.cards, choosing, picked, toggle);
  const parts = [
    el("div", { class: "banked-hand banked-dealer" },
      el("span", { class: "small", text: named ? `${t("banked.dealer")}: ${named}`
        : t("banked.up_card") }),
      el("div", { class: "cards oasis-cards" }, dealer.map((c) => cardEl(c)))),
    el("div", { class: "banked-hand banked-player" },
      el("span", { class: "small", text: round.hand
        ? `${t("banked.you")}: ${handName(round.hand)}` : t("banked.you") }),
      el("div", { class: "cards oasis-cards" }, mine)),
  ];
  if (choosing) parts.push(el("p", { class: "small oasis-note", text: t("banked.pick_note") }));
  if (round.discarded?.length) {
    parts.push(el("p", { class: "small banked-discarded", "data-fee": round.fees, text: t("banked.discarded", {
      cards: round.discarded.join(" "), fee: euros(round.fees) }) }));
  }
  return parts;
}

/** The decision's buttons: Exchange with the fee of the cards chosen (disabled until one
 * is), Raise with its amount and Fold; ``send`` posts a decision. */
export function oasisControls(round, rules, picked, send) {
  const ante = anteStake(round);
  const raise = (rules.pays.raise_multiple ?? 2) * ante;
  const parts = [];
  if (oasisStage(round) === "exchange") {
    const count = picked.size;
    const fee = oasisFee(rules, count, ante);
    parts.push(exchangeButton(picked, fee, 1, send));
    if (count === 5 && rules.pays.five_must_raise) {
      parts.push(el("p", { class: "small oasis-five", text: t("banked.exchange_five", {
        fee: euros(fee), raise: euros(raise) }) }));
    }
  }
  parts.push(el("button", { type: "button", class: oasisStage(round) === "raise" ? "primary" : "",
    "data-action": "raise", text: t("banked.raise_oasis", { amount: euros(raise) }),
    onclick: () => send("decide", { action: "raise" }) }));
  parts.push(el("button", { type: "button", "data-action": "fold", text: t("banked.fold"),
    onclick: () => send("decide", { action: "fold" }) }));
  return parts;
}

/** The raise pay table, the fee table and the game's notes. */
export function oasisPays(pays, handName) {
  return [
    el("table", { class: "data" }, el("tbody", {},
      Object.entries(pays.raise).map(([hand, n]) => el("tr", { "data-table": "raise", "data-hand": hand },
        el("td", { text: `${t("banked.spot.raise")}: ${handName(hand)}` }), el("td", { text: `${n}:1` }))),
      pays.fees.map((n, i) => el("tr", { "data-table": "fees", "data-cards": String(i + 1) },
        el("td", { text: t("banked.fee_cards", { n: i + 1 }) }), el("td", { text: t("banked.fee_times", { n }) }))))),
    el("ul", { class: "notes small" },
      el("li", { text: t("banked.oasis_exchange") }),
      el("li", { text: t("banked.oasis_raise") }),
      el("li", { text: t("banked.oasis_qualifies") })),
  ];
}
