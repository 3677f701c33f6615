// @ts-check
/* A search trace (docs/trace.md, format kalah-trace/1) and what the page derives from it.
 *
 * Where the traces come from is source.js; here the nodes are indexed
 * once (children, subtree ends, depth in the tree) so that stepping and
 * drawing never scan all nodes again.
 */

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

/** Who moves at each node of a traced tree, and the moves each cutoff left unvisited (lists by node id, as strings).
 * @typedef {{to_move: number[], pruned: Record<string, Move[]>}} TreeFacts */

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
