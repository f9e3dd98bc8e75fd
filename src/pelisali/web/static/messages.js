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
    "err.session_time_limit": "Peliaikarajasi {minutes} min on täynnä. Pidä tauko ja kirjaudu myöhemmin uudelleen.",
    "err.session_minutes": "Peliaikaraja on 1–{most} minuuttia.",
    "err.limit_period": "Valitse rajalle sopiva jakso.",
    "err.balance_low": "Saldosi ei riitä tähän.",
    "err.payment_declined": "Maksupalvelu hylkäsi talletuksen.",
    "err.payout_failed": "Maksupalvelu ei voinut maksaa nostoa. Saldoasi ei veloitettu.",
    "err.at_maximum": "Kohteessa {spot} on jo pöydän enimmäispanos {maximum}.",
    "err.no_game": "Peliä ei löydy.",
    "err.send_again": "Panoksia ei asetettu. Lähetä ne uudelleen.",
    "err.no_round": "Kierrosta tai panosta ei löydy.",
    "err.no_choice": "Panoksella ei ole enää valittavaa.",
    "err.not_an_option": "Valitse jokin tarjotuista vaihtoehdoista.",
    "err.seat_range": "Valitse paikka 1–{most}.",
    "err.seat_has_bet": "Paikalla {seat} on jo panos: yksi panos paikkaa kohden.",
    "err.seat_no_bet": "Paikalla {seat} ei ole panostasi.",
    "err.round_in_play": "Kierros on kesken. Aseta panokset seuraavalle kierrokselle.",
    "err.no_round_in_play": "Kierrosta ei ole käynnissä.",
    "err.not_allowed_now": "{action} ei ole nyt mahdollista. Valittavana: {allowed}.",
    "err.no_insurance": "Vakuutusta tarjotaan vain, kun jakajan avoin kortti on ässä.",
    "err.insured_already": "Paikka {seat} on jo vastannut vakuutustarjoukseen.",
    "err.insurance_max": "Vakuutus on enintään puolet panoksesta: {maximum}.",
    "err.insurance_first": "Vastaa ensin vakuutustarjoukseen.",
    "err.double_range": "Tuplaus on enemmän kuin 0 ja enintään panos {stake}.",
    "err.buy_in_amount": "Sisäänoston on oltava positiivinen summa.",
    "err.seated_already": "Istut jo pöydässä. Poistu ensin pöydästä.",
    "err.aml_no_case": "Tapausta {case} ei ole.",
    "err.aml_case_done": "Tapaus {case} on jo käsitelty.",
    "err.aml_note": "Kirjaa tapaukseen henkilökunnan jäsen ja muistiinpano.",
    "err.aml_not_joint_play": "Tapaus {case} on tyyppiä {rule}: vain yhteispelitapauksen ylityksen voi mitätöidä.",
    "err.aml_in_prison": "Tapauksen {case} kierroksen {round} panos {bet} on yhä vankilassa. Mitätöi, kun se on ratkennut.",
    "err.aml_evidence": "Tapauksen {case} näyttö ei vastaa kierroksen {round} panosta {bet}.",
    "err.table_full": "Pöytä on täynnä ({seats} paikkaa).",
    "err.not_seated": "Et istu tässä pöydässä.",
    "err.between_hands": "Tämä onnistuu vain jakojen välillä.",
    "err.no_key": "Pyynnöstä puuttui tunniste. Yritä uudelleen.",
    "err.no_action_due": "Mikään käsi ei odota siirtoa nyt.",
    "err.not_your_turn": "Nyt on pelaajan {name} vuoro.",
    "err.to_call": "Maksettavaa on {call}: maksa, korota tai luovuta.",
    "err.nothing_to_call": "Maksettavaa ei ole: sökötä.",
    "err.bring_in": "Aloituspanos (bring-in) on maksettava, siitä ei voi luovuttaa.",
    "err.no_raise": "Korottaa ei voi nyt.",
    "err.raise_amount": "Anna summa, johon korotat.",
    "err.raise_range": "Korotus summaan {raise_to} ei käy: korota summaan {raise_min}–{raise_max}.",
    "err.discard_first": "Hylkää ensin kortti.",
    "err.draw_first": "Vaihda ensin kortit (tai pidä kätesi).",
    "err.no_draw": "Nyt ei vaihdeta eikä hylätä kortteja.",
    "err.not_your_card": "Kortti {card} ei ole kädessäsi.",
    "err.card_twice": "Sama kortti on valittu kahdesti.",
    "err.draw_too_many": "Voit vaihtaa enintään {most} korttia.",
    "err.not_connected": "Et ole yhteydessä pöytään. Avaa pöytä uudelleen.",
    "err.unavailable": "Pöytään ei juuri nyt saada yhteyttä. Yritä uudelleen.",
    "err.malformed": "Pöytä ei ymmärtänyt pyyntöä.",
    "err.too_many_sockets": "Sinulla on jo {most} pöytäyhteyttä auki. Sulje yksi.",
    "err.invalid": "Tarkista kenttä: {fields}.",
    "err.other": "Pyyntöä ei hyväksytty.",
    "err.table_refused": "Tämä pöytä ei ole avoinna sinulle.",
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
    "err.session_time_limit": "Din speltidsgräns på {minutes} min är nådd. Ta en paus och logga in igen senare.",
    "err.session_minutes": "Speltidsgränsen är 1–{most} minuter.",
    "err.limit_period": "Välj en period som passar gränsen.",
    "err.balance_low": "Saldot räcker inte till det här.",
    "err.payment_declined": "Betaltjänsten avvisade insättningen.",
    "err.payout_failed": "Betaltjänsten kunde inte betala ut. Ditt saldo har inte debiterats.",
    "err.at_maximum": "Rutan {spot} har redan bordets högsta insats {maximum}.",
    "err.no_game": "Spelet finns inte.",
    "err.send_again": "Insatserna placerades inte. Skicka dem igen.",
    "err.no_round": "Omgången eller insatsen hittades inte.",
    "err.no_choice": "Insatsen har inget val kvar.",
    "err.not_an_option": "Välj ett av alternativen som erbjuds.",
    "err.seat_range": "Välj en plats 1–{most}.",
    "err.seat_has_bet": "Plats {seat} har redan en insats: en insats per plats.",
    "err.seat_no_bet": "Plats {seat} har ingen insats av dig.",
    "err.round_in_play": "En omgång pågår. Satsa i nästa omgång.",
    "err.no_round_in_play": "Ingen omgång pågår.",
    "err.not_allowed_now": "{action} går inte nu. Du kan välja: {allowed}.",
    "err.no_insurance": "Försäkring erbjuds bara när dealerns öppna kort är ett ess.",
    "err.insured_already": "Plats {seat} har redan svarat på försäkringen.",
    "err.insurance_max": "Försäkringen är högst halva insatsen: {maximum}.",
    "err.insurance_first": "Svara först på försäkringen.",
    "err.double_range": "En dubbling är mer än 0 och högst insatsen {stake}.",
    "err.buy_in_amount": "Inköpet måste vara ett positivt belopp.",
    "err.seated_already": "Du sitter redan vid bordet. Lämna bordet först.",
    "err.aml_no_case": "Ärende {case} finns inte.",
    "err.aml_case_done": "Ärende {case} är redan avslutat.",
    "err.aml_note": "Ange vem i personalen som hanterar ärendet och en anteckning.",
    "err.aml_not_joint_play": "Ärende {case} gäller {rule}: bara överskottet i ett ärende om samspel kan ogiltigförklaras.",
    "err.aml_in_prison": "Insats {bet} i omgång {round} i ärende {case} står ännu i fängelse. Ogiltigförklara när den är avgjord.",
    "err.aml_evidence": "Bevisningen i ärende {case} stämmer inte med insats {bet} i omgång {round}.",
    "err.table_full": "Bordet är fullt ({seats} platser).",
    "err.not_seated": "Du sitter inte vid det här bordet.",
    "err.between_hands": "Det går bara mellan givarna.",
    "err.no_key": "Förfrågan saknade en nyckel. Försök igen.",
    "err.no_action_due": "Ingen hand väntar på ett drag nu.",
    "err.not_your_turn": "Det är {name}s tur.",
    "err.to_call": "Det kostar {call} att syna: syna, höj eller lägg.",
    "err.nothing_to_call": "Inget att syna: passa.",
    "err.bring_in": "Bring-in måste läggas, du kan inte lägga dig.",
    "err.no_raise": "Det går inte att höja nu.",
    "err.raise_amount": "Ange beloppet du höjer till.",
    "err.raise_range": "Höjning till {raise_to} går inte: höj till {raise_min}–{raise_max}.",
    "err.discard_first": "Kasta först ett kort.",
    "err.draw_first": "Byt kort först (eller behåll handen).",
    "err.no_draw": "Nu byts eller kastas inga kort.",
    "err.not_your_card": "Kortet {card} finns inte på din hand.",
    "err.card_twice": "Samma kort är valt två gånger.",
    "err.draw_too_many": "Du kan byta högst {most} kort.",
    "err.not_connected": "Du är inte ansluten till bordet. Öppna bordet igen.",
    "err.unavailable": "Bordet kan inte nås just nu. Försök igen.",
    "err.malformed": "Bordet förstod inte förfrågan.",
    "err.too_many_sockets": "Du har redan {most} bordsanslutningar öppna. Stäng en.",
    "err.invalid": "Kontrollera fältet: {fields}.",
    "err.other": "Förfrågan godkändes inte.",
    "err.table_refused": "Det här bordet är inte öppet för dig.",
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
    "err.session_time_limit": "Your session-time limit of {minutes} min is reached. Take a break and log in again later.",
    "err.session_minutes": "A session-time limit is 1 to {most} minutes.",
    "err.limit_period": "Choose a period that fits the limit.",
    "err.balance_low": "Your balance is not enough for this.",
    "err.payment_declined": "The payment service declined the deposit.",
    "err.payout_failed": "The payment service could not pay out. Your balance was not charged.",
    "err.at_maximum": "Your bet on {spot} is already at the table maximum of {maximum}.",
    "err.no_game": "That game is not available.",
    "err.send_again": "The bets were not placed. Send them again.",
    "err.no_round": "No such round or bet of yours.",
    "err.no_choice": "That bet has no choice left to make.",
    "err.not_an_option": "Choose one of the options offered.",
    "err.seat_range": "Choose a seat from 1 to {most}.",
    "err.seat_has_bet": "Seat {seat} already has a bet: one bet a seat.",
    "err.seat_no_bet": "Seat {seat} holds no bet of yours.",
    "err.round_in_play": "A round is in play. Bet in the next one.",
    "err.no_round_in_play": "There is no round in play.",
    "err.not_allowed_now": "{action} is not possible now. You can choose: {allowed}.",
    "err.no_insurance": "Insurance is offered only when the dealer's up card is an ace.",
    "err.insured_already": "Seat {seat} has already answered the insurance offer.",
    "err.insurance_max": "Insurance is at most half the bet: {maximum}.",
    "err.insurance_first": "First answer the insurance offer.",
    "err.double_range": "A double is more than 0 and at most the bet of {stake}.",
    "err.buy_in_amount": "A buy-in must be a positive amount.",
    "err.seated_already": "You are already seated. Leave the table first.",
    "err.aml_no_case": "There is no case {case}.",
    "err.aml_case_done": "Case {case} is already closed.",
    "err.aml_note": "Name the staff member and write a note on the case.",
    "err.aml_not_joint_play": "Case {case} is a {rule} case: only a joint-play case's excess can be voided.",
    "err.aml_in_prison": "Bet {bet} of round {round} in case {case} is still in prison. Void the case once it is settled.",
    "err.aml_evidence": "Case {case}'s evidence does not match bet {bet} of round {round}.",
    "err.table_full": "The table is full ({seats} seats).",
    "err.not_seated": "You are not seated at this table.",
    "err.between_hands": "That is possible only between hands.",
    "err.no_key": "The request had no key. Try again.",
    "err.no_action_due": "No hand is waiting for an action now.",
    "err.not_your_turn": "It is {name}'s turn.",
    "err.to_call": "It is {call} to call: call, raise or fold.",
    "err.nothing_to_call": "Nothing to call: check.",
    "err.bring_in": "The bring-in must be posted, not folded.",
    "err.no_raise": "You cannot raise now.",
    "err.raise_amount": "Give the amount to raise to.",
    "err.raise_range": "A raise to {raise_to} is not possible: raise to {raise_min}–{raise_max}.",
    "err.discard_first": "Discard a card first.",
    "err.draw_first": "Draw first (or stand pat).",
    "err.no_draw": "There is nothing to draw or discard now.",
    "err.not_your_card": "The card {card} is not in your hand.",
    "err.card_twice": "The same card is chosen twice.",
    "err.draw_too_many": "You can draw at most {most} cards.",
    "err.not_connected": "You are not connected to the table. Open the table again.",
    "err.unavailable": "The table cannot be reached just now. Try again.",
    "err.malformed": "The table did not understand the request.",
    "err.too_many_sockets": "You already have {most} table connections open. Close one.",
    "err.invalid": "Check the field: {fields}.",
    "err.other": "The request was not accepted.",
    "err.table_refused": "This table is not open to you.",
    "err.busy": "The service is busy for a moment. Try again.",
    "status.restricted": "restricted", "status.barred": "barred",
    "field.name": "name", "field.password": "password", "field.born": "date of birth",
    "field.country": "country", "field.amount": "amount", "field.bets": "bets",
    "field.spot": "spot", "field.key": "request", "field.minutes": "minutes",
    "field.days": "days", "field.kind": "limit", "field.period": "period",
  },
});

// Params holding euros ("12.50") or cents alone (a poker table's chips: "1250").
const AMOUNTS = ["held", "wanted", "limit", "stake", "minimum", "maximum", "call", "raise_to",
  "raise_min", "raise_max"];
// A blackjack decision the server names in English, as the table's buttons say it.
const DECISIONS = ["hit", "stand", "double", "split"];

/** "double, split" as the buttons name them: "Tuplaa, Jaa käsi". */
function decisions(text) {
  return String(text).split(",").map((word) => word.trim()).filter(Boolean)
    .map((word) => (DECISIONS.includes(word) ? t(`bj.${word}`) : word)).join(", ");
}

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
  if (code === "not_allowed_now") {
    params.action = decisions(params.action ?? "");
    params.allowed = decisions(params.allowed ?? "") || "–";
  }
  if ("fields" in params) {
    params.fields = String(params.fields).split(",").filter(Boolean)
      .map((f) => t(`field.${f}`)).join(", ") || "–";
  }
  return t(`err.${code}`, params);
}

/** What to tell the player of a table socket the server closed, by its close code (a
 * close frame carries a sentence, no code of the catalogue's), or null to say nothing:
 * refused (4403: not logged in, or not a table for players), too many connections
 * (4429), a message too big (1009) or too many (1008). */
export function closeText(code, reason) {
  if (code === 4403) return reason === "not logged in" ? t("err.logged_out") : t("err.table_refused");
  if (code === 4429) return t("err.too_many_sockets", { most: /\d+/.exec(reason ?? "")?.[0] ?? "–" });
  if (code === 1009) return t("err.malformed");
  if (code === 1008) return t("err.too_fast");
  return null;
}
