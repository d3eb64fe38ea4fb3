// The pegboard as the LEDs show it, drawn as SVG: per track, its dealer LED and start hole, the scoring
// holes in rows (a gap every five, as on wood), the game hole at the end; both pegs of each side,
// the lurch or skunk line, the dealer, a blinking ghost where a claim would land, the winner's track lit.

const NS = "http://www.w3.org/2000/svg";
const PER_ROW = 20, CELL = 11, GAP = 5, R = 3.8;
const MARK = "#3b3b3b", HOLE = "#26292e", LINE = "#b36b00", DEALER = "#e8e8e8";

function node(tag, attrs) {
  const n = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
  return n;
}

// (hole, lap) of a score, as device/board.py's Board.position: 0 start, holes + 1 the game hole.
function position(score, holes, target) {
  if (score <= 0) return 0;
  if (score >= target) return holes + 1;
  return ((score - 1) % holes) + 1;
}

function rows(holes) {
  const out = [];
  for (let first = 1; first <= holes; first += PER_ROW) out.push([first, Math.min(first + PER_ROW - 1, holes)]);
  return out;
}

export function drawBoard(svg, b) {
  svg.replaceChildren();
  const rowsOf = rows(b.holes);
  const rowW = PER_ROW * CELL + (PER_ROW / 5 - 1) * GAP;
  const left = 2 * CELL + 6;                        // room for the dealer LED and the start hole
  const width = left + rowW + CELL + 6;
  const trackH = rowsOf.length * CELL + 16;
  const height = b.names.length * trackH + 4;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("role", "img");
  svg.append(node("rect", { x: 0, y: 0, width, height, rx: 8, fill: "#3a2a1c" }));
  const lines = new Set(b.lines.map((s) => position(s, b.holes, b.target)));
  b.names.forEach((name, side) => {
    const top = 4 + side * trackH;
    const colour = b.colours[side];
    const front = position(b.front[side], b.holes, b.target);
    const back = position(b.back[side], b.holes, b.target);
    const lit = b.winner === side;
    const label = node("text", { x: 6, y: top + 10, fill: colour, "font-size": 10, "font-weight": 700 });
    label.textContent = name + (b.dealer === side ? "  (dealer)" : "");
    svg.append(label);
    const g = node("g", { "data-side": side });
    svg.append(g);
    const put = (hole, x, y) => {
      let fill = hole > 0 && hole <= b.holes && hole % 5 === 0 ? MARK : HOLE;
      let opacity = 1;
      if (lines.has(hole) && hole > 0 && hole <= b.holes) fill = LINE;
      if (lit) { fill = colour; opacity = 0.35; }
      if (hole === back && back !== front) { fill = colour; opacity = 0.4; }
      if (hole === front) { fill = colour; opacity = 1; }
      const c = node("circle", { cx: x, cy: y, r: hole === front ? R + 0.8 : R, fill, "fill-opacity": opacity,
                                 "data-hole": hole });
      if (hole === front) c.setAttribute("data-peg", "front");
      else if (hole === back) c.setAttribute("data-peg", "back");
      g.append(c);
      return c;
    };
    const y0 = top + 14 + CELL / 2;
    // the dealer LED, then the start hole, before the first row
    if (b.dealer_leds[side] !== false) {
      g.append(node("circle", { cx: CELL / 2 + 2, cy: y0, r: R - 0.6,
                                fill: b.dealer === side ? DEALER : HOLE, "data-dealer": b.dealer === side ? "yes" : "no" }));
    }
    put(0, CELL * 1.5 + 4, y0);
    rowsOf.forEach(([first, last], r) => {
      const y = y0 + r * CELL;
      for (let hole = first; hole <= last; hole++) {
        const k = hole - first;
        const x = left + k * CELL + Math.floor(k / 5) * GAP + CELL / 2;
        put(hole, x, y);
      }
    });
    put(b.holes + 1, left + rowW + CELL / 2 + 4, y0 + (rowsOf.length - 1) * CELL);
    if (b.preview && b.preview.side === side) {
      const ghost = position(b.front[side] + b.preview.points, b.holes, b.target);
      const at = g.querySelector(`[data-hole="${ghost}"]`);
      if (at) {
        const ring = node("circle", { cx: at.getAttribute("cx"), cy: at.getAttribute("cy"), r: R + 1.2,
                                      fill: "none", stroke: "#ffffff", "stroke-width": 1.4, class: "ghost",
                                      "data-ghost": ghost });
        g.append(ring);
      }
    }
  });
}
