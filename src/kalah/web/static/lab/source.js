// @ts-check
/* Where the lab's traces come from: the engine in the page traces a search (or the server, POST /api/trace,
 * where the page has no engine; pageengine.js), and who moves at each node of a traced tree and the positions
 * along a line of it are the rules' (engine/rules.js), worked out in the page. (trace.js is the format alone,
 * which the notebook's tree imports too.) */

import { Position as RulesPosition } from "../engine/rules.js";
import { lineOf, treeFacts } from "../engine/tracing.js";
import { pageEngine } from "../pageengine.js";

/** @typedef {import("./trace.js").Position} Position */
/** @typedef {import("./trace.js").Trace} Trace */
/** @typedef {import("./trace.js").Move} Move */
/** @typedef {import("./trace.js").TreeFacts} TreeFacts */

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
