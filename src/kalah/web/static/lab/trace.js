// @ts-check
/* A search trace (docs/trace.md, format kalah-trace/1) and what the page derives from it.
 *
 * The engine in the page traces the search (or the server, POST /api/trace, where the page has no engine);
 * who moves at each node and the positions along a line are the rules' (engine/rules.js); here the nodes are indexed
 * once (children, subtree ends, depth in the tree) so that stepping and
 * drawing never scan all nodes again.
 */

import { Position as RulesPosition } from "../engine/rules.js";
import { lineOf, treeFacts } from "../engine/tracing.js";
import { pageEngine } from "../pageengine.js";

/** @typedef {import("../api.js").Board} Board */
/** @typedef {import("../api.js").Variant} Variant */
/** @typedef {import("../api.js").Move} Move */
/** @typedef {{board: Board, to_move: number, variant: Variant}} Position */
/** @typedef {number | "inf" | "-inf" | null} Bound */

/**
 * One node of a traced search, in visiting order.
 * @typedef {object} TraceNode
 * @property {number} id
 * @property {number | null} parent   null at a root (each deepening iteration and MTD(f) pass starts one)
 * @property {Move | null} move        from the parent
 * @property {number} depth            plies left
 * @property {Bound} alpha
 * @property {Bound} beta
 * @property {number | null} value     node's mover's view
 * @property {"exact" | "lower" | "upper"} bound
 * @property {boolean} cutoff
 * @property {boolean} table_hit
 * @property {"root" | "search" | "pass" | "eval" | "test" | "pv" | "probe" | "research"} kind
 */

/**
 * @typedef {object} Trace
 * @property {string} format
 * @property {Position} position
 * @property {string} algorithm
 * @property {number} depth
 * @property {string} evaluation
 * @property {Record<string, unknown>} options
 * @property {{value: number | null, best_move: Move | null, pv: Move[], nodes: number, seconds: number}} result
 * @property {TraceNode[]} nodes
 */

/**
 * A trace with its nodes indexed.
 * @typedef {object} Indexed
 * @property {Trace} trace
 * @property {number[][]} children   ids of each node's children, in visiting order
 * @property {number[]} end          the last id in each node's subtree
 * @property {number[]} level        distance from the node's root
 * @property {number[]} roots
 */

/** The lab's limits: the server caps the depth (POST /api/trace, kalah.web.models.MAX_TRACE_DEPTH). */
export const MAX_DEPTH = 12;
export const ALGORITHMS = ["minimax", "alphabeta", "scout", "pvs", "mtdf"];

/** What each node kind is, for people (docs/trace.md). */
export const KIND_NAMES = /** @type {Record<string, string>} */ ({
  root: "iteration root", search: "search", pass: "MTD(f) pass", eval: "Scout EVAL", test: "Scout TEST",
  pv: "PVS full window", probe: "null-window probe", research: "PVS re-search",
});

/** @param {Trace} trace @returns {Indexed} */
export function indexTrace(trace) {
  const n = trace.nodes.length;
  /** @type {number[][]} */
  const children = Array.from({ length: n }, () => []);
  const level = new Array(n).fill(0);
  /** @type {number[]} */
  const roots = [];
  for (const node of trace.nodes) {
    if (node.parent === null) roots.push(node.id);
    else { children[node.parent].push(node.id); level[node.id] = level[node.parent] + 1; }
  }
  // Visiting order is depth first, so a subtree is a run of ids; its end is found from the leaves up.
  const end = trace.nodes.map((node) => node.id);
  for (let id = n - 1; id >= 0; id--) {
    const parent = trace.nodes[id].parent;
    if (parent !== null && end[id] > end[parent]) end[parent] = end[id];
  }
  return { trace, children, end, level, roots };
}

/** The ids from the node's root down to the node. @param {Indexed} ix @param {number} id @returns {number[]} */
export function pathTo(ix, id) {
  /** @type {number[]} */
  const path = [];
  for (let at = /** @type {number | null} */ (id); at !== null; at = ix.trace.nodes[at].parent) path.unshift(at);
  return path;
}

/** A bound for people: ±∞ or the number. @param {Bound} bound @returns {string} */
export function boundText(bound) {
  if (bound === "inf") return "∞";
  if (bound === "-inf") return "−∞";
  if (bound === null) return "";
  return bound < 0 ? `−${-bound}` : String(bound);
}

/** The window [α, β] of a node, or "" where the algorithm has none. @param {TraceNode} node @returns {string} */
export function windowText(node) {
  if (node.alpha === null && node.beta === null) return "";
  return `[${boundText(node.alpha)}, ${boundText(node.beta)}]`;
}

/** The value as returned, with ≥ / ≤ for a bound. @param {TraceNode} node @returns {string} */
export function valueText(node) {
  if (node.value === null) return "?";
  const mark = node.bound === "lower" ? "≥" : node.bound === "upper" ? "≤" : "";
  return mark + boundText(node.value);
}

/** A move in pit letters of the side that made it (A.. for player 0, a.. for player 1).
 * @param {Move | null} move @param {number} player @returns {string} */
export function moveLetter(move, player) {
  if (move === null) return "root";
  if (move === "swap") return "swap";
  return String.fromCharCode((player === 0 ? 65 : 97) + move);
}

/** The most nodes a trace holds (kalah.web.models.MAX_TRACE_NODES). */
export const MAX_NODES = 20_000;

/** Trace a search: in the page's engine, or on the server where the page has none.
 * @param {Position} position @param {string} algorithm @param {number} depth @param {Record<string, unknown>} [options]
 * @returns {Promise<Trace>} */
export async function fetchTrace(position, algorithm, depth, options) {
  const request = { algorithm, depth, evaluation: "strong", options: options || {} };
  const engine = await pageEngine();
  if (!engine) return post("/api/trace", { position, ...request });
  try {
    return await engine.trace(position, { ...request, max_nodes: MAX_NODES });
  } catch (error) {
    if (!(error instanceof Error && error.name === "TraceTooLargeError")) throw error;
    // in the lab's words (the server's too): how much it shows, and what to change
    const fewer = ["alphabeta", "pvs", "mtdf"].includes(algorithm) ? "" : ", or alphabeta, pvs or mtdf, which visit fewer";
    throw new Error(`a ${algorithm} search of depth ${depth} visits more than ${MAX_NODES.toLocaleString("en-US")} nodes,` +
      ` more than the lab shows: trace a smaller depth${fewer}`);
  }
}

/** Who moves at each node of a traced tree, and the moves each cutoff left unvisited (lists by node id, as strings).
 * @typedef {{to_move: number[], pruned: Record<string, Move[]>}} TreeFacts */

/** Who moves at each node of a trace and which moves each cutoff skipped, by the rules.
 * @param {Trace} trace @returns {Promise<TreeFacts>} */
export async function fetchTreeFacts(trace) {
  const nodes = trace.nodes;
  return treeFacts(RulesPosition.fromJSON(trace.position), nodes.map((n) => n.parent), nodes.map((n) => n.move), nodes.map((n) => n.cutoff));
}

/** The positions along moves from a position, and whether the last is over, by the rules.
 * @param {Position} position @param {Move[]} moves @returns {Promise<{positions: Position[], over: boolean}>} */
export async function fetchLine(position, moves) {
  return /** @type {{positions: Position[], over: boolean}} */ (lineOf(RulesPosition.fromJSON(position), moves));
}

/** @param {string} url @param {unknown} body @returns {Promise<any>} */
async function post(url, body) {
  const response = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  if (!response.ok) {
    const detail = data && data.detail ? (typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail)) : response.statusText;
    // A refused request (4xx) is explained by the server's message alone; a failure of the server keeps its status.
    throw new Error(response.status < 500 ? detail : `${response.status}: ${detail}`);
  }
  return data;
}

/** What the lab says about a node: where it is in the search, its window and what it returned.
 * @param {Indexed} ix @param {number} id @returns {{node: string, window: string, value: string}} */
export function describeNode(ix, id) {
  const node = ix.trace.nodes[id];
  return {
    node: `${id + 1} of ${ix.trace.nodes.length} · ${KIND_NAMES[node.kind] || node.kind} · ${node.depth} plies left` +
      (node.table_hit ? " · table hit" : ""),
    window: windowText(node) || (node.kind === "eval" ? "none (Scout's EVAL: an exact value)" : "none (plain minimax)"),
    value: valueText(node) + (node.cutoff ? " — cutoff: the other moves are not searched" : ""),
  };
}

/** The line from the node's root to the node in pit letters (`mover`: who moves at each node, -1 where not known yet).
 * @param {Indexed} ix @param {number[]} mover @param {number} id @returns {string} */
export function lineText(ix, mover, id) {
  const names = pathTo(ix, id).slice(1).map((at) => {
    const parent = ix.trace.nodes[at].parent;
    return moveLetter(ix.trace.nodes[at].move, parent === null ? 0 : Math.max(0, mover[parent]));
  });
  return names.length ? names.join(" ") : "(the root)";
}

/** The positions at the ends of lines of moves from one position, each worked out once. */
export class Lines {
  /** @param {Position} position */
  constructor(position) {
    this.position = position;
    /** @type {Map<string, Position>} */
    this.known = new Map();
  }

  /** The position after `moves`. @param {Move[]} moves @returns {Promise<Position>} */
  async after(moves) {
    const key = JSON.stringify(moves);
    let position = this.known.get(key);
    if (!position) {
      const line = await fetchLine(this.position, moves);
      position = line.positions[line.positions.length - 1];
      this.known.set(key, position);
    }
    return position;
  }
}
