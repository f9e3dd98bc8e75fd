// Pelisali browser client: log in, lobby, the tables, wallet, history, rules.
// Plain ES modules, no build step: core.js (strings, state, helpers), table.js (the betting
// table and roulette), games.js (boule, money wheel, dice), cards.js (punto banco,
// blackjack), live.js (live roulette), poker.js (poker tables), slots.js (the slot machines).

import {
  $, $$, ApiError, I18N, LANGS, addStrings, api, el, euros, gameTitle, hooks,
  parseEuros, refreshMe, setBalance, setMessage, showPlayer, showView, state, t, uniqueKey,
} from "./core.js";
import { clearBets, hasGame, openTable, rerenderTable, wireTable } from "./table.js";
import "./games.js";
import "./cards.js";
import { closeText, errorText } from "./messages.js";
import { closeLive, openLive } from "./live.js";
import { closePoker, openPoker, rerenderPoker, wirePoker } from "./poker.js";
import {
  lobbyNotice, openLimits, scheduleRealityCheck, wireRealityCheck,
} from "./protection.js";
import { openHistory, openRecall, wireHistory } from "./history.js";
import { openFair } from "./fair_settings.js";
import { closeTournaments, openTournaments } from "./tournaments.js";
import { openSlot, rerenderSlot, slotCards, slotList, wireSlot } from "./slots.js";
import { bankedCards, bankedList, openBanked, rerenderBanked } from "./banked.js";
import { cheminCards, cheminList, closeChemin, openChemin, rerenderChemin } from "./chemin.js";

const COUNTRIES = ["FI", "AX", "SE", "NO", "DK", "IS", "EE", "LV", "LT", "DE", "PL", "NL", "BE",
  "FR", "ES", "PT", "IT", "AT", "CH", "IE", "GB", "US", "CA", "AU"];

addStrings({
  fi: { "lobby.live": "Live-pöytä", "lobby.poker": "Pokeripöytä", "lobby.join": "Liity pöytään" },
  sv: { "lobby.live": "Livebord", "lobby.poker": "Pokerbord", "lobby.join": "Gå till bordet" },
  en: { "lobby.live": "Live table", "lobby.poker": "Poker table", "lobby.join": "Join the table" },
});

// ---------------------------------------------------------------------------------------
// Language

function applyLanguage() {
  document.documentElement.lang = state.lang;
  for (const node of $$("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const button of $$("#lang [data-lang]")) {
    button.setAttribute("aria-pressed", String(button.dataset.lang === state.lang));
  }
  fillCountries();
}

function setLanguage(lang) {
  if (!LANGS.includes(lang) || lang === state.lang) return;
  state.lang = lang;
  localStorage.setItem("pelisali.lang", lang);
  applyLanguage();
  rerender();
}

function fillCountries() {
  const select = $("#register-country");
  const chosen = select.value || "FI";
  let names = null;
  try { names = new Intl.DisplayNames([state.lang], { type: "region" }); } catch { /* old */ }
  select.replaceChildren(...COUNTRIES.map((code) =>
    el("option", { value: code, text: names ? `${names.of(code)} (${code})` : code })));
  select.value = chosen;
}

// ---------------------------------------------------------------------------------------
// Session

function loggedOut() {
  state.me = null;
  state.protection = null;
  scheduleRealityCheck();  // none: no one is logged in
  state.lobby = null;
  clearBets();
  showPlayer();
  route();
}

async function onLogin(event) {
  event.preventDefault();
  const message = $("#login-message");
  setMessage(message, "");
  const button = $("#login-submit");
  button.disabled = true;
  try {
    await api("/api/login", {
      method: "POST",
      body: { name: $("#login-name").value.trim(), password: $("#login-password").value },
    });
    $("#login-password").value = "";
    await refreshMe();
    if (!location.hash || location.hash === "#/login") location.hash = "#/lobby";
    route();
  } catch (error) {
    setMessage(message, error.status === 429 ? `${t("auth.rate")} (${error.detail})`
      : error.detail);
  } finally {
    button.disabled = false;
  }
}

async function onRegister(event) {
  event.preventDefault();
  const message = $("#register-message");
  setMessage(message, "");
  const name = $("#register-name").value.trim();
  const button = $("#register-submit");
  button.disabled = true;
  try {
    await api("/api/register", {
      method: "POST",
      body: {
        name,
        password: $("#register-password").value,
        born: $("#register-born").value,
        country: $("#register-country").value,
      },
    });
    $("#register-form").reset();
    fillCountries();
    $("#login-name").value = name;
    setMessage($("#login-message"), t("auth.registered", { name }), "ok");
    $("#login-password").focus();
  } catch (error) {
    setMessage(message, error.detail);
  } finally {
    button.disabled = false;
  }
}

async function onLogout() {
  try { await api("/api/logout", { method: "POST" }); } catch { /* gone already */ }
  loggedOut();
}

// ---------------------------------------------------------------------------------------
// Routing: #/lobby, #/table/roulette/C, #/table/sic-bo, #/slot/slot-video, #/live/NAME,
// #/poker/NAME, #/banked/GAME, #/wallet, #/history, #/recall/123, #/rules/roulette/C, #/tournaments,
// #/tournaments/ID, #/tournaments/board/ID

async function route() {
  const hash = location.hash.replace(/^#\/?/, "");
  if (state.me?.role === "player" && !state.protection) {  // the reality check's clock
    state.protection = await api("/api/protection").catch(() => null);
    scheduleRealityCheck();
  }
  state.route = hash;
  if (!state.me) {
    closeLive();
    closePoker();
    showView("auth");
    return;
  }
  const [page, game, variant] = hash.split("/").map(decodeURIComponent);
  if (page !== "live") closeLive();
  if (page !== "poker") closePoker();
  if (page !== "tournaments") closeTournaments();
  if (page !== "chemin") closeChemin();
  try {
    if (page === "table" && hasGame(game)) await openTable(game, variant);
    else if (page === "live" && game) await openLive(game);
    else if (page === "poker" && game) await openPoker(game);
    else if (page === "slot" && game) await openSlot(game);
    else if (page === "banked" && game) await openBanked(game);
    else if (page === "chemin" && game) await openChemin(game);
    else if (page === "wallet") await openWallet();
    else if (page === "history") await openHistory();
    else if (page === "recall" && /^\d{1,18}$/.test(game ?? "")) await openRecall(game);
    else if (page === "limits") await openLimits();
    else if (page === "fair") await openFair();
    else if (page === "tournaments") await openTournaments(game, variant);
    else if (page === "rules") await openRules(game || "roulette", variant || state.variant);
    else await openLobby();
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return;
    console.error(error);
    await openLobby().catch(() => showView("lobby"));
    setMessage($("#lobby-message"), error.detail ?? String(error));
  }
}

function rerender() {
  if (!state.me) return;
  showPlayer();
  const [page] = state.route.split("/");
  if (page === "table" || page === "live") rerenderTable();
  else if (page === "poker") rerenderPoker();
  else if (page === "slot") rerenderSlot();
  else if (page === "banked") rerenderBanked();
  else if (page === "chemin") rerenderChemin();
  else route();
}

// ---------------------------------------------------------------------------------------
// Lobby

async function openLobby() {
  const mine = state.route;
  state.lobby = await api("/api/lobby");
  [state.slots, state.banked, state.chemin] = await Promise.all([slotList(), bankedList(),
    cheminList()]);
  if (state.route !== mine) return;  // the player went on meanwhile: not back to the lobby
  renderLobby();
  showView("lobby");
  if (state.me?.role === "player") {
    await lobbyNotice($("#lobby-message"));
    scheduleRealityCheck();
  }
}

function renderLobby() {
  const lobby = state.lobby ?? { games: [], tables: [] };
  const games = $("#lobby-games");
  games.replaceChildren(...lobby.games.map((game) => {
    const playable = hasGame(game.game);
    const variants = game.variants ?? [];
    return el("article", { class: `game-card ${playable ? "" : "soon"}`, "data-game": game.game },
      el("div", { class: "game-art", "aria-hidden": "true" }, gameIcon(game.game)),
      el("h3", { text: gameTitle(game.game), title: game.title }),
      variants.length ? el("div", { class: "small", text: t("lobby.versions") }) : null,
      variants.length ? el("div", { class: "variants" }, variants.map((variant) => (playable
        ? el("a", {
          class: "variant", href: `#/table/${game.game}/${variant}`, "data-game": game.game,
          "data-variant": variant, title: `${game.title} ${variant}`, text: variant,
        })
        : el("span", { class: "variant off", text: variant })))) : null,
      // Each version in a line: what sets it apart, and its limits.
      game.versions?.length ? el("ul", { class: "versions small" }, game.versions.map((v) =>
        el("li", { "data-variant": v.variant },
          el("strong", { text: `${v.variant} ` }),
          `${v.description[state.lang] ?? v.description.en} · ${euros(v.min)}–${euros(v.max)}`)))
        : null,
      !variants.length && playable ? el("a", {
        class: "button primary game-open", href: `#/table/${game.game}`, "data-game": game.game,
        text: t("lobby.play"),
      }) : null,
      playable ? null : el("div", { class: "badge", text: t("lobby.soon") }));
  }), ...slotCards(state.slots ?? []), ...bankedCards(state.banked ?? []),
  ...cheminCards(state.chemin ?? []));
  const tables = $("#lobby-tables");
  if (!lobby.tables.length) {
    tables.replaceChildren(el("p", { class: "small", text: t("lobby.empty") }));
    return;
  }
  tables.replaceChildren(...lobby.tables.map((table) => {
    const isPoker = table.game === "poker";
    const href = isPoker ? `#/poker/${encodeURIComponent(table.name)}`
      : table.game === "chemin-de-fer" ? `#/chemin/${encodeURIComponent(table.name)}`
      : table.mode === "live" && hasGame(table.game) ? `#/live/${encodeURIComponent(table.name)}` : null;
    const mode = isPoker ? t("lobby.poker") : table.mode === "live" ? t("lobby.live")
      : I18N[state.lang][`mode.${table.mode}`] ? t(`mode.${table.mode}`) : table.mode;
    return el("article", {
      class: "table-card", "data-game": table.game, "data-variant": table.variant,
      "data-table": table.name,
    },
    el("div", { class: "table-card-head" },
      el("h3", { text: table.name }),
      el("span", { class: "mode", text: mode })),
    el("div", { class: "small", text: isPoker ? `${gameTitle("poker")} · ${table.variant}`
      : `${gameTitle(table.game)} · ${table.variant}` }),
    el("div", { class: "limits", text: isPoker
      ? t("poker.blinds", { sb: euros(table.min), bb: euros(table.max) })
      : t("lobby.limits", { min: euros(table.min), max: euros(table.max) }) }),
    href
      ? el("a", { class: "button primary table-open", href, text: t("lobby.join") })
      : el("span", { class: "button disabled", text: t("lobby.soon") }));
  }));
}

function gameIcon(game) {
  const icons = { roulette: "◎", blackjack: "🂡", punto_banco: "🂱", baccarat: "🂱", poker: "♠",
    tuplanoppa: "⚁", sic_bo: "⚄", money_wheel: "✺", boule: "●" };
  return icons[game] ?? icons[game.replace(/-/g, "_")] ?? "♣";
}

// ---------------------------------------------------------------------------------------
// Wallet

async function openWallet() {
  await refreshMe();
  setMessage($("#wallet-message"), "");
  showView("wallet");
}

async function walletMove(kind) {
  const message = $("#wallet-message");
  const cents = parseEuros($("#wallet-amount").value);
  if (cents === null) {
    setMessage(message, t("wallet.bad"));
    return;
  }
  const buttons = [$("#deposit"), $("#withdraw")];
  for (const b of buttons) b.disabled = true;
  try {
    const answer = await api(`/api/wallet/${kind}`, {
      method: "POST", body: { amount: cents, key: uniqueKey() },
    });
    setBalance(answer.balance);
    setMessage(message, t(kind === "deposit" ? "wallet.deposited" : "wallet.withdrawn",
      { amount: euros(cents) }), "ok");
    $("#wallet-amount").value = "";
  } catch (error) {
    setMessage(message, error.detail);
  } finally {
    for (const b of buttons) b.disabled = false;
  }
}

// ---------------------------------------------------------------------------------------
// Rules

async function openRules(game, variant) {
  const roulette = game === "roulette";
  variant = roulette ? (variant || "C").toUpperCase() : "";
  const rules = await api(`/api/rules/${encodeURIComponent(game)}?lang=${state.lang}`
    + (roulette ? `&variant=${encodeURIComponent(variant)}` : ""));
  $("#rules-title").textContent = rules.title;
  $("#rules-description").textContent = rules.description ?? "";
  $("#rules-limits").textContent = rules.limits?.text ? t("rules.limits", { text: rules.limits.text }) : "";
  $("#rules-head-bet").textContent = rules.headings?.bet ?? t("rules.bet");
  $("#rules-head-pays").textContent = rules.headings?.pays ?? t("rules.pays");
  $("#rules-lines").replaceChildren(...(rules.lines ?? []).map((line) => el("tr", {},
    el("td", { text: line.bet }), el("td", { class: "pays", text: line.pays }),
    el("td", { class: "small", text: line.section ?? "" }))));
  $("#rules-notes").replaceChildren(...(rules.notes ?? []).map((note) => el("li", { text: note })));
  const select = $("#rules-variant");
  const variants = roulette ? state.lobby?.games?.find((g) => g.game === game)?.variants
    ?? ["A", "B", "C", "D", "E", "F", "G", "H", "I"] : [];
  select.replaceChildren(...variants.map((v) => el("option", { value: v, text: v })));
  select.value = variant;
  select.dataset.game = game;
  select.hidden = !variants.length;
  $("#rules-back").href = roulette ? `#/table/roulette/${variant}` : hasGame(game) ? `#/table/${game}` : "#/lobby";
  showView("rules");
}

// ---------------------------------------------------------------------------------------
// Start

function wire() {
  for (const button of $$("#lang [data-lang]")) {
    button.addEventListener("click", () => setLanguage(button.dataset.lang));
  }
  $("#login-form").addEventListener("submit", onLogin);
  $("#register-form").addEventListener("submit", onRegister);
  $("#logout").addEventListener("click", onLogout);
  wireRealityCheck(onLogout);
  wireTable();
  wirePoker();
  wireHistory();
  wireSlot();
  $("#deposit").addEventListener("click", () => walletMove("deposit"));
  $("#withdraw").addEventListener("click", () => walletMove("withdraw"));
  for (const quick of $$("#wallet-quick [data-amount]")) {
    quick.addEventListener("click", () => { $("#wallet-amount").value = quick.dataset.amount; });
  }
  $("#rules-variant").addEventListener("change", (event) => {
    location.hash = `#/rules/${event.target.dataset.game}/${event.target.value}`;
  });
  window.addEventListener("hashchange", route);
}

async function start() {
  hooks.loggedOut = loggedOut;
  hooks.errorText = errorText;
  hooks.closeText = closeText;
  wire();
  applyLanguage();
  try {
    await refreshMe();
  } catch {
    state.me = null;
  }
  showPlayer();
  await route();
  document.body.dataset.ready = "true";
}

start();
