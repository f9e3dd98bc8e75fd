// A player's provably fair settings (#/fair, docs/provably-fair.md): the commitment to
// their current server seed, their client seed (set their own: the server says what a
// client seed may hold, and its refusal is shown in the player's language), the rotation
// that reveals the server seed and commits a new one, the seeds revealed so far, and the
// setting at their own RNG table of each game it is offered at.

import { $, addStrings, api, el, gameTitle, setMessage, showView, state, t } from "./core.js";
import { bankedList } from "./banked.js";
import { slotList } from "./slots.js";

addStrings({
  fi: {
    "fairs.title": "Todistettavasti reilu peli", "fairs.link": "Reilun pelin asetukset",
    "fairs.intro": "Kun asetus on käytössä pöydässäsi, jokainen kierros arvotaan siemenparistasi. Sitoumus näytetään ennen kierrosta; palvelimen siemen paljastetaan, kun vaihdat parin, ja voit tarkistaa kierrokset itse.",
    "fairs.current": "Nykyinen siemenpari", "fairs.commitment": "Sitoumus (SHA-256)",
    "fairs.nonce": "Seuraavan kierroksen nonce", "fairs.clientSeed": "Asiakassiemen",
    "fairs.seedHelp": "1–64 merkkiä: kirjaimia a–z, A–Z, numeroita, - tai _.",
    "fairs.save": "Tallenna asiakassiemen", "fairs.saved": "Asiakassiemen tallennettu: {seed}.",
    "fairs.rotate": "Vaihda siemenpari ja paljasta siemen",
    "fairs.rotated": "Siemen paljastettu: {seed}. Uusi sitoumus: {commitment}.",
    "fairs.revealed": "Paljastetut siemenet", "fairs.none": "Ei vielä paljastettuja siemeniä.",
    "fairs.seed": "Palvelimen siemen", "fairs.rounds": "Kierroksia: {rounds}",
    "fairs.tables": "Reilu arvonta pöydissäsi",
    "fairs.tablesIntro": "Omissa RNG-pöydissäsi. Muutos koskee seuraavaa kierrosta.",
    "fairs.on": "Käytössä", "fairs.off": "Ei käytössä",
    "fairs.turnedOn": "{game}: reilu arvonta käytössä.", "fairs.turnedOff": "{game}: reilu arvonta pois käytöstä.",
  },
  sv: {
    "fairs.title": "Bevisbart rättvist spel", "fairs.link": "Inställningar för rättvist spel",
    "fairs.intro": "När inställningen är på vid ditt bord dras varje omgång ur ditt fröpar. Åtagandet visas före omgången; serverfröet avslöjas när du byter par, och du kan kontrollera omgångarna själv.",
    "fairs.current": "Nuvarande fröpar", "fairs.commitment": "Åtagande (SHA-256)",
    "fairs.nonce": "Nästa omgångs nonce", "fairs.clientSeed": "Klientfrö",
    "fairs.seedHelp": "1–64 tecken: bokstäverna a–z, A–Z, siffror, - eller _.",
    "fairs.save": "Spara klientfröet", "fairs.saved": "Klientfröet sparat: {seed}.",
    "fairs.rotate": "Byt fröpar och avslöja fröet",
    "fairs.rotated": "Fröet avslöjat: {seed}. Nytt åtagande: {commitment}.",
    "fairs.revealed": "Avslöjade frön", "fairs.none": "Inga avslöjade frön ännu.",
    "fairs.seed": "Serverfrö", "fairs.rounds": "Omgångar: {rounds}",
    "fairs.tables": "Rättvis dragning vid dina bord",
    "fairs.tablesIntro": "Vid dina egna RNG-bord. Ändringen gäller från nästa omgång.",
    "fairs.on": "På", "fairs.off": "Av",
    "fairs.turnedOn": "{game}: rättvis dragning på.", "fairs.turnedOff": "{game}: rättvis dragning av.",
  },
  en: {
    "fairs.title": "Provably fair play", "fairs.link": "Provably fair settings",
    "fairs.intro": "With the setting on at your table, each round is drawn from your seed pair. The commitment is shown before the round; the server seed is revealed when you rotate the pair, and you can check the rounds yourself.",
    "fairs.current": "Current seed pair", "fairs.commitment": "Commitment (SHA-256)",
    "fairs.nonce": "Nonce of the next round", "fairs.clientSeed": "Client seed",
    "fairs.seedHelp": "1 to 64 characters: letters a–z, A–Z, digits, - or _.",
    "fairs.save": "Save the client seed", "fairs.saved": "Client seed saved: {seed}.",
    "fairs.rotate": "Rotate the seed pair and reveal the seed",
    "fairs.rotated": "Seed revealed: {seed}. New commitment: {commitment}.",
    "fairs.revealed": "Revealed seeds", "fairs.none": "No seeds revealed yet.",
    "fairs.seed": "Server seed", "fairs.rounds": "Rounds: {rounds}",
    "fairs.tables": "Fair draws at your tables",
    "fairs.tablesIntro": "At your own RNG tables. A change counts from the next round.",
    "fairs.on": "On", "fairs.off": "Off",
    "fairs.turnedOn": "{game}: fair draws on.", "fairs.turnedOff": "{game}: fair draws off.",
  },
});

const names = {}; // the slots' and banked games' names by id, as their lists give them

function title(entry) {
  const name = names[entry.game];
  const shown = name ? name[state.lang] ?? name.en : gameTitle(entry.game);
  return entry.variant ? `${shown} ${entry.variant}` : shown;
}

function value(key, text, id) {
  return el("div", { class: "fair-row" },
    el("dt", { text: t(key) }), el("dd", { id, class: "fair-value", text: String(text) }));
}

/** Open the page: the player's pair, their revealed seeds and their tables' setting. */
export async function openFair() {
  const mine = state.route;
  const [found, slots, banked] = await Promise.all([api("/api/fair"), slotList(), bankedList()]);
  if (state.route !== mine) return;  // the player went on meanwhile
  for (const game of [...slots, ...banked]) names[game.game] = game.name;
  render(found);
  showView("fair");
}

async function reload(text, kind = "ok") {
  const mine = state.route;
  const found = await api("/api/fair");
  if (state.route !== mine) return;
  render(found);
  setMessage($("#fair-status"), text, kind);
}

function render(found) {
  const current = found.current;
  const status = el("p", { id: "fair-status", class: "message", role: "status", "aria-live": "polite" });
  const fail = (error) => setMessage(status, error.message || String(error));

  const input = el("input", {
    id: "fair-client-seed", value: current.client_seed, autocomplete: "off",
    autocapitalize: "off", spellcheck: "false", "aria-describedby": "fair-seed-help",
  });
  const save = el("button", { type: "submit", id: "fair-seed-save", class: "primary", text: t("fairs.save") });
  const form = el("form", { id: "fair-seed-form", class: "fair-form" },
    el("label", { for: "fair-client-seed", text: t("fairs.clientSeed") }), input,
    el("p", { id: "fair-seed-help", class: "small", text: t("fairs.seedHelp") }), save);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    save.disabled = true;
    try {
      const row = await api("/api/fair/client-seed", { method: "PUT", body: { client_seed: input.value } });
      await reload(t("fairs.saved", { seed: row.client_seed }));
    } catch (error) {
      fail(error);
      save.disabled = false;
      input.setAttribute("aria-invalid", "true");
      input.focus();
    }
  });

  const rotate = el("button", { type: "button", id: "fair-rotate-pair", class: "ghost", text: t("fairs.rotate") });
  rotate.addEventListener("click", async () => {
    rotate.disabled = true;
    try {
      const done = await api("/api/fair/rotate", { method: "POST" });
      await reload(t("fairs.rotated", {
        seed: done.revealed.server_seed, commitment: done.current.commitment }));
    } catch (error) {
      fail(error);
      rotate.disabled = false;
    }
  });

  const revealed = found.revealed.map((pair) => el("li", { class: "fair-revealed" },
    el("dl", { class: "fair-proof" },
      value("fairs.commitment", pair.commitment), value("fairs.seed", pair.server_seed),
      value("fairs.clientSeed", pair.client_seed)),
    el("p", { class: "small", text: t("fairs.rounds", { rounds: pair.rounds }) })));

  const toggles = found.tables.map((entry) => {
    const button = el("button", {
      type: "button", class: "fair-toggle", "data-game": entry.game,
      "aria-pressed": entry.fair ? "true" : "false",
    }, el("span", { class: "fair-game", text: title(entry) }),
    el("span", { class: "fair-state", text: t(entry.fair ? "fairs.on" : "fairs.off") }));
    button.addEventListener("click", async () => {
      button.disabled = true;
      const on = !entry.fair;
      try {
        await api(`/api/fair/tables/${encodeURIComponent(entry.game)}`,
          { method: "PUT", body: { variant: entry.variant, on } });
        await reload(t(on ? "fairs.turnedOn" : "fairs.turnedOff", { game: title(entry) }));
      } catch (error) {
        fail(error);
        button.disabled = false;
      }
    });
    return el("li", {}, button);
  });

  $("#fair-view").replaceChildren(
    el("a", { href: "#/history", class: "back", text: t("recall.back") }),
    el("h1", { id: "fair-settings-title", text: t("fairs.title") }),
    el("p", { class: "small", text: t("fairs.intro") }),
    status,
    el("section", { class: "card fair-card", "aria-labelledby": "fair-current-title" },
      el("h2", { id: "fair-current-title", text: t("fairs.current") }),
      el("dl", { class: "fair-proof" },
        value("fairs.commitment", current.commitment, "fair-commitment"),
        value("fairs.nonce", current.nonce, "fair-nonce")),
      form, rotate),
    el("section", { class: "card fair-card", "aria-labelledby": "fair-tables-title" },
      el("h2", { id: "fair-tables-title", text: t("fairs.tables") }),
      el("p", { class: "small", text: t("fairs.tablesIntro") }),
      el("ul", { id: "fair-tables", class: "fair-tables" }, toggles)),
    el("section", { class: "card fair-card", "aria-labelledby": "fair-revealed-title" },
      el("h2", { id: "fair-revealed-title", text: t("fairs.revealed") }),
      revealed.length ? el("ul", { id: "fair-revealed", class: "fair-list" }, revealed)
        : el("p", { id: "fair-revealed", class: "small", text: t("fairs.none") })));
}
