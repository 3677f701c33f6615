// @ts-check
/* Analysis that knows when it is exact: kalah.analyse (src/kalah/analysis/) on the WebAssembly core.
 *
 * A finished game's margin, the opening book, the solver within a third of the time (the position,
 * then each move in a share of what is left), and a search for the rest where nothing proved the
 * value. The answer is the board's analysis (kalah.web.analysis.analyse, the API's AnalysisOut): the
 * value and every move's, each marked exact or an estimate, the best moves and the best line.
 */

import { lineNames, Position } from "./rules.js";
import { SolveError } from "./solve.js";

/** @typedef {import("./rules.js").Move} Move */
/** @typedef {import("./search.js").Searches} Searches */
/** @typedef {import("./solve.js").Solvers} Solvers */
/** @typedef {import("./book.js").Books} Books */

/** The share of the time for proving values before a search estimates them (kalah.analysis.EXACT_SHARE). */
export const EXACT_SHARE = 1 / 3;

/**
 * The analysis of a position (kalah.web.models.AnalysisOut).
 * @typedef {object} Analysis
 * @property {boolean} available @property {number} to_move @property {number | null} value @property {boolean} exact
 * @property {"rules" | "book" | "endgame" | "solver" | "search"} source @property {number | null} depth
 * @property {Move | null} best_move @property {Move[]} best_moves
 * @property {{move: Move, value: number | null, exact: boolean, bound: "exact" | "estimate"}[]} moves
 * @property {Move[]} pv @property {string[]} pv_names @property {number} seconds
 */

/** @typedef {{value: number, best_moves: Move[], pv: Move[], source: "rules" | "book" | "endgame" | "solver"}} Proof */
/** @typedef {{move: Move, value: number | null, exact: boolean, source: string}} MoveAnalysis */

/** What analyses use: the searches, the solvers and the books of one thread. */
export class Analyses {
  /** @param {Searches} searches @param {Solvers} solvers @param {Books} books */
  constructor(searches, solvers, books) {
    this.searches = searches;
    this.solvers = solvers;
    this.books = books;
  }

  /** The proven value of `position` (rules, book or a solve within `budget` seconds), or null.
   * @param {Position} position @param {number} budget @param {boolean} bestMoves @returns {Promise<Proof | null>} */
  async exact(position, budget, bestMoves) {
    const margin = position.mover_margin;
    if (margin !== null) return { value: margin, best_moves: [], pv: [], source: "rules" };
    const entry = await this.books.lookup(position);
    if (entry) return { value: entry.value, best_moves: entry.best_moves, pv: await this.books.line(position), source: "book" };
    if (budget <= 0) return null;
    let solved;
    try {
      solved = await this.solvers.solve(position, { time: budget, best_moves: bestMoves, pv: bestMoves });
    } catch (error) {
      if (error instanceof SolveError) return null;  // beyond the solver (a big board): the search estimates it
      throw error;
    }
    if (solved.value === null) return null;
    const held = solved.endgame_seeds !== null && position.seeds_in_pits <= solved.endgame_seeds;
    return { value: solved.value, best_moves: solved.best_moves, pv: solved.pv, source: held ? "endgame" : "solver" };
  }

  /**
   * kalah.analyse(position, time, threads=1), answered as the board's analysis.
   * @param {Position} position @param {{time?: number, move_values?: boolean}} [options] @returns {Promise<Analysis>}
   */
  async analyse(position, options = {}) {
    if (!(position instanceof Position)) throw new Error("analyse needs a Position");
    const time = options.time ?? 1.0;
    if (!(typeof time === "number" && time > 0)) throw new Error(`time must be a positive number of seconds, got ${time}`);
    const moveValues = options.move_values ?? true;
    const started = performance.now();
    const deadline = started + 1000 * time;
    const legal = position.legalMoves();
    const secondsLeft = () => (deadline - performance.now()) / 1000;
    /** @param {number | null} value @param {boolean} exact @param {Move[]} best @param {MoveAnalysis[]} moves
     * @param {Move[]} pv @param {Analysis["source"]} source @param {number | null} [depth] @returns {Analysis} */
    const answer = (value, exact, best, moves, pv, source, depth = null) => {
      best = legal.filter((move) => best.includes(move));
      if (best.length && pv[0] !== best[0]) pv = [best[0]];
      return {
        available: true, to_move: position.to_move, value, exact, source, depth, best_move: best.length ? best[0] : null,
        best_moves: best,
        moves: moves.map((entry) => ({ move: entry.move, value: entry.value, exact: entry.exact, bound: entry.exact ? "exact" : "estimate" })),
        pv, pv_names: lineNames(position, pv), seconds: (performance.now() - started) / 1000,
      };
    };
    const proven = await this.exact(position, time * EXACT_SHARE, true);
    if (proven && proven.source === "rules") return answer(proven.value, true, [], [], [], "rules");
    /** @type {Map<Move, MoveAnalysis>} */
    const moves = new Map();
    if (moveValues && proven) {
      if (proven.source === "book") {
        for (const move of legal) if (proven.best_moves.includes(move)) moves.set(move, { move, value: proven.value, exact: true, source: "book" });
      }
      const others = legal.filter((move) => !moves.has(move));
      for (const [index, move] of others.entries()) {
        const share = secondsLeft() * EXACT_SHARE / (others.length - index);
        const child = position.play(move);
        const found = await this.exact(child, share, false);
        if (found) moves.set(move, { move, value: moverValue(position, child, found.value), exact: true, source: found.source });
      }
    }
    if (proven && (!moveValues || moves.size === legal.length)) {
      const ordered = moveValues ? legal.map((move) => /** @type {MoveAnalysis} */ (moves.get(move))) : [];
      const best = moveValues ? ordered.filter((entry) => entry.value === proven.value).map((entry) => entry.move) : proven.best_moves;
      return answer(proven.value, true, best.length ? best : proven.best_moves, ordered, proven.pv, proven.source);
    }
    const found = await this.searches.search(position, { time: Math.max(secondsLeft(), 0.01), move_values: moveValues });
    for (const entry of found.moves) {
      if (moves.has(entry.move)) continue;
      const provenMove = found.exact && entry.bound === "exact" && entry.value !== null;
      moves.set(entry.move, { move: entry.move, value: entry.value, exact: provenMove, source: "search" });
    }
    const ordered = moveValues ? legal.filter((move) => moves.has(move)).map((move) => /** @type {MoveAnalysis} */ (moves.get(move))) : [];
    if (proven) {
      const best = ordered.filter((entry) => entry.exact && entry.value === proven.value).map((entry) => entry.move);
      return answer(proven.value, true, [...best, ...proven.best_moves], ordered, proven.pv, proven.source);
    }
    if (found.exact && found.value !== null && ordered.every((entry) => entry.exact)) {
      let best = moveValues ? ordered.filter((entry) => entry.value === found.value).map((entry) => entry.move) : [];
      if (!best.length && found.best_move !== null) best = [found.best_move];
      return answer(found.value, true, best, ordered, found.pv, "search");
    }
    return answer(found.value, false, found.best_move !== null ? [found.best_move] : [], ordered, found.pv, "search", found.depth);
  }
}

/** A move's value for the mover of `position` from the value of the position it leads to.
 * @param {Position} position @param {Position} child @param {number} value @returns {number} */
function moverValue(position, child, value) {
  return child.to_move === position.to_move ? value : -value;
}
