// @ts-check
/* The engine in the page: the compiled core as WebAssembly in a worker (engine/engine.js), which plays the
 * computer's moves and makes the hints, analyses, reviews and the lab's traces in the visitor's browser. Where
 * the browser has no WebAssembly (or the engine fails to start, or the address asks with ?engine=server), the
 * pages of kalah serve ask the server as before, and say so; a static site (kalah site build) has no server to
 * ask, and says that instead.
 *
 * For tests: <html data-engine="browser|server|none"> once the engine has started or been given up; the board
 * page's #engine-note says where the computer thinks. */

import { createEngine, engineSupported } from "./engine/engine.js";
import { playsInBrowser } from "./engine/players.js";
import { STATIC_SITE } from "./site.js";

/** @typedef {import("./engine/engine.js").Engine} Engine */

/** @type {Promise<Engine | null> | null} */
let starting = null;

/** The page's engine, started at the first call; null where the server thinks instead. @returns {Promise<Engine | null>} */
export function pageEngine() {
  if (!starting) starting = start();
  return starting;
}

/** @returns {Promise<Engine | null>} */
async function start() {
  if (new URLSearchParams(location.search).get("engine") === "server" && !STATIC_SITE) {
    return without("The computer thinks on the server (the address asks for it: ?engine=server).");
  }
  if (!engineSupported()) return without("This browser has no WebAssembly: ");
  try {
    const engine = await createEngine();
    shown("browser", "The computer thinks in this browser (WebAssembly).");
    return engine;
  } catch (error) {
    return without(`The engine did not start in this browser (${error instanceof Error ? error.message : error}): `);
  }
}

/** No engine in the page: the server's, or none on a static site. @param {string} why @returns {null} */
function without(why) {
  const told = why.endsWith(": ") ? why + (STATIC_SITE ? "the computer cannot play on this site." : "the computer thinks on the server.") : why;
  shown(STATIC_SITE ? "none" : "server", told);
  console.warn(told);
  return null;
}

/** @param {string} where @param {string} text */
function shown(where, text) {
  document.documentElement.dataset.engine = where;
  const note = document.getElementById("engine-note");
  if (note) note.textContent = text;
}

/** The engine, when it plays the player `spec` (a computer player that only computes); else null.
 * @param {string} spec @returns {Promise<Engine | null>} */
export async function engineFor(spec) {
  const engine = await pageEngine();
  return engine && playsInBrowser(spec) ? engine : null;
}

/** A position as the engine takes it (Position.to_dict's JSON).
 * @param {{board: number[][], to_move: number, variant: import("./api.js").Variant}} view
 * @returns {{board: number[][], to_move: number, variant: import("./api.js").Variant}} */
export function positionOf(view) {
  return { board: view.board, to_move: view.to_move, variant: view.variant };
}
