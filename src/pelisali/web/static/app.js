// Pelisali browser client: log in, lobby, roulette table, wallet, history, rules.
// Plain ES module, no build step. The API speaks integer cents; the page shows euros.

const CHIPS = [100, 500, 2500, 10000, 50000]; // 1, 5, 25, 100, 500 €
const EVEN_CHANCES = ["low", "even", "red", "black", "odd", "high"];
const INSIDE = ["straight", "split", "street", "corner", "sixline", "first_five"];
const EUROPEAN = [0, 32, 15, 19, 4, 21, 2, 25, 17, 34, 6, 27, 13, 36, 11, 30, 8, 23, 10, 5, 24,
  16, 33, 1, 20, 14, 31, 9, 22, 18, 29, 7, 28, 12, 35, 3, 26].map(String);
const AMERICAN = [0, 28, 9, 26, 30, 11, 7, 20, 32, 17, 5, 22, 34, 15, 3, 24, 36, 13, 1, "00", 27,
  10, 25, 29, 12, 8, 19, 31, 18, 6, 21, 33, 16, 4, 23, 35, 14, 2].map(String);
const COUNTRIES = ["FI", "AX", "SE", "NO", "DK", "IS", "EE", "LV", "LT", "DE", "PL", "NL", "BE",
  "FR", "ES", "PT", "IT", "AT", "CH", "IE", "GB", "US", "CA", "AU"];

// ---------------------------------------------------------------------------------------
// The UI's own strings. Game titles, rules and refusals come from the server.
const I18N = {
  fi: {
    "nav.lobby": "Aula", "nav.wallet": "Lompakko", "nav.history": "Historia",
    "nav.rules": "Säännöt", balance: "Saldo", logout: "Kirjaudu ulos", back: "← Aulaan",
    loading: "Ladataan…",
    footer: "Pelaa vastuullisesti. Rahapelaaminen on sallittu vain täysi-ikäisille.",
    "auth.welcome": "Tervetuloa Pelisaliin",
    "auth.intro": "Kirjaudu sisään tai rekisteröidy pelaajaksi.",
    "auth.age": "Pelaajan on oltava täysi-ikäinen.",
    "auth.login": "Kirjaudu sisään", "auth.register": "Rekisteröidy", "auth.name": "Nimi",
    "auth.password": "Salasana", "auth.born": "Syntymäaika", "auth.country": "Asuinmaa",
    "auth.registered": "Rekisteröinti onnistui, {name}. Kirjaudu nyt sisään.",
    "auth.rate": "Liian monta yritystä. Odota hetki ja yritä uudelleen.",
    "lobby.title": "Pelit ja pöydät", "lobby.tables": "Pöydät", "lobby.play": "Pelaa",
    "lobby.soon": "Tulossa", "lobby.limits": "Panos {min} – {max}", "lobby.versions": "Versiot",
    "lobby.empty": "Ei avoimia pöytiä.",
    "mode.rng": "Digitaalinen", "mode.live": "Live", "mode.table": "Pöytäpeli",
    "table.winning": "Voittonumero", "table.recent": "Edelliset",
    "table.hint": "Valitse pelimerkki ja napsauta kenttää. Hiiren oikea painike poistaa pelimerkin.",
    "table.total": "Panokset yhteensä", "table.undo": "Peru", "table.clear": "Tyhjennä",
    "table.rebet": "Samat panokset", "table.spin": "Pyöräytä", "table.round": "Kierros",
    "table.net": "Yhteensä", "table.nobets": "Aseta ensin pelimerkki kentälle.",
    "table.limits": "Panos {min} – {max}", "table.title": "Ruletti {variant}",
    "table.won": "Voitit {amount}", "table.lost": "Ei voittoa tällä kierroksella",
    "table.spinning": "Pyörä pyörii…", "table.twotoone": "2:1",
    "col.spot": "Kohde", "col.stake": "Panos", "col.paid": "Maksettu", "col.result": "Tulos",
    "col.round": "Kierros", "col.table": "Pöytä", "col.at": "Aika",
    "wallet.title": "Lompakko", "wallet.amount": "Summa (€)", "wallet.deposit": "Talleta",
    "wallet.withdraw": "Nosta", "wallet.bad": "Anna summa euroina, esim. 20 tai 12.50.",
    "wallet.deposited": "Talletettu {amount}.", "wallet.withdrawn": "Nostettu {amount}.",
    "wallet.status": "Tilin tila: {status}", "wallet.excluded": "Pelikielto {until} asti",
    "history.title": "Pelihistoria", "history.empty": "Ei vielä pelejä.",
    "rules.bet": "Panos", "rules.pays": "Voitto", "rules.section": "Kohta",
    "bet.straight": "Numero", "bet.split": "Hevonen", "bet.street": "Rivi", "bet.corner": "Neliö",
    "bet.sixline": "Kuusi numeroa", "bet.first_five": "Viisi ensimmäistä", "bet.dozen": "Tusina",
    "bet.column": "Sarake", "bet.quarter": "Neljännes", "bet.red": "Punainen",
    "bet.black": "Musta", "bet.even": "Parillinen", "bet.odd": "Pariton", "bet.low": "Pieni",
    "bet.high": "Iso",
    "result.win": "Voitto", "result.lose": "Häviö", "result.half": "Puolet takaisin",
    "result.prison": "Vankilassa", "result.release": "Vapautettu", "result.quarter": "Neljännes",
    "result.push": "Tasapeli", "result.refund": "Palautettu",
    "colour.red": "punainen", "colour.black": "musta", "colour.green": "vihreä",
    "err.network": "Yhteys palvelimeen katkesi.",
    "auth.namehint": "Kirjaimet, numerot, - ja _",
    "wallet.forever": "Pelikielto toistaiseksi",
    "lobby.live": "Live-pöydät tulevat seuraavaksi",
    "rules.limits": "Pöydän panosrajat: {text}",
    "choice.title": "Nolla! Valitse, mitä panokselle tehdään", "choice.bet": "Panos #{n}",
    "choice.prison": "Vankilaan", "choice.half": "Puolet takaisin",
    "game.roulette": "Ruletti", "game.boule": "Boule", "game.money-wheel": "Rahapyörä",
    "game.tuplanoppa": "Tuplanoppa", "game.sic-bo": "Sic Bo",
  },
  sv: {
    "nav.lobby": "Lobby", "nav.wallet": "Plånbok", "nav.history": "Historik",
    "nav.rules": "Regler", balance: "Saldo", logout: "Logga ut", back: "← Till lobbyn",
    loading: "Laddar…",
    footer: "Spela ansvarsfullt. Penningspel är tillåtet endast för myndiga.",
    "auth.welcome": "Välkommen till Pelisali",
    "auth.intro": "Logga in eller registrera dig som spelare.",
    "auth.age": "Spelaren måste vara myndig.",
    "auth.login": "Logga in", "auth.register": "Registrera dig", "auth.name": "Namn",
    "auth.password": "Lösenord", "auth.born": "Födelsedatum", "auth.country": "Bosättningsland",
    "auth.registered": "Registreringen lyckades, {name}. Logga in nu.",
    "auth.rate": "För många försök. Vänta en stund och försök igen.",
    "lobby.title": "Spel och bord", "lobby.tables": "Bord", "lobby.play": "Spela",
    "lobby.soon": "Kommer snart", "lobby.limits": "Insats {min} – {max}",
    "lobby.versions": "Versioner", "lobby.empty": "Inga öppna bord.",
    "mode.rng": "Digitalt", "mode.live": "Live", "mode.table": "Bordsspel",
    "table.winning": "Vinstnummer", "table.recent": "Senaste",
    "table.hint": "Välj en mark och klicka på spelfältet. Högerklick tar bort en mark.",
    "table.total": "Insatser totalt", "table.undo": "Ångra", "table.clear": "Töm",
    "table.rebet": "Samma insatser", "table.spin": "Snurra", "table.round": "Omgång",
    "table.net": "Totalt", "table.nobets": "Lägg först en mark på spelfältet.",
    "table.limits": "Insats {min} – {max}", "table.title": "Roulette {variant}",
    "table.won": "Du vann {amount}", "table.lost": "Ingen vinst denna omgång",
    "table.spinning": "Hjulet snurrar…", "table.twotoone": "2:1",
    "col.spot": "Insats på", "col.stake": "Insats", "col.paid": "Utbetalt", "col.result": "Resultat",
    "col.round": "Omgång", "col.table": "Bord", "col.at": "Tid",
    "wallet.title": "Plånbok", "wallet.amount": "Belopp (€)", "wallet.deposit": "Sätt in",
    "wallet.withdraw": "Ta ut", "wallet.bad": "Ange beloppet i euro, t.ex. 20 eller 12.50.",
    "wallet.deposited": "Insatt {amount}.", "wallet.withdrawn": "Uttaget {amount}.",
    "wallet.status": "Kontots status: {status}", "wallet.excluded": "Spelförbud till {until}",
    "history.title": "Spelhistorik", "history.empty": "Inga spel ännu.",
    "rules.bet": "Insats", "rules.pays": "Vinst", "rules.section": "Punkt",
    "bet.straight": "Nummer", "bet.split": "Split", "bet.street": "Rad", "bet.corner": "Hörn",
    "bet.sixline": "Sex nummer", "bet.first_five": "Fem första", "bet.dozen": "Dussin",
    "bet.column": "Kolumn", "bet.quarter": "Fjärdedel", "bet.red": "Röd", "bet.black": "Svart",
    "bet.even": "Jämn", "bet.odd": "Udda", "bet.low": "Låg", "bet.high": "Hög",
    "result.win": "Vinst", "result.lose": "Förlust", "result.half": "Hälften tillbaka",
    "result.prison": "I fängelse", "result.release": "Frigiven", "result.quarter": "Fjärdedel",
    "result.push": "Oavgjort", "result.refund": "Återbetald",
    "colour.red": "röd", "colour.black": "svart", "colour.green": "grön",
    "err.network": "Förbindelsen till servern bröts.",
    "auth.namehint": "Bokstäver, siffror, - och _",
    "wallet.forever": "Spelförbud tills vidare",
    "lobby.live": "Livebord kommer härnäst",
    "rules.limits": "Bordets insatsgränser: {text}",
    "choice.title": "Noll! Välj vad som görs med insatsen", "choice.bet": "Insats #{n}",
    "choice.prison": "I fängelse", "choice.half": "Hälften tillbaka",
    "game.roulette": "Roulette", "game.boule": "Boule", "game.money-wheel": "Pengahjul",
    "game.tuplanoppa": "Tuplanoppa (två tärningar)", "game.sic-bo": "Sic Bo",
  },
  en: {
    "nav.lobby": "Lobby", "nav.wallet": "Wallet", "nav.history": "History",
    "nav.rules": "Rules", balance: "Balance", logout: "Log out", back: "← Lobby",
    loading: "Loading…",
    footer: "Play responsibly. Gambling is for adults only.",
    "auth.welcome": "Welcome to Pelisali",
    "auth.intro": "Log in or register as a player.",
    "auth.age": "Players must be of age.",
    "auth.login": "Log in", "auth.register": "Register", "auth.name": "Name",
    "auth.password": "Password", "auth.born": "Date of birth", "auth.country": "Country of residence",
    "auth.registered": "Registered, {name}. Now log in.",
    "auth.rate": "Too many attempts. Wait a moment and try again.",
    "lobby.title": "Games and tables", "lobby.tables": "Tables", "lobby.play": "Play",
    "lobby.soon": "Coming soon", "lobby.limits": "Stakes {min} – {max}",
    "lobby.versions": "Versions", "lobby.empty": "No open tables.",
    "mode.rng": "Digital", "mode.live": "Live", "mode.table": "Table game",
    "table.winning": "Winning number", "table.recent": "Last numbers",
    "table.hint": "Pick a chip and click the layout. Right-click removes a chip.",
    "table.total": "Total bet", "table.undo": "Undo", "table.clear": "Clear",
    "table.rebet": "Rebet", "table.spin": "Spin", "table.round": "Round",
    "table.net": "Total", "table.nobets": "Place a chip on the layout first.",
    "table.limits": "Stakes {min} – {max}", "table.title": "Roulette {variant}",
    "table.won": "You won {amount}", "table.lost": "No win this round",
    "table.spinning": "The wheel is spinning…", "table.twotoone": "2 to 1",
    "col.spot": "Bet", "col.stake": "Stake", "col.paid": "Paid", "col.result": "Result",
    "col.round": "Round", "col.table": "Table", "col.at": "Time",
    "wallet.title": "Wallet", "wallet.amount": "Amount (€)", "wallet.deposit": "Deposit",
    "wallet.withdraw": "Withdraw", "wallet.bad": "Give the amount in euros, e.g. 20 or 12.50.",
    "wallet.deposited": "Deposited {amount}.", "wallet.withdrawn": "Withdrew {amount}.",
    "wallet.status": "Account status: {status}", "wallet.excluded": "Excluded until {until}",
    "history.title": "Bet history", "history.empty": "No bets yet.",
    "rules.bet": "Bet", "rules.pays": "Pays", "rules.section": "Section",
    "bet.straight": "Straight", "bet.split": "Split", "bet.street": "Street",
    "bet.corner": "Corner", "bet.sixline": "Six line", "bet.first_five": "First five",
    "bet.dozen": "Dozen", "bet.column": "Column", "bet.quarter": "Quarter", "bet.red": "Red",
    "bet.black": "Black", "bet.even": "Even", "bet.odd": "Odd", "bet.low": "Low",
    "bet.high": "High",
    "result.win": "Win", "result.lose": "Lose", "result.half": "Half back",
    "result.prison": "In prison", "result.release": "Released", "result.quarter": "Quarter",
    "result.push": "Push", "result.refund": "Refunded",
    "colour.red": "red", "colour.black": "black", "colour.green": "green",
    "err.network": "Lost the connection to the server.",
    "auth.namehint": "Letters, digits, - and _",
    "wallet.forever": "Excluded indefinitely",
    "lobby.live": "Live tables come next",
    "rules.limits": "Table limits: {text}",
    "choice.title": "Zero! Choose what happens to the bet", "choice.bet": "Bet #{n}",
    "choice.prison": "En prison", "choice.half": "Half back",
    "game.roulette": "Roulette", "game.boule": "Boule", "game.money-wheel": "Money wheel",
    "game.tuplanoppa": "Tuplanoppa (two dice)", "game.sic-bo": "Sic Bo",
  },
};
const LANGS = Object.keys(I18N);

// ---------------------------------------------------------------------------------------
// State

const state = {
  lang: LANGS.includes(localStorage.getItem("pelisali.lang"))
    ? localStorage.getItem("pelisali.lang") : "fi",
  me: null, // GET /api/me
  lobby: null, // GET /api/lobby
  layout: null, // GET /api/layout/roulette for the open table
  variant: "C",
  chip: 500,
  bets: new Map(), // spot key -> [chip cents, ...] in the order placed
  placed: [], // spot keys in placing order, for Undo
  lastBets: null, // the last slip that was played, for Rebet
  lastRound: null, // the last POST /api/play/roulette answer
  spinning: false,
  recent: {}, // variant -> recent results, newest first
  rotation: 0, // the wheel rotor's angle
  route: "",
};

// ---------------------------------------------------------------------------------------
// Helpers

const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];

function t(key, vars = {}) {
  const text = I18N[state.lang][key] ?? I18N.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(vars[name] ?? ""));
}

/** Cents as euros with two decimals: 1250 -> "12.50 €". */
export function euros(cents) {
  const sign = cents < 0 ? "-" : "";
  return `${sign}${(Math.abs(cents) / 100).toFixed(2)} €`;
}

/** A chip label: whole euros without decimals. */
function chipLabel(cents) {
  const value = cents / 100;
  if (value >= 1000 && value % 1000 === 0) return `${value / 1000}k`;
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

/** "12,50" / "12.50" / "12" -> 1250 cents, or null. */
function parseEuros(text) {
  const clean = String(text).trim().replace(/\s|€/g, "").replace(",", ".");
  if (!/^\d+(\.\d{1,2})?$/.test(clean)) return null;
  const [whole, part = ""] = clean.split(".");
  const cents = Number(whole) * 100 + Number(part.padEnd(2, "0"));
  return cents > 0 && Number.isSafeInteger(cents) ? cents : null;
}

function uniqueKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16)); // insecure contexts lack randomUUID
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (name === "style") node.setAttribute("style", value);
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

function setMessage(node, text, kind = "error") {
  node.textContent = text || "";
  node.classList.toggle("error", kind === "error" && !!text);
  node.classList.toggle("ok", kind === "ok" && !!text);
}

class ApiError extends Error {
  constructor(status, detail) {
    super(detail);
    this.status = status;
    this.detail = detail;
  }
}

function describeDetail(detail) {
  if (detail === undefined || detail === null) return "";
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) { // FastAPI's validation errors
    return detail.map((d) => {
      const where = Array.isArray(d.loc) ? d.loc.filter((p) => p !== "body").join(".") : "";
      return where ? `${where}: ${d.msg}` : d.msg ?? JSON.stringify(d);
    }).join("; ");
  }
  return detail.message ?? JSON.stringify(detail);
}

async function api(path, { method = "GET", body } = {}) {
  let response;
  try {
    response = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? { Accept: "application/json" }
        : { Accept: "application/json", "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, t("err.network"));
  }
  const text = await response.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch { data = { detail: text }; }
  }
  if (!response.ok) {
    let detail = describeDetail(data?.detail);
    if (response.status === 429 && !detail) detail = t("auth.rate");
    if (!detail) detail = `${response.status} ${response.statusText}`;
    if (response.status === 401 && state.me && !path.startsWith("/api/login")) {
      loggedOut();
    }
    throw new ApiError(response.status, detail);
  }
  return data;
}

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
// Spot names

function spotLabel(key) {
  const [type, rest = ""] = key.split(" ");
  const name = I18N[state.lang][`bet.${type}`] ? t(`bet.${type}`) : null;
  if (!name) return key;
  if (type === "straight") return rest;
  if (type === "dozen") {
    const d = Number(rest);
    return `${name} ${12 * d - 11}–${12 * d}`;
  }
  if (INSIDE.includes(type)) return rest ? `${name} ${rest.split("-").join("/")}` : name;
  return rest ? `${name} ${rest}` : name;
}

function resultLabel(result) {
  return I18N[state.lang][`result.${result}`] ? t(`result.${result}`) : result;
}

// ---------------------------------------------------------------------------------------
// Session

async function refreshMe() {
  state.me = await api("/api/me");
  showPlayer();
  return state.me;
}

function showPlayer() {
  const me = state.me;
  $("#player").hidden = !me;
  $("#nav").hidden = !me;
  if (!me) return;
  $("#player-name").textContent = me.name;
  setBalance(me.balance);
  const status = $("#wallet-status");
  const parts = [];
  if (me.status && me.status !== "active") parts.push(t("wallet.status", { status: me.status }));
  if (me.excluded_until === "forever") parts.push(t("wallet.forever"));
  else if (me.excluded_until) {
    parts.push(t("wallet.excluded", { until: new Date(me.excluded_until).toLocaleString(locale()) }));
  }
  status.textContent = parts.join(" · ");
}

function setBalance(cents) {
  if (state.me) state.me.balance = cents;
  for (const node of [$("#balance"), $("#wallet-balance")]) {
    node.textContent = euros(cents);
    node.dataset.cents = String(cents);
  }
}

function loggedOut() {
  state.me = null;
  state.lobby = null;
  clearBets();
  showPlayer();
  route();
}

function locale() {
  return { fi: "fi-FI", sv: "sv-FI", en: "en-GB" }[state.lang];
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
// Routing: #/lobby, #/table/roulette/C, #/wallet, #/history, #/rules/roulette/C

const VIEWS = ["auth", "lobby", "table", "wallet", "history", "rules"];

function showView(name) {
  for (const view of VIEWS) $(`#${view}-view`).hidden = view !== name;
  $("#loading").hidden = true;
  for (const link of $$("#nav a")) {
    link.classList.toggle("active", link.id === `nav-${name}`);
  }
}

async function route() {
  const hash = location.hash.replace(/^#\/?/, "");
  state.route = hash;
  if (!state.me) {
    showView("auth");
    return;
  }
  const [page, game, variant] = hash.split("/");
  try {
    if (page === "table" && game === "roulette") await openTable(variant || "C");
    else if (page === "wallet") await openWallet();
    else if (page === "history") await openHistory();
    else if (page === "rules") await openRules(game || "roulette", variant || state.variant);
    else await openLobby();
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return;
    console.error(error);
    showView("lobby");
    setMessage($("#table-message"), error.detail ?? String(error));
  }
}

function rerender() {
  if (!state.me) return;
  showPlayer();
  const [page] = state.route.split("/");
  if (page === "table" && state.layout) {
    renderTableHead();
    renderLayout();
    if (state.lastRound) renderSettlements(state.lastRound);
  } else {
    route();
  }
}

// ---------------------------------------------------------------------------------------
// Lobby

async function openLobby() {
  state.lobby = await api("/api/lobby");
  renderLobby();
  showView("lobby");
}

/** The game's name in the UI's language; the server's title for games we do not know. */
function gameTitle(game) {
  if (I18N[state.lang][`game.${game}`]) return t(`game.${game}`);
  const entry = state.lobby?.games?.find((g) => g.game === game);
  return entry?.title ?? game;
}

function renderLobby() {
  const lobby = state.lobby ?? { games: [], tables: [] };
  const games = $("#lobby-games");
  games.replaceChildren(...lobby.games.map((game) => {
    const playable = game.game === "roulette";
    return el("article", { class: `game-card ${playable ? "" : "soon"}`, "data-game": game.game },
      el("div", { class: "game-art", "aria-hidden": "true" }, gameIcon(game.game)),
      el("h3", { text: gameTitle(game.game), title: game.title }),
      game.variants?.length ? el("div", { class: "small", text: t("lobby.versions") }) : null,
      el("div", { class: "variants" }, (game.variants ?? []).map((variant) => playable
        ? el("a", {
          class: "variant", href: `#/table/roulette/${variant}`, "data-game": game.game,
          "data-variant": variant, title: `${game.title} ${variant}`, text: variant,
        })
        : el("span", { class: "variant off", text: variant }))),
      playable ? null : el("div", { class: "badge", text: t("lobby.soon") }));
  }));
  const tables = $("#lobby-tables");
  if (!lobby.tables.length) {
    tables.replaceChildren(el("p", { class: "small", text: t("lobby.empty") }));
    return;
  }
  tables.replaceChildren(...lobby.tables.map((table) => {
    // This slice plays the RNG tables; the live tables (a shared wheel over a websocket)
    // are listed but not yet playable here.
    const playable = table.game === "roulette" && table.mode !== "live";
    const mode = I18N[state.lang][`mode.${table.mode}`] ? t(`mode.${table.mode}`) : table.mode;
    return el("article", {
      class: "table-card", "data-game": table.game, "data-variant": table.variant,
      "data-table": table.name,
    },
    el("div", { class: "table-card-head" },
      el("h3", { text: table.name }),
      el("span", { class: "mode", text: mode })),
    el("div", { class: "small", text: `${gameTitle(table.game)} · ${table.variant}` }),
    el("div", { class: "limits", text: t("lobby.limits", { min: euros(table.min), max: euros(table.max) }) }),
    playable
      ? el("a", {
        class: "button primary table-open", href: `#/table/roulette/${table.variant}`,
        text: t("lobby.play"),
      })
      : el("span", {
        class: "button disabled", text: t("lobby.soon"),
        title: table.mode === "live" ? t("lobby.live") : t("lobby.soon"),
      }));
  }));
}

function gameIcon(game) {
  const icons = { roulette: "◎", blackjack: "🂡", punto_banco: "🂱", baccarat: "🂱", poker: "♠",
    dice: "⚅", sic_bo: "⚄", money_wheel: "✺", boule: "●" };
  return icons[game] ?? icons[game.replace(/-/g, "_")] ?? "♣";
}

// ---------------------------------------------------------------------------------------
// The roulette table

async function openTable(variant) {
  variant = variant.toUpperCase();
  if (!state.layout || state.layout.variant !== variant) {
    const layout = await api(`/api/layout/roulette?variant=${encodeURIComponent(variant)}`);
    if (state.variant !== variant) {
      clearBets();
      state.lastBets = null;
      state.lastRound = null;
      $("#result-panel").hidden = true;
      $("#settlements").replaceChildren();
      $("#result-number").textContent = "";
      $("#result-number").className = "result-number";
      $("#result-extra").textContent = "";
    }
    state.layout = layout;
    state.variant = variant;
    buildWheel();
  }
  if (!state.lobby) {
    try { state.lobby = await api("/api/lobby"); } catch { /* only for the title */ }
  }
  $("#nav-rules").href = `#/rules/roulette/${variant}`;
  renderTableHead();
  renderChips();
  renderLayout();
  renderRecent();
  setMessage($("#table-message"), "");
  showView("table");
}

function renderTableHead() {
  const layout = state.layout;
  $("#table-title").textContent = t("table.title", { variant: layout.variant });
  $("#table-limits").textContent = t("table.limits", { min: euros(layout.min), max: euros(layout.max) });
  $("#table-rules").href = `#/rules/roulette/${layout.variant}`;
}

function renderChips() {
  const box = $("#chips");
  if (!box.children.length) {
    box.replaceChildren(...CHIPS.map((value) => el("button", {
      type: "button", class: `chip chip-${value}`, "data-value": String(value),
      title: euros(value), "aria-label": euros(value),
      onclick: () => selectChip(value),
    }, el("span", { class: "chip-face", text: chipLabel(value) }))));
  }
  selectChip(state.chip);
}

function selectChip(value) {
  state.chip = value;
  for (const chip of $$("#chips .chip")) {
    const on = Number(chip.dataset.value) === value;
    chip.classList.toggle("selected", on);
    chip.setAttribute("aria-pressed", String(on));
  }
}

function isNumber(pocket) {
  return /^[1-9]\d*$/.test(pocket);
}

/** Draw the layout: zeros, the 3 × n number grid with the columns at the row ends,
 * dozens and the even chances below, and hot spots between numbers for inside bets. */
function renderLayout() {
  const layout = state.layout;
  const root = $("#layout");
  const offered = new Map(layout.spots.map((spot) => [spot.key, spot]));
  const colour = new Map(layout.numbers.map((n) => [n.number, n.colour]));
  const zeros = layout.numbers.map((n) => n.number).filter((n) => !isNumber(n));
  const numbers = layout.numbers.map((n) => n.number).filter(isNumber).map(Number);
  const top = Math.max(...numbers);
  const cols = Math.ceil(top / 3);
  root.style.setProperty("--cols", String(cols));
  root.classList.toggle("small-wheel", cols < 12);
  root.classList.toggle("no-columns", ![1, 2, 3].some((c) => offered.has(`column ${c}`)));

  const spotButton = (key, cls, content, extra = {}) => {
    const spot = offered.get(key);
    if (!spot) return el("div", { class: `${cls} spot-off` }, content);
    return el("button", {
      type: "button", class: `spot ${cls}`, "data-spot": key, "data-bet-type": spot.bet_type,
      title: `${spotLabel(key)} · ${spot.pays}`, "aria-label": `${spotLabel(key)}, ${spot.pays}`,
      ...extra,
    }, content);
  };

  // The zeros, stacked: 00 above 0 (00 sits beside 2 and 3, 0 beside 1 and 2).
  const zeroBox = el("div", { class: `zeros zeros-${zeros.length}` },
    [...zeros].reverse().map((z) => spotButton(`straight ${z}`, `num green`,
      el("span", { class: "num-face", text: z }))));

  // The numbers: row 1 holds 3, 6, 9 …; row 3 holds 1, 4, 7 …
  const grid = el("div", { class: "numbers" });
  for (const n of numbers) {
    const col = Math.floor((n - 1) / 3);
    const row = 2 - ((n - 1) % 3);
    grid.append(spotButton(`straight ${n}`, `num ${colour.get(String(n)) ?? "black"}`,
      el("span", { class: "num-face", text: String(n) }),
      { style: `grid-column:${col + 1};grid-row:${row + 1}` }));
  }
  // Hot spots for the bets between numbers.
  const rowOf = (n) => 2 - ((n - 1) % 3);
  const colOf = (n) => Math.floor((n - 1) / 3);
  for (const spot of layout.spots) {
    const [type, rest = ""] = spot.key.split(" ");
    if (!["split", "street", "corner", "sixline", "first_five"].includes(type)) continue;
    const members = type === "first_five" ? ["0", "00", "1", "2", "3"] : rest.split("-");
    const nums = members.filter(isNumber).map(Number).sort((a, b) => a - b);
    let x;
    let y;
    let host = grid;
    if (nums.length === members.length) {
      const [a] = nums;
      if (type === "split" && nums[1] === a + 1) { x = colOf(a) + 0.5; y = rowOf(a); }
      else if (type === "split") { x = colOf(a) + 1; y = rowOf(a) + 0.5; }
      else if (type === "street") { x = colOf(a) + 0.5; y = 3; }
      else if (type === "corner") { x = colOf(a) + 1; y = rowOf(a); }
      else if (type === "sixline") { x = colOf(a) + 1; y = 3; }
      else continue;
    } else if (nums.length === 0) { // 0-00, on the line between the two zeros
      host = zeroBox;
      x = null;
    } else {
      x = 0;
      if (nums.length === 1) y = rowOf(nums[0]) + 0.5;
      else if (nums.length === 2) y = Math.max(...nums.map(rowOf));
      else y = 3;
    }
    const style = x === null ? "left:50%;top:50%"
      : `left:${(100 * x) / cols}%;top:${(100 * y) / 3}%`;
    host.append(spotButton(spot.key, `hot hot-${type}`, null, { style }));
  }

  // The column bets at the ends of the rows.
  const columns = [3, 2, 1].map((c, i) => spotButton(`column ${c}`, "outside column-bet",
    el("span", { text: t("table.twotoone") }), { style: `grid-row:${i + 1}` }));

  // Dozens and the even chances.
  const dozens = [1, 2, 3].filter((d) => offered.has(`dozen ${d}`)).map((d) =>
    spotButton(`dozen ${d}`, "outside dozen", el("span", { text: `${12 * d - 11}–${12 * d}` })));
  const half = Math.floor(top / 2);
  const evenFace = {
    low: () => el("span", { text: `1–${half}` }),
    high: () => el("span", { text: `${half + 1}–${top}` }),
    even: () => el("span", { text: t("bet.even") }),
    odd: () => el("span", { text: t("bet.odd") }),
    red: () => el("span", { class: "diamond red", title: t("bet.red") }),
    black: () => el("span", { class: "diamond black", title: t("bet.black") }),
  };
  const evens = EVEN_CHANCES.filter((k) => offered.has(k)).map((k) =>
    spotButton(k, `outside even-chance ec-${k}`, evenFace[k]()));
  const extras = [...offered.keys()].filter((k) => k.startsWith("quarter ")).map((k) =>
    spotButton(k, "outside quarter", el("span", { text: spotLabel(k) })));

  root.replaceChildren(...[
    zeroBox,
    grid,
    root.classList.contains("no-columns") ? null : el("div", { class: "columns" }, columns),
    dozens.length ? el("div", { class: "dozens" }, dozens) : null,
    evens.length ? el("div", { class: "evens" }, evens) : null,
    extras.length ? el("div", { class: "quarters" }, extras) : null,
  ].filter(Boolean));
  renderStacks();
  if (state.lastRound) markWinner(state.lastRound, false);
}

/** The pockets a spot covers, to light them up while the pointer is over the spot. */
function coversOf(key) {
  const [type, rest = ""] = key.split(" ");
  const pockets = state.layout.numbers;
  const numbers = pockets.map((p) => p.number).filter(isNumber).map(Number);
  const top = Math.max(...numbers);
  const pick = (test) => numbers.filter(test).map(String);
  const n = Number(rest);
  switch (type) {
    case "straight": case "split": case "street": case "corner": case "sixline":
      return rest.split("-");
    case "first_five": return ["0", "00", "1", "2", "3"];
    case "dozen": return pick((x) => x > 12 * (n - 1) && x <= 12 * n);
    case "column": return pick((x) => (x - 1) % 3 === n - 1);
    case "quarter": return pick((x) => x > 9 * (n - 1) && x <= 9 * n);
    case "red": case "black":
      return pockets.filter((p) => p.colour === type).map((p) => p.number);
    case "even": return pick((x) => x % 2 === 0);
    case "odd": return pick((x) => x % 2 === 1);
    case "low": return pick((x) => x <= top / 2);
    case "high": return pick((x) => x > top / 2);
    default: return [];
  }
}

let hovered = null;

function onLayoutOver(event) {
  const spot = event.target.closest("[data-spot]");
  const key = spot?.dataset.spot ?? null;
  if (key === hovered) return;
  hovered = key;
  for (const node of $$("#layout .covered")) node.classList.remove("covered");
  if (!key || key.startsWith("straight ")) return;
  for (const pocket of coversOf(key)) {
    $(`#layout [data-spot="straight ${CSS.escape(pocket)}"]`)?.classList.add("covered");
  }
}

function onLayoutClick(event) {
  const spot = event.target.closest("[data-spot]");
  if (!spot || state.spinning) return;
  placeChip(spot.dataset.spot, state.chip);
}

function onLayoutContext(event) {
  const spot = event.target.closest("[data-spot]");
  if (!spot) return;
  event.preventDefault();
  if (!state.spinning) removeChip(spot.dataset.spot);
}

function placeChip(key, value) {
  const chips = state.bets.get(key) ?? [];
  chips.push(value);
  state.bets.set(key, chips);
  state.placed.push(key);
  setMessage($("#table-message"), "");
  renderStacks();
}

function removeChip(key) {
  const chips = state.bets.get(key);
  if (!chips) return;
  chips.pop();
  if (!chips.length) state.bets.delete(key);
  const at = state.placed.lastIndexOf(key);
  if (at >= 0) state.placed.splice(at, 1);
  renderStacks();
}

function undo() {
  const key = state.placed.at(-1);
  if (key) removeChip(key);
}

function clearBets() {
  state.bets.clear();
  state.placed = [];
  if (state.layout) renderStacks();
}

function rebet() {
  if (!state.lastBets || state.spinning) return;
  clearBets();
  for (const [key, chips] of state.lastBets) {
    for (const chip of chips) placeChip(key, chip);
  }
}

function betTotal() {
  let total = 0;
  for (const chips of state.bets.values()) total += chips.reduce((a, b) => a + b, 0);
  return total;
}

function renderStacks() {
  for (const spot of $$("#layout [data-spot]")) {
    const chips = state.bets.get(spot.dataset.spot);
    spot.querySelector(".stack")?.remove();
    if (!chips) {
      spot.classList.remove("has-bet");
      delete spot.dataset.amount;
      continue;
    }
    const amount = chips.reduce((a, b) => a + b, 0);
    spot.classList.add("has-bet");
    spot.dataset.amount = String(amount);
    const shown = chips.slice(-5);
    spot.append(el("span", { class: "stack", title: euros(amount), "aria-hidden": "true" },
      shown.map((value, i) => el("span", {
        class: `stack-chip chip-${value}`, style: `--i:${i}`,
      })),
      el("span", { class: "stack-total", style: `--i:${shown.length - 1}`, text: chipLabel(amount) })));
  }
  $("#bet-total").textContent = euros(betTotal());
  $("#spin").disabled = state.spinning;
  $("#rebet").disabled = state.spinning || !state.lastBets;
}

// -- the wheel --------------------------------------------------------------------------

function wheelOrder() {
  const pockets = state.layout.numbers.map((n) => n.number);
  const same = (order) => order.length === pockets.length && order.every((p) => pockets.includes(p));
  if (same(EUROPEAN)) return EUROPEAN;
  if (same(AMERICAN)) return AMERICAN;
  return pockets;
}

function buildWheel() {
  const order = wheelOrder();
  const colour = new Map(state.layout.numbers.map((n) => [n.number, n.colour]));
  const fills = { red: "#b3141b", black: "#151515", green: "#0d7a3c" };
  const span = 360 / order.length;
  const NS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", "-100 -100 200 200");
  svg.setAttribute("class", "rotor");
  const point = (r, deg) => {
    const rad = ((deg - 90) * Math.PI) / 180;
    return `${(r * Math.cos(rad)).toFixed(3)} ${(r * Math.sin(rad)).toFixed(3)}`;
  };
  order.forEach((pocket, i) => {
    const a = i * span;
    const b = a + span;
    const path = document.createElementNS(NS, "path");
    path.setAttribute("d", `M ${point(96, a)} A 96 96 0 0 1 ${point(96, b)} `
      + `L ${point(58, b)} A 58 58 0 0 0 ${point(58, a)} Z`);
    path.setAttribute("fill", fills[colour.get(pocket)] ?? fills.black);
    path.setAttribute("stroke", "#c9a640");
    path.setAttribute("stroke-width", "0.6");
    svg.append(path);
    const text = document.createElementNS(NS, "text");
    text.textContent = pocket;
    text.setAttribute("transform", `rotate(${a + span / 2}) translate(0 -84)`);
    text.setAttribute("text-anchor", "middle");
    text.setAttribute("dominant-baseline", "middle");
    text.setAttribute("font-size", order.length > 20 ? "8.5" : "13");
    svg.append(text);
  });
  const wheel = $("#wheel");
  wheel.querySelector(".rotor")?.remove();
  wheel.prepend(svg);
  state.rotation = 0;
}

function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Turn the wheel until ``pocket`` stops under the ball at the top. */
function settleWheel(pocket) {
  const order = wheelOrder();
  const rotor = $("#wheel .rotor");
  const wheel = $("#wheel");
  wheel.classList.remove("busy");
  const index = order.indexOf(pocket);
  if (index < 0 || !rotor) return Promise.resolve();
  const span = 360 / order.length;
  const want = (360 - (index + 0.5) * span) % 360;
  const now = ((state.rotation % 360) + 360) % 360;
  const turn = ((want - now + 360) % 360) + 720;
  state.rotation += turn;
  const ms = reducedMotion() ? 0 : 1300;
  rotor.style.transition = `transform ${ms}ms cubic-bezier(.15,.7,.2,1)`;
  rotor.style.transform = `rotate(${state.rotation}deg)`;
  return new Promise((resolve) => setTimeout(resolve, ms + 50));
}

// -- spinning ---------------------------------------------------------------------------

async function spin() {
  if (state.spinning) return;
  const message = $("#table-message");
  if (!state.bets.size) {
    setMessage(message, t("table.nobets"));
    return;
  }
  const slip = new Map([...state.bets].map(([key, chips]) => [key, [...chips]]));
  const bets = [...slip].map(([spot, chips]) => ({
    spot, amount: chips.reduce((a, b) => a + b, 0),
  }));
  state.spinning = true;
  setMessage(message, t("table.spinning"), "info");
  clearMarks();
  $("#layout").classList.add("locked");
  $("#wheel").classList.add("busy");
  $("#result-number").textContent = "";
  $("#result-number").className = "result-number";
  $("#result-extra").textContent = "";
  renderStacks();
  let round;
  try {
    round = await api("/api/play/roulette", {
      method: "POST", body: { variant: state.variant, bets, key: uniqueKey() },
    });
  } catch (error) {
    // Refused: nothing was taken; the chips stay where they are.
    $("#wheel").classList.remove("busy");
    state.spinning = false;
    $("#layout").classList.remove("locked");
    setMessage(message, error.detail);
    renderStacks();
    return;
  }
  await settleWheel(pocketOf(round));
  state.spinning = false;
  $("#layout").classList.remove("locked");
  state.lastBets = slip;
  state.lastRound = round;
  clearBets();
  showRound(round);
}

function pocketColour(pocket) {
  return state.layout.numbers.find((n) => n.number === pocket)?.colour ?? "none";
}

/** The winning pocket: the first face drawn ("17", or "17-24:1" with a multiplier). */
function pocketOf(round) {
  const pockets = state.layout.numbers.map((n) => n.number);
  if (pockets.includes(round.result)) return round.result;
  return round.result.split("-")[0];
}

function showRound(round) {
  const pocket = pocketOf(round);
  const colour = pocketColour(pocket);
  const number = $("#result-number");
  number.textContent = pocket;
  number.className = `result-number ${colour} show`;
  number.dataset.round = String(round.round_id);
  setBalance(round.balance);
  const recent = (state.recent[state.variant] ??= []);
  recent.unshift(pocket);
  recent.splice(16);
  renderRecent();
  renderSettlements(round);
  markWinner(round, true);
  renderStacks();
}

function renderSettlements(round) {
  const pocket = pocketOf(round);
  const colour = pocketColour(pocket);
  const extra = round.result.slice(pocket.length).replace(/^-/, "").split("-").filter(Boolean);
  $("#result-extra").textContent = [
    I18N[state.lang][`colour.${colour}`] ? t(`colour.${colour}`) : "", ...extra,
  ].filter(Boolean).join(" · ");
  renderChoices(round);
  $("#round-id").textContent = `#${round.round_id}`;
  const rows = round.settlements.map((s) => el("tr", {
    class: `settlement ${s.paid > 0 ? "won" : "lost"}`, "data-spot": s.spot,
    "data-bet-id": String(s.bet_id),
  },
  el("td", { class: "spot-name", title: s.spot }, spotLabel(s.spot)),
  el("td", { class: "stake", text: euros(s.stake) }),
  el("td", { class: "paid", text: euros(s.paid) }),
  el("td", { class: `result result-${s.result}`, text: resultLabel(s.result) })));
  $("#settlements").replaceChildren(...rows);
  const stake = round.settlements.reduce((a, s) => a + s.stake, 0);
  const paid = round.settlements.reduce((a, s) => a + s.paid, 0);
  $("#round-stake").textContent = euros(stake);
  $("#round-paid").textContent = euros(paid);
  const net = $("#round-net");
  net.textContent = `${paid - stake > 0 ? "+" : ""}${euros(paid - stake)}`;
  net.className = paid - stake > 0 ? "up" : paid - stake < 0 ? "down" : "";
  $("#result-panel").hidden = false;
  setMessage($("#table-message"),
    paid > 0 ? t("table.won", { amount: euros(paid) }) : t("table.lost"),
    paid > 0 ? "ok" : "info");
}

/** Roulette D with both zero rules: a bet hit by zero waits for the player's choice. */
function renderChoices(round) {
  const box = $("#choices");
  const pending = Object.entries(round.pending ?? {});
  box.hidden = pending.length === 0;
  if (!pending.length) {
    box.replaceChildren();
    return;
  }
  box.replaceChildren(el("h3", { text: t("choice.title") }), ...pending.map(([n, options]) =>
    el("div", { class: "choice", "data-bet-id": n },
      el("span", { text: t("choice.bet", { n }) }),
      options.map((option) => el("button", {
        type: "button", class: "ghost", "data-option": option,
        text: I18N[state.lang][`choice.${option}`] ? t(`choice.${option}`) : option,
        onclick: () => choose(round, Number(n), option),
      })))));
}

async function choose(round, betId, option) {
  for (const button of $$("#choices button")) button.disabled = true;
  try {
    const answer = await api("/api/play/roulette/choose", {
      method: "POST", body: { round_id: round.round_id, bet_id: betId, option },
    });
    state.lastRound = answer;
    setBalance(answer.balance);
    renderSettlements(answer);
    markWinner(answer, false);
  } catch (error) {
    setMessage($("#table-message"), error.detail);
    for (const button of $$("#choices button")) button.disabled = false;
  }
}

function markWinner(round, fresh) {
  clearMarks();
  for (const node of $$(`#layout [data-spot="straight ${CSS.escape(pocketOf(round))}"]`)) {
    node.classList.add("winner");
    if (fresh) node.classList.add("flash");
  }
  for (const s of round.settlements) {
    if (s.paid > 0) $(`#layout [data-spot="${CSS.escape(s.spot)}"]`)?.classList.add("won");
  }
}

function clearMarks() {
  for (const node of $$("#layout .winner, #layout .won")) {
    node.classList.remove("winner", "won", "flash");
  }
}

function renderRecent() {
  const recent = state.recent[state.variant] ?? [];
  $("#recent").replaceChildren(...recent.map((pocket) =>
    el("li", { class: pocketColour(pocket), text: pocket })));
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
// History

/** "rng-roulette-C-aino" (a player's own RNG table) reads "Ruletti C"; others as named. */
function tableLabel(name) {
  const suffix = `-${state.me?.name}`;
  if (!name || !name.startsWith("rng-") || !name.endsWith(suffix)) return name ?? "";
  const match = /^rng-(.+?)(?:-([A-Z]))?$/.exec(name.slice(0, -suffix.length));
  if (!match) return name;
  return match[2] ? `${gameTitle(match[1])} ${match[2]}` : gameTitle(match[1]);
}

async function openHistory() {
  const { bets } = await api("/api/history");
  const rows = bets.map((bet) => el("tr", {
    class: `history-row ${bet.paid > 0 ? "won" : "lost"}`, "data-round": String(bet.round_id),
  },
  el("td", { class: "round", text: `#${bet.round_id}` }),
  el("td", { class: "table-name", title: bet.table, text: tableLabel(bet.table) }),
  el("td", { class: "spot-name", title: bet.spot, text: spotLabel(bet.spot) }),
  el("td", { class: "stake", text: euros(bet.stake) }),
  el("td", { class: "paid", text: euros(bet.paid) }),
  el("td", { class: `result result-${bet.result}`, text: resultLabel(bet.result) }),
  el("td", { class: "at", text: bet.at ? new Date(bet.at).toLocaleString(locale()) : "" })));
  $("#history-rows").replaceChildren(...rows);
  $("#history-empty").hidden = rows.length > 0;
  showView("history");
}

// ---------------------------------------------------------------------------------------
// Rules

async function openRules(game, variant) {
  variant = (variant || "C").toUpperCase();
  const rules = await api(`/api/rules/${encodeURIComponent(game)}?variant=`
    + `${encodeURIComponent(variant)}&lang=${state.lang}`);
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
  const variants = state.lobby?.games?.find((g) => g.game === game)?.variants
    ?? ["A", "B", "C", "D", "E", "F", "G", "H", "I"];
  select.replaceChildren(...variants.map((v) => el("option", { value: v, text: v })));
  select.value = variant;
  select.dataset.game = game;
  $("#rules-back").href = game === "roulette" ? `#/table/roulette/${variant}` : "#/lobby";
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
  $("#layout").addEventListener("click", onLayoutClick);
  $("#layout").addEventListener("contextmenu", onLayoutContext);
  $("#layout").addEventListener("pointerover", onLayoutOver);
  $("#layout").addEventListener("pointerleave", () => onLayoutOver({ target: document.body }));
  $("#clear").addEventListener("click", () => {
    if (!state.spinning) {
      clearBets();
      setMessage($("#table-message"), "");
    }
  });
  $("#undo").addEventListener("click", () => { if (!state.spinning) undo(); });
  $("#rebet").addEventListener("click", rebet);
  $("#spin").addEventListener("click", spin);
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
