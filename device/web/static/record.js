// Each player's record (from /api/record), the points per deal by source, and a deal looked back at
// (/api/deal). The games page (games.js) puts them beside each game's score race.
import { cardChip, el, getJSON, say } from "/static/common.js";

const NS = "http://www.w3.org/2000/svg";
export const SOURCE_COLOURS = { hand: "#4aa3ff", crib: "#c77dff", play: "#ffb347", other: "#9aa3ad" };

function node(tag, attrs, text) {
  const n = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
  if (text !== undefined) n.textContent = text;
  return n;
}

const num = (v) => (v === null || v === undefined ? "–" : v.toFixed(2));

// One row per figure, one column per player: the means with their yardsticks beneath them.
export function recordTable(players) {
  const rows = [
    ["games", (p) => p.games], ["won", (p) => p.wins],
    ["skunks given/taken", (p) => `${p.skunks_given}/${p.skunks_taken}`],
    ["hand: pegged", (p) => num(p.hand.pegged), "head"], ["true count", (p) => num(p.hand.true)],
    ["starters", (p) => num(p.hand.starters)], ["table", (p) => num(p.hand.table)],
    ["hands", (p) => p.hand.counted],
    ["crib: pegged", (p) => num(p.crib.pegged), "head"], ["true count", (p) => num(p.crib.true)],
    ["starters", (p) => num(p.crib.starters)], ["table", (p) => num(p.crib.table)],
    ["cribs", (p) => p.crib.counted],
    ["play: pegged", (p) => num(p.play.pegged), "head"], ["best", (p) => num(p.play.best)],
    ["deals", (p) => p.play.counted],
    ["best hand", (p) => (p.best_hand ? `${p.best_hand.points}` : "–"), "head"],
    ["claims right/over/short", (p) => `${p.claims.right}/${p.claims.over}/${p.claims.short}`],
    ["Muggins taken/given", (p) => `${p.muggins.taken}/${p.muggins.given}`],
    ["disputes of their counts", (p) => p.disputes.count],
  ];
  // how the disputes ended: a row for each way any of them did
  const endings = [...new Set(players.flatMap((p) => Object.keys(p.disputes.ended)))].sort();
  for (const how of endings) rows.push([`ended ${how === "under" ? "short" : how}`, (p) => p.disputes.ended[how] || 0]);
  const table = el("table", { class: "record" });
  const head = el("tr", {}, el("th"));
  for (const p of players) head.append(el("th", { text: p.name }));
  table.append(head);
  for (const [label, value, kind] of rows) {
    const tr = el("tr", kind ? { class: kind } : {}, el("td", { text: label }));
    for (const p of players) tr.append(el("td", { text: String(value(p)) }));
    table.append(tr);
  }
  return table;
}

export function meaningsList(meanings) {
  const d = el("details", { class: "meanings" }, el("summary", { text: "What the figures mean" }));
  const list = el("ul");
  for (const [k, v] of Object.entries(meanings)) list.append(el("li", {}, el("b", { text: k + ": " }), v));
  d.append(list);
  return d;
}

// Points per deal by source: a strip of stacked bars for each player, deals along the bottom.
export function drawSources(game, onPick) {
  const players = game.players, deals = game.per_deal;
  const W = 340, strip = 58, T = 6, B = 20, L = 52, Rm = 6;
  const H = T + strip * players.length + B;
  const top = Math.max(4, ...deals.flatMap((d) => players.map((p) =>
    Object.values(d.points[p]).reduce((a, b) => a + b, 0))));
  const slot = (W - L - Rm) / Math.max(1, deals.length);
  const bar = Math.max(2, slot * 0.72);
  const svg = node("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "points per deal by source",
                            class: "sources" });
  svg.append(node("rect", { x: 0, y: 0, width: W, height: H, fill: "#1a1d22", rx: 6 }));
  players.forEach((p, i) => {
    const base = T + strip * (i + 1) - 4;
    const scale = (strip - 12) / top;
    svg.append(node("line", { x1: L, x2: W - Rm, y1: base, y2: base, stroke: "#353b44" }));
    svg.append(node("line", { x1: L, x2: W - Rm, y1: base - top * scale, y2: base - top * scale, stroke: "#2a2f36",
                              "stroke-dasharray": "2 3" }));
    svg.append(node("text", { x: L - 5, y: base - top * scale + 3, "text-anchor": "end", fill: "#9aa3ad",
                              "font-size": 8 }, top));
    svg.append(node("text", { x: L - 5, y: base - strip / 2 + 8, "text-anchor": "end", fill: "#e9ecef",
                              "font-size": 10 }, p.length > 8 ? p.slice(0, 8) : p));
    deals.forEach((d, k) => {
      let y = base;
      const x = L + k * slot + (slot - bar) / 2;
      for (const source of ["hand", "crib", "play", "other"]) {
        const v = d.points[p][source];
        if (!v) continue;
        const h = v * scale;
        y -= h;
        const r = node("rect", { x: x.toFixed(1), y: y.toFixed(1), width: bar.toFixed(1), height: h.toFixed(1),
                                 fill: SOURCE_COLOURS[source], "data-player": p, "data-deal": d.deal,
                                 "data-source": source, "data-points": v });
        r.append(node("title", {}, `${p}, deal ${d.deal}: ${source} ${v}`));
        svg.append(r);
      }
    });
  });
  const step = Math.max(1, Math.ceil(deals.length / 12));
  deals.forEach((d, k) => {
    if (k % step) return;
    svg.append(node("text", { x: L + (k + 0.5) * slot, y: H - 6, "text-anchor": "middle", fill: "#9aa3ad",
                              "font-size": 9 }, d.deal));
  });
  svg.append(node("text", { x: 4, y: H - 6, fill: "#9aa3ad", "font-size": 9 }, "deal"));
  if (onPick) {
    svg.addEventListener("click", (e) => {
      const deal = e.target.getAttribute && e.target.getAttribute("data-deal");
      if (deal) onPick(Number(deal));
    });
  }
  return svg;
}

export function sourcesLegend() {
  const legend = el("div", { class: "legend" });
  for (const [source, colour] of Object.entries(SOURCE_COLOURS)) {
    const i = el("i", { class: "box" });
    i.style.setProperty("--c", colour);
    legend.append(el("span", {}, i, source));
  }
  return legend;
}

// The deal picker and the look-back it shows.
export function dealPicker(game) {
  const box = el("div", { class: "lookback" });
  const select = el("select", { "aria-label": "a deal to look back at" });
  select.append(el("option", { value: "", text: "Look back at a deal…" }));
  for (const d of game.per_deal) {
    select.append(el("option", { value: d.deal, text: `Deal ${d.deal} · ${d.dealer} deals` }));
  }
  const out = el("div", { class: "deal" });
  const message = el("div", { class: "message" });
  const show = async (deal) => {
    select.value = String(deal);
    say(message, "Reading the deal…");
    out.replaceChildren();
    try {
      out.append(lookBack(await getJSON(`/api/deal?game=${game.number}&deal=${deal}`)));
      say(message, "");
    } catch (e) {
      say(message, `That deal cannot be read: ${e.message}`, "bad");
    }
  };
  select.addEventListener("change", () => { if (select.value) show(Number(select.value)); });
  box.append(select, message, out);
  return { box, show };
}

function chips(cards, starter) {
  const row = el("div", { class: "cards" });
  for (const c of cards) row.append(cardChip(c));
  if (starter) row.append(cardChip(starter, true));
  return row;
}

export function lookBack(deal) {
  const box = el("div", { "data-deal": deal.deal });
  box.append(el("h3", { text: `Deal ${deal.deal}: ${deal.dealer} deals` }));
  box.append(el("div", { class: "cards" }, el("span", { class: "k", text: "starter " }),
                deal.starter ? cardChip(deal.starter, true) : "not turned"));
  box.append(el("h4", { text: "The play" }));
  const play = el("table", { class: "items play" });
  for (const row of deal.play) {
    const tr = el("tr", { class: "play-" + row.type.replace(" ", "-") });
    if (row.type === "card") {
      const made = row.points ? `${row.points} (${row.reasons.join(", ")})` : "";
      const card = el("td", {}, cardChip(row.card));
      if (row.misread) card.append(` (read as ${row.misread})`);   // put right at the show
      tr.append(el("td", { text: row.player }), card, el("td", { text: row.count }),
                el("td", { text: made }));
      if (row.new_series) tr.classList.add("fresh");   // a fresh count starts here
      play.append(tr);
      if (row.better) {
        const b = row.better;
        const hint = el("tr", { class: "better" },
          el("td", { colspan: 4 }, `held `, cardChip(b.card),
             ` would have made ${b.count} for ${b.points} (${b.reasons.join(", ")})`));
        play.append(hint);
      }
    } else if (row.type === "go said") {
      tr.append(el("td", { text: row.player }), el("td", { text: "go" }), el("td", { text: row.count }), el("td"));
      play.append(tr);
    } else {
      tr.append(el("td", { text: row.player }), el("td"), el("td"),
                el("td", { text: `${row.points} for ${row.type === "go" ? "the go" : "last card"}` }));
      play.append(tr);
    }
  }
  box.append(play, el("div", { class: "message", text: deal.known }));
  box.append(el("h4", { text: "The show" }));
  for (const s of deal.shows) {
    const whose = s.crib ? `${s.player}'s crib` : `${s.player}'s hand`;
    const part = el("div", { class: "show" });
    part.append(el("div", { class: "whose", text: whose }), chips(s.cards, deal.starter));
    if (!s.claim) {
      part.append(el("div", { class: "message", text: "never claimed: the game ended first" }));
    } else {
      const c = s.claim;
      const line = el("div", { class: `claim verdict-${c.verdict}` },
        `claimed ${c.claimed}, true ${c.actual}: ${c.verdict === "under" ? "short" : c.verdict}; pegged ${c.points}` +
        (s.muggins ? `; Muggins: ${s.muggins.taker} took ${s.muggins.points}` : "") +
        (s.missed_told ? `; missed and told ${s.missed_told}` : "") + (s.disputed ? "; disputed" : ""));
      const items = el("table", { class: "items" });
      for (const item of c.breakdown) {
        items.append(el("tr", {}, el("td", { text: item.kind }), el("td", { text: item.cards.join(" ") }),
                        el("td", { text: String(item.points) })));
      }
      part.append(line, items);
    }
    box.append(part);
  }
  return box;
}
