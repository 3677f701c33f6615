// @ts-check
/* The search tree in SVG, top-down: every drawn node carries data-node-id.
 *
 * Large trees stay usable: only expanded nodes show their children (the
 * first levels at the start, and the path to the current node), and no more
 * than MAX_DRAWN nodes are laid out at once. Nodes not yet visited at the
 * current step are drawn faint; moves a cutoff left unvisited hang greyed
 * under their node. Zoom with the wheel or the buttons, pan by dragging.
 *
 * The view follows the box: until the user zooms or pans, it is Fit's, and
 * a box that changes size (or gets one: a tree drawn before its box is laid
 * out had a viewBox of a pixel, blank until Fit was pressed) is fitted again.
 * An overview (load's third argument: "Trace both") opens the deepest
 * iteration only as far as the whole drawing fits its box legibly, and is
 * drawn whole in its box even where one level is too wide for that (PVS's
 * re-searches beside the earlier iterations): smaller, rather than cut at
 * the box's edges; zoom in to read it.
 */

import { BOX_H, BOX_W, layoutTree } from "./layout.js";
import { KIND_NAMES, moveLetter, valueText, windowText } from "./trace.js";
import { el } from "../svg.js";

/** @typedef {import("./trace.js").Indexed} Indexed */

/** Levels expanded when a trace opens. */
const OPEN_LEVELS = 2;
/** At most this many nodes are drawn; beyond it subtrees stay collapsed. */
export const MAX_DRAWN = 1500;
/** Screen pixels per tree unit: Fit never makes the text smaller than this, nor a small tree huge. */
const MIN_SCALE = 0.7, MAX_SCALE = 1.4;
/** Room around the tree in a fitted view, in tree units. */
const PAD = 20;

/** The tree view over an SVG element: load a trace, step through it, zoom and pan. */
export class TreeView {
  /**
   * @param {SVGSVGElement} svg
   * @param {(id: number) => void} onSelect  a node was clicked
   */
  constructor(svg, onSelect) {
    this.svg = svg;
    this.onSelect = onSelect;
    /** @type {Indexed | null} */
    this.ix = null;
    /** @type {Set<number>} */
    this.open = new Set();
    /** @type {Map<number, SVGElement>} */
    this.drawn = new Map();
    /** @type {number[]} the player to move at each node, when known (for move letters) */
    this.mover = [];
    /** @type {Map<number, string[]>} node id -> the moves its cutoff left unvisited */
    this.pruned = new Map();
    this.current = 0;
    this.view = { x: 0, y: 0, w: 800, h: 400 };
    this.size = { w: 800, h: 400 };
    this.panning = false;
    this.fitted = false;  // the view is Fit's (nobody zoomed or panned since): a relayout fits again
    this.overview = false;  // what is open was chosen to fit the box (nobody opened or closed a node since)
    this.boxSize = { w: 0, h: 0 };
    this.setUpPanZoom();
    new ResizeObserver(() => {
      const box = this.box();
      if (!box.w || !box.h || (box.w === this.boxSize.w && box.h === this.boxSize.h)) return;
      if (!this.ix || !this.fitted) return;  // the user's zoom and pan stay as they were
      if (this.overview) this.openToFit();
      this.fit();
    }).observe(svg);
  }

  /** The box on the screen, in CSS pixels (0 while it is not laid out). @returns {{w: number, h: number}} */
  box() {
    const r = this.svg.getBoundingClientRect();
    return { w: r.width, h: r.height };
  }

  /** Show a new trace, stepped to node `current` (past the last node: the whole search done); as an overview,
   * only as much of it open as fits the box.
   * @param {Indexed} ix @param {number} [current] @param {boolean} [overview] */
  load(ix, current = 0, overview = false) {
    this.ix = ix;
    this.open = new Set();
    this.pruned = new Map();
    this.mover = ix.trace.nodes.map(() => -1);
    this.current = current;
    this.overview = overview;
    if (overview) this.openToFit();
    else { this.expandLevels(OPEN_LEVELS); this.layout(); }
    this.fit();
  }

  /** The overview: the deepest iteration open one level, or two where the whole drawing then still fits the box at
   * the smallest legible scale; the earlier iterations closed (their boxes say how many nodes each holds). */
  openToFit() {
    const ix = /** @type {Indexed} */ (this.ix), box = this.box();
    const last = ix.roots[ix.roots.length - 1];
    /** @param {number} levels @returns {Set<number>} */
    const opened = (levels) => {
      const open = new Set();
      let frontier = [last], count = ix.roots.length;
      for (let level = 0; level < levels && frontier.length; level++) {
        const next = [];
        for (const id of frontier) {
          const kids = ix.children[id];
          if (!kids.length || count + kids.length > MAX_DRAWN) continue;
          open.add(id);
          count += kids.length;
          next.push(...kids);
        }
        frontier = next;
      }
      return open;
    };
    const fits = (/** @type {Set<number>} */ open) => {
      const size = layoutTree(ix, open, this.pruned).size;
      return (size.w + 2 * PAD) * MIN_SCALE <= box.w && (size.h + 2 * PAD) * MIN_SCALE <= box.h;
    };
    this.open = fits(opened(2)) ? opened(2) : opened(1);
    this.layout();
  }

  /** Name each move by the side that made it and hang the moves each cutoff skipped under it.
   * @param {import("./trace.js").TreeFacts} facts */
  learn(facts) {
    facts.to_move.forEach((mover, id) => { this.mover[id] = mover; });
    for (const [id, moves] of Object.entries(facts.pruned)) this.pruned.set(Number(id), moves.map((m) => moveLetter(m, facts.to_move[Number(id)])));
    // the moves hung under cutoffs widen the tree: an overview opens what still fits, and Fit's view is kept Fit's
    if (this.overview && this.fitted) this.openToFit(); else this.layout();
    if (this.fitted) this.fit();
  }

  /** Open the first `levels` levels, as far as MAX_DRAWN allows. @param {number} levels */
  expandLevels(levels) {
    const ix = /** @type {Indexed} */ (this.ix);
    let count = Math.max(ix.roots.length, this.drawn.size);  // what is drawn already counts against the budget
    /** @type {number[]} */
    let frontier = ix.roots.slice();
    for (let level = 0; level < levels && frontier.length; level++) {
      /** @type {number[]} */
      const next = [];
      for (const id of frontier) {
        const kids = ix.children[id];
        if (!kids.length || count + kids.length > MAX_DRAWN) continue;
        this.open.add(id);
        count += kids.length;
        next.push(...kids);
      }
      frontier = next;
    }
  }

  expandAll() { if (this.ix) { this.overview = false; this.expandLevels(64); this.layout(); this.fit(); } }
  collapseAll() { if (this.ix) { this.overview = false; this.open = new Set(); this.reveal(this.current); this.layout(); this.fit(); } }

  /** Open the ancestors of a node so that it is drawn. @param {number} id @returns {boolean} whether anything opened */
  reveal(id) {
    const ix = /** @type {Indexed} */ (this.ix);
    let changed = false;
    for (let at = ix.trace.nodes[id].parent; at !== null; at = ix.trace.nodes[at].parent) {
      if (!this.open.has(at)) { this.open.add(at); changed = true; }
    }
    return changed;
  }

  /** @param {number} id */
  toggle(id) {
    this.overview = false;
    if (this.open.has(id)) this.open.delete(id); else this.open.add(id);
    this.layout();
  }

  /** Lay out and draw the open part of the tree (a tidy layout: leaves side by side, parents centred). */
  layout() {
    const ix = this.ix;
    if (!ix) return;
    this.svg.replaceChildren();
    this.drawn = new Map();
    const edges = el("g", { class: "edges" }, this.svg);
    const boxes = el("g", { class: "nodes" }, this.svg);
    const laid = layoutTree(ix, this.open, this.pruned);
    for (const e of laid.edges) el("line", { x1: e.x1, y1: e.y1, x2: e.x2, y2: e.y2, class: e.pruned ? "edge pruned" : "edge" }, edges);
    for (const item of laid.items) {
      if (item.kind === "node") { this.drawNode(boxes, item.id, item.x, item.y); continue; }
      const g = el("g", { class: "pruned-move" }, boxes);
      el("rect", { x: item.x - BOX_W * 0.3, y: item.y, width: BOX_W * 0.6, height: BOX_H * 0.6, rx: 6 }, g);
      el("text", { x: item.x, y: item.y + 18, "text-anchor": "middle" }, g).textContent = item.move;
    }
    this.size = laid.size;
    this.mark(this.current);
  }

  /** @param {Element} parent @param {number} id @param {number} x @param {number} y */
  drawNode(parent, id, x, y) {
    const ix = /** @type {Indexed} */ (this.ix);
    const node = ix.trace.nodes[id];
    const classes = ["node", `kind-${node.kind}`];
    if (node.cutoff) classes.push("cutoff");
    if (node.table_hit) classes.push("hit");
    const g = el("g", { class: classes.join(" "), "data-node-id": id, transform: `translate(${x - BOX_W / 2} ${y})`,
      role: "button", tabindex: "-1" }, parent);
    el("rect", { width: BOX_W, height: BOX_H, rx: 8, class: "box" }, g);
    const parentMover = node.parent === null ? -1 : this.mover[node.parent];
    // a root is an iteration of progressive deepening ("d3": to depth 3) or an MTD(f) pass at the root
    const rootName = node.kind === "pass" ? "pass" : `d${node.depth}`;
    const name = node.parent === null ? rootName : moveLetter(node.move, parentMover < 0 ? 0 : parentMover);
    el("text", { x: 7, y: 18, class: "move" }, g).textContent = node.parent !== null && parentMover < 0 && node.move !== "swap"
      ? `#${Number(node.move) + 1}` : name;
    el("text", { x: BOX_W - 7, y: 18, "text-anchor": "end", class: "value" }, g).textContent = valueText(node);
    el("text", { x: BOX_W / 2, y: 37, "text-anchor": "middle", class: "window" }, g).textContent = windowText(node);
    if (node.table_hit) el("text", { x: BOX_W - 4, y: -3, "text-anchor": "end", class: "hit-mark" }, g).textContent = "TT";
    if (node.cutoff) el("text", { x: 4, y: -3, class: "cut-mark" }, g).textContent = "✂";
    const hidden = ix.children[id].length;
    if (hidden) {
      const open = this.open.has(id);
      const t = el("g", { class: "toggle", "data-toggle": id, transform: `translate(${BOX_W / 2} ${BOX_H + 9})` }, g);
      el("circle", { r: 9 }, t);
      el("text", { y: 4, "text-anchor": "middle" }, t).textContent = open ? "−" : `+`;
      if (!open) el("text", { x: 13, y: 4, class: "hidden-count" }, t).textContent = String(ix.end[id] - id);
    }
    el("title", {}, g).textContent = `node ${id} · ${KIND_NAMES[node.kind] || node.kind} · depth ${node.depth} · window ${windowText(node) || "none"}`
      + ` · value ${valueText(node)}${node.cutoff ? " · cutoff" : ""}${node.table_hit ? " · table hit" : ""}`;
    this.drawn.set(id, g);
  }

  /** Show the step: the current node, the visited ones, the rest faint. @param {number} current */
  mark(current) {
    this.current = current;
    for (const [id, g] of this.drawn) {
      g.classList.toggle("future", id > current);
      if (id === current) g.setAttribute("data-current", "true"); else g.removeAttribute("data-current");
    }
  }

  /** Move to a node: open its ancestors, mark it, and keep it in view. @param {number} id */
  goTo(id) {
    if (this.reveal(id)) this.layout();
    this.mark(id);
    const g = this.drawn.get(id);
    if (!g) return;
    const box = /** @type {SVGGraphicsElement} */ (/** @type {unknown} */ (g)).getBBox();
    const m = /** @type {SVGGraphicsElement} */ (/** @type {unknown} */ (g)).transform.baseVal.consolidate();
    const x = (m ? m.matrix.e : 0) + box.width / 2, y = (m ? m.matrix.f : 0) + BOX_H / 2;
    const v = this.view;
    const margin = BOX_W;
    let moved = false;
    // The node's root (its iteration) stays whole in view beside it where both fit: following the node alone
    // left the root cut at the box's edge, or out of sight with the line that leads to it.
    const ix = /** @type {Indexed} */ (this.ix);
    let root = id;
    while (ix.trace.nodes[root].parent !== null) root = /** @type {number} */ (ix.trace.nodes[root].parent);
    const rootBox = this.drawn.get(root);
    const rm = rootBox && /** @type {SVGGraphicsElement} */ (/** @type {unknown} */ (rootBox)).transform.baseVal.consolidate();
    const rx = rm ? rm.matrix.e + BOX_W / 2 : x;
    const nodeOut = x < v.x + margin / 2 || x > v.x + v.w - margin / 2;
    const rootCut = rx - BOX_W / 2 < v.x || rx + BOX_W / 2 > v.x + v.w;
    if (Math.abs(rx - x) + BOX_W + margin <= v.w && (nodeOut || rootCut)) { v.x = (rx + x) / 2 - v.w / 2; moved = true; }
    else if (nodeOut) { v.x = x - v.w / 2; moved = true; }
    if (y < v.y || y > v.y + v.h - BOX_H) {
      // The root is shown whole or not at all: a view that scrolled to half of it cut its box and its marks
      // (after stepping down and back, the root stood clipped at the top of the tree).
      v.y = y - v.h / 2 < BOX_H + PAD ? -PAD - 14 : y - v.h / 2;
      moved = true;
    }
    if (moved) this.apply();
  }

  /** Show the whole tree if it fits legibly; else the part around the current node, at the smallest legible size.
   * An overview is shown whole at any size: it is there to be seen at a glance, and was cut at the box's edges. */
  fit() {
    const pad = PAD, box = this.box();
    this.boxSize = box;
    this.fitted = true;
    if (!box.w || !box.h) return;  // not laid out yet: fitted when the box gets its size (the resize observer)
    const cw = box.w, ch = box.h;
    const w = this.size.w + 2 * pad, h = this.size.h + 2 * pad;
    const scale = Math.max(this.overview ? 0 : MIN_SCALE, Math.min(MAX_SCALE, cw / w, ch / h));
    const vw = cw / scale, vh = ch / scale;
    let x = w <= vw ? -pad - (vw - w) / 2 : -pad;
    // Past the last node (a finished search) the last iteration's root is the part worth seeing, not the first's.
    const roots = this.ix ? this.ix.roots : [];
    const g = this.drawn.get(this.current) ?? this.drawn.get(roots[roots.length - 1]);
    if (w > vw && g) {
      const m = /** @type {SVGGraphicsElement} */ (/** @type {unknown} */ (g)).transform.baseVal.consolidate();
      if (m) x = Math.min(w - pad - vw, Math.max(-pad, m.matrix.e + BOX_W / 2 - vw / 2));
    }
    this.view = { x, y: -pad - 14, w: vw, h: vh };
    this.apply();
  }

  /** @param {number} factor below 1 zooms in @param {number} [cx] @param {number} [cy] */
  zoom(factor, cx, cy) {
    const v = this.view;
    const x = cx === undefined ? v.x + v.w / 2 : cx, y = cy === undefined ? v.y + v.h / 2 : cy;
    v.x = x - (x - v.x) * factor; v.y = y - (y - v.y) * factor; v.w *= factor; v.h *= factor;
    this.fitted = false;
    this.apply();
  }

  apply() { const v = this.view; this.svg.setAttribute("viewBox", `${v.x} ${v.y} ${v.w} ${v.h}`); }

  setUpPanZoom() {
    const svg = this.svg;
    /** @type {{x: number, y: number, vx: number, vy: number, moved: boolean} | null} */
    let drag = null;
    const scale = () => this.view.w / Math.max(1, this.box().w);
    svg.addEventListener("wheel", (event) => {
      event.preventDefault();
      const r = svg.getBoundingClientRect(), s = scale();
      this.zoom(event.deltaY > 0 ? 1.15 : 1 / 1.15, this.view.x + (event.clientX - r.left) * s, this.view.y + (event.clientY - r.top) * s);
    }, { passive: false });
    svg.addEventListener("pointerdown", (event) => {
      drag = { x: event.clientX, y: event.clientY, vx: this.view.x, vy: this.view.y, moved: false };
    });
    svg.addEventListener("pointermove", (event) => {
      if (!drag) return;
      const dx = event.clientX - drag.x, dy = event.clientY - drag.y;
      if (!drag.moved && Math.hypot(dx, dy) < 4) return;
      if (!drag.moved) svg.setPointerCapture(event.pointerId);
      drag.moved = true;
      const s = scale();
      this.view.x = drag.vx - dx * s; this.view.y = drag.vy - dy * s;
      this.fitted = false;
      this.apply();
    });
    svg.addEventListener("pointerup", (event) => {
      const moved = drag && drag.moved;
      drag = null;
      if (moved) return;
      const target = /** @type {Element} */ (event.target);
      const toggle = target.closest("[data-toggle]");
      if (toggle) { this.toggle(Number(toggle.getAttribute("data-toggle"))); return; }
      const node = target.closest("[data-node-id]");
      if (node) this.onSelect(Number(node.getAttribute("data-node-id")));
    });
  }
}
