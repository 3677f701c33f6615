// @ts-check
/* Side by side: the search trees of two algorithms on the same position and
 * depth (drawn as the lab's own tree, tree.js) with their node counts, values
 * and times, and the node counts and times of every algorithm against depth
 * (log scale), from POST /api/trace. The times are the server's, of the
 * traced searches. */

import { $ } from "../dom.js";
import { errorText } from "../api.js";
import { fetchTrace, fetchTreeFacts } from "./source.js";
import { ALGORITHMS, boundText, indexTrace, moveLetter } from "./trace.js";
import { TreeView } from "./tree.js";
import { el } from "../svg.js";

/** @typedef {import("./trace.js").Position} Position */
/** @typedef {import("./trace.js").Trace} Trace */

const COLORS = ["#8a4518", "#2f6f8f", "#5b8a3a", "#9a3a6a", "#6a5acd"];

/** The "Side by side" section: its buttons, table and chart. */
export class Compare {
  /**
   * @param {() => Position} position @param {() => number} depth @param {() => string} algorithm
   * @param {(text: string, error?: boolean) => void} status
   */
  constructor(position, depth, algorithm, status) {
    this.position = position; this.depth = depth; this.algorithm = algorithm; this.status = status;
    /** @type {{figure: Element, tree: TreeView}[]} */
    this.trees = [...document.querySelectorAll("#compare-trees figure")].map((figure) => {
      const tree = new TreeView(/** @type {SVGSVGElement} */ (figure.querySelector("svg.tree")), () => {});
      for (const button of figure.querySelectorAll("[data-zoom]")) {
        const zoom = button.getAttribute("data-zoom");
        button.addEventListener("click", () => (zoom === "fit" ? tree.fit() : tree.zoom(zoom === "in" ? 1 / 1.3 : 1.3)));
      }
      return { figure, tree };
    });
    this.run = 0;  // the latest "Trace both": an older one's answers arrive too late to be shown
    $("#run-compare").addEventListener("click", () => this.sideBySide());
    $("#run-chart").addEventListener("click", () => this.chart());
  }

  async sideBySide() {
    const names = [this.algorithm(), /** @type {HTMLSelectElement} */ ($("#other")).value];
    this.status("Tracing both…");
    try {
      const run = ++this.run;
      const traces = [];
      for (const name of names) traces.push(await fetchTrace(this.position(), name, this.depth()));
      if (run !== this.run) return;
      this.drawTrees(traces, run);
      const table = document.createElement("table");
      table.className = "compare-table";
      table.innerHTML = "<thead><tr><th>algorithm</th><th>nodes</th><th>value</th><th>best move</th><th>ms</th></tr></thead>";
      const body = table.createTBody();
      for (const t of traces) {
        const row = body.insertRow();
        row.dataset.algorithm = t.algorithm;
        for (const text of [t.algorithm, t.nodes.length.toLocaleString("en"), boundText(t.result.value),
          moveLetter(t.result.best_move, t.position.to_move), (t.result.seconds * 1000).toFixed(1)]) row.insertCell().textContent = text;
      }
      $("#compare-table").replaceChildren(table);
      this.status(`Depth ${this.depth()}: ${traces.map((t) => `${t.algorithm} ${t.nodes.length} nodes`).join(", ")}.`);
    } catch (error) { this.status(errorText(error), true); }
  }

  /** Each trace's whole search in its tree, one beside the other (one above the other on a phone), each an
   * overview drawn whole inside its box: the deepest iteration open as far as the whole tree fits legibly, and
   * smaller where even one level is too wide.
   * @param {Trace[]} traces @param {number} run */
  drawTrees(traces, run) {
    $("#compare-trees").hidden = false;  // before loading: a tree fits itself to its drawn size
    traces.forEach((trace, k) => {
      const { figure, tree } = this.trees[k];
      figure.setAttribute("data-algorithm", trace.algorithm);
      /** @type {HTMLElement} */ (figure.querySelector(".compare-name")).textContent =
        `${trace.algorithm}: ${trace.nodes.length.toLocaleString("en")} nodes`;
      tree.load(indexTrace(trace), trace.nodes.length, true);
    });
    this.learnTrees(traces, run);
  }

  /** Who moves at each node of each tree, asked one tree after the other: the server keeps two trees of a client
   * under way at most, and the lab's own tree may be one of them (asked side by side, one of these was refused
   * and its tree kept numbered moves). @param {Trace[]} traces @param {number} run */
  async learnTrees(traces, run) {
    for (const [k, trace] of traces.entries()) {
      try {
        const facts = await fetchTreeFacts(trace);
        if (run !== this.run) return;
        this.trees[k].tree.learn(facts);
      } catch (error) { /* the tree keeps numbered moves */ }
    }
  }

  /** Nodes and time of every algorithm at depths 1..depth, drawn on log scales. */
  async chart() {
    const top = this.depth();
    /** @type {{name: string, points: {depth: number, nodes: number, ms: number}[]}[]} */
    const series = ALGORITHMS.map((name) => ({ name, points: [] }));
    this.status("Measuring…");
    try {
      for (let d = 1; d <= top; d++) {
        for (const s of series) {
          const t = await fetchTrace(this.position(), s.name, d);
          s.points.push({ depth: d, nodes: t.nodes.length, ms: Math.max(0.001, t.result.seconds * 1000) });
        }
        this.draw(series, top);
      }
      this.status("Nodes and time against depth, log scale.");
    } catch (error) { this.status(`${errorText(error)} (the chart stops at the depth the server allows)`, true); }
  }

  /** @param {{name: string, points: {depth: number, nodes: number, ms: number}[]}[]} series @param {number} top */
  draw(series, top) {
    const svg = /** @type {SVGSVGElement} */ (/** @type {unknown} */ ($("#chart")));
    svg.removeAttribute("hidden");
    svg.replaceChildren();
    // Side by side where there is room, one above the other on a phone.
    const narrow = (svg.parentElement ? svg.parentElement.clientWidth : 720) < 560;
    const legendY = narrow ? 620 : 310;
    svg.setAttribute("viewBox", narrow ? `0 0 360 ${legendY + 20 * Math.ceil(series.length / 3)}` : `0 0 720 ${legendY + 14}`);
    /** @param {number} v @returns {string} */
    const tick = (v) => (v >= 1000 ? `${v / 1000}k` : String(v));
    /** @param {"nodes" | "ms"} key @param {number} x0 @param {number} y0 @param {string} title */
    const panel = (key, x0, y0, title) => {
      const values = series.flatMap((s) => s.points.map((p) => p[key]));
      const lo = Math.floor(Math.log10(Math.min(...values))), hi = Math.max(lo + 1, Math.ceil(Math.log10(Math.max(...values))));
      const X = (/** @type {number} */ d) => x0 + 50 + (d - 1) / Math.max(1, top - 1) * 270;
      const Y = (/** @type {number} */ v) => y0 + 250 - (Math.log10(v) - lo) / (hi - lo) * 220;
      el("text", { x: x0 + 185, y: y0 + 18, "text-anchor": "middle", class: "chart-title" }, svg).textContent = title;
      for (let e = lo; e <= hi; e++) {
        el("line", { x1: X(1), x2: X(top), y1: Y(10 ** e), y2: Y(10 ** e), class: "grid" }, svg);
        el("text", { x: X(1) - 6, y: Y(10 ** e) + 4, "text-anchor": "end", class: "tick" }, svg).textContent = tick(Number((10 ** e).toPrecision(1)));
      }
      for (let d = 1; d <= top; d++) el("text", { x: X(d), y: y0 + 268, "text-anchor": "middle", class: "tick" }, svg).textContent = String(d);
      el("text", { x: x0 + 185, y: y0 + 286, "text-anchor": "middle", class: "tick" }, svg).textContent = "depth";
      series.forEach((s, k) => {
        if (!s.points.length) return;
        el("polyline", { points: s.points.map((p) => `${X(p.depth)},${Y(p[key])}`).join(" "), stroke: COLORS[k], class: "series",
          "data-series": s.name }, svg);
      });
    };
    panel("nodes", 0, 0, "nodes searched");
    panel("ms", narrow ? 0 : 360, narrow ? 310 : 0, "time (ms)");
    series.forEach((s, k) => {
      const x = narrow ? 20 + (k % 3) * 115 : 40 + k * 135, y = legendY + (narrow ? 20 * Math.floor(k / 3) : 0);
      el("rect", { x, y: y - 5, width: 18, height: 4, fill: COLORS[k] }, svg);
      el("text", { x: x + 23, y, class: "tick legend-name" }, svg).textContent = s.name;
    });
  }
}
