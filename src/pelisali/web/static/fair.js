// A provably fair round's proof on its recall page: the commitment, the client seed and
// the nonce it was drawn under, and once the server seed is revealed, the check, made
// here in the browser (SHA-256 of the seed is the commitment; HMAC-SHA256 of the seeds
// gives the recorded draws, through the same rejection scaling as the server's) beside
// the server's own replay of the round through its engine (docs/provably-fair.md).

import { addStrings, api, el, t } from "./core.js";

addStrings({
  fi: {
    "fair.title": "Todistettavasti reilu arvonta",
    "fair.commitment": "Sitoumus (SHA-256)", "fair.client": "Asiakassiemen",
    "fair.nonce": "Nonce", "fair.seed": "Palvelimen siemen",
    "fair.hidden": "Palvelimen siemen paljastetaan, kun vaihdat siemenparin.",
    "fair.rotate": "Vaihda siemenpari ja paljasta siemen",
    "fair.match": "Tarkistettu selaimessasi: siemen vastaa sitoumusta ja siemenistä lasketut arvonnat ({draws}) ovat kirjatut. Palvelimen toisto: {outcome}.",
    "fair.differs": "Tarkistus ei täsmää: {problem}. Ota yhteys asiakaspalveluun.",
    "fair.noCrypto": "Selain ei pysty laskemaan tarkistusta (vaatii suojatun yhteyden).",
  },
  sv: {
    "fair.title": "Bevisbart rättvis dragning",
    "fair.commitment": "Åtagande (SHA-256)", "fair.client": "Klientfrö",
    "fair.nonce": "Nonce", "fair.seed": "Serverfrö",
    "fair.hidden": "Serverfröet avslöjas när du byter fröpar.",
    "fair.rotate": "Byt fröpar och avslöja fröet",
    "fair.match": "Kontrollerat i din webbläsare: fröet stämmer med åtagandet och dragningarna ur fröna ({draws}) är de registrerade. Serverns omspel: {outcome}.",
    "fair.differs": "Kontrollen stämmer inte: {problem}. Kontakta kundtjänst.",
    "fair.noCrypto": "Webbläsaren kan inte räkna kontrollen (kräver en säker anslutning).",
  },
  en: {
    "fair.title": "Provably fair draw",
    "fair.commitment": "Commitment (SHA-256)", "fair.client": "Client seed",
    "fair.nonce": "Nonce", "fair.seed": "Server seed",
    "fair.hidden": "The server seed is revealed when you rotate your seed pair.",
    "fair.rotate": "Rotate the seed pair and reveal the seed",
    "fair.match": "Checked in your browser: the seed is the commitment's and the draws computed from the seeds ({draws}) are the recorded ones. The server's replay: {outcome}.",
    "fair.differs": "The check does not match: {problem}. Please contact customer service.",
    "fair.noCrypto": "This browser cannot compute the check (it needs a secure connection).",
  },
});

const WORD = 1n << 64n;

function bytesOf(hex) {
  return new Uint8Array(hex.match(/../g).map((pair) => parseInt(pair, 16)));
}

async function sha256Hex(hex) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytesOf(hex)));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The draws below each bound of one step's stream, as scripts/verify_round.py draws them. */
export async function fairDraws(seedHex, clientSeed, nonce, bounds) {
  const key = await crypto.subtle.importKey(
    "raw", bytesOf(seedHex), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const out = [];
  let cursor = 0;
  for (const bound of bounds) {
    const n = BigInt(bound);
    const limit = WORD - (WORD % n);
    for (;;) {
      const message = new TextEncoder().encode(`${clientSeed}:${nonce}:${cursor}`);
      const mac = new DataView(await crypto.subtle.sign("HMAC", key, message));
      cursor += 1;
      const word = mac.getBigUint64(0, false);
      if (word < limit) { out.push(Number(word % n)); break; }
    }
  }
  return out;
}

/** Whether every step's seed is its commitment's and draws its recorded draws. */
async function checkInBrowser(proof) {
  for (const step of proof.steps) {
    if (await sha256Hex(step.server_seed) !== step.commitment) return false;
    const got = await fairDraws(step.server_seed, step.client_seed, step.nonce,
      step.draws.map(([bound]) => bound));
    if (got.some((d, i) => d !== step.draws[i][1])) return false;
  }
  return true;
}

function row(key, value) {
  return el("div", { class: "fair-row" },
    el("dt", { text: t(key) }), el("dd", { class: "fair-value", text: String(value) }));
}

/** The proof section of round ``round`` (nothing for a round not drawn provably fair). */
export async function fairSection(round) {
  let proof;
  try {
    proof = await api(`/api/fair/rounds/${encodeURIComponent(round)}`);
  } catch {
    return null; // not a fair round (fair_not_fair), or not reachable: the recall stands
  }
  const section = el("section", { id: "fair-proof", class: "card", "aria-labelledby": "fair-title" });
  const render = async (found) => {
    const first = found.steps[0];
    const revealed = found.steps.every((s) => s.server_seed);
    const parts = [
      el("h2", { id: "fair-title", text: t("fair.title") }),
      el("dl", { class: "fair-proof" },
        row("fair.commitment", first.commitment), row("fair.client", first.client_seed),
        row("fair.nonce", found.steps.map((s) => s.nonce).join(", ")),
        row("fair.seed", revealed ? first.server_seed : "–")),
    ];
    const status = el("p", { id: "fair-check", role: "status", class: "message" });
    if (!revealed) {
      status.textContent = t("fair.hidden");
      const rotate = el("button", { id: "fair-rotate", type: "button", text: t("fair.rotate") });
      rotate.addEventListener("click", async () => {
        rotate.disabled = true;
        try {
          await api("/api/fair/rotate", { method: "POST" });
          await render(await api(`/api/fair/rounds/${encodeURIComponent(round)}`));
        } catch (error) {
          status.className = "message error";
          status.textContent = error.message;
          rotate.disabled = false;
        }
      });
      parts.push(status, rotate);
    } else if (!globalThis.crypto?.subtle) {
      status.textContent = t("fair.noCrypto");
      parts.push(status);
    } else {
      const mine = await checkInBrowser(found);
      const ok = mine && found.matches;
      const drawn = found.steps.flatMap((s) => s.draws.map(([, d]) => d));
      status.className = `message ${ok ? "ok" : "error"}`;
      status.textContent = ok // a shoe's shuffle is hundreds of draws: their count
        ? t("fair.match", { draws: drawn.length > 12 ? `${drawn.length}` : drawn.join(" "),
          outcome: found.recomputed.join(" ") })
        : t("fair.differs", { problem: found.problem ?? "draws" });
      parts.push(status);
    }
    section.replaceChildren(...parts);
  };
  await render(proof);
  return section;
}
