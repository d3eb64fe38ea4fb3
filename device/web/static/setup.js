// Set-up: the camera's view with the zones over it (corners dragged into place), the card size measured
// from a card laid down, the table's print learned from the empty table, the players' deck learned suit by
// suit from the camera, and the config's settings checked and saved by the device's own rules.
import { getJSON, pairingForm, post, say } from "/static/common.js";

const NS = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);
const ZONE_COLOURS = ["#ff8c00", "#0078ff", "#3cc83c", "#c83cc8"];
let info = null;
let zones = {};
let drag = null;

function node(tag, attrs, text) {
  const n = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
  if (text !== undefined) n.textContent = text;
  return n;
}

function colourOf(name) {
  const m = /^seat:(\d+)$/.exec(name);
  return m ? ZONE_COLOURS[Number(m[1]) % 4] : name === "centre" ? "#00dcdc" : "#dcdcdc";
}

function labelOf(name) {
  const m = /^seat:(\d+)$/.exec(name);
  return m && info.players[Number(m[1])] ? `${name} (${info.players[Number(m[1])]})` : name;
}

function drawZones() {
  const svg = $("zones");
  svg.replaceChildren();
  if (!info || !info.width) return;
  const handle = Math.max(info.width, info.height) / 40;
  for (const card of info.cards || []) {
    if (card.quad.length !== 4) continue;
    svg.append(node("polygon", { points: card.quad.map((p) => p.join(",")).join(" "), fill: "none", class: "card",
                                 stroke: card.card ? "#6bd48c" : "#ff6b6b", "stroke-width": handle / 5 }));
    const [x, y] = card.quad[0];
    svg.append(node("text", { x, y: y - handle / 3, fill: "#6bd48c", "font-size": handle * 1.1, "font-weight": 700,
                              stroke: "#000", "stroke-width": handle / 6, "paint-order": "stroke" }, card.card || "?"));
  }
  for (const spot of (info.table_print && info.table_print.spots) || []) {
    svg.append(node("circle", { cx: spot.centre[0] * info.width, cy: spot.centre[1] * info.height,
                                r: spot.reach * info.height, fill: "none", stroke: "#f0c040", class: "print",
                                "stroke-width": handle / 5, "stroke-dasharray": `${handle / 2} ${handle / 3}` }));
  }
  for (const [name, points] of Object.entries(zones)) {
    const colour = colourOf(name);
    svg.append(node("polygon", { points: points.map((p) => p.join(",")).join(" "), fill: colour,
                                 "fill-opacity": 0.12, stroke: colour, "stroke-width": handle / 4, "data-zone": name }));
    const [x0, y0] = [Math.min(...points.map((p) => p[0])), Math.min(...points.map((p) => p[1]))];
    svg.append(node("text", { x: x0 + handle, y: y0 + handle * 2, fill: colour, "font-size": handle * 1.5,
                              "font-weight": 700, stroke: "#000", "stroke-width": handle / 5,
                              "paint-order": "stroke" }, labelOf(name)));
    points.forEach(([x, y], i) => {
      const c = node("circle", { cx: x, cy: y, r: handle / 1.6, fill: colour, stroke: "#000", "stroke-width": 1,
                                 class: "corner", "data-zone": name, "data-corner": i });
      svg.append(c);
    });
  }
}

// Pointer positions in camera pixels (the SVG's viewBox is the camera picture's size).
function toCamera(e) {
  const svg = $("zones");
  const pt = svg.createSVGPoint();
  pt.x = e.clientX; pt.y = e.clientY;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  return [Math.round(Math.max(0, Math.min(info.width, p.x)) * 10) / 10,
          Math.round(Math.max(0, Math.min(info.height, p.y)) * 10) / 10];
}

function listen() {
  const svg = $("zones");
  svg.addEventListener("pointerdown", (e) => {
    const t = e.target;
    if (!t.classList.contains("corner")) return;
    drag = { zone: t.dataset.zone, corner: Number(t.dataset.corner) };
    svg.setPointerCapture(e.pointerId);
    e.preventDefault();
  });
  svg.addEventListener("pointermove", (e) => {
    if (!drag) return;
    zones[drag.zone][drag.corner] = toCamera(e);
    drawZones();
  });
  const end = () => { drag = null; };
  svg.addEventListener("pointerup", end);
  svg.addEventListener("pointercancel", end);
}

function showCamera() {
  const has = info.camera && info.width;
  $("no-camera").classList.toggle("hidden", has);
  if (!has) { $("camera").style.aspectRatio = "4 / 3"; return; }
  $("camera").style.aspectRatio = `${info.width} / ${info.height}`;
  $("zones").setAttribute("viewBox", `0 0 ${info.width} ${info.height}`);
}

function refreshPicture() {
  const img = $("view");
  const next = new Image();
  next.onload = () => { img.src = next.src; $("no-camera").classList.add("hidden"); };
  next.src = `/api/camera.jpg?t=${Date.now()}`;
}

async function refreshCards() {
  try {
    const fresh = await getJSON("/api/setup");
    const first = !info || !info.width;
    info.cards = fresh.cards; info.camera = fresh.camera; info.table_print = fresh.table_print;
    if (first && fresh.width) { info = fresh; zones = structuredClone(fresh.zones); showCamera(); }
    if (!drag) drawZones();
    showPrint(info.table_print);   // learnt from another phone, or its file mended
  } catch (e) { /* the device may be restarting: try again next time */ }
}

async function saveSettings(save) {
  const r = await post("/api/settings", { toml: $("toml").value, save });
  say($("settings-message"), r.ok ? r.body.message : r.body.error || `refused (${r.status})`, r.ok ? "good" : "bad");
}

const SUIT_NAMES = { C: "\u2663 clubs", D: "\u2666 diamonds", H: "\u2665 hearts", S: "\u2660 spades" };

function showLearning(learning, decks, inPlay) {
  const learned = learning ? learning.suits : [];
  say($("deck-progress"), learning
    ? `deck ${learning.name}: ${learned.map((s) => SUIT_NAMES[s]).join(", ")} learned (${learning.cards} cards)`
    : "no suit learned yet");
  if (learning && !$("deck-name").value) $("deck-name").value = learning.name;
  const next = ["C", "D", "H", "S"].find((s) => !learned.includes(s));
  if (next) $("deck-suit").value = next;
  $("save-deck").disabled = !learning;
  const known = decks && decks.length ? `decks learned here: ${decks.join(", ")}` : "no deck learned here yet";
  say($("decks-known"), known + (inPlay ? `; in play now: ${inPlay}` : ""));
}

function learnDeck() {
  const answer = (r) => say($("deck-message"), r.ok ? r.body.message : r.body.error || `refused (${r.status})`,
                            r.ok ? "good" : "bad");
  $("read-suit").addEventListener("click", async () => {
    say($("deck-message"), "reading the cards…");
    $("read-suit").disabled = true;
    const r = await post("/api/deck/suit", { name: $("deck-name").value.trim(), suit: $("deck-suit").value });
    $("read-suit").disabled = false;
    answer(r);
    if (r.ok) showLearning(r.body, info.decks, info.deck);
  });
  $("save-deck").addEventListener("click", async () => {
    const use = $("deck-use").checked && !!info.config_path;
    const r = await post("/api/deck/save", { use });
    answer(r);
    if (!r.ok) return;
    const fresh = await getJSON("/api/setup");
    info.decks = fresh.decks; info.deck = fresh.deck;
    if (use) $("toml").value = fresh.toml;     // the settings box shows the file as it now is
    showLearning(null, fresh.decks, fresh.deck);
  });
  $("forget-deck").addEventListener("click", async () => {
    const r = await post("/api/deck/forget", {});
    answer(r);
    if (r.ok) showLearning(null, info.decks, info.deck);
  });
}

// What the device reads past: the table's print as last learned (its spots circled over the view by
// drawZones), or why its file cannot be used.
function showPrint(print) {
  if (!print) return;
  const names = print.cards.map((name) => (name === null ? "an outline left unread" : `the ${name}`));
  say($("print-now"), print.error ? print.error
    : !print.learnt ? "the empty table is not learned: cards are read as on a plain table"
      : names.length ? `reading past the table's print: ${names.join(", ")}`
        : "the empty table is learned: it shows nothing read as a card", print.error ? "bad" : undefined);
}

async function start() {
  info = await getJSON("/api/setup");
  zones = structuredClone(info.zones);
  pairingForm($("pair"), info.paired, () => {});
  showCamera();
  drawZones();
  listen();
  $("toml").value = info.toml;
  say($("config-path"), info.config_path ? `the config file: ${info.config_path}`
    : "running on built-in settings: start muggins with --config FILE to save changes");
  say($("card-now"), info.card_length ? `a card is ${Math.round(info.card_length)} pixels long in the camera's view`
    : "the card size is not measured yet: lay one card face up in the middle of the table");
  $("save-zones").addEventListener("click", async () => {
    const r = await post("/api/zones", { zones });
    say($("zones-message"), r.ok ? r.body.message : r.body.error || `refused (${r.status})`, r.ok ? "good" : "bad");
  });
  $("reset-zones").addEventListener("click", () => { zones = structuredClone(info.zones); drawZones(); });
  $("measure").addEventListener("click", async () => {
    say($("card-message"), "measuring…");
    const r = await post("/api/card-length", {});
    say($("card-message"), r.ok ? r.body.message : r.body.error || `refused (${r.status})`, r.ok ? "good" : "bad");
  });
  $("print").classList.toggle("hidden", !info.table_print);
  showPrint(info.table_print);
  $("learn-table").addEventListener("click", async () => {
    say($("print-message"), "reading the empty table…");
    const r = await post("/api/table-print", {});
    say($("print-message"), r.ok ? r.body.message : r.body.error || `refused (${r.status})`, r.ok ? "good" : "bad");
    if (r.ok) { info.table_print = r.body; showPrint(r.body); drawZones(); }
  });
  $("learn").classList.toggle("hidden", !info.can_learn);
  $("deck-use").closest("label").classList.toggle("hidden", !info.config_path);
  showLearning(info.learning, info.decks, info.deck);
  learnDeck();
  $("check").addEventListener("click", () => saveSettings(false));
  $("save").addEventListener("click", () => saveSettings(true));
  refreshPicture();
  setInterval(refreshPicture, 400);
  setInterval(refreshCards, 1000);
}

start();
