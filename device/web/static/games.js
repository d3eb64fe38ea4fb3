// Every game in the journal, newest first, each with its score race: points against deals, per side;
// beside it the points per deal by source, the game's record and a deal to look back at (record.js).
// Above them, each player's record over every game.
import { el, getJSON, say } from "/static/common.js";
import { dealPicker, drawSources, meaningsList, recordTable, sourcesLegend } from "/static/record.js";

const NS = "http://www.w3.org/2000/svg";
const COLOURS = ["#ff3000", "#0060ff", "#00d040", "#ffc000"];

function node(tag, attrs, text) {
  const n = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
  if (text !== undefined) n.textContent = text;
  return n;
}

export function drawRace(game) {
  const W = 340, H = 170, L = 30, B = 22, T = 8, Rm = 8;
  const deals = Math.max(1, ...game.race.map((r) => r.length - 1));
  const x = (d) => L + (d / deals) * (W - L - Rm);
  const y = (p) => H - B - (p / game.target) * (H - B - T);
  const svg = node("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "score race" });
  svg.append(node("rect", { x: 0, y: 0, width: W, height: H, fill: "#1a1d22", rx: 6 }));
  const ticks = game.target > 100 ? [0, 30, 60, 90, 121] : [0, 30, 61];
  for (const t of ticks.filter((v) => v <= game.target)) {
    svg.append(node("line", { x1: L, x2: W - Rm, y1: y(t), y2: y(t), stroke: "#353b44", "stroke-width": 1 }));
    svg.append(node("text", { x: L - 4, y: y(t) + 3, "text-anchor": "end", fill: "#9aa3ad", "font-size": 9 }, t));
  }
  const half = Math.floor(game.target / 2) + 1;
  svg.append(node("line", { x1: L, x2: W - Rm, y1: y(half), y2: y(half), stroke: "#b36b00",
                            "stroke-dasharray": "3 3", "stroke-width": 1 }));
  const step = Math.max(1, Math.ceil(deals / 10));
  for (let d = 0; d <= deals; d += step) {
    svg.append(node("text", { x: x(d), y: H - 8, "text-anchor": "middle", fill: "#9aa3ad", "font-size": 9 }, d));
  }
  game.race.forEach((race, side) => {
    const pts = race.map((p, d) => `${x(d).toFixed(1)},${y(p).toFixed(1)}`).join(" ");
    svg.append(node("polyline", { points: pts, fill: "none", stroke: COLOURS[side % 4], "stroke-width": 2.2,
                                  "stroke-linejoin": "round", "data-side": side }));
    race.forEach((p, d) => svg.append(node("circle", { cx: x(d), cy: y(p), r: 2.2, fill: COLOURS[side % 4] })));
  });
  return svg;
}

function gameSection(game) {
  const s = el("section", { class: "race", "data-game": game.number });
  const byScore = game.scores.slice().sort((a, b) => b - a);
  const status = game.over ? `${game.winner} won ${byScore.join(" to ")}` +
    (game.margin && game.margin !== "single" ? ` (${game.margin})` : "") : `in progress: ${game.sides.map((n, i) => `${n} ${game.scores[i]}`).join(", ")}`;
  s.append(el("h2", { text: `Game ${game.number} · ${game.variant} · ${game.deals} deal${game.deals === 1 ? "" : "s"}` }));
  s.append(el("div", { class: "result", text: status }));
  const legend = el("div", { class: "legend" });
  game.sides.forEach((name, side) => {
    const i = el("i");
    i.style.setProperty("--c", COLOURS[side % 4]);
    legend.append(el("span", {}, i, `${name} ${game.scores[side]}`));
  });
  s.append(el("div", { class: "plots" }, el("div", {}, legend, drawRace(game))));
  return s;
}

// The game's figures, when the record comes: its points by source beside the race, its players'
// record, and a deal to look back at.
function addFigures(s, figures) {
  const picker = dealPicker(figures);
  s.querySelector(".plots").append(el("div", {}, sourcesLegend(), drawSources(figures, picker.show)));
  s.append(el("details", { class: "game-record" }, el("summary", { text: "This game's figures" }),
              recordTable(figures.record)), picker.box);
}

function recordSection(record) {
  const s = el("section", { id: "record" });
  const c = record.covers;
  s.append(el("h2", { text: "Each player's record" }));
  const variants = Object.entries(c.variants).map(([v, n]) => `${v} ${n}`).join(", ");
  s.append(el("div", { class: "message", id: "covers",
    text: `Over ${c.games} game${c.games === 1 ? "" : "s"} (${c.finished} finished, ${c.in_progress} in progress; ` +
          `${variants}); ${c.undone} undone action${c.undone === 1 ? "" : "s"} left out` +
          (c.not_counted.length ? "; not counted: " +
            c.not_counted.map((j) => `${j.journal} (${j.why})`).join(", ") : "") }));
  s.append(el("div", { class: "scroll" }, recordTable(record.players)), meaningsList(record.meanings));
  return s;
}

async function start() {
  const main = document.getElementById("games");
  const message = document.getElementById("message");
  try {
    const data = await getJSON("/api/games");
    if (!data.games.length) { say(message, "No game in the journal yet."); return; }
    const count = `${data.games.length} game${data.games.length === 1 ? "" : "s"} in the journal` +
      (data.unreadable.length ? `; unreadable: ${data.unreadable.join(", ")}` : "");
    say(message, count + "; reading the record…");
    const sections = new Map();
    for (const game of data.games.slice().reverse()) {
      const s = gameSection(game);
      sections.set(`${game.number} ${game.journal}`, s);
      main.append(s);
    }
    // the record takes longer (every deal's cards are looked back at): the races are drawn first
    let record;
    try {
      record = await getJSON("/api/record");
    } catch (e) {
      say(message, `${count}; the record cannot be read: ${e.message}`, "bad");
      return;
    }
    say(message, count);
    if (record.players.length) message.parentElement.after(recordSection(record));
    for (const figures of record.games) {
      const s = sections.get(`${figures.number} ${figures.journal}`);
      if (s) addFigures(s, figures);
    }
  } catch (e) {
    say(message, `The journal cannot be read: ${e.message}`, "bad");
  }
}

start();
