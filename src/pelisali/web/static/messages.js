// The server's refusals in the player's language (src/pelisali/server/messages.py gives
// each a code and its parameters), with amounts in euros and moments in local time.
// The validator's own words (a 422) never reach a player: they are told which field.

import { addStrings, euros, localTime, spotLabel, t } from "./core.js";

addStrings({
  fi: {
    "err.no_credit": "Saldosi ei riitä: pelitililläsi on {held}, tarvitaan {wanted}.",
    "err.excluded": "Olet sulkenut itsesi pelaamisesta{until}.",
    "err.account": "Pelitilisi on {status}. Ota yhteys asiakaspalveluun.",
    "err.loss_limit": "Tappiorajasi {limit} ({period}) ei salli tätä panosta.",
    "err.deposit_limit": "Talletusrajasi {limit} ({period}) ei salli tätä talletusta.",
    "err.under_minimum": "Panos {stake} on alle pöydän vähimmäispanoksen {minimum}.",
    "err.no_spot": "Pöydällä ei ole kohdetta {spot}.",
    "err.closed": "Panokset on suljettu.",
    "err.deciding": "Tee ensin valintasi edellisen kierroksen nollasta.",
    "err.buy_in": "Pienin sisäänosto on {minimum}.",
    "err.name_taken": "Nimi {name} on jo käytössä.",
    "err.name_form": "Nimessä saa olla vain kirjaimia, numeroita, - ja _ (enintään 80).",
    "err.under_age": "Pelaajan on oltava vähintään {age}-vuotias.",
    "err.restricted_country": "Asuinmaastasi ({country}) ei voi rekisteröityä.",
    "err.country": "Valitse asuinmaa luettelosta.",
    "err.born": "Tarkista syntymäaika.",
    "err.password_short": "Salasanassa on oltava vähintään {least} merkkiä.",
    "err.password_long": "Salasanassa saa olla enintään {most} merkkiä.",
    "err.password_common": "Salasana on liian yleinen. Valitse toinen.",
    "err.password_name": "Salasana ei saa olla nimesi.",
    "err.password_weak": "Salasana on liian helppo arvata. Valitse pidempi tai vaikeampi.",
    "err.login": "Väärä nimi tai salasana.",
    "err.logged_out": "Et ole kirjautunut sisään.",
    "err.too_many_logins": "Liian monta epäonnistunutta kirjautumista. Yritä uudelleen {seconds} sekunnin kuluttua.",
    "err.too_many_accounts": "Liian monta uutta tiliä. Yritä myöhemmin uudelleen.",
    "err.too_fast": "Liian monta pyyntöä. Hidasta hieman.",
    "err.key_reused": "Pyyntö lähetettiin jo toisin tiedoin. Yritä uudelleen.",
    "err.invalid": "Tarkista kenttä: {fields}.",
    "err.other": "Pyyntöä ei hyväksytty.",
    "err.busy": "Palvelu on hetken ruuhkainen. Yritä uudelleen.",
    "status.restricted": "rajoitettu", "status.barred": "suljettu",
    "field.name": "nimi", "field.password": "salasana", "field.born": "syntymäaika",
    "field.country": "asuinmaa", "field.amount": "summa", "field.bets": "panokset",
    "field.spot": "kohde", "field.key": "pyyntö", "field.minutes": "minuutit",
    "field.days": "päivät", "field.kind": "raja", "field.period": "jakso",
  },
  sv: {
    "err.no_credit": "Saldot räcker inte: ditt spelkonto har {held}, det behövs {wanted}.",
    "err.excluded": "Du har stängt av dig från spel{until}.",
    "err.account": "Ditt spelkonto är {status}. Kontakta kundtjänst.",
    "err.loss_limit": "Din förlustgräns {limit} ({period}) tillåter inte den här insatsen.",
    "err.deposit_limit": "Din insättningsgräns {limit} ({period}) tillåter inte den här insättningen.",
    "err.under_minimum": "Insatsen {stake} är under bordets minsta insats {minimum}.",
    "err.no_spot": "Bordet har ingen ruta {spot}.",
    "err.closed": "Insatserna är stängda.",
    "err.deciding": "Gör först ditt val efter förra omgångens noll.",
    "err.buy_in": "Minsta inköp är {minimum}.",
    "err.name_taken": "Namnet {name} är redan taget.",
    "err.name_form": "Namnet får bara ha bokstäver, siffror, - och _ (högst 80).",
    "err.under_age": "En spelare måste vara minst {age} år.",
    "err.restricted_country": "Man kan inte registrera sig från ditt land ({country}).",
    "err.country": "Välj land i listan.",
    "err.born": "Kontrollera födelsedatumet.",
    "err.password_short": "Lösenordet måste ha minst {least} tecken.",
    "err.password_long": "Lösenordet får ha högst {most} tecken.",
    "err.password_common": "Lösenordet är för vanligt. Välj ett annat.",
    "err.password_name": "Lösenordet får inte vara ditt namn.",
    "err.password_weak": "Lösenordet är för lätt att gissa. Välj ett längre eller svårare.",
    "err.login": "Fel namn eller lösenord.",
    "err.logged_out": "Du är inte inloggad.",
    "err.too_many_logins": "För många misslyckade inloggningar. Försök igen om {seconds} sekunder.",
    "err.too_many_accounts": "För många nya konton. Försök igen senare.",
    "err.too_fast": "För många förfrågningar. Sakta ner lite.",
    "err.key_reused": "Förfrågan skickades redan med andra uppgifter. Försök igen.",
    "err.invalid": "Kontrollera fältet: {fields}.",
    "err.other": "Förfrågan godkändes inte.",
    "err.busy": "Tjänsten är tillfälligt upptagen. Försök igen.",
    "status.restricted": "begränsat", "status.barred": "spärrat",
    "field.name": "namn", "field.password": "lösenord", "field.born": "födelsedatum",
    "field.country": "land", "field.amount": "belopp", "field.bets": "insatser",
    "field.spot": "ruta", "field.key": "förfrågan", "field.minutes": "minuter",
    "field.days": "dagar", "field.kind": "gräns", "field.period": "period",
  },
  en: {
    "err.no_credit": "Your balance is not enough: your wallet holds {held}, this needs {wanted}.",
    "err.excluded": "You have excluded yourself from play{until}.",
    "err.account": "Your account is {status}. Please contact customer service.",
    "err.loss_limit": "Your loss limit of {limit} a {period} does not allow this stake.",
    "err.deposit_limit": "Your deposit limit of {limit} a {period} does not allow this deposit.",
    "err.under_minimum": "A stake of {stake} is under the table minimum of {minimum}.",
    "err.no_spot": "The table has no spot {spot}.",
    "err.closed": "Betting is closed.",
    "err.deciding": "First make your choice after the last round's zero.",
    "err.buy_in": "The minimum buy-in is {minimum}.",
    "err.name_taken": "The name {name} is taken.",
    "err.name_form": "A name has only letters, digits, - and _ (80 at most).",
    "err.under_age": "A player must be {age} or older.",
    "err.restricted_country": "Residents of your country ({country}) cannot register.",
    "err.country": "Choose your country from the list.",
    "err.born": "Check the date of birth.",
    "err.password_short": "A password has at least {least} characters.",
    "err.password_long": "A password has at most {most} characters.",
    "err.password_common": "That password is too common. Choose another.",
    "err.password_name": "A password cannot be your name.",
    "err.password_weak": "That password is too easy to guess. Choose a longer or harder one.",
    "err.login": "Wrong name or password.",
    "err.logged_out": "You are not logged in.",
    "err.too_many_logins": "Too many failed logins. Try again in {seconds} seconds.",
    "err.too_many_accounts": "Too many new accounts. Try again later.",
    "err.too_fast": "Too many requests. Slow down a little.",
    "err.key_reused": "That request was already sent with other details. Try again.",
    "err.invalid": "Check the field: {fields}.",
    "err.other": "The request was not accepted.",
    "err.busy": "The service is busy for a moment. Try again.",
    "status.restricted": "restricted", "status.barred": "barred",
    "field.name": "name", "field.password": "password", "field.born": "date of birth",
    "field.country": "country", "field.amount": "amount", "field.bets": "bets",
    "field.spot": "spot", "field.key": "request", "field.minutes": "minutes",
    "field.days": "days", "field.kind": "limit", "field.period": "period",
  },
});

const AMOUNTS = ["held", "wanted", "limit", "stake", "minimum"];

/** An amount the server wrote: euros with two decimals ("1 003.50"), or cents alone. */
function amountOf(text) {
  const plain = String(text).replace(/\s/g, "");
  if (/^-?\d+$/.test(plain)) return euros(Number(plain));
  const [whole, part] = plain.split(".");
  const cents = Math.abs(Number(whole)) * 100 + Number(part);
  return euros(plain.startsWith("-") ? -cents : cents);
}

/** What to tell the player of an error answer ``data`` (code, params, detail), or null
 * when the catalogue does not know it. */
export function errorText(status, data) {
  const code = data?.code;
  if (status === 503) return t("err.busy");
  if (!code) return null;
  const params = { ...(data.params ?? {}) };
  for (const key of AMOUNTS) if (key in params) params[key] = amountOf(params[key]);
  if (params.until) {
    params.until = ` ${localTime(params.until)}`;
  } else if (code === "excluded") params.until = "";
  if (params.period) params.period = t(`limits.${params.period}`);
  if (params.status) params.status = t(`status.${params.status}`);
  if (params.spot) params.spot = spotLabel(params.spot);
  if ("fields" in params) {
    params.fields = String(params.fields).split(",").filter(Boolean)
      .map((f) => t(`field.${f}`)).join(", ") || "–";
  }
  return t(`err.${code}`, params);
}
