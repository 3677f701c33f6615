// @ts-check
/* The page around the board: the status line, the banner over the board, the
 * two player panels, the busy flag and which view shows.
 *
 * For tests: #board's data-busy is "true" while a move is animated or the
 * computer thinks. */

import { $, boardElement } from "./dom.js";
import { pageHref } from "./site.js";
import { bottomPlayer, currentPlayers, setBusyFlag, state } from "./state.js";

/** @typedef {import("./api.js").Board} Board */
/** @typedef {import("./api.js").Player} Player */

/** @param {string} text @param {boolean} [error] shown as an error */
export function setStatus(text, error) {
  const status = $("#status");
  status.textContent = text;
  status.classList.toggle("error", !!error);
}

/** Mark the page busy (clicks wait) or not. @param {boolean} busy */
export function setBusy(busy) {
  setBusyFlag(busy);
  boardElement().dataset.busy = busy ? "true" : "false";
}

// The banner over the board is the live page's too (dom.js); the views import it from here.
export { hideBanner, showBanner } from "./dom.js";

/** @param {Player[] | null} players @param {number} p @returns {string} */
function playerLabel(players, p) {
  if (!players) return `Player ${p + 1}`;
  return players[p].name;
}

/**
 * The two player panels: names, pit letters, scores, whose turn.
 * @param {Board} board @param {number} toMove @param {boolean} over
 */
export function drawPanels(board, toMove, over) {
  const players = currentPlayers();
  const bottom = bottomPlayer();
  for (const [where, p] of /** @type {[string, number][]} */ ([["#panel-bottom", bottom], ["#panel-top", 1 - bottom]])) {
    const panel = $(where);
    const store = board[p][board[p].length - 1];
    const active = !over && toMove === p;
    panel.className = "player-panel" + (active ? " active" : "") + (where === "#panel-top" ? " top" : " bottom");
    const kind = players ? (players[p].human ? "human" : "computer") : "";
    panel.innerHTML = "";
    const dot = document.createElement("span");
    dot.className = "dot " + kind;
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = playerLabel(players, p);
    const side = document.createElement("span");
    side.className = "muted small";
    const m = board[0].length - 1;
    const first = p === 0 ? 65 : 97;
    side.textContent = (p === 0 ? "first player" : "second player") +
      ` · pits ${String.fromCharCode(first)}–${String.fromCharCode(first + m - 1)}`;
    const score = document.createElement("span");
    score.className = "score";
    score.textContent = String(store);
    const turn = document.createElement("span");
    turn.className = "turn";
    // a replay shows what was, nobody is thinking
    turn.textContent = active ? (kind === "computer" && state.mode !== "replay" ? "thinking…" : "to move") : "";
    panel.append(dot, name, side, turn, score);
  }
  labLinks(board, toMove);
}

/** Point the "lab" links at the position shown. @param {Board} board @param {number} toMove */
function labLinks(board, toMove) {
  const source = state.mode === "replay" ? state.replay : state.game;
  const position = { board, to_move: toMove, variant: source ? source.variant : undefined };
  const href = pageHref("lab", `?${new URLSearchParams({ position: JSON.stringify(position), algorithm: "alphabeta", depth: "4" })}`);
  for (const link of document.querySelectorAll("a.lab-link")) link.setAttribute("href", href);
}

/**
 * "You win! 30 – 18", "Draw, 24 – 24", ...
 * @param {{scores?: number[] | null}} result the final totals, if known @param {Board} board the final board
 * @returns {string}
 */
export function resultText(result, board) {
  const scores = result.scores || [board[0][board[0].length - 1], board[1][board[1].length - 1]];
  const players = currentPlayers();
  if (scores[0] === scores[1]) return `Draw, ${scores[0]} – ${scores[1]}`;
  const winner = scores[0] > scores[1] ? 0 : 1;
  const humans = players ? players.filter((p) => p.human).length : 0;
  const name = players ? players[winner].name : `Player ${winner}`;
  let text = `${name} wins`;
  // "You" is the person at this page's game: a replay shows a game someone played, perhaps not the viewer.
  if (humans === 1 && players && state.mode !== "replay") text = players[winner].human ? "You win!" : `${name} wins`;
  return `${text} ${Math.max(...scores)} – ${Math.min(...scores)}`;
}

/** A game or replay the address names but the library does not hold: no board (not the previous game's,
 * left standing under the message), the message and the way back. @param {string} message */
export function showMissing(message) {
  $("#view-game").classList.add("missing");
  setStatus(message, true);
  $("#missing").hidden = false;
}

/** Show the board (with the controls of the mode), the library or a review. @param {"game" | "library" | "review" | "puzzles"} name */
export function showView(name) {
  $("#view-game").classList.remove("missing");
  $("#missing").hidden = true;
  $("#view-game").hidden = name !== "game";
  $("#view-library").hidden = name !== "library";
  $("#view-review").hidden = name !== "review";
  $("#view-puzzles").hidden = name !== "puzzles";
  $("#play-controls").hidden = state.mode !== "play";
  $("#replay-controls").hidden = state.mode !== "replay";
}
