// The player's history: their bets and poker hands, a page at a time (older pages on
// request), and a round's game recall: what the round drew or dealt, what was recorded
// and what the engine gave replaying the round from its record, and whether they agree.

import {
  $, addStrings, api, el, euros, gameTitle, locale, resultLabel, showView, spotLabel, state, t,
} from "./core.js";
import { fairSection } from "./fair.js";

addStrings({
  fi: {
    "history.more": "Vanhemmat panokset", "history.hands": "Pokerikädet",
    "history.moreHands": "Vanhemmat kädet", "history.noHands": "Ei pokerikäsiä.",
    "history.chips": "Pelimerkit käden jälkeen", "history.open": "Avaa kierros {round}",
    "recall.title": "Kierros {round}", "recall.back": "← Historiaan",
    "recall.outcome": "Tulos", "recall.recorded": "Kirjattu", "recall.replayed": "Toistettu",
    "recall.same": "Toistotarkistus: peli toistettiin kirjauksestaan ja tulos on sama kuin kirjattu.",
    "recall.differs": "Toistotarkistus: toisto ei täsmää kirjaukseen. Ota yhteys asiakaspalveluun.",
    "recall.rake": "Rake", "recall.player": "Pelaaja",
    "history.bonuses": "Ilmaiskierrosbonukset", "col.amount": "Määrä", "history.bonusEvent": "Tapahtuma",
    "history.deadline": "Kierrätettävä viimeistään", "history.noBonuses": "Ei bonuksia.",
    "history.bonusBalance": "Bonussaldo {amount}: ilmaiskierrosten voitot, jotka on kierrätettävä 72 tunnin kuluessa, muuten ne menetetään.",
    "bonus.granted": "Myönnetty", "bonus.released": "Kierrätetty, pelitilille",
    "bonus.forfeited": "Menetetty (ei kierrätetty ajoissa)",
    "history.commission": "provisio {amount}",
  },
  sv: {
    "history.more": "Äldre insatser", "history.hands": "Pokerhänder",
    "history.moreHands": "Äldre händer", "history.noHands": "Inga pokerhänder.",
    "history.chips": "Marker efter handen", "history.open": "Öppna omgång {round}",
    "recall.title": "Omgång {round}", "recall.back": "← Till historiken",
    "recall.outcome": "Utfall", "recall.recorded": "Registrerat", "recall.replayed": "Omspelat",
    "recall.same": "Omspelskontroll: spelet spelades om från sin registrering och gav samma resultat.",
    "recall.differs": "Omspelskontroll: omspelet stämmer inte med registreringen. Kontakta kundtjänst.",
    "recall.rake": "Rake", "recall.player": "Spelare",
    "history.bonuses": "Bonusar från gratissnurr", "col.amount": "Belopp", "history.bonusEvent": "Händelse",
    "history.deadline": "Omsätts senast", "history.noBonuses": "Inga bonusar.",
    "history.bonusBalance": "Bonussaldo {amount}: vinster från gratissnurr som ska omsättas inom 72 timmar, annars förverkas de.",
    "bonus.granted": "Beviljad", "bonus.released": "Omsatt, till spelkontot",
    "bonus.forfeited": "Förverkad (inte omsatt i tid)",
    "history.commission": "provision {amount}",
  },
  en: {
    "history.more": "Older bets", "history.hands": "Poker hands",
    "history.moreHands": "Older hands", "history.noHands": "No poker hands.",
    "history.chips": "Chips after the hand", "history.open": "Open round {round}",
    "recall.title": "Round {round}", "recall.back": "← To the history",
    "recall.outcome": "Outcome", "recall.recorded": "Recorded", "recall.replayed": "Replayed",
    "recall.same": "Replay check: the round was replayed from its record and came out as recorded.",
    "recall.differs": "Replay check: the replay does not match the record. Please contact customer service.",
    "recall.rake": "Rake", "recall.player": "Player",
    "history.bonuses": "Free-spin bonuses", "col.amount": "Amount", "history.bonusEvent": "Event",
    "history.deadline": "Wager by", "history.noBonuses": "No bonuses.",
    "history.bonusBalance": "Bonus balance {amount}: free-spin winnings to wager within 72 hours, or they are forfeited.",
    "bonus.granted": "Granted", "bonus.released": "Wagered through, to the wallet",
    "bonus.forfeited": "Forfeited (not wagered in time)",
    "history.commission": "commission {amount}",
  },
});

/** "rng-roulette-C-aino" (a player's own RNG table) reads "Ruletti C"; others as named. */
export function tableLabel(name) {
  const suffix = `-${state.me?.name}`;
  if (!name || !name.startsWith("rng-") || !name.endsWith(suffix)) return name ?? "";
  const match = /^rng-(.+?)(?:-([A-Z]))?$/.exec(name.slice(0, -suffix.length));
  if (!match) return name;
  return match[2] ? `${gameTitle(match[1])} ${match[2]}` : gameTitle(match[1]);
}

function when(at) {
  return at ? new Date(at).toLocaleString(locale()) : "";
}

/** The round's number as a link to its recall (a real link: keyboard and touch alike). */
function roundLink(round) {
  return el("td", { class: "round" }, el("a", {
    href: `#/recall/${round}`, class: "recall-link", text: `#${round}`,
    "aria-label": t("history.open", { round: `#${round}` }) }));
}

function betRow(bet) {
  return el("tr", {
    class: `history-row ${bet.paid > 0 ? "won" : "lost"}`, "data-round": String(bet.round_id),
  },
  roundLink(bet.round_id),
  el("td", { class: "table-name", title: bet.table, text: tableLabel(bet.table) }),
  el("td", { class: "spot-name", title: bet.spot, text: spotLabel(bet.spot) }),
  el("td", { class: "stake", text: euros(bet.stake) }),
  // Pai Gow Poker's commission on a win is taken back apart from what was paid
  el("td", { class: "paid" }, euros(bet.paid), bet.commission ? el("span", {
    class: "commission", text: ` (${t("history.commission", { amount: euros(bet.commission) })})`,
  }) : null),
  el("td", { class: `result result-${bet.result}`, text: resultLabel(bet.result) }),
  el("td", { class: "at", text: when(bet.at) }));
}

function handRow(hand) {
  return el("tr", { class: "hand-row", "data-round": String(hand.round_id) },
    roundLink(hand.round_id),
    el("td", { class: "table-name", text: hand.table }),
    el("td", { class: "chips", text: hand.chips === null ? "–" : euros(hand.chips) }),
    el("td", { class: "at", text: when(hand.at) }));
}

function bonusRow(bonus) {
  return el("tr", { class: `bonus-row bonus-${bonus.kind}`, "data-round": String(bonus.round_id),
    "data-grant": String(bonus.grant_id) },
  roundLink(bonus.round_id),
  el("td", { class: "bonus-kind", text: t(`bonus.${bonus.kind}`) }),
  el("td", { class: "amount", text: euros(bonus.amount) }),
  el("td", { class: "deadline", text: when(bonus.deadline) }),
  el("td", { class: "at", text: when(bonus.at) }));
}

/** Ask for the next page of bets or hands and add it below what is shown. */
async function older(which) {
  const more = state.historyMore;
  const query = which === "bets" ? `bets_before=${more.bets_before}&hands_before=1`
    : `hands_before=${more.hands_before}&bets_before=1`;
  const page = await api(`/api/history?${query}`);
  if (which === "bets") {
    $("#history-rows").append(...page.bets.map(betRow));
    more.bets_before = page.more.bets_before;
  } else {
    $("#hands-rows").append(...page.hands.map(handRow));
    more.hands_before = page.more.hands_before;
  }
  showMore();
}

function showMore() {
  $("#history-more").hidden = state.historyMore.bets_before === null;
  $("#hands-more").hidden = state.historyMore.hands_before === null;
}

export async function openHistory() {
  const mine = state.route;
  const page = await api("/api/history");
  if (state.route !== mine) return;
  state.historyMore = { ...page.more };
  $("#history-rows").replaceChildren(...page.bets.map(betRow));
  $("#history-empty").hidden = page.bets.length > 0;
  $("#hands-rows").replaceChildren(...page.hands.map(handRow));
  $("#hands-empty").hidden = page.hands.length > 0;
  $("#bonus-rows").replaceChildren(...(page.bonuses ?? []).map(bonusRow));
  $("#bonus-empty").hidden = (page.bonuses ?? []).length > 0;
  $("#bonus-balance").textContent = t("history.bonusBalance",
    { amount: euros(page.bonus_balance ?? 0) });
  showMore();
  showView("history");
}

export function wireHistory() {
  $("#history-more").addEventListener("click", () => older("bets"));
  $("#hands-more").addEventListener("click", () => older("hands"));
}

// ---------------------------------------------------------------------------------------
// Game recall

function settlementRows(recorded, replayed) {
  return recorded.map((s, i) => {
    const again = replayed[i] ?? {};
    return el("tr", { class: "recall-row" },
      el("td", { class: "spot-name", text: spotLabel(s.spot ?? "") }),
      el("td", { class: "stake", text: euros(s.stake ?? 0) }),
      el("td", { class: "paid", text: euros(s.paid ?? 0) }),
      el("td", { class: "replayed", text: again.paid === undefined ? "–" : euros(again.paid) }),
      el("td", { class: `result result-${s.result}`, text: resultLabel(s.result) }));
  });
}

function pokerRows(recorded, replayed) {
  const chips = recorded.chips ?? {};
  const again = replayed.chips ?? {};
  return Object.keys(chips).map((name) => el("tr", { class: "recall-row" },
    el("td", { class: "player", text: name }),
    el("td", { class: "chips", text: euros(chips[name]) }),
    el("td", { class: "replayed", text: again[name] === undefined ? "–" : euros(again[name]) })));
}

function head(...keys) {
  return el("thead", {}, el("tr", {}, keys.map((key) => el("th", { text: t(key) }))));
}

export async function openRecall(round) {
  const mine = state.route;
  const found = await api(`/api/recall/${encodeURIComponent(round)}`);
  if (state.route !== mine) return;
  const poker = found.game === "poker";
  const body = poker ? pokerRows(found.recorded, found.replayed)
    : settlementRows(found.recorded, found.replayed);
  $("#recall-view").replaceChildren(
    el("a", { href: "#/history", class: "back", text: t("recall.back") }),
    el("h1", { id: "recall-title", text: t("recall.title", { round: `#${found.round_id}` }) }),
    el("section", { class: "card", "aria-labelledby": "recall-title" },
      el("p", { class: "recall-game", text: `${gameTitle(found.game)} · ${tableLabel(found.table)}` }),
      poker ? el("p", { class: "recall-rake", text: `${t("recall.rake")}: ${euros(found.recorded.rake ?? 0)}` })
        : el("p", { class: "recall-outcome", text: `${t("recall.outcome")}: ${found.summary}` }),
      el("div", { class: "scroll-x", tabindex: "0", role: "region", "aria-labelledby": "recall-title" },
        el("table", { class: "data" },
          poker ? head("recall.player", "recall.recorded", "recall.replayed")
            : head("col.spot", "col.stake", "recall.recorded", "recall.replayed", "col.result"),
          el("tbody", { id: "recall-rows" }, body))),
      el("p", { id: "recall-check", role: "status",
        class: `message ${found.same ? "ok" : "error"}`,
        text: t(found.same ? "recall.same" : "recall.differs") })));
  showView("recall");
  if (!found.fair) return;
  const proof = await fairSection(found.round_id); // a provably fair round's proof
  if (proof && state.route === mine) $("#recall-view").append(proof);
}
