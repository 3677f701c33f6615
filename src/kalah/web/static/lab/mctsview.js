// @ts-check
/* The UCT tree in SVG during any iteration, with that iteration's phases so far marked: selection's
 * path (blue), the expanded node (green), the random playout from it (a dashed orange line to its
 * result) and backpropagation (the nodes whose counts it changed: bold labels with "+1"). Before
 * backpropagation the counts are those the iteration found. Node size: visits.
 * Drawn at its own size (labels stay readable) in a frame that scrolls.
 *
 * Test hooks: every node [data-node-id] with data-visits and the classes "selected", "expanded" and
 * "backed"; the playout's mark [data-playout] with data-margin. */

import { layoutMcts, playoutFrom, touched } from "./mctstree.js";
import { moveLetter } from "./trace.js";
import { el } from "../svg.js";

/** @typedef {import("./mctstree.js").MctsTrace} MctsTrace */
/** @typedef {import("./mctstree.js").Stats} Stats */

const COLUMN = 64, ROW = 86, MARGIN = 40, PLAYOUT_DROP = 62;

/** A signed number: "+3", "0", "−2". @param {number} n */
export const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");

/** The tree drawing over an SVG element inside a scrolling frame. */
export class MctsView {
  /** @param {SVGSVGElement} svg @param {(id: number) => void} onSelect a node was clicked */
  constructor(svg, onSelect) {
    this.svg = svg;
    svg.addEventListener("click", (event) => {
      const node = /** @type {Element} */ (event.target).closest("[data-node-id]");
      if (node) onSelect(Number(node.getAttribute("data-node-id")));
    });
  }

  /**
   * Draw the tree during iteration `count` (its phases 1 to `phase` done: 1 selection, 2 expansion,
   * 3 playout, 4 backpropagation; 4 is after the iteration), at most `depth` moves deep.
   * @param {MctsTrace} t @param {number[]} born @param {number} count @param {number} depth @param {Stats} stats
   * @param {number} [phase]
   */
  draw(t, born, count, depth, stats, phase = 4) {
    const step = count > 0 ? t.iterations[count - 1] : null;
    // The expanded node joins the tree at expansion.
    const { at, width, height } = layoutMcts(t, born, step && phase < 2 ? count - 1 : count, depth);
    const wide = width * COLUMN + 2 * MARGIN, high = height * ROW + 2 * MARGIN + (step ? PLAYOUT_DROP : 0);
    const svg = this.svg;
    svg.setAttribute("viewBox", `0 0 ${wide} ${high}`);
    svg.setAttribute("width", String(wide));
    svg.setAttribute("height", String(high));
    svg.replaceChildren();
    const onPath = new Set(step ? step.path : []);
    const expanded = step && phase >= 2 ? step.expanded : null;
    const backed = new Set(step && phase >= 4 ? touched(step) : []);
    const x = (/** @type {number} */ column) => MARGIN + column * COLUMN + COLUMN / 2;
    const y = (/** @type {number} */ row) => MARGIN + row * ROW;
    const edges = el("g", { class: "medges" }, svg), nodes = el("g", { class: "mnodes" }, svg);
    for (const [id, p] of at) {
      const parent = t.nodes[id].parent;
      const q = parent === null ? undefined : at.get(parent);
      if (!q) continue;
      const kind = expanded === id ? " expanded" : onPath.has(id) ? " selected" : "";
      el("line", { class: `medge${kind}`, x1: x(q.x), y1: y(q.y), x2: x(p.x), y2: y(p.y) }, edges);
    }
    const most = Math.max(1, stats.visits[0]);
    for (const [id, p] of at) {
      const node = t.nodes[id];
      const kind = (expanded === id ? " expanded" : onPath.has(id) ? " selected" : "") + (backed.has(id) ? " backed" : "");
      const g = el("g", { class: `mnode${kind}`, "data-node-id": id, "data-visits": stats.visits[id] }, nodes);
      const r = 6 + 16 * Math.sqrt(stats.visits[id] / most);
      el("circle", { cx: x(p.x), cy: y(p.y), r }, g);
      const rate = stats.visits[id] ? (stats.wins[id] / stats.visits[id]).toFixed(2) : "–";
      el("text", { x: x(p.x), y: y(p.y) + 34 }, g).textContent = `${moveLetter(node.move, node.mover)} ${stats.visits[id]} ${rate}`;
      if (backed.has(id)) el("text", { x: x(p.x) + r + 9, y: y(p.y) - r / 2, class: "plus" }, g).textContent = "+1";
      el("title", {}, g).textContent = `node ${id}: ${stats.visits[id]} visits, ${stats.wins[id]} wins, summed margin ${stats.margin[id]}` +
        ` (for the player who moved into it)`;
    }
    const from = step && phase >= 3 ? at.get(playoutFrom(step)) : undefined;
    if (step && from) {
      // The playout leaves the tree: its moves are not kept, only its result.
      const g = el("g", { class: "playout", "data-playout": "", "data-margin": step.margin }, svg);
      el("line", { x1: x(from.x), y1: y(from.y) + 40, x2: x(from.x), y2: y(from.y) + 40 + PLAYOUT_DROP - 14 }, g);
      el("text", { x: x(from.x), y: y(from.y) + 40 + PLAYOUT_DROP }, g).textContent = signed(step.margin);
    }
    // Keep this iteration's work in sight: the frame scrolls to where it has got (the new node, else selection's end).
    const reached = step ? (expanded !== null ? expanded : step.path[step.path.length - 1]) : 0;
    const focus = at.get(at.has(reached) ? reached : 0);
    const frame = svg.parentElement;
    if (focus && frame) frame.scrollLeft = x(focus.x) - frame.clientWidth / 2;
  }
}
