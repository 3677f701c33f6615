// @ts-check
/* The engine API: the compiled core of kalah as WebAssembly, in a Web Worker (the browser) or a
 * worker thread (Node), so that its work never holds up the page.
 *
 *   import { createEngine } from "./engine/engine.js";
 *   const engine = await createEngine();
 *   const r = await engine.search(position, { algorithm: "pvs", depth: 12 });
 *
 * `position` is what Position.to_json() writes ({board, to_move, variant}). The answers are those of
 * the Python library, field for field (docs/browser.md lists them): search (kalah.search(...).to_dict()),
 * analyse (the board's analysis, AnalysisOut), solve (kalah.solve(...).to_dict()), trace and traceMcts
 * (kalah-trace/1, kalah-mcts-trace/1), choose (a player spec's move), review (a game record's review).
 * A refused request rejects with an Error whose name says what kind (SearchError, SolveError, ...).
 *
 * stop() ends the request under way: where the page is cross-origin isolated (or under Node) a timed
 * search, solve or analysis stops at once and answers what it found so far, as Engine.stop does in
 * Python; elsewhere (no SharedArrayBuffer) the worker is ended and made anew, and the request rejects
 * with a StoppedError.
 */

import { IS_NODE, nodeModule } from "./node.js";

/** A request ended by stop() where the engine could only end its worker. */
export class StoppedError extends Error {
  constructor() { super("stopped"); this.name = "StoppedError"; }
}

/** Whether this page or process can run the engine. @returns {boolean} */
export function engineSupported() {
  return typeof WebAssembly === "object" && typeof WebAssembly.instantiate === "function";
}

/** The folder of the opening books: data/ beside the engine (kalah serve and a built site serve them
 * there), or the package's own under Node. @returns {Promise<URL>} */
async function defaultData() {
  const beside = new URL("./data/", import.meta.url);
  if (IS_NODE && beside.protocol === "file:") {
    const fs = await nodeModule("node:fs");
    if (!fs.existsSync(beside)) return new URL("../../../book/data/", import.meta.url);
  }
  return beside;
}

/**
 * Start an engine.
 * @param {{base?: URL | string, data?: URL | string | null, worker?: boolean}} [options] `base`: the folder of the .wasm
 * files (default: this module's); `data`: the folder of the opening books; `worker`: false runs the engine in this thread
 * @returns {Promise<Engine>}
 */
export async function createEngine(options = {}) {
  if (!engineSupported()) throw new Error("WebAssembly is not available here");
  const base = String(options.base ?? new URL("./", import.meta.url));
  const data = options.data === null ? null : String(options.data ?? await defaultData());
  const engine = new Engine(base, data, options.worker ?? true);
  await engine.start();
  return engine;
}

/** The engine: each method posts a request to the worker and answers its result. */
export class Engine {
  /** @param {string} base @param {string | null} data @param {boolean} worker */
  constructor(base, data, worker) {
    this.base = base;
    this.data = data;
    this.useWorker = worker;
    /** @type {any} */
    this.worker = null;
    /** @type {import("./local.js").LocalEngine | null} */
    this.local = null;
    /** @type {Map<number, {resolve: (value: any) => void, reject: (error: Error) => void, progress?: (p: any) => void}>} */
    this.pending = new Map();
    this.next = 1;
    // A stop flag the worker's clock reads: only where memory can be shared (cross-origin isolation, Node).
    const shared = typeof SharedArrayBuffer === "function" && (IS_NODE || globalThis.crossOriginIsolated === true);
    this.stopFlag = shared ? new Int32Array(new SharedArrayBuffer(4)) : null;
  }

  /** Start the worker (or the engine in this thread), and load the main module. */
  async start() {
    const setup = { base: this.base, data: this.data, stop: this.stopFlag };
    if (!this.useWorker) {
      const { LocalEngine } = await import("./local.js");
      this.local = new LocalEngine(setup);
    } else if (IS_NODE) {
      const { Worker } = await nodeModule("node:worker_threads");
      this.worker = new Worker(new URL("./worker.js", import.meta.url));
      this.worker.on("message", (/** @type {any} */ message) => this.receive(message));
      this.worker.on("error", (/** @type {Error} */ error) => this.fail(error));
      this.worker.unref();
      this.worker.postMessage({ setup });
    } else {
      this.worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
      this.worker.onmessage = (/** @type {MessageEvent} */ event) => this.receive(event.data);
      this.worker.onerror = (/** @type {ErrorEvent} */ event) => this.fail(new Error(event.message || "the engine's worker failed"));
      this.worker.postMessage({ setup });
    }
    await this.request("checkSpec", ["pvs:depth=1"]);
    // the module loads now (a search on an engine of its own, with no table: the shared engines' tables, whose
    // history a search's node counts follow, are as in a fresh Python process)
    await this.request("search", [{ board: [[1, 0], [1, 0]], to_move: 0 }, { depth: 1, table_bits: 0 }]);
  }

  /** @param {any} message */
  receive(message) {
    const waiting = this.pending.get(message.id);
    if (!waiting) return;
    if ("progress" in message) { if (waiting.progress) waiting.progress(message.progress); return; }
    this.pending.delete(message.id);
    if (this.worker && IS_NODE && this.pending.size === 0) this.worker.unref();
    if (message.error) {
      const error = new Error(message.error.message);
      error.name = message.error.name;
      waiting.reject(error);
    } else waiting.resolve(message.result);
  }

  /** The worker died: every request waiting fails with `error`. @param {Error} error */
  fail(error) {
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }

  /** @param {string} operation @param {any[]} args @param {(progress: any) => void} [progress] @returns {Promise<any>} */
  request(operation, args, progress) {
    if (this.local) return this.local.run(operation, JSON.parse(JSON.stringify(args)), progress);
    if (!this.worker) return Promise.reject(new Error("the engine was terminated"));
    const id = this.next++;
    if (IS_NODE) this.worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, progress });
      this.worker.postMessage({ id, operation, args });
    });
  }

  /** kalah.search: {algorithm, depth, time, evaluation, move_values, memo, ordering, iterative, playouts, seed,
   * table_bits, keep_table, soft_time, exact_depth}. @param {object} position @param {object} [options] */
  search(position, options = {}) { return this.request("search", [position, options]); }

  /** The board's analysis (kalah.analyse): {time (seconds, default 1), move_values}. @param {object} position @param {object} [options] */
  analyse(position, options = {}) { return this.request("analyse", [position, options]); }

  /** kalah.solve: {time, best_moves, pv}. @param {object} position @param {object} [options] */
  solve(position, options = {}) { return this.request("solve", [position, options]); }

  /** kalah.trace as kalah-trace/1: {algorithm, depth, evaluation, max_nodes, options}. @param {object} position @param {object} [request] */
  trace(position, request = {}) { return this.request("trace", [position, request]); }

  /** UCT traced (kalah-mcts-trace/1) beside alpha-beta: {playouts, seed, depth}. @param {object} position @param {object} [request] */
  traceMcts(position, request = {}) { return this.request("traceMcts", [position, request]); }

  /** The move of a computer player by its spec ("pvs:time=1", "perfect", ...), and what it found. `game` names the game
   * and seat: the player keeps its table and time from move to move there. @param {string} spec @param {object} position
   * @param {string} [game] @returns {Promise<{move: number | "swap", info: Record<string, any>}>} */
  choose(spec, position, game) { return this.request("choose", [spec, position, game]); }

  /** Forget the players of a game. @param {string} game */
  forget(game) { return this.request("forget", [game]); }

  /** Reject a spec the browser does not play (PlayerSpecError). @param {string} spec */
  checkSpec(spec) { return this.request("checkSpec", [spec]); }

  /** The opening book's entry of a position, or null. @param {object} position */
  book(position) { return this.request("book", [position]); }

  /** The review of a game record (kalah.review): {time per position}; `progress({done, total})` hears each position.
   * @param {object} record @param {{time?: number}} [options] @param {(p: {done: number, total: number}) => void} [progress] */
  review(record, options = {}, progress) { return this.request("review", [record, options], progress); }

  /** End the request under way (see the module's comment). */
  stop() {
    if (this.stopFlag) { Atomics.store(this.stopFlag, 0, 1); return; }
    if (this.worker && this.pending.size) {
      this.worker.terminate();
      this.fail(new StoppedError());
      this.worker = null;
      this.start().catch(() => undefined);
    }
  }

  /** End the engine and its worker. */
  terminate() {
    if (this.worker) this.worker.terminate();
    this.worker = null;
    this.local = null;
    this.fail(new Error("the engine was terminated"));
  }
}
