// Pelisali browser client, the shared part: the UI's strings, the state, the helpers, the
// API call, the player's header, cards and dice. Plain ES module, no build step.
// The API speaks integer cents; the page shows euros.

// ---------------------------------------------------------------------------------------
// The UI's own strings. Game titles, rules and refusals come from the server.
export const I18N = {
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
    "table.hint": "Valitse pelimerkki ja napsauta kenttää. Pelimerkin poistaa hiiren oikea painike, Delete-näppäin tai Poista-tila.",
    "table.onit": "pelimerkkejä {amount}", "table.held": "panos {amount}", "table.remove": "Poista", "skip.chips": "Siirry pelimerkkeihin",
    "table.total": "Panokset yhteensä", "table.undo": "Peru", "table.clear": "Tyhjennä",
    "table.rebet": "Samat panokset", "table.spin": "Pyöräytä", "table.round": "Kierros",
    "table.net": "Yhteensä", "table.nobets": "Aseta ensin pelimerkki kentälle.",
    "table.outcome": "Tulos {result}: maksettu {paid}, yhteensä {net}.",
    "table.cut": "{spot}: pöydän enimmäispanos {taken}, {returned} palautettiin",
    "table.limits": "Panos {min} – {max}", "table.title": "Ruletti {variant}",
    "table.won": "Voitit {amount}", "table.lost": "Ei voittoa tällä kierroksella",
    "table.spinning": "Pyörä pyörii…", "table.twotoone": "2:1", "table.between": "Numeroiden väliin",
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
    "result.push": "Tasapeli", "result.refund": "Palautettu", "result.fee": "Maksu",
    "colour.red": "punainen", "colour.black": "musta", "colour.green": "vihreä",
    "err.network": "Yhteys palvelimeen katkesi.",
    "auth.namehint": "Kirjaimet, numerot, - ja _",
    "wallet.forever": "Pelikielto toistaiseksi",
    "lobby.live": "Live-pöydät tulevat seuraavaksi",
    "rules.limits": "Pöydän panosrajat: {text}",
    "choice.title": "Nolla! Valitse, mitä panokselle tehdään", "choice.bet": "Panos #{n}",
    "choice.prison": "Vankilaan", "choice.half": "Puolet takaisin",
    "choice.which": "{spot}, {stake}", "choice.waiting": "Nolla: valitse ensin, mitä panoksillesi tehdään. Pyöritä sen jälkeen.",
    "choice.deadline": "Valitse viimeistään {at}. Muuten saat puolet takaisin (la partage).",
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
    "table.hint": "Välj en mark och klicka på spelfältet. En mark tas bort med högerklick, Delete-tangenten eller läget Ta bort.",
    "table.onit": "marker {amount}", "table.held": "insats {amount}", "table.remove": "Ta bort", "skip.chips": "Till markerna",
    "table.total": "Insatser totalt", "table.undo": "Ångra", "table.clear": "Töm",
    "table.rebet": "Samma insatser", "table.spin": "Snurra", "table.round": "Omgång",
    "table.net": "Totalt", "table.nobets": "Lägg först en mark på spelfältet.",
    "table.outcome": "Resultat {result}: utbetalt {paid}, netto {net}.",
    "table.cut": "{spot}: bordets högsta insats {taken}, {returned} återbetalades",
    "table.limits": "Insats {min} – {max}", "table.title": "Roulette {variant}",
    "table.won": "Du vann {amount}", "table.lost": "Ingen vinst denna omgång",
    "table.spinning": "Hjulet snurrar…", "table.twotoone": "2:1", "table.between": "Mellan nummer",
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
    "result.push": "Oavgjort", "result.refund": "Återbetald", "result.fee": "Avgift",
    "colour.red": "röd", "colour.black": "svart", "colour.green": "grön",
    "err.network": "Förbindelsen till servern bröts.",
    "auth.namehint": "Bokstäver, siffror, - och _",
    "wallet.forever": "Spelförbud tills vidare",
    "lobby.live": "Livebord kommer härnäst",
    "rules.limits": "Bordets insatsgränser: {text}",
    "choice.title": "Noll! Välj vad som görs med insatsen", "choice.bet": "Insats #{n}",
    "choice.prison": "I fängelse", "choice.half": "Hälften tillbaka",
    "choice.which": "{spot}, {stake}", "choice.waiting": "Noll: välj först vad som görs med dina insatser. Snurra sedan.",
    "choice.deadline": "Välj senast {at}. Annars får du hälften tillbaka (la partage).",
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
    "table.hint": "Pick a chip and click the layout. Right-click, the Delete key or the Remove mode takes a chip off.",
    "table.onit": "chips {amount}", "table.held": "bet {amount}", "table.remove": "Remove", "skip.chips": "Skip to the chips",
    "table.total": "Total bet", "table.undo": "Undo", "table.clear": "Clear",
    "table.rebet": "Rebet", "table.spin": "Spin", "table.round": "Round",
    "table.net": "Total", "table.nobets": "Place a chip on the layout first.",
    "table.outcome": "Result {result}: paid {paid}, net {net}.",
    "table.cut": "{spot}: the table takes at most {taken}, {returned} was returned",
    "table.limits": "Stakes {min} – {max}", "table.title": "Roulette {variant}",
    "table.won": "You won {amount}", "table.lost": "No win this round",
    "table.spinning": "The wheel is spinning…", "table.twotoone": "2 to 1", "table.between": "Between numbers",
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
    "result.push": "Push", "result.refund": "Refunded", "result.fee": "Fee",
    "colour.red": "red", "colour.black": "black", "colour.green": "green",
    "err.network": "Lost the connection to the server.",
    "auth.namehint": "Letters, digits, - and _",
    "wallet.forever": "Excluded indefinitely",
    "lobby.live": "Live tables come next",
    "rules.limits": "Table limits: {text}",
    "choice.title": "Zero! Choose what happens to the bet", "choice.bet": "Bet #{n}",
    "choice.prison": "En prison", "choice.half": "Half back",
    "choice.which": "{spot}, {stake}", "choice.waiting": "Zero: choose first what happens to your bets, then spin again.",
    "choice.deadline": "Choose by {at}. Otherwise half comes back (la partage).",
    "game.roulette": "Roulette", "game.boule": "Boule", "game.money-wheel": "Money wheel",
    "game.tuplanoppa": "Tuplanoppa (two dice)", "game.sic-bo": "Sic Bo",
  },
};
export const LANGS = Object.keys(I18N);

/** A module's own strings, merged into the dictionary: {fi: {...}, sv: {...}, en: {...}}. */
export function addStrings(strings) {
  for (const [lang, entries] of Object.entries(strings)) Object.assign(I18N[lang], entries);
}

// ---------------------------------------------------------------------------------------
// State

export const state = {
  lang: LANGS.includes(localStorage.getItem("pelisali.lang"))
    ? localStorage.getItem("pelisali.lang") : "fi",
  me: null, // GET /api/me
  lobby: null, // GET /api/lobby
  game: "roulette", // the game at the open table
  layout: null, // GET /api/layout/{game} (or the card game's own spots) for the open table
  variant: "C",
  chip: 500,
  bets: new Map(), // spot key -> [chip cents, ...] in the order placed
  placed: [], // spot keys in placing order, for Undo
  lastBets: null, // the last slip that was played, for Rebet
  lastRound: null, // the last answer of the table's play endpoint
  spinning: false,
  recent: {}, // "game/variant" -> recent results, newest first
  rotation: 0, // the wheel rotor's angle
  route: "",
};

/** What the app module plugs in: what to do when the server says we are logged out. */
export const hooks = { loggedOut: () => {} };

// ---------------------------------------------------------------------------------------
// Helpers

export const $ = (selector, root = document) => root.querySelector(selector);
export const $$ = (selector, root = document) => [...root.querySelectorAll(selector)];

const INSIDE = ["straight", "split", "street", "corner", "sixline", "first_five"];

export function t(key, vars = {}) {
  const text = I18N[state.lang][key] ?? I18N.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(vars[name] ?? ""));
}

/** Cents as euros with two decimals: 1250 -> "12.50 €". */
/** Minutes and seconds, e.g. ``clock(75)`` is ``"1:15"``. */
export function clock(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export function euros(cents) {
  const sign = cents < 0 ? "-" : "";
  return `${sign}${(Math.abs(cents) / 100).toFixed(2)} €`;
}

/** A chip label: whole euros without decimals. */
export function chipLabel(cents) {
  const value = cents / 100;
  if (value >= 1000 && value % 1000 === 0) return `${value / 1000}k`;
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

/** "12,50" / "12.50" / "12" -> 1250 cents, or null. */
export function parseEuros(text) {
  const clean = String(text).trim().replace(/\s|€/g, "").replace(",", ".");
  if (!/^\d+(\.\d{1,2})?$/.test(clean)) return null;
  const [whole, part = ""] = clean.split(".");
  const cents = Number(whole) * 100 + Number(part.padEnd(2, "0"));
  return cents > 0 && Number.isSafeInteger(cents) ? cents : null;
}

export function uniqueKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16)); // insecure contexts lack randomUUID
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (name === "style") node.style.cssText = value;  // CSSOM: allowed by the CSP
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

export function setMessage(node, text, kind = "error") {
  node.textContent = text || "";
  node.classList.toggle("error", kind === "error" && !!text);
  node.classList.toggle("ok", kind === "ok" && !!text);
}

export class ApiError extends Error {
  constructor(status, detail) {
    super(detail);
    this.status = status;
    this.detail = detail;
  }
}

export function describeDetail(detail) {
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

export async function api(path, { method = "GET", body } = {}) {
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
    // The catalogue's words in the player's language (messages.js), else the server's.
    let detail = hooks.errorText?.(response.status, data)
      ?? (response.status === 422 ? t("err.other") : describeDetail(data?.detail));
    if (response.status === 429 && !detail) detail = t("auth.rate");
    if (!detail) detail = `${response.status} ${response.statusText}`;
    if (response.status === 401 && state.me && !path.startsWith("/api/login")) {
      hooks.loggedOut();
    }
    throw new ApiError(response.status, detail);
  }
  return data;
}


// ---------------------------------------------------------------------------------------
// Spot names

export function spotLabel(key) {
  const has = (name) => Boolean(I18N[state.lang][name] ?? I18N.en[name]);
  let match = /^(sum|total)_(\d+)$/.exec(key); // Tuplanoppa's sums, Sic Bo's totals
  if (match) return `${t(`bet.${match[1]}`)} ${match[2]}`;
  match = /^seat (\d+)(?: hand (\d+))?( insurance)?$/.exec(key); // blackjack's settlements
  if (match) {
    return [t("bet.seat", { n: match[1] }), match[2] ? t("bet.hand", { n: match[2] }) : "",
      match[3] ? t("bet.insurance") : ""].filter(Boolean).join(" · ");
  }
  if (has(`bet.${key}`)) return t(`bet.${key}`); // small, any_pair, banker, joker, ...
  const [type, rest = ""] = key.split(" ");
  if (!has(`bet.${type}`)) return key;
  const name = t(`bet.${type}`);
  if (type === "straight") return rest;
  if (type === "dozen") {
    const d = Number(rest);
    return `${name} ${12 * d - 11}–${12 * d}`;
  }
  if (INSIDE.includes(type) || type === "two_dice") {
    return rest ? `${name} ${rest.split("-").join("/")}` : name;
  }
  return rest ? `${name} ${rest}` : name;
}

/** A settlement's result in the page's language; a bet settled hand by hand (a split
 * blackjack seat: "lose/win") hand by hand. */
export function resultLabel(result) {
  return String(result).split("/").map((part) => (I18N[state.lang][`result.${part}`]
    ? t(`result.${part}`) : part)).join(" / ");
}

// ---------------------------------------------------------------------------------------
// Session

export async function refreshMe() {
  state.me = await api("/api/me");
  showPlayer();
  return state.me;
}

export function showPlayer() {
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

export function setBalance(cents) {
  if (state.me) state.me.balance = cents;
  for (const node of [$("#balance"), $("#wallet-balance")]) {
    node.textContent = euros(cents);
    node.dataset.cents = String(cents);
  }
}
export function locale() {
  return { fi: "fi-FI", sv: "sv-FI", en: "en-GB" }[state.lang];
}

/** A moment in the player's own time and language: "8.12.2026 klo 1.29". */
export function localTime(iso) {
  return new Intl.DateTimeFormat(locale(), { dateStyle: "short", timeStyle: "short" })
    .format(new Date(iso));
}

export const VIEWS = [
  "auth", "lobby", "table", "poker", "slot", "banked", "chemin", "wallet", "history", "recall",
  "rules", "limits", "tournaments", "fair"];

export function showView(name) {
  for (const view of VIEWS) $(`#${view}-view`).hidden = view !== name;
  $("#loading").hidden = true;
  for (const link of $$("#nav a")) {
    link.classList.toggle("active", link.id === `nav-${name}`);
  }
}

export function gameTitle(game) {
  if (I18N[state.lang][`game.${game}`]) return t(`game.${game}`);
  const entry = state.lobby?.games?.find((g) => g.game === game);
  return entry?.title ?? game;
}

// ---------------------------------------------------------------------------------------
// Cards and dice

const SUITS = { s: "♠", h: "♥", d: "♦", c: "♣" };
const RANKS = { T: "10" };

/** A playing card ("As", "Td") face up, Pai Gow Poker's joker ("Jk"), or its back
 * (``null``: a card nobody may see). */
export function cardEl(card, { small = false, fresh = false } = {}) {
  const size = small ? " small" : "";
  if (card === "Jk") {
    const corner = (where) => el("span", { class: `corner ${where}`, "aria-hidden": "true" },
      el("b", { text: "J" }), el("i", { text: "★" }));
    return el("span", { class: `pcard face joker${size}${fresh ? " fresh" : ""}`, "data-card": card,
      "aria-label": t("card.joker"), title: t("card.joker") },
    corner("top"), el("span", { class: "pip-big", "aria-hidden": "true", text: "★" }), corner("bottom"));
  }
  if (!card || card.length !== 2 || !SUITS[card[1]]) {
    return el("span", { class: `pcard back${size}${fresh ? " fresh" : ""}`, "aria-label": t("card.back") });
  }
  const rank = RANKS[card[0]] ?? card[0];
  const suit = SUITS[card[1]];
  const colour = card[1] === "h" || card[1] === "d" ? "red" : "black";
  return el("span", {
    class: `pcard face ${colour}${size}${fresh ? " fresh" : ""}`, "data-card": card,
    "aria-label": `${rank}${suit}`, title: `${rank}${suit}`,
  },
  el("span", { class: "corner top", "aria-hidden": "true" }, el("b", { text: rank }), el("i", { text: suit })),
  el("span", { class: "pip-big", "aria-hidden": "true", text: suit }),
  el("span", { class: "corner bottom", "aria-hidden": "true" }, el("b", { text: rank }), el("i", { text: suit })));
}

const PIPS = { 1: [5], 2: [3, 7], 3: [3, 5, 7], 4: [1, 3, 7, 9], 5: [1, 3, 5, 7, 9],
  6: [1, 3, 4, 6, 7, 9] };

/** A die showing ``value`` (1–6) as pips on a 3 × 3 grid. */
export function dieEl(value, cls = "") {
  const n = Number(value);
  return el("span", { class: `die ${cls}`.trim(), "data-face": String(value), "aria-label": String(value) },
    (PIPS[n] ?? []).map((cell) => el("span", {
      class: "pip", style: `grid-area:${Math.ceil(cell / 3)}/${((cell - 1) % 3) + 1}`,
    })));
}

addStrings({
  fi: { "card.back": "Kortti selkäpuoli ylöspäin", "card.joker": "Jokeri" },
  sv: { "card.back": "Kort med baksidan upp", "card.joker": "Joker" },
  en: { "card.back": "A face-down card", "card.joker": "Joker" },
});
