// The live board: the newest state from the event stream, drawn; the settling buttons once paired.
import { drawBoard } from "/static/board.js";
import { cardChip, el, getJSON, pairingForm, post, say } from "/static/common.js";

const $ = (id) => document.getElementById(id);
let state = null;
let points = 0;

const PHASES = { cut: "cutting for deal", deal: "dealing", starter: "turning the starter", play: "the play",
                 show: "the show", over: "game over" };

function sideOf(player) {
  return state.sides.findIndex((side) => side.includes(player));
}

function render(s) {
  state = s;
  const b = s.board;
  if (!b) return;                       // the device is still starting
  const scores = $("scores");
  scores.className = "scores" + (b.names.length === 3 ? " three" : "");
  scores.replaceChildren(...b.names.map((name, side) => {
    const box = el("div", { class: "score", "data-side": side });
    box.style.setProperty("--c", b.colours[side]);
    const tags = [];
    if (state.dealer && sideOf(state.dealer) === side) tags.push("dealer");
    if (b.winner === side) tags.push("winner" + (s.margin && s.margin !== "single" ? ` (${s.margin})` : ""));
    box.append(el("div", { class: "name", text: name }), el("div", { class: "points", text: String(b.front[side]) }),
               el("div", { class: "tag", text: tags.join(" · ") }));
    return box;
  }));
  const facts = [["phase", PHASES[s.phase] || s.phase]];
  if (s.count !== null) facts.push(["count", s.count]);
  if (s.starter) facts.push(["starter", s.starter]);
  if (s.turn && s.phase === "play") facts.push(["to play", s.turn]);
  if (s.show_turn) facts.push(["counting", s.show_turn.player + (s.show_turn.crib ? "'s crib" : "")]);
  facts.push(["deal", s.round || "—"]);
  $("facts").replaceChildren(...facts.map(([k, v]) => {
    const span = el("span", { "data-fact": k }, el("span", { class: "k", text: k + " " }));
    span.append(k === "count" ? el("b", { text: String(v) }) : k === "starter" ? cardChip(v, true) : String(v));
    return span;
  }));
  drawBoard($("board"), b);
  const said = $("said");
  said.replaceChildren();
  if (s.announcement) {
    said.append(s.announcement.spoken || s.announcement.shown, el("small", { text: s.announcement.shown }));
  } else said.textContent = "—";
  renderBreakdown(s.breakdown, s.starter);
  $("log").replaceChildren(...s.log.slice().reverse().map((line) => el("li", { text: line })));
  const mug = $("muggins-row");
  if (mug.childElementCount !== b.names.length) {
    mug.replaceChildren(...b.names.map((name, side) => {
      const button = el("button", { "data-side": side, text: `Muggins: ${name}` });
      button.addEventListener("click", () => act("muggins", { side }));
      return button;
    }));
  }
  if (s.mode === "demo") {             // a demo plays by its script: nothing to settle from here
    $("pair").classList.add("hidden");
    $("actions").classList.add("hidden");
    $("demo-note").classList.remove("hidden");
  } else if (s.paired) showActions(true);
}

function renderBreakdown(bd, starter) {
  $("breakdown-section").classList.toggle("hidden", !bd);
  if (!bd) return;
  const whose = bd.player + (bd.crib ? "'s crib" : "'s hand");
  let title = `Last count: ${whose}`;
  if (bd.verdict === "dispute") title = `Dispute: ${whose}, ${bd.actual} in all`;
  else if (bd.claimed !== null) title += ` — claimed ${bd.claimed}, ${bd.actual} in it`;
  $("breakdown-title").textContent = title;
  $("breakdown-title").className = "verdict-" + bd.verdict;
  const cards = bd.cards.map((c) => cardChip(c));
  if (bd.starter) cards.push(cardChip(bd.starter, true));
  $("breakdown-cards").replaceChildren(...cards);
  const rows = bd.items.map((item) => {
    const tr = el("tr");
    const what = item.cards.length ? `${item.kind}: ${item.cards.join(" ")}` : item.kind;
    tr.append(el("td", { text: what }), el("td", { text: item.points === null ? "" : String(item.points) }));
    return tr;
  });
  if (bd.verdict !== "dispute") {
    const total = el("tr");
    total.append(el("td", { text: bd.verdict === "right" ? "total (right)" : `total (${bd.verdict} claim)` }),
                 el("td", { text: String(bd.actual) }));
    rows.push(total);
  }
  $("breakdown-items").replaceChildren(...rows);
}

function showActions(paired) {
  if (state && state.mode === "demo") return;
  $("actions").classList.toggle("hidden", !paired);
  $("pair").classList.toggle("hidden", paired);
}

async function act(action, body = {}) {
  const r = await post(`/api/${action}`, body);
  if (r.ok) say($("action-message"), `${action.replace("-", " ")} sent`, "good");
  else {
    say($("action-message"), r.body.error || `refused (${r.status})`, "bad");
    if (r.status === 401) showActions(false);
  }
}

function setPoints(n) {
  points = Math.max(0, Math.min(29, n));
  $("points").textContent = String(points);
}

function connect() {
  const source = new EventSource("/api/events");
  source.addEventListener("state", (e) => {
    const s = JSON.parse(e.data);
    s.paired = state ? state.paired : false;
    render(s);
  });
  source.onopen = () => $("live").classList.add("on");
  source.onerror = () => $("live").classList.remove("on");
}

async function start() {
  const s = await getJSON("/api/state");
  pairingForm($("pair"), s.paired, () => { state.paired = true; showActions(true); });
  render(s);
  showActions(s.paired);
  $("less").addEventListener("click", () => setPoints(points - 1));
  $("more").addEventListener("click", () => setPoints(points + 1));
  $("claim").addEventListener("click", () => { act("claim", { points }); setPoints(0); });
  $("dispute").addEventListener("click", () => act("dispute"));
  $("undo").addEventListener("click", () => act("undo"));
  $("new-game").addEventListener("click", () => act("new-game"));
  connect();
}

start();
