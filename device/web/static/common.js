// Shared by every page: the header's navigation, JSON requests, pairing, and card chips.

export async function getJSON(path) {
  const r = await fetch(path, { cache: "no-store" });
  if (!r.ok) throw new Error((await r.json().catch(() => ({}))).error || r.statusText);
  return r.json();
}

// POST a JSON body; resolves to {ok, status, body}. The session cookie goes along by itself.
export async function post(path, body = {}) {
  const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
                                body: JSON.stringify(body) });
  const data = await r.json().catch(() => ({}));
  return { ok: r.ok, status: r.status, body: data };
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v; else if (k === "text") node.textContent = v; else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

const SUITS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };

export function cardChip(card, starter = false) {
  const rank = card.slice(0, -1).replace("T", "10");
  const suit = card.slice(-1);
  const chip = el("span", { class: "card" + (suit === "H" || suit === "D" ? " red" : "") + (starter ? " starter" : ""),
                            text: rank + (SUITS[suit] || suit) });
  chip.dataset.card = card;
  return chip;
}

export function say(node, text, kind = "") {
  node.textContent = text || "";
  node.className = "message" + (kind ? " " + kind : "");
}

// The pairing form: shown until this phone is paired; `onPaired` runs once it is.
export function pairingForm(section, paired, onPaired) {
  const form = section.querySelector("form");
  const input = section.querySelector("input");
  const message = section.querySelector(".message");
  section.classList.toggle("hidden", paired);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const r = await post("/api/pair", { pin: input.value.trim() });
    if (r.ok) { section.classList.add("hidden"); input.value = ""; onPaired(); }
    else say(message, r.status === 429 ? r.body.error : "That is not the PIN the device said.", "bad");
  });
}
