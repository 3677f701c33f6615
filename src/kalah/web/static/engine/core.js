// @ts-check
/* The compiled core as WebAssembly: one module (wasm/build.py builds them from the C sources of the
 * Python extensions; the C side is src/kalah/core/csrc/wasm*.c) with its memory and calls.
 *
 * Three modules: "kalah" (the byte build: searches, UCT, the solver and the endgame databases, every
 * board up to 8 pits and 255 seeds), "kalah-big" (up to 12 pits) and "kalah-trace" (the lab's traced
 * searches). They import only a clock, which reads performance.now() and, when a stop flag is given
 * (a SharedArrayBuffer the page sets), says that every deadline has passed once it is set: a timed
 * search then ends at once with its last completed iteration, as kalah.core's Engine.stop does.
 *
 * The layout of the answers in kw_out (OUT, MCTS_OUT, TRACE_OUT) is wasm.h's.
 */

import { IS_NODE, nodeModule, workingFolder } from "./node.js";
import { SWAP } from "./rules.js";

/** @typedef {import("./rules.js").Position} Position */
/** @typedef {import("./rules.js").Move} Move */

/** kw_out after kw_search and kw_trace_search (wasm.h). */
export const OUT = {
  COMPLETED: 0, VALUE: 1, BEST: 2, DEPTH: 3, EXACT: 4, ABORTED: 5, NODES: 6, BUSIEST: 13, ROOT_N: 14, PV_N: 15,
  MOVES: 20, PV: 64,
};
/** The statistics after OUT.NODES, in ks_stats' order. */
export const COUNTS = ["nodes", "leaves", "tt_probes", "tt_hits", "cutoffs", "researches", "oracle_probes"];
/** kw_out after kw_mcts. */
export const MCTS_OUT = { BEST: 0, PLAYOUTS: 1, NODES: 2, DEPTH: 3, N: 4, MOVES: 8 };
/** kw_out after a traced search. */
export const TRACE_OUT = { FULL: 400, RECORD: 401, ITERATIONS: 402 };
/** The move code of the swap in C (board.h's KALAH_SWAP). */
export const SWAP_CODE = 255;

/** A move's C code. @param {Move} move @returns {number} */
export const moveCode = (move) => (move === SWAP ? SWAP_CODE : move);
/** The move of a C code. @param {number} code @returns {Move} */
export const moveOf = (code) => (code === SWAP_CODE ? SWAP : code);

/** The bytes of a file of the engine (a module, a book) by its URL: fetched, or read from disk under Node.
 * @param {URL | string} url @returns {Promise<Uint8Array>} */
export async function readBytes(url) {
  const where = new URL(String(url), IS_NODE ? workingFolder() : self.location.href);
  if (IS_NODE && where.protocol === "file:") {
    const fs = await nodeModule("node:fs/promises");
    return new Uint8Array(await fs.readFile(where));
  }
  const response = await fetch(where);
  if (!response.ok) throw new Error(`${where.pathname}: ${response.status} ${response.statusText}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** One instance of a module, its exports and its memory. */
export class Core {
  /** @param {WebAssembly.Instance} instance @param {string} name */
  constructor(instance, name) {
    this.name = name;
    this.exports = /** @type {Record<string, any>} */ (instance.exports);
    this.memory = /** @type {WebAssembly.Memory} */ (this.exports.memory);
    if (typeof this.exports._initialize === "function") this.exports._initialize();
    this.cellsAt = this.exports.kw_cells_address();
    this.outAt = this.exports.kw_out_address();
  }

  /** The answer buffer kw_out as doubles (a fresh view: the memory may have grown). @returns {Float64Array} */
  out() { return new Float64Array(this.memory.buffer, this.outAt, 1024); }

  /** A view of int32 values in the module's memory. @param {number} address @param {number} count @returns {Int32Array} */
  int32(address, count) { return new Int32Array(this.memory.buffer, address, count); }

  /** Write a flat board into kw_cells. @param {readonly number[]} cells */
  writeCells(cells) { this.int32(this.cellsAt, cells.length).set(cells); }

  /** Write `position` into kw_cells and give the arguments that describe it: pits, seeds, empty capture, pie
   * rule, the side to move. @param {Position} position @returns {number[]} */
  position(position) {
    this.writeCells(position.cells);
    const v = position.variant;
    return [v.pits, v.seeds, v.empty_capture ? 1 : 0, v.pie_rule ? 1 : 0, position.to_move];
  }

  /** Seconds on the module's clock (the solver's deadlines are on it). @returns {number} */
  now() { return this.exports.kw_now(); }
}

/**
 * Load a module.
 * @param {string} name "kalah", "kalah-big" or "kalah-trace"
 * @param {URL | string} base the folder of the .wasm files
 * @param {Int32Array | null} [stop] a flag in a SharedArrayBuffer: while it is nonzero, every deadline has passed
 * @returns {Promise<Core>}
 */
export async function loadCore(name, base, stop) {
  const bytes = await readBytes(new URL(`${name}.wasm`, base));
  /** @type {Core | null} */
  let core = null;
  const clock = {
    /** clock_time_get(id, precision, *time): nanoseconds since the page started, as WASI has them.
     * @param {number} _id @param {bigint} _precision @param {number} at @returns {number} */
    clock_time_get(_id, _precision, at) {
      const stopped = stop && Atomics.load(stop, 0) !== 0;
      const nanoseconds = stopped ? 2n ** 62n : BigInt(Math.round(performance.now() * 1e6));
      new DataView(/** @type {Core} */ (core).memory.buffer).setBigUint64(at, nanoseconds, true);
      return 0;
    },
  };
  const imports = { wasi_snapshot_preview1: clock, env: { emscripten_notify_memory_growth() {} } };
  const { instance } = await WebAssembly.instantiate(/** @type {BufferSource} */ (/** @type {unknown} */ (bytes)), imports);
  core = new Core(instance, name);
  return core;
}
