// @ts-check
/* The exact solver on the WebAssembly core: kalah.solve (src/kalah/solve/) on one thread.
 *
 * The core answers null-window tests over the seeds in the pits (solve.c, with its table kept from one
 * solve to the next); here they are driven as kalah.solve's Run drives them with one slot: MTD(f)
 * from a heuristic search's guess, the pie rule's open swap through the moves' bounds, the best moves
 * by a test on each move, a principal variation by tests along the line. Endgame databases are built
 * in memory as kalah.solve's endgame="auto" builds them (above 40 seeds, as large as a share of the
 * time pays for) and kept for later solves of the variant. The values are exact, so they equal the
 * native solver's (tests/test_wasm_engine.py); the node counts need not.
 */

import { Position } from "./rules.js";
import { needsBig, SearchError } from "./search.js";

/** @typedef {import("./rules.js").Move} Move */
/** @typedef {import("./core.js").Core} Core */
/** @typedef {import("./search.js").Searches} Searches */

/** Above this many seeds in the pits a solve without a time budget is refused (kalah.solve's MAX_EXACT_SEEDS). */
export const MAX_EXACT_SEEDS = 60;
const BELOW_EVERY_VALUE = -1_000_000;
/** The share of a timed solve's budget for the position's bounds; the rest goes to its moves one by one. */
const ROOT_SHARE = 0.7;
/** Positions with at least this many seeds in the pits get a heuristic first guess (kalah.solve.guess). */
const GUESS_MIN_SEEDS = 30, GUESS_DEPTH = 16, GUESS_SECONDS = 0.5;
/** The in-memory database's positions at most (kalah.solve.databases's AUTO_TABLE_POSITIONS), and per second of budget. */
const AUTO_TABLE_POSITIONS = 100_000_000, TABLE_POSITIONS_PER_SECOND = 1_000_000;
/** The solver's table, 2^n entries of 8 bytes: kalah.solve.engine's sizes, at most 2^23 (64 MiB) in a browser. */
const MAX_TT_LOG2 = 23, TABLE_ENTRIES_PER_SECOND = 4_000_000;

/**
 * What a solve proved (SolveResult.to_dict).
 * @typedef {object} SolveAnswer
 * @property {number | null} value @property {boolean} exact @property {number} lower @property {number} upper
 * @property {Move[]} best_moves @property {Move[]} pv @property {number} nodes @property {number} seconds
 * @property {number | null} endgame_seeds @property {Move | null} unproven_best_move
 * @property {{move: Move, lower: number, upper: number}[]} move_bounds
 */

/** A solve that cannot be done as asked (kalah.solve.SolveError). */
export class SolveError extends Error {
  /** @param {string} message */
  constructor(message) { super(message); this.name = "SolveError"; }
}

/** Whether the pie rule's swap is still to be decided. @param {Position} position @returns {boolean} */
export const swapOpen = (position) => position.variant.pie_rule && (position.is_first_move || position.swap_available);

/** The solver's table size for this many seeds (kalah.solve.engine's default_tt_log2). @param {number} seeds
 * @param {number | null} time @returns {number} */
function ttLog2(seeds, time) {
  let log2 = seeds <= 24 ? 19 : seeds <= 36 ? 23 : seeds <= 44 ? 25 : 26;
  if (time !== null) while (log2 > 20 && 2 ** (log2 - 1) >= time * TABLE_ENTRIES_PER_SECOND) log2--;
  return Math.min(log2, MAX_TT_LOG2);
}

/** The bounds after a test at `bar` answered `value`, with the parity of the seeds (kalah.solve.bounds.narrowed).
 * @param {number} lower @param {number} upper @param {number} value @param {number} bar @param {number} seeds @returns {[number, number]} */
function narrowed(lower, upper, value, bar, seeds) {
  if (value >= bar) lower = Math.max(lower, value); else upper = Math.min(upper, value);
  if ((((lower - seeds) % 2) + 2) % 2) lower += 1;
  if ((((upper - seeds) % 2) + 2) % 2) upper -= 1;
  return [lower, upper];
}

/** The solvers and databases of one thread: a solver per pit count and capture rule, its table kept. */
export class Solvers {
  /** @param {() => Promise<Core>} load the byte build @param {Searches} searches for the first guesses */
  constructor(load, searches) {
    this.load = load;
    this.searches = searches;
    /** @type {Map<string, {core: Core, solver: number, log2: number, database: number, databaseSeeds: number | null}>} */
    this.solvers = new Map();
  }

  /** The solver of the variant, made again when its table is smaller than wanted. @param {Position} position
   * @param {number | null} time */
  async solverFor(position, time) {
    const core = await this.load();
    const key = `${position.variant.pits}/${position.variant.empty_capture}`;
    const wanted = ttLog2(position.seeds_in_pits, time);
    let found = this.solvers.get(key);
    if (!found || found.log2 < wanted) {
      const solver = core.exports.kw_solver_new(position.variant.pits, position.variant.empty_capture ? 1 : 0, wanted);
      if (!solver) throw new SolveError(`no memory for a solver table of 2^${wanted} entries`);
      if (found) core.exports.kw_solver_free(found.solver);
      found = { core, solver, log2: wanted, database: found ? found.database : 0, databaseSeeds: found ? found.databaseSeeds : null };
      core.exports.kw_solver_set_database(solver, found.database);
      this.solvers.set(key, found);
    }
    return found;
  }

  /** The in-memory database a solve of `position` probes: the one built before, or a new one when a larger
   * one pays within the time (kalah.solve.databases's auto_max_seeds), kept for later solves.
   * @param {{core: Core, solver: number, database: number, databaseSeeds: number | null}} found
   * @param {Position} position @param {number | null} time */
  attachDatabase(found, position, time) {
    const seeds = position.seeds_in_pits, pits = position.variant.pits;
    if (seeds <= 40) return;
    const budget = time === null ? AUTO_TABLE_POSITIONS : Math.min(AUTO_TABLE_POSITIONS, Math.floor(time * TABLE_POSITIONS_PER_SECOND));
    let best = null;
    for (let k = 8; k <= Math.min(seeds - 4, 40); k++) {
      const positions = found.core.exports.kw_database_positions(pits, k);
      if (!positions || positions > budget) break;
      best = k;
    }
    if (best === null || (found.databaseSeeds !== null && found.databaseSeeds >= best)) return;
    const database = found.core.exports.kw_database_new(pits, position.variant.empty_capture ? 1 : 0, best);
    if (!database) return;  // no memory: solve without it
    if (found.database) found.core.exports.kw_database_free(found.database);
    found.database = database;
    found.databaseSeeds = best;
    found.core.exports.kw_solver_set_database(found.solver, database);
  }

  /**
   * kalah.solve(position, time, best_moves=, pv=) on one thread.
   * @param {Position} position @param {{time?: number | null, best_moves?: boolean, pv?: boolean}} [options]
   * @returns {Promise<SolveAnswer>}
   */
  async solve(position, options = {}) {
    if (!(position instanceof Position)) throw new SolveError("solve needs a Position");
    if (needsBig(position)) {
      throw new SolveError(`the solver is limited to 8 pits a side and 255 seeds (its byte board), got ${position.variant.pits} pits and ${position.cells.reduce((a, b) => a + b, 0)} seeds`);
    }
    const time = options.time ?? null;
    if (time !== null && !(typeof time === "number" && time > 0)) throw new SolveError(`time must be a positive number of seconds, got ${time}`);
    if (time === null && position.seeds_in_pits > MAX_EXACT_SEEDS) {
      throw new SolveError(`${position.variant.name} with ${position.seeds_in_pits} seeds in the pits is too large to solve exactly here (the limit without a time budget is ${MAX_EXACT_SEEDS}); give a time budget to get proven bounds`);
    }
    const started = performance.now();
    const found = await this.solverFor(position, time);
    const core = found.core;
    const deadline = time !== null ? core.now() + time : 0;
    this.attachDatabase(found, position, time);
    const run = new Run(this, found, deadline);
    const bounding = time !== null && !position.is_over ? run.until(core.now() + ROOT_SHARE * time) : run;
    let [lower, upper] = await bounding.interval(position, true);
    let value = lower === upper ? lower : null;
    /** @type {Map<Move, [number, number]>} */
    let moveBounds = new Map();
    if (value === null && deadline && !position.is_over) {
      moveBounds = await rootMoveBounds(run, position, upper);
      lower = Math.max(lower, ...[...moveBounds.values()].map(([low]) => low));
      upper = Math.min(upper, Math.max(...[...moveBounds.values()].map(([, high]) => high)));
      value = lower === upper ? lower : null;
    }
    /** @type {Move[]} */
    let moves = [];
    /** @type {Move[]} */
    let line = [];
    if (value !== null && !position.is_over) {
      if (options.best_moves ?? true) moves = (await run.bestMoves(position, value)) ?? [];
      if (options.pv ?? true) line = await run.principalVariation(position, value, moves.length ? moves[0] : null);
      if (!moves.length && line.length) moves = [line[0]];
    }
    const guess = run.guesses.get(position.key());
    return {
      value, exact: value !== null, lower, upper, best_moves: moves, pv: line, nodes: run.nodes,
      seconds: (performance.now() - started) / 1000, endgame_seeds: found.databaseSeeds,
      unproven_best_move: guess && value === null ? guess.best_move : null,
      move_bounds: [...moveBounds].map(([move, [low, high]]) => ({ move, lower: low, upper: high })),
    };
  }
}

/** The searches of one solve against one deadline (kalah.solve.run.Run with one slot). */
class Run {
  /** @param {Solvers} solvers @param {{core: Core, solver: number, database: number, databaseSeeds: number | null}} found
   * @param {number} deadline on the core's clock, 0 for none @param {Run} [parent] whose state it shares */
  constructor(solvers, found, deadline, parent) {
    this.solvers = solvers;
    this.found = found;
    this.core = found.core;
    this.deadline = deadline;
    /** @type {{nodes: number, timedOut: boolean, guesses: Map<string, {value: number, best_move: Move | null}>}} */
    this.state = parent ? parent.state : { nodes: 0, timedOut: false, guesses: new Map() };
  }

  get nodes() { return this.state.nodes; }
  get guesses() { return this.state.guesses; }

  /** The same solve against another deadline. @param {number} deadline @returns {Run} */
  until(deadline) { return new Run(this.solvers, this.found, deadline, this); }

  /** The mover's-view pits, the store difference and the seeds in the pits. @param {Position} position
   * @returns {[number[], number, number]} */
  view(position) {
    const me = position.to_move;
    const pits = [...position.pits(me), ...position.pits(1 - me)];
    return [pits, position.store(me) - position.store(1 - me), position.seeds_in_pits];
  }

  /** The value when it needs no search: a finished game or a database hit. @param {Position} position @returns {number | null} */
  exactSmall(position) {
    if (position.is_over) return position.mover_margin;
    if (this.found.database && position.seeds_in_pits <= /** @type {number} */ (this.found.databaseSeeds)) {
      const [pits, diff, seeds] = this.view(position);
      this.core.writeCells(pits);
      return diff + this.core.exports.kw_database_value(this.found.database, seeds);
    }
    return null;
  }

  /** One null-window test of the pits: the fail-soft value, or null when the deadline stopped it.
   * @param {number[]} pits @param {number} beta @returns {number | null} */
  test(pits, beta) {
    this.core.writeCells(pits);
    const value = this.core.exports.kw_solver_search(this.found.solver, pits.length / 2, beta - 1, beta, this.deadline);
    const out = this.core.out();
    this.state.nodes += out[2];
    if (out[1]) { this.state.timedOut = true; return null; }
    return value;
  }

  /** Bounds on a position's value without the pie rule's flags, by MTD(f). @param {Position} position
   * @param {boolean} report whether this is the solve's root (a short budget still gets its guess) @returns {Promise<[number, number]>} */
  async plainInterval(position, report) {
    const small = this.exactSmall(position);
    if (small !== null) return [small, small];
    let guess = null;
    const left = this.deadline ? this.deadline - this.core.now() : null;
    const full = left === null || left > 10 * GUESS_SECONDS;
    if ((full || report) && position.seeds_in_pits >= GUESS_MIN_SEEDS) {
      const seconds = full || left === null ? GUESS_SECONDS : Math.max(0.001, Math.min(GUESS_SECONDS, left / 10));
      const found = await this.solvers.searches.search(position, { algorithm: "pvs", depth: GUESS_DEPTH, time: seconds, move_values: false });
      if (found.value !== null) {
        const made = { value: Math.round(found.value), best_move: found.best_move };
        this.state.guesses.set(position.key(), made);
        guess = made.value;
      }
    }
    const [pits, diff, seeds] = this.view(position);
    let lower = -seeds, upper = seeds;
    let g = guess === null ? 0 : Math.max(lower, Math.min(upper, guess - diff));
    if ((((g - seeds) % 2) + 2) % 2) g += g < upper ? 1 : -1;
    while (lower < upper) {
      const bar = [g, g + 2].find((b) => lower < b && b <= upper);
      if (bar === undefined) break;
      const value = this.test(pits, bar);
      if (value === null) break;
      [lower, upper] = narrowed(lower, upper, value, bar, seeds);
      g = Math.max(lower, Math.min(upper, value));
    }
    return [lower + diff, upper + diff];
  }

  /** Bounds on a position's value (an open swap: the best of its moves' bounds). @param {Position} position
   * @param {boolean} [report] @returns {Promise<[number, number]>} */
  async interval(position, report = false) {
    if (swapOpen(position)) {
      let lower = BELOW_EVERY_VALUE, upper = BELOW_EVERY_VALUE;
      for (const move of position.legalMoves()) {
        const [lo, hi] = await this.moveInterval(position, move);
        lower = Math.max(lower, lo); upper = Math.max(upper, hi);
      }
      return [lower, upper];
    }
    return this.plainInterval(position, report);
  }

  /** Bounds on the value of playing `move`, for the mover. @param {Position} position @param {Move} move
   * @returns {Promise<[number, number]>} */
  async moveInterval(position, move) {
    const child = position.play(move);
    const [lo, hi] = await this.interval(child);
    return child.to_move === position.to_move ? [lo, hi] : [-hi, -lo];
  }

  /** Whether the value is at least `target` (null: the deadline stopped the test). @param {Position} position
   * @param {number} target @returns {boolean | null} */
  atLeast(position, target) {
    const small = this.exactSmall(position);
    if (small !== null) return small >= target;
    const [pits, diff, seeds] = this.view(position);
    const beta = target - diff;
    if (beta <= -seeds) return true;
    if (beta > seeds) return false;
    const value = this.test(pits, beta);
    return value === null ? null : value >= beta;
  }

  /** Whether playing `move` is worth at least `target` (null: the deadline stopped it). @param {Position} position
   * @param {Move} move @param {number} target @returns {Promise<boolean | null>} */
  async moveAtLeast(position, move, target) {
    const child = position.play(move);
    if (swapOpen(child)) {
      const [lo, hi] = await this.moveInterval(position, move);
      return lo >= target ? true : hi < target ? false : null;
    }
    if (child.to_move === position.to_move) return this.atLeast(child, target);
    const answer = this.atLeast(child, -target + 1);  // the child's value above -target?
    return answer === null ? null : !answer;
  }

  /** The moves worth `value` (null: the deadline stopped a test). @param {Position} position @param {number} value
   * @returns {Promise<Move[] | null>} */
  async bestMoves(position, value) {
    /** @type {Move[]} */
    const best = [];
    for (const move of position.legalMoves()) {
      const answer = await this.moveAtLeast(position, move, value);
      if (answer === null) return null;
      if (answer) best.push(move);
    }
    return best;
  }

  /** A line of moves that keep `value`, the table's move tried first, until the game ends; `first` begins it.
   * @param {Position} position @param {number} value @param {Move | null} first @returns {Promise<Move[]>} */
  async principalVariation(position, value, first) {
    /** @type {Move[]} */
    const line = [];
    while (!position.is_over && line.length < 400) {
      const candidates = position.legalMoves();
      if (first !== null && !line.length && candidates.includes(first)) {
        candidates.splice(candidates.indexOf(first), 1);
        candidates.unshift(first);
      } else if (!swapOpen(position)) {
        this.core.writeCells(this.view(position)[0]);
        if (this.core.exports.kw_solver_lookup(this.found.solver, position.variant.pits)) {
          const hint = this.core.out()[2];
          if (candidates.includes(hint)) { candidates.splice(candidates.indexOf(hint), 1); candidates.unshift(hint); }
        }
      }
      let chosen = null;
      for (const move of candidates) {
        const good = await this.moveAtLeast(position, move, value);
        if (good === null) return line;
        if (good) { chosen = move; break; }
      }
      if (chosen === null) return line;
      const child = position.play(chosen);
      line.push(chosen);
      if (child.to_move !== position.to_move) value = -value;
      position = child;
    }
    return line;
  }
}

/** Bounds on each root move's value (none above `upper`) in the time left, the guess's move first.
 * @param {Run} run @param {Position} position @param {number} upper @returns {Promise<Map<Move, [number, number]>>} */
async function rootMoveBounds(run, position, upper) {
  const moves = position.legalMoves();
  const guess = run.guesses.get(position.key());
  if (guess && guess.best_move !== null && moves.includes(guess.best_move)) {
    moves.splice(moves.indexOf(guess.best_move), 1);
    moves.unshift(guess.best_move);
  }
  /** @type {Map<Move, [number, number]>} */
  const found = new Map();
  for (const [index, move] of moves.entries()) {
    const now = run.core.now();
    const share = run.deadline && now < run.deadline ? run.until(now + (run.deadline - now) / (moves.length - index)) : run;
    const [low, high] = await share.moveInterval(position, move);
    found.set(move, [Math.max(low, BELOW_EVERY_VALUE), Math.min(high, upper)]);
  }
  return found;
}

export { SearchError };
