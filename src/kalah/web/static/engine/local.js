// @ts-check
/* The engine in the thread that calls it: every piece (searches, solver, books, analysis, players,
 * traces, reviews) over WebAssembly modules loaded when first needed. engine.js runs one in a Web
 * Worker (or a Node worker thread) and passes it requests; a script may also use it directly.
 *
 * Positions come and go as JSON (Position.to_dict); requests run one at a time, in order.
 */

import { Analyses } from "./analyse.js";
import { Books } from "./book.js";
import { loadCore } from "./core.js";
import { Players } from "./players.js";
import { review } from "./review.js";
import { Position } from "./rules.js";
import { Searches } from "./search.js";
import { Solvers } from "./solve.js";
import { lineOf, Traces, treeFacts } from "./tracing.js";

/** @typedef {import("./core.js").Core} Core */

/** The operations of the engine: each takes a position's JSON first where it needs one. */
export const OPERATIONS = ["search", "analyse", "solve", "trace", "traceMcts", "choose", "forget", "checkSpec", "book",
  "review", "treeFacts", "line"];

export class LocalEngine {
  /**
   * @param {{base: URL | string, data?: URL | string | null, stop?: Int32Array | null}} options `base`: the folder of
   * the .wasm files; `data`: the folder of the opening books (null: none); `stop`: a flag in a SharedArrayBuffer
   * that ends a timed computation (core.js)
   */
  constructor(options) {
    this.base = options.base;
    this.stopFlag = options.stop ?? null;
    /** @type {Map<string, Promise<Core>>} */
    this.cores = new Map();
    const load = (/** @type {string} */ name) => this.core(name);
    this.searches = new Searches(load);
    this.solvers = new Solvers(() => load("kalah"), this.searches);
    this.books = new Books(options.data ?? null);
    this.analyses = new Analyses(this.searches, this.solvers, this.books);
    this.players = new Players({ searches: this.searches, solvers: this.solvers, books: this.books });
    this.traces = new Traces(() => load("kalah-trace"), this.searches);
    /** @type {Promise<unknown>} */
    this.queue = Promise.resolve();
  }

  /** A module, loaded once. @param {string} name @returns {Promise<Core>} */
  core(name) {
    let found = this.cores.get(name);
    if (!found) {
      found = loadCore(name, this.base, this.stopFlag);
      found.catch(() => this.cores.delete(name));  // a failed load is tried again next time
      this.cores.set(name, found);
    }
    return found;
  }

  /**
   * Run an operation after those asked before it.
   * @param {string} operation one of OPERATIONS @param {any[]} args @param {(progress: any) => void} [progress]
   * @returns {Promise<any>}
   */
  run(operation, args, progress) {
    const result = this.queue.then(() => this.perform(operation, args, progress));
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** @param {string} operation @param {any[]} args @param {(progress: any) => void} [progress] @returns {Promise<any>} */
  async perform(operation, args, progress) {
    if (this.stopFlag) Atomics.store(this.stopFlag, 0, 0);  // a stop asked before this began was for another
    const position = () => Position.fromJSON(args[0]);
    switch (operation) {
      case "search": return this.searches.search(position(), args[1] ?? {});
      case "analyse": return this.analyses.analyse(position(), args[1] ?? {});
      case "solve": return this.solvers.solve(position(), args[1] ?? {});
      case "trace": return this.traces.trace(position(), args[1] ?? {});
      case "traceMcts": return this.traces.traceMcts(position(), args[1] ?? {});
      case "choose": return this.players.choose(args[0], Position.fromJSON(args[1]), args[2]);
      case "forget": return this.players.forget(args[0]);
      case "checkSpec": return this.players.check(args[0]);
      case "book": return this.books.lookup(position());
      case "review": return review(this.analyses, args[0], args[1]?.time, progress && ((done, total) => progress({ done, total })));
      case "treeFacts": return treeFacts(position(), args[1], args[2], args[3]);
      case "line": return lineOf(position(), args[1]);
      default: throw new Error(`unknown engine operation ${JSON.stringify(operation)}`);
    }
  }
}
