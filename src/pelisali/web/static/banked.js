// Three Card Poker and Red Dog in the browser (#/banked/GAME), each player at their own
// RNG table: the bets in euros (Three Card Poker's ante and Pair Plus, Red Dog's ante),
// Deal, then the decision the round allows (play or fold; raise up to the ante or
// stand) and every bet's settlement. A round waiting for its decision comes back on a
// reload (GGPoker house rules 2.3). Every request carries a new idempotency key; a
// refusal is shown in the player's language and changes nothing.

import {
  $, addStrings, api, ApiError, cardEl, el, euros, parseEuros, setBalance, setMessage,
  showView, state, t, uniqueKey,
} from "./core.js";

addStrings({
  fi: {
    "bet.ante": "Ante", "bet.pair-plus": "Pair Plus", "bet.play": "Play-panos", "bet.raise": "Korotus",
    "banked.ante": "Ante (€)", "banked.pair-plus": "Pair Plus (€)", "banked.deal": "Jaa",
    "banked.play": "Pelaa", "banked.fold": "Luovuta", "banked.stand": "Älä korota",
    "banked.raise": "Korota", "banked.raise_amount": "Korotus (€)",
    "banked.dealer": "Jakaja", "banked.you": "Sinun korttisi", "banked.cards": "Kortit",
    "banked.spread": "Väli {spread}, maksaa {pays}:1", "banked.standard": "Vakiosäännöt",
    "banked.limits": "Panos {min} – {max}", "banked.staked": "Panokset {amount}",
    "banked.result": "Kierros {round}: panokset {staked}, maksettu {paid}",
    "banked.resumed": "Kierros odottaa päätöstäsi.", "banked.pays": "Voitonmaksut",
    "banked.bad_amount": "Anna summa euroina, esim. 5 tai 2.50.",
    "banked.spot.ante": "Ante", "banked.spot.pair-plus": "Pair Plus",
    "banked.spot.play": "Play", "banked.spot.raise": "Korotus",
    "banked.res.win": "voitto", "banked.res.lose": "häviö", "banked.res.push": "tasapeli",
    "banked.res.fold": "luovutettu",
  },
  sv: {
    "bet.ante": "Ante", "bet.pair-plus": "Pair Plus", "bet.play": "Play-insats", "bet.raise": "Höjning",
    "banked.ante": "Ante (€)", "banked.pair-plus": "Pair Plus (€)", "banked.deal": "Dela",
    "banked.play": "Spela", "banked.fold": "Lägg ner", "banked.stand": "Höj inte",
    "banked.raise": "Höj", "banked.raise_amount": "Höjning (€)",
    "banked.dealer": "Given", "banked.you": "Dina kort", "banked.cards": "Korten",
    "banked.spread": "Spread {spread}, betalar {pays}:1", "banked.standard": "Standardregler",
    "banked.limits": "Insats {min} – {max}", "banked.staked": "Insatser {amount}",
    "banked.result": "Omgång {round}: insatser {staked}, utbetalt {paid}",
    "banked.resumed": "Omgången väntar på ditt beslut.", "banked.pays": "Utbetalningar",
    "banked.bad_amount": "Ange ett belopp i euro, t.ex. 5 eller 2.50.",
    "banked.spot.ante": "Ante", "banked.spot.pair-plus": "Pair Plus",
    "banked.spot.play": "Play", "banked.spot.raise": "Höjning",
    "banked.res.win": "vinst", "banked.res.lose": "förlust", "banked.res.push": "oavgjort",
    "banked.res.fold": "lagd",
  },
  en: {
    "bet.ante": "Ante", "bet.pair-plus": "Pair Plus", "bet.play": "Play bet", "bet.raise": "Raise",
    "banked.ante": "Ante (€)", "banked.pair-plus": "Pair Plus (€)", "banked.deal": "Deal",
    "banked.play": "Play", "banked.fold": "Fold", "banked.stand": "Stand",
    "banked.raise": "Raise", "banked.raise_amount": "Raise (€)",
    "banked.dealer": "Dealer", "banked.you": "Your cards", "banked.cards": "Cards",
    "banked.spread": "Spread {spread}, pays {pays}:1", "banked.standard": "Standard rules",
    "banked.limits": "Bet {min} – {max}", "banked.staked": "Bets {amount}",
    "banked.result": "Round {round}: staked {staked}, paid {paid}",
    "banked.resumed": "The round waits for your decision.", "banked.pays": "Pay tables",
    "banked.bad_amount": "Give an amount in euros, e.g. 5 or 2.50.",
    "banked.spot.ante": "Ante", "banked.spot.pair-plus": "Pair Plus",
    "banked.spot.play": "Play", "banked.spot.raise": "Raise",
    "banked.res.win": "win", "banked.res.lose": "lose", "banked.res.push": "push",
    "banked.res.fold": "folded",
  },
});

const banked = { list: null, game: null, rules: null, round: null, busy: false };

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
    el("div", { class: "game-art", "aria-hidden": "true", text: game.game === "red-dog" ? "♦" : "♣" }),
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
  $("#banked-title").textContent = rules.name[state.lang] ?? rules.name.en;
  $("#banked-note").textContent = `${t("banked.standard")} · `
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
  if (banked.game === "three-card-poker") {
    const dealer = round.dealer?.length ? round.dealer : [null, null, null];
    parts.push(el("div", { class: "banked-hand banked-dealer" },
      el("span", { class: "small", text: round.dealer_hand
        ? `${t("banked.dealer")}: ${round.dealer_hand}` : t("banked.dealer") }),
      el("div", { class: "cards" }, dealer.map((c) => cardEl(c)))));
    parts.push(el("div", { class: "banked-hand banked-player" },
      el("span", { class: "small", text: `${t("banked.you")}: ${round.hand ?? ""}` }),
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
        `${t(`banked.spot.${s.spot}`)}: ${euros(s.stake)} → ${euros(s.paid)} `
        + `(${t(`banked.res.${s.result.split(",")[0]}`)}${s.result.includes(",")
          ? s.result.slice(s.result.indexOf(",")) : ""})` }))));
    parts.push(el("p", { class: "banked-summary", role: "status", text: t("banked.result", {
      round: round.round_id, staked: euros(round.staked), paid: euros(round.paid ?? 0) }) }));
  } else {
    parts.push(el("p", { class: "small", text: t("banked.staked", { amount: euros(round.staked) }) }));
  }
  table.replaceChildren(...parts);
}

function amountInput(id, label, value) {
  return el("label", { class: "slot-choice" }, el("span", { text: label }),
    el("input", { id, type: "text", inputmode: "decimal", value, autocomplete: "off" }));
}

function renderControls() {
  const box = $("#banked-controls");
  const round = banked.round;
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
    for (const action of round.actions.filter((a) => !a.startsWith("raise "))) {
      buttons.push(el("button", { type: "button", class: action === "play" ? "primary" : "",
        "data-action": action, text: t(`banked.${action}`),
        onclick: () => send("decide", { action }) }));
    }
    box.replaceChildren(el("div", { class: "banked-decide" }, buttons));
    return;
  }
  const inputs = banked.rules.spots.map((spot) =>
    amountInput(`banked-${spot}`, t(`banked.${spot}`), spot === "ante" ? euros(banked.rules.min).replace(/\s*€$/, "") : ""));
  box.replaceChildren(...inputs, el("button", { type: "button", id: "banked-deal", class: "primary spin",
    text: t("banked.deal"), onclick: deal }));
}

function renderPays() {
  const pays = banked.rules.pays;
  const rows = banked.game === "three-card-poker"
    ? [...Object.entries(pays.ante_bonus).map(([hand, n]) => [`Ante bonus: ${hand.replace(/_/g, " ")}`, `${n}:1`]),
      ...Object.entries(pays.pair_plus).map(([hand, n]) => [`Pair Plus: ${hand.replace(/_/g, " ")}`, `${n}:1`])]
    : [...Object.entries(pays.spread).map(([spread, n]) => [`${t("banked.spread", { spread, pays: n })}`, `${n}:1`]),
      ["3 of a kind", `${pays.three_of_a_kind}:1`]];
  $("#banked-pays").replaceChildren(el("summary", { text: t("banked.pays") }),
    el("table", { class: "data" }, el("tbody", {}, rows.map(([what, pay]) =>
      el("tr", {}, el("td", { text: what }), el("td", { text: pay }))))));
}

async function deal() {
  const bets = {};
  for (const spot of banked.rules.spots) {
    const text = $(`#banked-${spot}`).value.trim();
    if (!text) continue;
    const cents = parseEuros(text);
    if (cents === null) return setMessage($("#banked-message"), t("banked.bad_amount"));
    if (cents > 0) bets[spot] = cents;
  }
  if (!Object.keys(bets).length) return setMessage($("#banked-message"), t("banked.bad_amount"));
  return send("deal", { bets });
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
    setBalance(round.balance);
    render();
  } catch (error) {
    if (error instanceof ApiError) setMessage(message, error.detail);
    else throw error;
  } finally {
    banked.busy = false;
  }
}
