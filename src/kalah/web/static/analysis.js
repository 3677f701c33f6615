// @ts-check
/* The analysis panel: the value of every legal move and the best line, as the
 * engine in the page (or the server's) finds them, each marked exact (proven by the book, an
 * endgame database or the solver) or est. (a search's estimate). The open game's analysis is asked
 * for by game.js (it also marks the values on the board); a replayed
 * position's here. */

import * as api from "./api.js";
import { $ } from "./dom.js";
import { resultText } from "./page.js";
import { pageEngine, positionOf } from "./pageengine.js";
import { currentPlayers } from "./state.js";

/** @typedef {import("./api.js").Analysis} Analysis */
/** @typedef {import("./api.js").Frame} Frame */
/** @typedef {import("./api.js").Move} Move */
/** @typedef {import("./api.js").Variant} Variant */

/** What the analysis says of a finished game: its result, each side's seeds counted (pits and store).
 * @param {number[][]} board the final board @returns {string} */
export function finalText(board) {
  const totals = board.map((row) => row.reduce((sum, seeds) => sum + seeds, 0));
  return `The game is over: ${resultText({ scores: totals }, board)}.`;
}

/** A move in pit letters: A-F for the first player, a-f for the second.
 * @param {number} player @param {Move} move @returns {string} */
export function moveName(player, move) {
  if (move === "swap") return "swap";
  return String.fromCharCode((player === 0 ? 65 : 97) + move);
}

/** Put a message in the panel instead of values. @param {string} text */
export function analysisMessage(text) {
  $("#analysis").textContent = text;
}

/**
 * Show `result` for the side `toMove`; with no result, the panel's invitation.
 * @param {Analysis | null} result @param {number} [toMove]
 */
export function renderAnalysis(result, toMove) {
  const box = $("#analysis");
  if (!result) { box.textContent = "Turn on to see the value of every move."; return; }
  if (!result.available) { box.textContent = result.reason || "Analysis is unavailable."; return; }
  box.replaceChildren();
  const head = document.createElement("p");
  const v = result.value;
  // whose value it is, by name (a replay's "value +5" said for whom nowhere)
  const players = currentPlayers(), mover = toMove ?? 0;
  const who = players ? `${players[mover].name} (to move)` : `player ${mover} (to move)`;
  head.textContent = `Value for ${who}: ${v === null || v === undefined ? "?" : (v > 0 ? "+" : "") + v}` +
    (result.exact ? " (exact)" : ` (estimate${result.depth ? ", depth " + result.depth : ""})`);
  head.dataset.exact = String(!!result.exact);
  box.appendChild(head);
  const list = document.createElement("ul");
  list.className = "move-values";
  for (const entry of (result.moves || []).slice().sort((a, b) => (b.value ?? -1e9) - (a.value ?? -1e9))) {
    const li = document.createElement("li");
    const bound = entry.bound === "upper" ? "≤ " : "";
    const exact = entry.exact ?? entry.bound === "exact";
    li.textContent = `${moveName(toMove ?? 0, entry.move)}: ${entry.value === null ? "?" : bound + (entry.value > 0 ? "+" : "") + entry.value}` +
      (exact ? " exact" : " est.");
    li.dataset.exact = String(exact);
    if (entry.move === result.best_move) li.className = "best";
    list.appendChild(li);
  }
  box.appendChild(list);
  if (result.pv_names && result.pv_names.length) {
    const line = document.createElement("p");
    line.textContent = "Best line: " + result.pv_names.join(" ");
    box.appendChild(line);
  }
}

/**
 * Analyse a replayed position and show it.
 * @param {Frame} frame @param {Variant} variant
 */
export async function analyseFrame(frame, variant) {
  if (frame.over) { analysisMessage(finalText(frame.board)); return; }
  analysisMessage("Thinking…");
  try {
    const position = positionOf({ board: frame.board, to_move: frame.to_move, variant });
    const engine = await pageEngine();
    const result = engine ? await engine.analyse(position, { time: 0.5 }) : await api.analysePosition(position);
    renderAnalysis(result, frame.to_move);
  } catch (error) { analysisMessage(api.errorText(error)); }
}
