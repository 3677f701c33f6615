// @ts-check
/* A traced search in a pane of its own: the lab's tree (tree.js), a board of its own (board.js's
 * createBoard) showing the position at the current node, and a stepper through the nodes in visiting
 * order. The MCTS page puts one beside UCT; everything it finds (buttons, texts, the two SVGs) is
 * inside the pane's root element, so a page may hold several.
 *
 * Inside the root: svg.board, .board-caption, .step-buttons [data-action] (start, back, step, end),
 * input.node-slider, [data-now="node"|"window"|"value"|"line"], svg.tree, [data-zoom="in"|"out"|"fit"],
 * .pane-status. Test hooks: the root's data-node-count and data-current (the node shown), the tree's
 * [data-node-id] (data-current="true" on the node shown). */

import { errorText } from "../api.js";
import { createBoard } from "../board.js";
import { STYLE } from "../style.js";
import { Lines, fetchTrace, fetchTreeFacts } from "./source.js";
import { describeNode, indexTrace, lineText, pathTo } from "./trace.js";
import { TreeView } from "./tree.js";

/** @typedef {import("./trace.js").Position} Position */
/** @typedef {import("./trace.js").Indexed} Indexed */
/** @typedef {import("./trace.js").Trace} Trace */
/** @typedef {import("./trace.js").Move} Move */

/** A traced search in a pane of its own: its tree, its board and its stepper, all inside `root`. */
export class TracePane {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    /** @type {Indexed | null} */
    this.ix = null;
    /** @type {Lines | null} */
    this.lines = null;
    this.current = 0;
    this.board = createBoard(/** @type {SVGSVGElement} */ (this.find("svg.board")), { style: STYLE });
    this.tree = new TreeView(/** @type {SVGSVGElement} */ (this.find("svg.tree")), (id) => this.show(id));
    this.slider = /** @type {HTMLInputElement} */ (this.find("input.node-slider"));
    this.slider.addEventListener("input", () => this.show(Number(this.slider.value)));
    for (const button of root.querySelectorAll(".step-buttons [data-action]"))
      button.addEventListener("click", () => this.act(String(button.getAttribute("data-action"))));
    for (const button of root.querySelectorAll("[data-zoom]")) {
      const zoom = button.getAttribute("data-zoom");
      button.addEventListener("click", () => (zoom === "fit" ? this.tree.fit() : this.tree.zoom(zoom === "in" ? 1 / 1.3 : 1.3)));
    }
  }

  /** @param {string} selector @returns {Element} */
  find(selector) {
    const found = this.root.querySelector(selector);
    if (!found) throw new Error(`the pane has no ${selector}`);
    return found;
  }

  /** @param {string} text @param {boolean} [error] */
  say(text, error) {
    const status = this.find(".pane-status");
    status.textContent = text;
    status.classList.toggle("error", !!error);
  }

  /** Show a position before (or without) a trace: the board alone. @param {Position} position */
  clear(position) {
    this.ix = null;
    this.tree.svg.replaceChildren();
    this.root.dataset.nodeCount = "0";
    this.slider.max = "0";
    this.slider.value = "0";
    for (const field of this.root.querySelectorAll("[data-now]")) field.textContent = "–";
    this.board.draw(position.board, position.to_move, false, {});
    this.find(".board-caption").textContent = "at the root";
  }

  /** Trace a search of `position` and show its first node. @param {Position} position @param {string} algorithm @param {number} depth */
  async load(position, algorithm, depth) {
    this.clear(position);
    this.say(`Tracing ${algorithm} to depth ${depth}…`);
    /** @type {Trace} */
    let trace;
    try {
      trace = await fetchTrace(position, algorithm, depth);
    } catch (error) {
      this.say(errorText(error), true);
      return;
    }
    const ix = indexTrace(trace);
    this.ix = ix;
    this.lines = new Lines(trace.position);
    this.root.dataset.nodeCount = String(trace.nodes.length);
    this.root.dataset.algorithm = trace.algorithm;
    this.slider.max = String(trace.nodes.length - 1);
    this.tree.load(ix);
    this.say(`${trace.algorithm} to depth ${trace.depth}: ${trace.nodes.length.toLocaleString("en")} nodes.`);
    fetchTreeFacts(trace).then((facts) => {
      if (this.ix !== ix) return;
      this.tree.learn(facts);
      this.find('[data-now="line"]').textContent = lineText(ix, this.tree.mover, this.current);
    }).catch(() => { /* the tree keeps numbered moves */ });
    await this.show(0);
  }

  /** Go to a node: the tree, the texts and the board there. @param {number} id */
  async show(id) {
    const ix = this.ix;
    if (!ix) return;
    const current = Math.max(0, Math.min(ix.trace.nodes.length - 1, id));
    this.current = current;
    this.root.dataset.current = String(current);
    this.slider.value = String(current);
    this.tree.goTo(current);
    const said = describeNode(ix, current);
    this.find('[data-now="node"]').textContent = said.node;
    this.find('[data-now="window"]').textContent = said.window;
    this.find('[data-now="value"]').textContent = said.value;
    this.find('[data-now="line"]').textContent = lineText(ix, this.tree.mover, current);
    const moves = pathTo(ix, current).slice(1).map((at) => /** @type {Move} */ (ix.trace.nodes[at].move));
    try {
      const position = await /** @type {Lines} */ (this.lines).after(moves);
      if (this.ix !== ix || this.current !== current) return;  // the user stepped on meanwhile
      this.board.draw(position.board, position.to_move, false, {});
      this.find(".board-caption").textContent = moves.length ? `at node ${current + 1}` : "at the root";
    } catch (error) { this.say(errorText(error), true); }
  }

  /** @param {string} action start, back, step or end */
  act(action) {
    if (!this.ix) return;
    const last = this.ix.trace.nodes.length - 1;
    const to = { start: 0, back: this.current - 1, step: this.current + 1, end: last }[action];
    if (to !== undefined) this.show(to);
  }
}
