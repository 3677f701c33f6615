// @ts-check
/* Searches on the WebAssembly core: kalah.search (src/kalah/search/__init__.py) in JavaScript, its
 * checks, defaults and answer (SearchResult.to_dict) the same, so that a search here and there of the
 * same position with the same options answers the same value, best move, principal variation, depth
 * and node counts at a fixed depth (tests/test_wasm_engine.py compares them).
 *
 * Values are in seeds for the side to move; the core counts in units of 1/100 seed (evaluate.h).
 */

import { COUNTS, MCTS_OUT, OUT, moveOf } from "./core.js";
import { Position } from "./rules.js";

/** @typedef {import("./rules.js").Move} Move */
/** @typedef {import("./core.js").Core} Core */

export const EXACT_ALGORITHMS = ["minimax", "alphabeta", "scout", "pvs", "mtdf"];
export const ALGORITHMS = [...EXACT_ALGORITHMS, "mcts"];
export const PRACTICAL_ALGORITHMS = ["pvs", "mtdf"];
export const EVALUATIONS = ["strong", "store", "seed"];
const CORE_ALGORITHMS = { minimax: 0, alphabeta: 1, scout: 2, pvs: 3, mtdf: 4 };
const CORE_EVALUATIONS = { store: 0, seed: 1, strong: 2 };
const FLAGS = ["exact", "lower", "upper", "unknown"];
export const UNIT = 100;
export const MAX_DEPTH = 120;
export const DEFAULT_DEPTH = 8;
export const MAX_TIME = 86400;
export const MAX_PLAYOUTS = 100_000_000;
export const DEFAULT_PLAYOUTS = 10000;
/** UCT's exploration constant (UCB1's square root of 2). */
export const EXPLORATION = Math.SQRT2;
/** The tree nodes UCT may make (kalah.core.search.mcts's max_nodes). */
export const MCTS_MAX_NODES = 2_000_000;
/** The byte build's limits (board.h): bigger boards go to the big build. */
export const BYTE_MAX_PITS = 8, BYTE_MAX_TOTAL = 255;

/**
 * The answer of a search: SearchResult.to_dict, and for MCTS its `extra` (win_rate, visits).
 * @typedef {object} SearchAnswer
 * @property {number | null} value   in seeds for the side to move
 * @property {Move | null} best_move
 * @property {Move[]} pv
 * @property {{move: Move, value: number | null, bound: string}[]} moves
 * @property {number} nodes @property {number} seconds @property {number} depth @property {boolean} exact
 * @property {string} algorithm @property {string} evaluation @property {number} to_move
 * @property {Record<string, number>} stats
 * @property {Record<string, any>} [extra]
 */

/** Bad search parameters (kalah.search.SearchError). */
export class SearchError extends Error {
  /** @param {string} message */
  constructor(message) { super(message); this.name = "SearchError"; }
}

/** Is `position` beyond the byte build (more than 8 pits or 255 seeds)? @param {Position} position @returns {boolean} */
export function needsBig(position) {
  return position.variant.pits > BYTE_MAX_PITS || position.cells.reduce((a, b) => a + b, 0) > BYTE_MAX_TOTAL;
}

/** Python's round(x, digits): to the nearest, ties to even, on the exact value of the double.
 * @param {number} x @param {number} digits @returns {number} */
export function pyRound(x, digits) {
  const exact = Math.abs(x).toFixed(60);  // a double's binary fraction is a finite decimal: exact here
  const point = exact.indexOf(".");
  const kept = exact.slice(0, point + 1 + digits), rest = exact.slice(point + 1 + digits);
  let scaled = BigInt(kept.replace(".", ""));
  const half = "5" + "0".repeat(rest.length - 1);
  if (rest > half || (rest === half && scaled % 2n === 1n)) scaled += 1n;
  const value = Number(scaled) / 10 ** digits;
  return x < 0 ? -value : value;
}

/** @param {string} what @param {unknown} name @param {string[]} accepted @returns {string} */
function oneOf(what, name, accepted) {
  const word = typeof name === "string" ? name.trim().toLowerCase() : "";
  if (!accepted.includes(word)) throw new SearchError(`unknown ${what} ${JSON.stringify(name)}; accepted: ${accepted.join(", ")}`);
  return word;
}

/** @param {unknown} depth @returns {number | null} */
export function checkDepth(depth) {
  if (depth === null || depth === undefined) return null;
  if (typeof depth !== "number" || !Number.isInteger(depth)) throw new SearchError(`depth must be a whole number of moves (1 or more), got ${JSON.stringify(depth)}`);
  if (depth < 1) throw new SearchError(`depth must be at least 1, got ${depth}`);
  if (depth > MAX_DEPTH) throw new SearchError(`depth must be at most ${MAX_DEPTH} (the engine's deepest line), got ${depth}`);
  return depth;
}

/** @param {unknown} time @param {string} [name] @returns {number | null} */
export function checkTime(time, name = "time") {
  if (time === null || time === undefined) return null;
  if (typeof time !== "number" || Number.isNaN(time)) throw new SearchError(`${name} must be a number of seconds, got ${JSON.stringify(time)}`);
  if (time <= 0) throw new SearchError(`${name} must be a positive number of seconds, got ${time}`);
  if (time > MAX_TIME) throw new SearchError(`${name} must be at most ${MAX_TIME} seconds (a day), got ${time}`);
  return time;
}

/** Units in seeds (Python tells a proven whole number from an estimate by its type; JSON does not).
 * @param {number} units @returns {number} */
const seeds = (units) => units / UNIT;

/**
 * The search engines of one thread: a context and table per table size, as kalah.search keeps them
 * (one of each build, the big one made at its first board), and the modules they run in.
 */
export class Searches {
  /** @param {(name: string) => Promise<Core>} load a module by name */
  constructor(load) {
    this.load = load;
    /** @type {Map<string, {core: Core, engine: number}>} */
    this.engines = new Map();
  }

  /** The engine of this table size for `position`'s build: the shared one, or the one of that name (a player's).
   * @param {Position} position @param {number} tableBits @param {string} [owner] */
  async engineFor(position, tableBits, owner) {
    const name = needsBig(position) ? "kalah-big" : "kalah";
    const key = `${name}/${tableBits}/${owner ?? ""}`;
    let found = this.engines.get(key);
    if (!found) {
      const core = await this.load(name);
      const engine = core.exports.kw_engine_new(tableBits);
      if (!engine) throw new SearchError(`no memory for a table of 2^${tableBits} entries`);
      found = { core, engine };
      this.engines.set(key, found);
    }
    return found;
  }

  /** Free the engines of an owner (a player whose game ended). @param {string} owner */
  free(owner) {
    for (const [key, found] of [...this.engines]) {
      if (key.endsWith(`/${owner}`)) { found.core.exports.kw_engine_free(found.engine); this.engines.delete(key); }
    }
  }

  /**
   * kalah.search(position, ...) with the same options, by their Python names: algorithm, depth, time,
   * evaluation, move_values, memo, ordering, iterative, playouts, seed, table_bits, keep_table,
   * soft_time, exact_depth. One thread (threads: 1). `engine` names an engine of its own (a player's, whose
   * table its next search may keep), `oracle` an endgame database's oracle in the byte build's memory.
   * @param {Position} position @param {Record<string, any>} [options] @returns {Promise<SearchAnswer>}
   */
  async search(position, options = {}) {
    if (!(position instanceof Position)) throw new SearchError("position must be a Position");
    const known = ["algorithm", "depth", "time", "evaluation", "move_values", "memo", "ordering", "iterative",
      "playouts", "seed", "table_bits", "keep_table", "soft_time", "exact_depth", "threads", "oracle", "engine"];
    const unknown = Object.keys(options).filter((key) => !known.includes(key));
    if (unknown.length) throw new SearchError(`unknown search option ${unknown[0]}; accepted: ${known.join(", ")}`);
    const algorithm = oneOf("algorithm", options.algorithm ?? "pvs", ALGORITHMS);
    const evaluation = oneOf("evaluation", options.evaluation ?? "strong", EVALUATIONS);
    const depth = checkDepth(options.depth);
    const time = checkTime(options.time);
    const playouts = options.playouts ?? null;
    if (playouts !== null && (!Number.isInteger(playouts) || playouts < 1 || playouts > MAX_PLAYOUTS)) {
      throw new SearchError(`playouts must be a whole number from 1 to ${MAX_PLAYOUTS}, got ${JSON.stringify(playouts)}`);
    }
    if (options.threads !== undefined && options.threads !== null && options.threads !== 1) {
      throw new SearchError("the WebAssembly engine searches on one thread (threads: 1)");
    }
    let softTime = checkTime(options.soft_time, "soft_time");
    if (softTime !== null && (time === null || softTime > time)) {
      throw new SearchError(`soft_time needs a time limit at least as long, got soft_time=${softTime}, time=${time}`);
    }
    if (algorithm === "mcts") return this.mcts(position, evaluation, time, playouts, options.seed ?? 0);
    const tableBits = options.table_bits ?? 20;
    if (!Number.isInteger(tableBits) || tableBits < 0 || tableBits > 30) throw new SearchError("table_bits must be a whole number from 0 to 30");
    const { core, engine } = await this.engineFor(position, tableBits, options.engine);
    let iterative = options.iterative ?? (algorithm !== "minimax" || (time !== null && depth === null));
    const last = depth === null ? (time !== null ? MAX_DEPTH : DEFAULT_DEPTH) : depth;
    if (time !== null) iterative = true;
    const first = iterative ? 1 : last;
    const exactDepth = options.exact_depth ?? (time === null || !PRACTICAL_ALGORITHMS.includes(algorithm));
    const bits = (options.move_values ?? true ? 1 : 0) | (options.memo ?? true ? 2 : 0) | (options.ordering ?? true ? 4 : 0) |
      (options.keep_table ? 0 : 8) | (exactDepth ? 0 : 16);
    const oracle = options.oracle ?? 0;
    core.exports.kw_engine_set_oracle(engine, needsBig(position) ? 0 : oracle);
    const started = performance.now();
    const completed = core.exports.kw_search(engine, ...core.position(position), CORE_ALGORITHMS[/** @type {keyof CORE_ALGORITHMS} */ (algorithm)],
      CORE_EVALUATIONS[/** @type {keyof CORE_EVALUATIONS} */ (evaluation)], first, last, time ?? 0, softTime ?? 0, bits);
    const elapsed = (performance.now() - started) / 1000;
    core.exports.kw_engine_set_oracle(engine, 0);
    if (completed < 0) throw new SearchError(`the board of ${position.variant.name} is beyond the engine`);
    return searchAnswer(position, algorithm, evaluation, core.out(), elapsed);
  }

  /** UCT (kalah.search's _mcts). @param {Position} position @param {string} evaluation @param {number | null} time
   * @param {number | null} playouts @param {number} seed @returns {Promise<SearchAnswer>} */
  async mcts(position, evaluation, time, playouts, seed) {
    if (playouts === null && time === null) playouts = DEFAULT_PLAYOUTS;
    if (!Number.isInteger(seed) || seed < 0 || seed > Number.MAX_SAFE_INTEGER) throw new SearchError(`seed must be a whole number of 0 or more, got ${seed}`);
    const core = await this.load(needsBig(position) ? "kalah-big" : "kalah");
    const started = performance.now();
    const status = core.exports.kw_mcts(...core.position(position), playouts ?? 0, time ?? 0, EXPLORATION,
      seed % 2 ** 32, Math.floor(seed / 2 ** 32), MCTS_MAX_NODES);
    const elapsed = (performance.now() - started) / 1000;
    if (status === -2) throw new SearchError("no memory for the search tree");
    if (status !== 0) throw new SearchError(`the board of ${position.variant.name} is beyond the engine`);
    return mctsAnswer(position, evaluation, readMcts(core.out()), elapsed);
  }
}

/**
 * The answer of a search from kw_out (kalah.search's _result): also the traced search's.
 * @param {Position} position @param {string} algorithm @param {string} evaluation @param {Float64Array} out
 * @param {number} elapsed seconds @returns {SearchAnswer}
 */
export function searchAnswer(position, algorithm, evaluation, out, elapsed) {
  const completed = out[OUT.COMPLETED];
  const exact = out[OUT.EXACT] !== 0;
  /** @type {Record<string, number>} */
  const stats = {};
  COUNTS.forEach((name, k) => { stats[name] = out[OUT.NODES + k]; });
  let value, best, pv, moves;
  if (completed === 0 && !position.is_over) {
    const legal = position.legalMoves();
    [best, value, pv] = [legal[0], null, [legal[0]]];
    moves = legal.map((move) => ({ move, value: null, bound: "unknown" }));
  } else {
    value = completed ? seeds(out[OUT.VALUE]) : null;
    best = completed && out[OUT.BEST] >= 0 ? moveOf(out[OUT.BEST]) : null;
    pv = Array.from(out.subarray(OUT.PV, OUT.PV + out[OUT.PV_N]), moveOf);
    moves = [];
    for (let k = 0; k < (completed ? out[OUT.ROOT_N] : 0); k++) {
      const [code, units, flag] = out.subarray(OUT.MOVES + 3 * k, OUT.MOVES + 3 * k + 3);
      const bound = FLAGS[flag];
      moves.push({ move: moveOf(code), value: bound === "unknown" ? null : seeds(units), bound });
    }
  }
  const depth = completed ? out[OUT.DEPTH] : 0;
  return {
    value, best_move: best, pv, moves, nodes: stats.nodes, seconds: pyRound(elapsed, 6), depth, exact: completed ? exact : false,
    algorithm, evaluation, to_move: position.to_move,
    stats: { ...stats, depth, seconds: elapsed, playouts: 0, threads: 1 },
  };
}

/** @typedef {{best_move: number | null, moves: [number, number, number, number][], playouts: number, nodes: number, depth: number}} RawMcts */

/** kw_out after UCT. @param {Float64Array} out @returns {RawMcts} */
export function readMcts(out) {
  /** @type {[number, number, number, number][]} */
  const moves = [];
  for (let k = 0; k < out[MCTS_OUT.N]; k++) {
    const at = MCTS_OUT.MOVES + 4 * k;
    moves.push([out[at], out[at + 1], out[at + 2], out[at + 3]]);
  }
  return {
    best_move: out[MCTS_OUT.BEST] >= 0 ? out[MCTS_OUT.BEST] : null,
    moves, playouts: out[MCTS_OUT.PLAYOUTS], nodes: out[MCTS_OUT.NODES], depth: out[MCTS_OUT.DEPTH],
  };
}

/** The answer of UCT (kalah.search's _mcts_result). @param {Position} position @param {string} evaluation
 * @param {RawMcts} raw @param {number} elapsed @returns {SearchAnswer} */
export function mctsAnswer(position, evaluation, raw, elapsed) {
  const moves = [];
  /** @type {Record<string, number>} */
  const visits = {};
  let bestValue = null, winRate = null;
  for (const [code, count, wins, margin] of raw.moves) {
    const mean = count ? pyRound(margin / count, 2) : null;
    moves.push({ move: moveOf(code), value: mean, bound: "estimate" });
    visits[String(moveOf(code))] = count;
    if (code === raw.best_move) { bestValue = mean; winRate = count ? wins / count : null; }
  }
  const best = raw.best_move !== null ? moveOf(raw.best_move) : null;
  if (best === null) { bestValue = position.mover_margin || 0; winRate = null; }
  const stats = { nodes: raw.nodes, leaves: 0, tt_probes: 0, tt_hits: 0, cutoffs: 0, researches: 0, oracle_probes: 0,
    depth: raw.depth, seconds: elapsed, playouts: raw.playouts, threads: 1 };
  return {
    value: bestValue, best_move: best, pv: best !== null ? [best] : [], moves, nodes: raw.nodes, seconds: pyRound(elapsed, 6),
    depth: raw.depth, exact: best === null, algorithm: "mcts", evaluation, to_move: position.to_move, stats,
    extra: { win_rate: winRate, visits },
  };
}
