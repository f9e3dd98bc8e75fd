// Responsible gaming in the browser: deposit and loss limits (a cut at once, a raise after
// the cooling-off time), time-outs and self-exclusion, the reality check every so many
// minutes of a session, and the lobby telling a player who may not play, and until when.

import {
  $, addStrings, api, el, euros, localTime, parseEuros, setMessage, showView, state, t,
} from "./core.js";

addStrings({
  fi: {
    "nav.limits": "Pelirajat", "limits.title": "Vastuullinen pelaaminen",
    "limits.intro": "Rajan lasku tulee voimaan heti, nosto tai poisto vasta 24 tunnin kuluttua.",
    "limits.kind": "Raja", "limits.period": "Jakso", "limits.amount": "Summa (€), tyhjä poistaa",
    "limits.deposit": "Talletusraja", "limits.loss": "Tappioraja",
    "limits.day": "päivä", "limits.week": "viikko", "limits.month": "kuukausi",
    "limits.set": "Aseta raja", "limits.none": "Ei rajoja.",
    "limits.now": "Raja on voimassa heti.", "limits.later": "Raja tulee voimaan {at}.",
    "limits.used": "käytetty {used} / {amount}", "limits.waiting": "muuttuu {at}: {amount}",
    "limits.removed": "poistuu", "limits.bad": "Anna summa euroina, esim. 50 tai 50.00.",
    "limits.break": "Pelitauko", "limits.breakIntro": "Tauon aikana et voi pelata etkä tallettaa. Taukoa ei voi lyhentää.",
    "limits.h24": "24 tuntia", "limits.d7": "7 päivää", "limits.d30": "30 päivää",
    "limits.exclude": "Sulje itsesi pelaamisesta", "limits.m6": "6 kuukautta", "limits.y1": "1 vuosi",
    "limits.forever": "Pysyvästi", "limits.confirm": "Vahvista: {what}. Tätä ei voi perua.",
    "limits.reality": "Muistutus peliajasta", "limits.every": "Muistuta {minutes} minuutin välein",
    "limits.saved": "Tallennettu.",
    "limits.session": "Peliaikaraja", "limits.perSession": "pelikerta", "limits.minutes": "Minuutit", "limits.usedMinutes": "käytetty {used} / {amount} min", "limits.badMinutes": "Anna minuutit kokonaislukuna 1–1440.", "lobby.sessionFull": "Peliaikarajasi {amount} min on täynnä. Pidä tauko ja kirjaudu myöhemmin uudelleen.",
    "lobby.excluded": "Olet pelitauolla tai sulkenut itsesi pelaamisesta {until} asti. Pelit eivät ole käytettävissä.",
    "lobby.excludedForever": "Olet sulkenut itsesi pelaamisesta pysyvästi. Pelit eivät ole käytettävissä.",
    "lobby.limitFull": "{limit} ({period}) on täynnä: {used} / {amount}.",
    "reality.title": "Muistutus", "reality.text": "Olet pelannut {minutes} min. Tulos tällä kertaa: {net}.",
    "reality.continue": "Jatka", "reality.stop": "Lopeta ja kirjaudu ulos",
  },
  sv: {
    "nav.limits": "Spelgränser", "limits.title": "Ansvarsfullt spelande",
    "limits.intro": "En sänkt gräns gäller genast, en höjd eller borttagen först efter 24 timmar.",
    "limits.kind": "Gräns", "limits.period": "Period", "limits.amount": "Belopp (€), tomt tar bort",
    "limits.deposit": "Insättningsgräns", "limits.loss": "Förlustgräns",
    "limits.day": "dag", "limits.week": "vecka", "limits.month": "månad",
    "limits.set": "Sätt gräns", "limits.none": "Inga gränser.",
    "limits.now": "Gränsen gäller genast.", "limits.later": "Gränsen gäller från {at}.",
    "limits.used": "använt {used} / {amount}", "limits.waiting": "ändras {at}: {amount}",
    "limits.removed": "tas bort", "limits.bad": "Ange ett belopp i euro, t.ex. 50 eller 50.00.",
    "limits.break": "Spelpaus", "limits.breakIntro": "Under pausen kan du inte spela eller sätta in. Pausen kan inte kortas.",
    "limits.h24": "24 timmar", "limits.d7": "7 dagar", "limits.d30": "30 dagar",
    "limits.exclude": "Stäng av dig från spel", "limits.m6": "6 månader", "limits.y1": "1 år",
    "limits.forever": "För alltid", "limits.confirm": "Bekräfta: {what}. Det kan inte ångras.",
    "limits.reality": "Påminnelse om speltid", "limits.every": "Påminn var {minutes}:e minut",
    "limits.saved": "Sparat.",
    "limits.session": "Speltidsgräns", "limits.perSession": "spelpass", "limits.minutes": "Minuter", "limits.usedMinutes": "använt {used} / {amount} min", "limits.badMinutes": "Ange minuter som ett heltal 1–1440.", "lobby.sessionFull": "Din speltidsgräns på {amount} min är nådd. Ta en paus och logga in igen senare.",
    "lobby.excluded": "Du har spelpaus eller har stängt av dig från spel till {until}. Spelen är inte tillgängliga.",
    "lobby.excludedForever": "Du har stängt av dig från spel för alltid. Spelen är inte tillgängliga.",
    "lobby.limitFull": "{limit} ({period}) är nådd: {used} / {amount}.",
    "reality.title": "Påminnelse", "reality.text": "Du har spelat i {minutes} min. Resultat den här gången: {net}.",
    "reality.continue": "Fortsätt", "reality.stop": "Sluta och logga ut",
  },
  en: {
    "nav.limits": "Limits", "limits.title": "Responsible gaming",
    "limits.intro": "A lower limit applies at once; a higher one, or none, only after 24 hours.",
    "limits.kind": "Limit", "limits.period": "Period", "limits.amount": "Amount (€), empty removes it",
    "limits.deposit": "Deposit limit", "limits.loss": "Loss limit",
    "limits.day": "day", "limits.week": "week", "limits.month": "month",
    "limits.set": "Set the limit", "limits.none": "No limits.",
    "limits.now": "The limit applies now.", "limits.later": "The limit applies from {at}.",
    "limits.used": "used {used} of {amount}", "limits.waiting": "changes {at}: {amount}",
    "limits.removed": "removed", "limits.bad": "Give an amount in euros, such as 50 or 50.00.",
    "limits.break": "Take a break", "limits.breakIntro": "During a break you cannot play or deposit. A break cannot be shortened.",
    "limits.h24": "24 hours", "limits.d7": "7 days", "limits.d30": "30 days",
    "limits.exclude": "Exclude yourself", "limits.m6": "6 months", "limits.y1": "1 year",
    "limits.forever": "For good", "limits.confirm": "Confirm: {what}. This cannot be undone.",
    "limits.reality": "Reality check", "limits.every": "Remind me every {minutes} minutes",
    "limits.saved": "Saved.",
    "limits.session": "Session-time limit", "limits.perSession": "session", "limits.minutes": "Minutes", "limits.usedMinutes": "used {used} of {amount} min", "limits.badMinutes": "Give whole minutes, 1 to 1440.", "lobby.sessionFull": "Your session-time limit of {amount} min is reached. Take a break and log in again later.",
    "lobby.excluded": "You are on a break or have excluded yourself until {until}. The games are closed to you.",
    "lobby.excludedForever": "You have excluded yourself for good. The games are closed to you.",
    "lobby.limitFull": "Your {limit} ({period}) is reached: {used} of {amount}.",
    "reality.title": "Reality check", "reality.text": "You have played for {minutes} min. Result this session: {net}.",
    "reality.continue": "Continue", "reality.stop": "Stop and log out",
  },
});

const BREAKS = [["limits.h24", 1], ["limits.d7", 7], ["limits.d30", 30]];
const EXCLUSIONS = [["limits.m6", 183], ["limits.y1", 365], ["limits.forever", null]];
const REMINDERS = [15, 30, 45, 60, 90, 120];
const SESSION = "session";  // the session-time limit's kind and period: minutes a session

function signed(cents) {
  return `${cents > 0 ? "+" : ""}${euros(cents)}`;
}

// ---------------------------------------------------------------------------------------
// The page

export async function openLimits() {
  const mine = state.route;
  state.protection = await api("/api/protection");
  if (state.route !== mine) return;  // the player went on meanwhile
  renderLimits();
  showView("limits");
}

function renderLimits() {
  const seen = state.protection;
  const rows = seen.limits.map((x) => el("li", { class: "limit-row", "data-kind": x.kind,
    "data-period": x.period },
  el("strong", { text: `${t(`limits.${x.kind}`)} (${periodName(x.period)})` }), " ",
  el("span", { text: x.amount === null ? "–" : x.kind === SESSION
    ? t("limits.usedMinutes", { used: x.used, amount: x.amount })
    : t("limits.used", { used: euros(x.used), amount: euros(x.amount) }) }),
  x.waiting_from ? el("span", { class: "limit-waiting small", text: ` · ${t("limits.waiting", {
    at: localTime(x.waiting_from),
    amount: x.waiting === null ? t("limits.removed")
      : x.kind === SESSION ? `${x.waiting} min` : euros(x.waiting) })}` }) : null));
  const option = (value, key) => el("option", { value, text: t(key) });
  const root = $("#limits-view");
  root.replaceChildren(
    el("h1", { text: t("limits.title") }),
    el("p", { id: "limits-status", class: "message", role: "alert" }),
    el("section", { class: "card limits-card" },
      el("h2", { text: t("nav.limits") }),
      el("p", { class: "small", text: t("limits.intro") }),
      rows.length ? el("ul", { id: "limit-list", class: "limit-list" }, rows)
        : el("p", { id: "limit-list", class: "small", text: t("limits.none") }),
      el("form", { id: "limit-form", class: "limit-form" },
        el("label", {}, el("span", { text: t("limits.kind") }),
          el("select", { id: "limit-kind" }, option("deposit", "limits.deposit"),
            option("loss", "limits.loss"), option(SESSION, "limits.session"))),
        el("label", { id: "limit-period-label" }, el("span", { text: t("limits.period") }),
          el("select", { id: "limit-period" }, option("day", "limits.day"),
            option("week", "limits.week"), option("month", "limits.month"))),
        el("label", {}, el("span", { id: "limit-amount-name", text: t("limits.amount") }),
          el("input", { id: "limit-amount", inputmode: "decimal", autocomplete: "off" })),
        el("button", { type: "submit", id: "limit-set", class: "primary", text: t("limits.set") }))),
    el("section", { class: "card limits-card" },
      el("h2", { text: t("limits.reality") }),
      el("label", {}, el("span", { text: t("limits.reality") }),
        el("select", { id: "reminder-minutes" }, REMINDERS.map((m) => el("option", {
          value: String(m), text: t("limits.every", { minutes: m }),
          ...(m === seen.reminder_minutes ? { selected: "" } : {}) }))))),
    el("section", { class: "card limits-card" },
      el("h2", { text: t("limits.break") }),
      el("p", { class: "small", text: t("limits.breakIntro") }),
      el("div", { class: "limit-buttons" }, BREAKS.map(([key, days]) => el("button", {
        type: "button", class: "ghost", "data-days": String(days), text: t(key) }))),
      el("h2", { text: t("limits.exclude") }),
      el("div", { class: "limit-buttons" }, EXCLUSIONS.map(([key, days]) => el("button", {
        type: "button", class: "ghost", "data-days": days === null ? "forever" : String(days),
        text: t(key) })))));
  $("#limit-form").addEventListener("submit", setLimit);
  $("#limit-kind").addEventListener("change", showKind);
  $("#reminder-minutes").addEventListener("change", setReminder);
  for (const button of root.querySelectorAll("[data-days]")) {
    button.addEventListener("click", () => exclude(button));
  }
}

function periodName(period) {
  return t(period === SESSION ? "limits.perSession" : `limits.${period}`);
}

/** A session-time limit has no period, and its amount is minutes. */
function showKind() {
  const session = $("#limit-kind").value === SESSION;
  $("#limit-period-label").hidden = session;
  $("#limit-amount-name").textContent = t(session ? "limits.minutes" : "limits.amount");
  $("#limit-amount").inputMode = session ? "numeric" : "decimal";
}

/** Whole minutes 1-1440 as typed, or null. */
function parseMinutes(text) {
  if (!/^\d{1,4}$/.test(text)) return null;
  const minutes = Number(text);
  return minutes >= 1 && minutes <= 1440 ? minutes : null;
}

async function setLimit(event) {
  event.preventDefault();
  const status = $("#limits-status");
  const text = $("#limit-amount").value.trim();
  const kind = $("#limit-kind").value;
  const session = kind === SESSION;
  const amount = text === "" ? null : session ? parseMinutes(text) : parseEuros(text);
  if (text !== "" && amount === null) {
    setMessage(status, t(session ? "limits.badMinutes" : "limits.bad"));
    return;
  }
  const period = session ? SESSION : $("#limit-period").value;
  try {
    const answer = await api("/api/limits", { method: "POST", body: { kind, period, amount } });
    state.protection = await api("/api/protection");
    renderLimits();
    $("#limit-kind").value = kind;  // the form as the player left it, for the next change
    if (!session) $("#limit-period").value = period;
    showKind();
    setMessage($("#limits-status"), answer.at_once ? t("limits.now")
      : t("limits.later", { at: localTime(answer.effective) }), "ok");
  } catch (error) {
    setMessage(status, error.detail);
  }
}

async function setReminder() {
  const minutes = Number($("#reminder-minutes").value);
  try {
    await api("/api/reminder", { method: "POST", body: { minutes } });
    state.protection.reminder_minutes = minutes;
    setMessage($("#limits-status"), t("limits.saved"), "ok");
    scheduleRealityCheck();
  } catch (error) {
    setMessage($("#limits-status"), error.detail);
  }
}

async function exclude(button) {
  const days = button.dataset.days === "forever" ? null : Number(button.dataset.days);
  if (!window.confirm(t("limits.confirm", { what: `${button.closest("section")
    .querySelector("h2").textContent}: ${button.textContent}` }))) return;
  try {
    await api("/api/exclude", { method: "POST", body: { days } });
    state.me = await api("/api/me");
    location.hash = "#/lobby";
  } catch (error) {
    setMessage($("#limits-status"), error.detail);
  }
}

// ---------------------------------------------------------------------------------------
// The lobby's word

/** What the lobby tells a player who may not play (excluded, on a break) or whose
 * limit is full; whether the games are closed to them. */
export async function lobbyNotice(node) {
  const seen = await api("/api/protection");
  state.protection = seen;
  let text = "";
  if (seen.excluded_until === "forever") text = t("lobby.excludedForever");
  else if (seen.excluded_until) text = t("lobby.excluded", { until: localTime(seen.excluded_until) });
  const closed = Boolean(text);
  const full = seen.limits.find((x) => x.amount !== null && x.used >= x.amount);
  if (!text && full?.kind === SESSION) {
    text = t("lobby.sessionFull", { amount: full.amount });
  } else if (!text && full) {
    text = t("lobby.limitFull", { limit: t(`limits.${full.kind}`), period: t(`limits.${full.period}`),
      used: euros(full.used), amount: euros(full.amount) });
  }
  setMessage(node, text, closed ? "error" : text ? "error" : "ok");
  $("#lobby-view").classList.toggle("closed", closed);
  return closed;
}

// ---------------------------------------------------------------------------------------
// The reality check

let timer = null;

/** Ask again at the next whole period of the session (from its log-in, as the server
 * counts it: the page's clock may be off). */
export function scheduleRealityCheck() {
  if (timer) clearTimeout(timer);
  timer = null;
  const seen = state.protection;
  if (!state.me || seen?.session_seconds == null) return;
  const period = seen.reminder_minutes * 60_000;
  const next = period - ((seen.session_seconds * 1000) % period);
  timer = setTimeout(realityCheck, Math.max(1_000, next));
}

async function realityCheck() {
  timer = null;
  if (!state.me) return;
  const seen = await api("/api/protection");
  state.protection = seen;
  const minutes = Math.floor(seen.session_seconds / 60);
  $("#reality-text").textContent = t("reality.text", { minutes, net: signed(seen.session_net) });
  $("#reality-title").textContent = t("reality.title");
  $("#reality-continue").textContent = t("reality.continue");
  $("#reality-stop").textContent = t("reality.stop");
  if (!$("#reality").open) $("#reality").showModal();
}

export function wireRealityCheck(logOut) {
  $("#reality-continue").addEventListener("click", () => {
    $("#reality").close();
    scheduleRealityCheck();
  });
  $("#reality-stop").addEventListener("click", () => {
    $("#reality").close();
    logOut();
  });
}
