// @ts-check
/* Computer players on the WebAssembly core, by their player specs (kalah.players): random, the search
 * players minimax, alphabeta, scout, pvs, mtdf and mcts with their options, and perfect. A player
 * lives as long as its game (the page names the game and seat): its search keeps its table from one
 * move to the next and a timed player banks the time its easy moves save, as in kalah.players.engines.
 * Players that run a program or read a file (exec:, replay:, policy:) are the server's alone.
 */

import { Position } from "./rules.js";
import { ALGORITHMS, MAX_DEPTH, MAX_PLAYOUTS, PRACTICAL_ALGORITHMS, EVALUATIONS, needsBig } from "./search.js";

/** @typedef {import("./rules.js").Move} Move */
/** @typedef {import("./search.js").Searches} Searches */
/** @typedef {import("./solve.js").Solvers} Solvers */
/** @typedef {import("./book.js").Books} Books */

/** A spec that names no player the browser plays, or has bad options (kalah.players.PlayerSpecError). */
export class PlayerSpecError extends Error {
  /** @param {string} message */
  constructor(message) { super(message); this.name = "PlayerSpecError"; }
}

/** The default depth of each search player without depth= or time= (kalah.players.engines.DEFAULT_DEPTHS). */
const DEFAULT_DEPTHS = { minimax: 6, alphabeta: 10, scout: 10, pvs: 10, mtdf: 10 };
const DEFAULT_PLAYOUTS = 10000;
/** The most seconds a timed player keeps for later moves, in moves' worth of its time. */
const MAX_BANK = 4.0;
const CLASSIC = ["depth", "time", "eval", "memo", "manage", "threads"];
/** The options each player takes (kalah.players.engines._OPTIONS and perfect's). */
const OPTIONS = {
  random: ["seed"], minimax: CLASSIC, alphabeta: CLASSIC, scout: CLASSIC, pvs: [...CLASSIC, "ponder", "book"],
  mtdf: [...CLASSIC, "ponder", "book"], mcts: ["playouts", "time", "seed"], perfect: ["time", "threads", "fallback", "book"],
};
/** The players the browser can run. */
export const BROWSER_PLAYERS = Object.keys(OPTIONS);

/** Split "name:key=value,..." (kalah.players.spec.parse_spec). @param {string} spec @returns {[string, Record<string, string>]} */
export function parseSpec(spec) {
  if (typeof spec !== "string" || !spec.trim()) throw new PlayerSpecError("a player spec must be a non-empty string such as 'random:seed=3'");
  const text = spec.trim();
  const colon = text.indexOf(":");
  const name = (colon < 0 ? text : text.slice(0, colon)).trim().toLowerCase();
  /** @type {Record<string, string>} */
  const options = {};
  for (const item of (colon < 0 ? "" : text.slice(colon + 1)).split(",").map((part) => part.trim()).filter(Boolean)) {
    const equals = item.indexOf("=");
    const key = equals < 0 ? "" : item.slice(0, equals).trim();
    if (!key) throw new PlayerSpecError(`bad option ${JSON.stringify(item)} in player spec ${JSON.stringify(spec)}: expected key=value`);
    if (key in options) throw new PlayerSpecError(`option ${JSON.stringify(key)} is given twice in player spec ${JSON.stringify(spec)}`);
    options[key] = item.slice(equals + 1).trim();
  }
  return [name, options];
}

/** Whether the browser plays this spec (a computer player that only computes). @param {string} spec @returns {boolean} */
export function playsInBrowser(spec) {
  try { return BROWSER_PLAYERS.includes(parseSpec(spec)[0]); } catch (error) { return false; }
}

/** @param {string} name @param {string | undefined} value @param {number | null} fallback @param {number} [least]
 * @param {number} [most] @returns {number | null} */
function intOption(name, value, fallback, least, most = Number.MAX_SAFE_INTEGER) {
  if (value === undefined) return fallback;
  if (!/^[-+]?\d+$/.test(value)) throw new PlayerSpecError(`option ${name} must be an integer, got ${JSON.stringify(value)}`);
  const number = Number(value);
  if (least !== undefined && number < least) throw new PlayerSpecError(`option ${name} must be at least ${least}, got ${number}`);
  if (number > most) throw new PlayerSpecError(`option ${name} must be at most ${most}, got ${number}`);
  return number;
}

/** @param {string} name @param {string | undefined} value @param {number | null} fallback @returns {number | null} */
function secondsOption(name, value, fallback) {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!value.trim() || !Number.isFinite(number)) throw new PlayerSpecError(`option ${name} must be a number, got ${JSON.stringify(value)}`);
  if (number <= 0) throw new PlayerSpecError(`option ${name} must be a positive number, got ${value}`);
  if (number > 86400) throw new PlayerSpecError(`option ${name} must be at most 86400, got ${value}`);
  return number;
}

/** @param {string} name @param {string | undefined} value @param {boolean} fallback @returns {boolean} */
function switchOption(name, value, fallback) {
  if (value === undefined) return fallback;
  const word = value.trim().toLowerCase();
  if (["on", "yes", "true", "1"].includes(word)) return true;
  if (["off", "no", "false", "0"].includes(word)) return false;
  throw new PlayerSpecError(`option ${name} must be on or off, got ${JSON.stringify(value)}`);
}

/** The hard and soft limits of one move of a timed player (kalah.players.engines.time_budget).
 * @param {number} perMove @param {number} bank @returns {[number, number]} */
export function timeBudget(perMove, bank) {
  bank = Math.max(bank, 0);
  const hard = perMove + Math.min(bank, perMove);
  return [hard, Math.min(hard, 0.8 * perMove + 0.25 * bank)];
}

/** What a player's move comes with: the move and what the engine found (kalah.players' last_info).
 * @typedef {{move: Move, info: Record<string, any>}} Choice */

/** A player made from its spec. */
class Player {
  /** @param {string} spec @param {{searches: Searches, solvers: Solvers, books: Books}} kit @param {string} key its engine's name */
  constructor(spec, kit, key) {
    const [name, options] = parseSpec(spec);
    if (!(name in OPTIONS)) {
      throw new PlayerSpecError(`the player ${JSON.stringify(name)} does not play in the browser; players here: ${BROWSER_PLAYERS.join(", ")}`);
    }
    const allowed = OPTIONS[/** @type {keyof OPTIONS} */ (name)];
    const unknown = Object.keys(options).filter((option) => !allowed.includes(option));
    if (unknown.length) throw new PlayerSpecError(`unknown option ${JSON.stringify(unknown[0])} for player ${JSON.stringify(name)}; its options: ${[...allowed].sort().join(", ")}`);
    this.kit = kit;
    this.key = key;
    this.name = name;
    this.calls = 0;
    this.bank = 0;
    /** @type {string | null} what the table was filled for */
    this.tableFor = null;
    /** @type {() => number} */
    this.random = Math.random;
    if (name === "random") {
      this.seed = intOption("seed", options.seed, null, 0);
      this.random = this.seed === null ? Math.random : seededRandom(this.seed);
    } else if (name === "perfect") {
      this.time = /** @type {number} */ (secondsOption("time", options.time, 10));
      this.fallback = /** @type {number} */ (secondsOption("fallback", options.fallback, 2));
      this.book = switchOption("book", options.book, true);
    } else {
      const evaluation = (options.eval ?? "strong").trim().toLowerCase();
      if (!EVALUATIONS.includes(evaluation)) throw new PlayerSpecError(`unknown evaluation ${JSON.stringify(options.eval)}; accepted: ${EVALUATIONS.join(", ")}`);
      this.evaluation = evaluation;
      this.time = secondsOption("time", options.time, null);
      this.book = switchOption("book", options.book, false);
      if (this.book && !PRACTICAL_ALGORITHMS.includes(name)) throw new PlayerSpecError("book needs pvs or mtdf");
      switchOption("ponder", options.ponder, false);  // thinking on the opponent's time: not in the browser's one worker
      this.memo = switchOption("memo", options.memo, true);
      this.manage = switchOption("manage", options.manage, true) && this.time !== null && name !== "mcts";
      this.seed = /** @type {number} */ (intOption("seed", options.seed, 0, 0));
      intOption("threads", options.threads, null, 1, 64);  // accepted, and one thread searches
      if (name === "mcts") {
        this.depth = null;
        const playouts = intOption("playouts", options.playouts, null, 1, MAX_PLAYOUTS);
        this.playouts = playouts !== null || this.time !== null ? playouts : DEFAULT_PLAYOUTS;
      } else {
        const depth = intOption("depth", options.depth, null, 1, MAX_DEPTH);
        this.depth = depth !== null || this.time !== null ? depth : DEFAULT_DEPTHS[/** @type {keyof DEFAULT_DEPTHS} */ (name)];
        this.playouts = null;
      }
    }
  }

  /** The player's move in `position` (not over). @param {Position} position @returns {Promise<Choice>} */
  async choose(position) {
    if (position.is_over) throw new PlayerSpecError("the game is over: there is no move to choose");
    if (this.name === "random") {
      const legal = position.legalMoves();
      return { move: legal[Math.floor(this.random() * legal.length)], info: {} };
    }
    if (this.name === "perfect") return this.perfect(position);
    return this.searchMove(position);
  }

  /** kalah.players.engines.SearchPlayer.choose_move. @param {Position} position @returns {Promise<Choice>} */
  async searchMove(position) {
    const entry = this.book ? await this.kit.books.lookup(position) : null;
    if (entry) {
      if (this.manage && this.time) this.bank = Math.min(this.bank + this.time, MAX_BANK * this.time);
      this.calls++;
      return { move: entry.move, info: { algorithm: this.name, value: entry.value, exact: true, book: true, best_moves: entry.best_moves } };
    }
    const tableFor = JSON.stringify(position.variant.toJSON());
    const keepTable = this.memo && this.tableFor === tableFor;
    this.tableFor = tableFor;
    const [hard, soft] = this.manage && this.time ? timeBudget(this.time, this.bank) : [this.time, null];
    const result = await this.kit.searches.search(position, {
      algorithm: this.name, keep_table: keepTable, depth: this.depth, time: hard, soft_time: soft, evaluation: this.evaluation,
      move_values: false, memo: this.memo, playouts: this.playouts, seed: /** @type {number} */ (this.seed) + this.calls,
      engine: this.key,
    });
    this.calls++;
    if (this.manage && this.time) this.bank = Math.min(Math.max(0, this.bank + this.time - result.stats.seconds), MAX_BANK * this.time);
    /** @type {Record<string, any>} */
    const info = { algorithm: this.name, value: result.value, depth: result.depth, nodes: result.nodes, seconds: result.seconds, pv: result.pv, exact: result.exact };
    if (this.name === "mcts" && result.extra) { info.playouts = result.stats.playouts; info.win_rate = result.extra.win_rate; }
    if (result.best_move === null) throw new PlayerSpecError("the game is over: there is no move to choose");
    return { move: result.best_move, info };
  }

  /** kalah.players.perfect.PerfectPlayer.choose_move. @param {Position} position @returns {Promise<Choice>} */
  async perfect(position) {
    const legal = position.legalMoves();
    if (legal.length === 1) return { move: legal[0], info: { forced: true } };
    const entry = this.book ? await this.kit.books.lookup(position) : null;
    if (entry) return { move: entry.move, info: { value: entry.value, exact: true, best_moves: entry.best_moves, book: true } };
    if (needsBig(position)) return this.fallbackSearch(position, {});
    const deadline = performance.now() + 1000 * /** @type {number} */ (this.time);
    const solved = await this.kit.solvers.solve(position, { time: this.time, pv: false });
    if (solved.value !== null && solved.best_moves.length) {
      const move = await this.fastest(position, solved.value, solved.best_moves, deadline);
      return { move, info: { value: solved.value, exact: true, best_moves: solved.best_moves, nodes: solved.nodes } };
    }
    return this.fallbackSearch(position, { lower: solved.lower, upper: solved.upper });
  }

  /** The time-limited search of a perfect player that could not solve. @param {Position} position
   * @param {Record<string, number>} bounds @returns {Promise<Choice>} */
  async fallbackSearch(position, bounds) {
    const result = await this.kit.searches.search(position, { algorithm: "pvs", time: this.fallback, move_values: false, engine: this.key });
    return { move: /** @type {Move} */ (result.best_move), info: { exact: false, ...bounds, value: result.value } };
  }

  /** Among equally good moves: the shortest line to the end when winning, the longest otherwise (kalah.book.fastest_move).
   * @param {Position} position @param {number} value @param {Move[]} best @param {number} deadline on performance.now()
   * @returns {Promise<Move>} */
  async fastest(position, value, best, deadline) {
    if (best.length === 1) return best[0];
    /** @type {Map<Move, number>} */
    const lengths = new Map();
    for (const move of best) {
      const child = position.play(move);
      if (child.is_over) { lengths.set(move, 0); continue; }
      const left = (deadline - performance.now()) / 1000;
      if (left <= 0.01) break;
      const line = await this.kit.solvers.solve(child, { time: left, best_moves: false });
      if (!line.exact) return best[0];
      lengths.set(move, line.pv.length);
    }
    const measured = best.filter((move) => lengths.has(move));
    if (!measured.length) return best[0];
    const length = (/** @type {Move} */ move) => /** @type {number} */ (lengths.get(move));
    return measured.reduce((chosen, move) => (value > 0 ? length(move) < length(chosen) : length(move) > length(chosen)) ? move : chosen);
  }
}

/** Players kept at most: each has a table of 16 MiB; the oldest is forgotten when another is made. */
const KEPT_PLAYERS = 4;

/** The players of one thread, one per game and seat, made again when their spec changes. */
export class Players {
  /** @param {{searches: Searches, solvers: Solvers, books: Books}} kit */
  constructor(kit) {
    this.kit = kit;
    /** @type {Map<string, {spec: string, player: Player}>} */
    this.players = new Map();
  }

  /** Check a spec: a PlayerSpecError names what is wrong. @param {string} spec */
  check(spec) { new Player(spec, this.kit, ""); }

  /**
   * The move of the player `spec` in `position`.
   * @param {string} spec @param {Position} position @param {string} [game] the game and seat the player plays
   * (its table and bank go on from its last move there; a new name, a new player) @returns {Promise<Choice>}
   */
  async choose(spec, position, game) {
    const key = `player/${game ?? "once"}`;
    let found = this.players.get(key);
    if (!found || found.spec !== spec || game === undefined) {
      found = { spec, player: new Player(spec, this.kit, key) };
      if (game !== undefined) {
        this.players.delete(key);
        this.players.set(key, found);
        for (const oldest of [...this.players.keys()].slice(0, Math.max(0, this.players.size - KEPT_PLAYERS))) {
          this.players.delete(oldest);
          this.kit.searches.free(oldest);
        }
      }
    }
    const started = performance.now();
    const choice = await found.player.choose(position);
    return { ...choice, info: { ...choice.info, seconds: (performance.now() - started) / 1000 } };
  }

  /** Forget a game's players (it ended, or a new one starts). @param {string} game */
  forget(game) {
    for (const key of [...this.players.keys()]) {
      if (key.startsWith(`player/${game}`)) { this.players.delete(key); this.kit.searches.free(key); }
    }
  }
}

/** A generator of numbers in [0, 1) from a seed (mulberry32): the same seed, the same moves.
 * @param {number} seed @returns {() => number} */
function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export { ALGORITHMS };
