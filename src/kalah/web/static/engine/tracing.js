// @ts-check
/* Traced searches on the WebAssembly core's trace build (kalah-trace.wasm): kalah.trace and
 * kalah.search.mcts_trace.trace_mcts, answered in their JSON formats (kalah-trace/1 and
 * kalah-mcts-trace/1, docs/trace.md) as the lab's routes answer them (POST /api/trace and
 * /api/trace/mcts), and the facts of a traced tree (POST /api/lab/tree) from the rules alone.
 */

import { moveOf, TRACE_OUT } from "./core.js";
import { Position } from "./rules.js";
import { checkDepth, EVALUATIONS, EXACT_ALGORITHMS, mctsAnswer, needsBig, pyRound, readMcts, searchAnswer, SearchError, Searches, EXPLORATION } from "./search.js";

/** @typedef {import("./rules.js").Move} Move */
/** @typedef {import("./core.js").Core} Core */

export const TRACE_FORMAT = "kalah-trace/1";
export const MCTS_TRACE_FORMAT = "kalah-mcts-trace/1";
export const DEFAULT_MAX_NODES = 20_000;
/** The lab's limits (kalah.web.models): depth, nodes, UCT's playouts and the depth of the alpha-beta beside it. */
export const MAX_TRACE_DEPTH = 12, MAX_TRACE_NODES = 20_000, MAX_LAB_PLAYOUTS = 5_000;
const KINDS = ["root", "search", "pass", "eval", "test", "pv", "probe", "research"];
const FLAGS = ["exact", "lower", "upper", "unknown"];
const INF = 1_000_000, UNIT = 100, NO_MOVE = 254;
const CORE_ALGORITHMS = { minimax: 0, alphabeta: 1, scout: 2, pvs: 3, mtdf: 4 };
const CORE_EVALUATIONS = { store: 0, seed: 1, strong: 2 };
const TRACE_OPTIONS = { move_values: true, memo: true, ordering: true, iterative: null, table_bits: 20 };

/** The search visits more nodes than the trace may hold (kalah.search.TraceTooLargeError). */
export class TraceTooLargeError extends SearchError {
  /** @param {string} message */
  constructor(message) { super(message); this.name = "TraceTooLargeError"; }
}

/** A window's end in seeds, "inf" and "-inf" unbounded. @param {number} units @returns {number | string} */
function bound(units) {
  if (units >= INF) return "inf";
  if (units <= -INF) return "-inf";
  return units / UNIT;
}

/** The board's limits on a trace: a byte board (the trace build's). @param {Position} position */
function checkTraceable(position) {
  if (!(position instanceof Position)) throw new SearchError("position must be a Position");
  if (needsBig(position)) {
    throw new SearchError(`traces are limited to 8 pits a side and 255 seeds (the trace build of the core), got ${position.variant.pits} pits and ${position.cells.reduce((a, b) => a + b, 0)} seeds`);
  }
}

/** The traced searches of one thread. */
export class Traces {
  /** @param {() => Promise<Core>} load the trace build @param {Searches} searches for the alpha-beta beside UCT */
  constructor(load, searches) {
    this.load = load;
    this.searches = searches;
  }

  /**
   * kalah.trace(position, algorithm, depth, evaluation, max_nodes=, **options).to_json().
   * @param {Position} position @param {{algorithm?: string, depth?: number, evaluation?: string, max_nodes?: number,
   * options?: Record<string, any>}} request @returns {Promise<Record<string, any>>}
   */
  async trace(position, request) {
    checkTraceable(position);
    const algorithm = String(request.algorithm ?? "alphabeta").trim().toLowerCase();
    if (algorithm === "mcts") throw new SearchError(`mcts cannot be traced (its tree is not a search to a depth); trace one of ${EXACT_ALGORITHMS.join(", ")}`);
    if (!EXACT_ALGORITHMS.includes(algorithm)) throw new SearchError(`unknown algorithm ${JSON.stringify(request.algorithm)}; accepted: ${EXACT_ALGORITHMS.join(", ")}`);
    const evaluation = String(request.evaluation ?? "strong").trim().toLowerCase();
    if (!EVALUATIONS.includes(evaluation)) throw new SearchError(`unknown evaluation ${JSON.stringify(request.evaluation)}; accepted: ${EVALUATIONS.join(", ")}`);
    const last = checkDepth(request.depth ?? 4);
    if (last === null) throw new SearchError("a trace needs a depth (1 or more)");
    const maxNodes = request.max_nodes ?? DEFAULT_MAX_NODES;
    if (!Number.isInteger(maxNodes) || maxNodes < 1 || maxNodes > 5_000_000) throw new SearchError(`max_nodes must be a whole number from 1 to 5000000, got ${maxNodes}`);
    /** @type {Record<string, any>} */
    const used = { ...TRACE_OPTIONS };
    for (const [name, value] of Object.entries(request.options ?? {})) {
      if (!(name in TRACE_OPTIONS)) throw new SearchError(`unknown option ${JSON.stringify(name)} for a trace; accepted: ${Object.keys(TRACE_OPTIONS).join(", ")}`);
      if (name === "table_bits" ? !(Number.isInteger(value) && value >= 0 && value <= 24) : !(typeof value === "boolean" || (name === "iterative" && value === null))) {
        throw new SearchError(`option ${name} must be ${name === "table_bits" ? "a whole number from 0 to 24" : "true or false"}, got ${JSON.stringify(value)}`);
      }
      used[name] = value;
    }
    if (used.iterative === null) used.iterative = algorithm !== "minimax";
    const core = await this.load();
    const bits = (used.move_values ? 1 : 0) | (used.memo ? 2 : 0) | (used.ordering ? 4 : 0);
    const started = performance.now();
    const count = core.exports.kw_trace_search(...core.position(position), CORE_ALGORITHMS[/** @type {keyof CORE_ALGORITHMS} */ (algorithm)],
      CORE_EVALUATIONS[/** @type {keyof CORE_EVALUATIONS} */ (evaluation)], used.iterative ? 1 : last, last, bits, used.table_bits, maxNodes);
    const elapsed = (performance.now() - started) / 1000;
    if (count === -2) throw new SearchError("no memory for the trace or the transposition table");
    if (count < 0) throw new SearchError("the position is beyond the trace build");
    const out = core.out();
    try {
      if (out[TRACE_OUT.FULL]) {
        throw new TraceTooLargeError(`the ${algorithm} search of depth ${last} visits more than ${maxNodes} nodes, the most a trace holds (max_nodes): trace a smaller depth`);
      }
      const record = core.int32(out[TRACE_OUT.RECORD], 8 * count);
      const nodes = [];
      for (let id = 0; id < count; id++) {
        const [parent, move, kind, depth, alpha, beta, value, bits] = record.subarray(8 * id, 8 * id + 8);
        const window = (bits >> 8) & 1;
        nodes.push({
          id, parent: parent < 0 ? null : parent, move: move === NO_MOVE ? null : moveOf(move), depth,
          alpha: window ? bound(alpha) : null, beta: window ? bound(beta) : null, value: value / UNIT,
          bound: FLAGS[bits & 255], cutoff: ((bits >> 9) & 1) === 1, table_hit: ((bits >> 10) & 1) === 1, kind: KINDS[kind],
        });
      }
      return {
        format: TRACE_FORMAT, position: position.toJSON(), algorithm, depth: last, evaluation, options: used, max_nodes: maxNodes,
        result: searchAnswer(position, algorithm, evaluation, out, elapsed), nodes,
      };
    } finally {
      core.exports.kw_trace_free();
    }
  }

  /**
   * UCT traced iteration by iteration (kalah-mcts-trace/1) beside an alpha-beta search of the same position to
   * `depth`: what POST /api/trace/mcts answers (kalah.web.analysis.mcts_trace_json).
   * @param {Position} position @param {{playouts?: number, seed?: number, depth?: number}} request
   * @returns {Promise<Record<string, any>>}
   */
  async traceMcts(position, request) {
    checkTraceable(position);
    const playouts = request.playouts ?? 200, seed = request.seed ?? 0, depth = request.depth ?? 6;
    if (!Number.isInteger(playouts) || playouts < 1 || playouts > 200_000) throw new SearchError(`playouts must be a whole number from 1 to 200000, got ${playouts}`);
    if (!Number.isInteger(seed) || seed < 0 || seed > Number.MAX_SAFE_INTEGER) throw new SearchError(`seed must be a whole number of 0 or more, got ${seed}`);
    checkDepth(depth);
    const core = await this.load();
    const started = performance.now();
    const count = core.exports.kw_trace_mcts(...core.position(position), playouts, EXPLORATION, seed % 2 ** 32, Math.floor(seed / 2 ** 32));
    const elapsed = (performance.now() - started) / 1000;
    if (count === -2) throw new SearchError("no memory for the search tree");
    if (count < 0) throw new SearchError("the position is beyond the trace build");
    let traced;
    try {
      const out = core.out();
      const iterations = out[TRACE_OUT.ITERATIONS];
      const record = core.int32(out[TRACE_OUT.RECORD], 2 * count + 3 * iterations);
      traced = mctsJSON(position, playouts, seed, record, count, iterations, mctsAnswer(position, "strong", readMcts(out), elapsed));
    } finally {
      core.exports.kw_trace_free();
    }
    const beside = position.is_over ? null : await this.searches.search(position, { algorithm: "alphabeta", depth });
    traced.alphabeta = beside === null ? null : {
      depth, value: number(beside.value), best_move: beside.best_move,
      moves: beside.moves.map((entry) => ({ move: entry.move, value: number(entry.value), bound: entry.bound })), nodes: beside.nodes,
    };
    return traced;
  }
}

/** A value as the lab's routes send it (kalah.web.analysis._number). @param {number | null} value @returns {number | null} */
function number(value) {
  if (value === null) return null;
  return Number.isInteger(value) ? value : pyRound(value, 3);
}

/** MctsTrace.to_json from the trace build's record. @param {Position} position @param {number} playouts @param {number} seed
 * @param {Int32Array} record @param {number} count tree nodes @param {number} iterations @param {import("./search.js").SearchAnswer} result
 * @returns {Record<string, any>} */
function mctsJSON(position, playouts, seed, record, count, iterations, result) {
  /** @type {{parent: number | null, move: Move | null, mover: number, position: Position}[]} */
  const nodes = [];
  for (let id = 0; id < count; id++) {
    const parent = record[2 * id];
    if (parent < 0) { nodes.push({ parent: null, move: null, mover: 1 - position.to_move, position }); continue; }
    const move = moveOf(record[2 * id + 1]), above = nodes[parent].position;
    nodes.push({ parent, move, mover: above.to_move, position: above.play(move) });
  }
  const visits = new Array(count).fill(0), wins = new Array(count).fill(0), margins = new Array(count).fill(0);
  const steps = [];
  for (let k = 0; k < iterations; k++) {
    const at = 2 * count + 3 * k;
    const [selected, expanded, margin] = [record[at], record[at + 1], record[at + 2]];
    const path = [];
    for (let node = /** @type {number | null} */ (selected); node !== null; node = nodes[node].parent) path.push(node);
    path.reverse();
    steps.push({ path, expanded: expanded >= 0 ? expanded : null, margin });
    for (const node of expanded >= 0 ? [...path, expanded] : path) {
      const mine = nodes[node].mover === 0 ? margin : -margin;
      visits[node] += 1;
      wins[node] += mine > 0 ? 1 : mine === 0 ? 0.5 : 0;
      margins[node] += mine;
    }
  }
  return {
    format: MCTS_TRACE_FORMAT, position: position.toJSON(), playouts, exploration: EXPLORATION, seed, result,
    nodes: nodes.map((node, id) => ({ id, parent: node.parent, move: node.move, mover: node.mover, visits: visits[id], wins: wins[id], margin: margins[id] })),
    iterations: steps,
  };
}

/**
 * Who moves at each node of a traced tree and the legal moves each cutoff left unvisited
 * (kalah.search.tracing.tree_facts; POST /api/lab/tree's answer).
 * @param {Position} position @param {(number | null)[]} parents @param {(Move | null)[]} moves @param {boolean[]} cutoffs
 * @returns {{to_move: number[], pruned: Record<string, Move[]>}}
 */
export function treeFacts(position, parents, moves, cutoffs) {
  if (!(parents.length === moves.length && moves.length === cutoffs.length)) throw new SearchError("parent, move and cutoff must have one entry per node");
  /** @type {Position[]} */
  const positions = [];
  parents.forEach((parent, id) => {
    if (parent === null) positions.push(position);
    else if (!(parent >= 0 && parent < id)) throw new SearchError(`node ${id}: its parent must be an earlier node`);
    else if (moves[id] === null) throw new SearchError(`node ${id}: a node below a root needs its move`);
    else positions.push(positions[parent].play(/** @type {Move} */ (moves[id])));
  });
  /** @type {Map<number, Set<Move>>} */
  const seen = new Map();
  parents.forEach((parent, id) => {
    if (parent !== null && moves[id] !== null) {
      if (!seen.has(parent)) seen.set(parent, new Set());
      /** @type {Set<Move>} */ (seen.get(parent)).add(/** @type {Move} */ (moves[id]));
    }
  });
  /** @type {Record<string, Move[]>} */
  const pruned = {};
  cutoffs.forEach((cut, id) => {
    if (cut && !positions[id].is_over) {
      const left = positions[id].legalMoves().filter((move) => !(seen.get(id) ?? new Set()).has(move));
      if (left.length) pruned[String(id)] = left;
    }
  });
  return { to_move: positions.map((p) => p.to_move), pruned };
}

/** The positions along `moves` from `position`, it first, and whether the last is over (POST /api/lab/line's answer).
 * @param {Position} position @param {Move[]} moves @returns {{positions: import("./rules.js").PositionJSON[], over: boolean}} */
export function lineOf(position, moves) {
  const positions = [position.toJSON()];
  for (const move of moves) {
    position = position.play(move);
    positions.push(position.toJSON());
  }
  return { positions, over: position.is_over };
}
