// Punto banco and blackjack against the house: the cards dealt face up (the dealer's hole
// card face down until the dealer plays), the baccarat layout's player, banker and tie
// boxes, and the blackjack table's seven seats with the actions the rules allow.

import { $, $$, addStrings, api, cardEl, el, euros, setMessage, state, t } from "./core.js";
import {
  chipsFor, motion, registerGame, renderStacks, showRound, wait,
} from "./table.js";

addStrings({
  fi: {
    "game.punto-banco": "Punto banco", "game.blackjack": "Blackjack",
    "bet.player": "Pelaaja", "bet.banker": "Pankki", "bet.tie": "Tasapeli",
    "bet.seat": "Paikka {n}", "bet.hand": "käsi {n}", "bet.insurance": "vakuutus",
    "result.blackjack": "Blackjack",
    "pb.player": "Pelaaja", "pb.banker": "Pankki", "pb.wins.player": "Pelaaja voittaa",
    "pb.wins.banker": "Pankki voittaa", "pb.wins.tie": "Tasapeli",
    "pb.commission": "1:1 − 5 % provisio", "pb.print": "Tasapelissä pelaaja- ja pankkipanokset palautetaan",
    "bj.dealer": "Jakaja", "bj.print": "Blackjack maksaa 3:2",
    "bj.rule": "Jakaja ottaa 16:een ja jää kaikkiin 17:ään · Vakuutus maksaa 2:1",
    "bj.hit": "Lisää kortti", "bj.stand": "Jää", "bj.double": "Tuplaa", "bj.split": "Jaa käsi",
    "bj.insure": "Vakuuta paikka {seat} ({amount})", "bj.noinsure": "Ei vakuutusta (paikka {seat})",
    "bj.turn": "Sinun vuorosi: paikka {seat}", "bj.insurance": "Jakajalla ässä: vakuutetaanko?",
    "bj.soft": "{n} / {m}", "bj.bust": "Yli 21", "bj.blackjack": "Blackjack",
    "bj.resumed": "Kesken jäänyt kierros jatkuu.",
    "bj.left": "{s} s aikaa päättää", "bj.timedOut": "Päätösaika loppui: käsi jäi, vakuutuksesta kieltäydyttiin. Myöhässä lähetettyä valintaa ei tehty.",
  },
  sv: {
    "game.punto-banco": "Punto banco", "game.blackjack": "Blackjack",
    "bet.player": "Spelare", "bet.banker": "Bank", "bet.tie": "Oavgjort",
    "bet.seat": "Plats {n}", "bet.hand": "hand {n}", "bet.insurance": "försäkring",
    "result.blackjack": "Blackjack",
    "pb.player": "Spelare", "pb.banker": "Bank", "pb.wins.player": "Spelaren vinner",
    "pb.wins.banker": "Banken vinner", "pb.wins.tie": "Oavgjort",
    "pb.commission": "1:1 − 5 % provision", "pb.print": "Vid oavgjort återlämnas spelar- och bankinsatser",
    "bj.dealer": "Dealer", "bj.print": "Blackjack betalar 3:2",
    "bj.rule": "Dealern drar till 16 och stannar på alla 17 · Försäkring betalar 2:1",
    "bj.hit": "Kort", "bj.stand": "Stanna", "bj.double": "Dubbla", "bj.split": "Dela",
    "bj.insure": "Försäkra plats {seat} ({amount})", "bj.noinsure": "Ingen försäkring (plats {seat})",
    "bj.turn": "Din tur: plats {seat}", "bj.insurance": "Dealern visar ess: försäkring?",
    "bj.soft": "{n} / {m}", "bj.bust": "Över 21", "bj.blackjack": "Blackjack",
    "bj.resumed": "Den avbrutna omgången fortsätter.",
    "bj.left": "{s} s att bestämma", "bj.timedOut": "Betänketiden tog slut: handen stannade, försäkringen avböjdes. Ett val som skickades för sent gjordes inte.",
  },
  en: {
    "game.punto-banco": "Punto banco", "game.blackjack": "Blackjack",
    "bet.player": "Player", "bet.banker": "Banker", "bet.tie": "Tie",
    "bet.seat": "Seat {n}", "bet.hand": "hand {n}", "bet.insurance": "insurance",
    "result.blackjack": "Blackjack",
    "pb.player": "Player", "pb.banker": "Banker", "pb.wins.player": "Player wins",
    "pb.wins.banker": "Banker wins", "pb.wins.tie": "Tie",
    "pb.commission": "1:1 less 5 % commission", "pb.print": "On a tie, player and banker bets are returned",
    "bj.dealer": "Dealer", "bj.print": "Blackjack pays 3 to 2",
    "bj.rule": "Dealer draws to 16 and stands on all 17s · Insurance pays 2 to 1",
    "bj.hit": "Hit", "bj.stand": "Stand", "bj.double": "Double", "bj.split": "Split",
    "bj.insure": "Insure seat {seat} ({amount})", "bj.noinsure": "No insurance (seat {seat})",
    "bj.turn": "Your turn: seat {seat}", "bj.insurance": "The dealer shows an ace: insurance?",
    "bj.soft": "{n} / {m}", "bj.bust": "Bust", "bj.blackjack": "Blackjack",
    "bj.resumed": "The unfinished round goes on.",
    "bj.left": "{s} s to decide", "bj.timedOut": "The time to decide ran out: the hand stood and insurance was declined. A choice sent too late was not made.",
  },
});

const CARD_LIMITS = { min: 500, max: 100000 }; // the rules' table limits (5 – 1000 €)

/** The table's limits from the game's rules (the rules' own, should the server not say). */
async function cardLimits(game) {
  try {
    const rules = await api(`/api/rules/${game}?lang=${state.lang}`);
    if (Number.isInteger(rules.limits?.min) && Number.isInteger(rules.limits?.max)) {
      return { min: rules.limits.min, max: rules.limits.max };
    }
  } catch { /* an older server: no rules for the card games */ }
  return { ...CARD_LIMITS };
}

// ---------------------------------------------------------------------------------------
// Punto banco

function baccaratValue(cards) {
  return cards.reduce((sum, card) => {
    const rank = card[0];
    const value = rank === "A" ? 1 : "TJQK".includes(rank) ? 0 : Number(rank);
    return (sum + value) % 10;
  }, 0);
}

function pbHands(round) {
  const hands = { player: [], banker: [] };
  for (const { side, card } of round.cards ?? []) hands[side]?.push(card);
  return hands;
}

function pbStage(hands = { player: [], banker: [] }, shown = null) {
  const side = (name) => {
    const cards = hands[name];
    const count = shown === null ? cards.length : shown[name];
    const visible = cards.slice(0, count);
    return el("div", { class: `pb-hand pb-${name}`, "data-side": name },
      el("div", { class: "pb-label" }, el("span", { text: t(`pb.${name}`) }),
        el("strong", { class: "pb-total", text: visible.length ? String(baccaratValue(visible)) : "" })),
      el("div", { class: "pb-cards" }, visible.map((card, i) => {
        const node = cardEl(card, { fresh: shown !== null && i === count - 1 });
        if (name === "player" && i === 2) node.classList.add("third"); // the third card sideways
        if (name === "banker" && i === 2) node.classList.add("third");
        return node;
      })));
  };
  $("#cards").replaceChildren(el("div", { class: "pb-stage" }, side("player"), side("banker")));
}

function pbWinnerTotal(round) {
  const hands = pbHands(round);
  return round.result === "player" ? baccaratValue(hands.player) : baccaratValue(hands.banker);
}

registerGame("punto-banco", {
  stage: "cards",
  action: "table.deal",
  busyText: "table.dealing",
  caption: "table.result",
  load: async () => ({
    ...(await cardLimits("punto-banco")), variant: "",
    spots: [{ key: "player", bet_type: "player", pays: "1:1" },
      { key: "banker", bet_type: "banker", pays: t("pb.commission") },
      { key: "tie", bet_type: "tie", pays: "8:1" }],
  }),
  setup: () => pbStage(),
  endpoint: () => "/api/cards/punto-banco",
  render(root, layout, spot) {
    const band = (key, cls) => spot(key, `pb-band ${cls}`, el("span", { class: "face" },
      el("strong", { text: t(`bet.${key}`) }),
      el("em", { class: "pays", text: key === "banker" ? t("pb.commission") : key === "tie" ? "8:1" : "1:1" })));
    root.append(el("div", { class: "pb-board" },
      band("tie", "pb-tie"), band("banker", "pb-banker"), band("player", "pb-player")),
    el("p", { class: "felt-print", text: t("pb.print") }));
  },
  start: () => pbStage(),
  async reveal(round) {
    const hands = pbHands(round);
    const shown = { player: 0, banker: 0 };
    for (const { side } of round.cards) {
      shown[side] += 1;
      pbStage(hands, { ...shown });
      await wait(motion(260));
    }
  },
  show(round) {
    pbStage(pbHands(round));
    $(`#cards .pb-${round.result}`)?.classList.add("winner");
    const number = $("#result-number");
    number.textContent = String(pbWinnerTotal(round));
    number.className = `result-number pb-result pb-${round.result} show`;
    number.dataset.result = round.result;
    number.dataset.round = String(round.round_id);
  },
  extra(round) {
    const hands = pbHands(round);
    return `${t(`pb.wins.${round.result}`)} · ${baccaratValue(hands.player)}–${baccaratValue(hands.banker)}`;
  },
  recent: (round) => ({ text: String(pbWinnerTotal(round)), cls: `pb-${round.result}` }),
  winners: (round) => [round.result],
});

// ---------------------------------------------------------------------------------------
// Blackjack

function blackjackTotal(cards) {
  let total = 0;
  let aces = 0;
  for (const card of cards) {
    const rank = card[0];
    if (rank === "A") aces += 1;
    total += rank === "A" ? 1 : "TJQK".includes(rank) ? 10 : Number(rank);
  }
  const soft = aces > 0 && total + 10 <= 21;
  return { total: soft ? total + 10 : total, low: total, soft };
}

function totalText(cards, { pair = true } = {}) {
  if (!cards.length) return "";
  const { total, low, soft } = blackjackTotal(cards);
  if (cards.length === 2 && total === 21 && pair) return t("bj.blackjack");
  if (total > 21) return `${total} · ${t("bj.bust")}`;
  return soft && total < 21 ? t("bj.soft", { n: low, m: total }) : String(total);
}

const SEATS = [1, 2, 3, 4, 5, 6, 7];

/** Seat 1 on the dealer's left (the player's right), seat 7 on the right; on an arc. */
function seatPlace(n) {
  const angle = ((20 + ((n - 1) * 140) / 6) * Math.PI) / 180;
  return `left:${(50 + 43 * Math.cos(angle)).toFixed(2)}%;top:${(42 + 56 * Math.sin(angle)).toFixed(2)}%`;
}

const playing = () => state.game === "blackjack" && state.lastRound?.status === "playing";

function dealerStage(round) {
  const cards = round?.dealer ?? [];
  const hidden = round?.status === "playing";
  const shown = cards.map((card, i) => cardEl(card, { fresh: round?.fresh && i === cards.length - 1 }));
  if (hidden && cards.length === 1) shown.push(cardEl(null)); // the hole card, face down
  $("#cards").replaceChildren(el("div", { class: "bj-dealer" },
    el("div", { class: "bj-dealer-label" }, el("span", { text: t("bj.dealer") }),
      el("strong", { class: "bj-total", text: totalText(cards, { pair: !hidden }) })),
    el("div", { class: "bj-cards" }, shown)));
}

function renderHands(round) {
  for (const box of $$("#layout .bj-hands")) box.replaceChildren();
  for (const node of $$("#layout .bj-stake")) node.remove();
  for (const seat of $$("#layout .bj-seat")) seat.classList.remove("active", "in-play");
  const hands = round?.hands ?? [];
  const bySeat = new Map();
  for (const hand of hands) bySeat.set(hand.seat, [...(bySeat.get(hand.seat) ?? []), hand]);
  const turn = round?.status === "playing" ? round.turn : null;
  for (const [seat, seatHands] of bySeat) {
    const box = $(`#layout .bj-hands[data-seat="${seat}"]`);
    const place = $(`#layout .bj-seat[data-seat="${seat}"]`);
    if (!box || !place) continue;
    place.classList.add("in-play");
    const stake = seatHands.reduce((sum, h) => sum + h.stake + h.doubled, 0);
    place.append(el("span", { class: "bj-stake", title: euros(stake) },
      chipsFor(stake).slice(-5).map((value, i) => el("span", {
        class: `stack-chip chip-${value}`, style: `--i:${i}`,
      })),
      el("span", { class: "stack-total", style: `--i:${Math.min(4, chipsFor(stake).length - 1)}`,
        text: euros(stake).replace(/\.00 €$/, "").replace(/ €$/, "") })));
    box.replaceChildren(...seatHands.map((hand) => {
      const active = turn && turn[0] === hand.seat && turn[1] === hand.hand;
      if (active) place.classList.add("active");
      return el("div", {
        class: `bj-hand${active ? " active" : ""}`, "data-seat": String(hand.seat),
        "data-hand": String(hand.hand), "data-total": String(hand.total),
      },
      el("div", { class: "bj-cards" }, hand.cards.map((card) => cardEl(card, { small: true }))),
      el("div", { class: "bj-hand-total", text: totalText(hand.cards, { pair: seatHands.length === 1 }) }));
    }));
  }
}

function renderActions(round) {
  const box = $("#bj-actions");
  const live = round?.status === "playing";
  box.hidden = !live;
  $("#spin").hidden = live;
  if (!live) {
    box.replaceChildren();
    return;
  }
  const buttons = [];
  for (const [seat, most] of Object.entries(round.insurance ?? {})) {
    buttons.push(el("button", {
      type: "button", class: "primary", "data-action": "insure", "data-seat": seat,
      text: t("bj.insure", { seat, amount: euros(most) }),
      onclick: () => act({ action: "insure", seat: Number(seat), amount: most }),
    }), el("button", {
      type: "button", class: "ghost", "data-action": "no-insurance", "data-seat": seat,
      text: t("bj.noinsure", { seat }),
      onclick: () => act({ action: "insure", seat: Number(seat), amount: 0 }),
    }));
  }
  if (round.your_turn) {
    for (const action of round.actions ?? []) {
      buttons.push(el("button", {
        type: "button", class: action === "stand" ? "ghost" : "primary", "data-action": action,
        text: t(`bj.${action}`), onclick: () => act({ action }),
      }));
    }
  }
  const clock = el("span", { id: "bj-countdown", class: "bj-countdown", role: "timer",
    "aria-live": "off" });
  box.replaceChildren(...buttons, clock);
  const message = round.timed_out ? t("bj.timedOut")
    : Object.keys(round.insurance ?? {}).length ? t("bj.insurance")
      : round.turn ? t("bj.turn", { seat: round.turn[0] }) : "";
  setMessage($("#table-message"), message, round.timed_out ? "error" : "info");
  countDown(round.seconds_left);
}

let ticking = null;

/** The decision's time, as the server counted it when it answered (RULINGS: then the
 * hand stands): shown second by second; at the end the table is asked again, and the
 * server says what the time limit did. */
function countDown(seconds) {
  if (ticking) clearInterval(ticking);
  ticking = null;
  if (seconds == null) return;
  const until = performance.now() + seconds * 1000;
  const show = () => {
    const left = Math.max(0, Math.ceil((until - performance.now()) / 1000));
    const node = $("#bj-countdown");
    if (!node) {
      clearInterval(ticking);
      ticking = null;
      return;
    }
    node.textContent = t("bj.left", { s: left });
    node.classList.toggle("urgent", left <= 5);
    if (left === 0) {
      clearInterval(ticking);
      ticking = null;
      setTimeout(refresh, 500);  // the server's clock decides: ask it once past the end
    }
  };
  show();
  ticking = setInterval(show, 250);
}

async function refresh() {
  try {
    const view = await api("/api/cards/blackjack");
    if (view.status === "none") return;  // finished meanwhile (by the server's sweep)
    view.fresh = true;
    state.lastRound = view;
    showRound(view);
    toldTimedOut(view);
  } catch { /* the next action or a reload shows the table as it is */ }
}

/** A round the time limit decided (and maybe finished): said before its outcome. */
function toldTimedOut(view) {
  if (!view.timed_out || view.status === "playing") return;  // renderActions said it
  const message = $("#table-message");
  setMessage(message, `${t("bj.timedOut")} ${message.textContent}`.trim(), "error");
}

async function act(body) {
  for (const button of $$("#bj-actions button")) button.disabled = true;
  try {
    const view = await api("/api/cards/blackjack/act", { method: "POST", body });
    view.fresh = true;
    state.lastRound = view;
    showRound(view);
    toldTimedOut(view);
  } catch (error) {
    setMessage($("#table-message"), error.detail);
    for (const button of $$("#bj-actions button")) button.disabled = false;
  }
}

registerGame("blackjack", {
  stage: "cards",
  action: "table.deal",
  busyText: "table.dealing",
  caption: "table.result",
  load: async () => ({
    ...(await cardLimits("blackjack")), variant: "",
    spots: SEATS.map((n) => ({ key: String(n), bet_type: "seat", pays: "1:1" })),
  }),
  label: (key) => t("bet.seat", { n: key }),
  setup: () => dealerStage(null),
  endpoint: () => "/api/cards/blackjack/deal",
  render(root, layout, spot) {
    root.append(el("div", { class: "bj-table" },
      el("div", { class: "bj-print" },
        el("div", { class: "bj-pays", text: t("bj.print") }),
        el("div", { class: "bj-rule", text: t("bj.rule") })),
      SEATS.map((n) => el("div", { class: "bj-seat", "data-seat": String(n), style: seatPlace(n) },
        el("div", { class: "bj-hands", "data-seat": String(n) }),
        spot(String(n), "bj-circle", el("span", { class: "seat-no", text: String(n) }))))));
    renderHands(state.lastRound);
  },
  start() {
    renderHands(null);
    dealerStage(null);
  },
  async reveal() {
    await wait(motion(250));
  },
  show(round, fresh) {
    round.fresh = fresh;
    dealerStage(round);
    renderHands(round);
    renderActions(round);
    $("#layout").classList.toggle("locked", round.status === "playing");
    const number = $("#result-number");
    number.textContent = "";
    number.className = "result-number";
  },
  extra(round) {
    return round.dealer?.length ? `${t("bj.dealer")}: ${totalText(round.dealer)}` : "";
  },
  spotOf: (key) => /^seat (\d+)/.exec(key)?.[1] ?? key,
  busy: playing,
  async opened() {
    const view = await api("/api/cards/blackjack");
    if (view.status === "playing" || view.timed_out) {  // or its time ran out while away
      state.lastRound = view;
      showRound(view, false);
      if (!view.timed_out) setMessage($("#table-message"), t("bj.resumed"), "info");
      renderActions(view);
      toldTimedOut(view);
    } else {
      renderActions(null);
      if (!state.lastRound) dealerStage(null);
    }
    renderStacks();
  },
});

