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

/** Tell a screen reader what happened (a move, mostly): #announce is a polite live region that nobody sees.
 * @param {string} text */
export function announce(text) {
  const region = document.querySelector("#announce");
  if (region) region.textContent = text;
}

/**
 * A move in words: "Computer played d, captured 5 seeds", "You played C, an extra turn".
 * @param {string[]} names @param {import("./api.js").Effect} last @param {number | null} you the player at this
 * screen @returns {string}
 */
export function moveNews(names, last, you) {
  const who = last.player === you ? "You" : names[last.player];
  const what = last.move === "swap" ? `${who} swapped sides` : `${who} played ${last.name}`;
  const news = [what];
  if (last.captured > 0) news.push(`captured ${last.captured === 1 ? "1 seed" : `${last.captured} seeds`}`);
  if (last.extra_turn && !last.game_over) news.push("an extra turn");
  if (last.game_over) news.push("the game is over");
  return news.join(", ") + ".";
}

// The banner over the board is the live page's too (dom.js); the views import it from here.
export { hideBanner, showBanner } from "./dom.js";

/**
 * One player's panel as a page sees it: their name, what sits beside it, and the words for whose turn it is.
 * @typedef {object} Seat
 * @property {string} name
 * @property {string} kind          "human" or "computer" ("" when not known)
 * @property {boolean} [you]        this screen's player (marked "(you)")
 * @property {string} side          the line under the name: which player, which pits
 * @property {string} turn          what the panel says while it is this player's turn ("to move", "thinking…")
 * @property {HTMLElement[]} [extras]  more to show (the live page's presence and clock)
 */

/** "first player · pits A–F". @param {number} p @param {number} m pits a side @returns {string} */
export function sideText(p, m) {
  const first = p === 0 ? 65 : 97;
  return (p === 0 ? "first player" : "second player") + ` · pits ${String.fromCharCode(first)}–${String.fromCharCode(first + m - 1)}`;
}

/**
 * The two player panels of a page (the board page's and the live page's): each seat's colour, name, side,
 * turn and store, the `bottom` player's under the board.
 * @param {Board} board @param {number} toMove @param {boolean} over @param {number} bottom @param {Seat[]} seats
 */
export function fillPanels(board, toMove, over, bottom, seats) {
  for (const [where, p] of /** @type {[string, number][]} */ ([["#panel-bottom", bottom], ["#panel-top", 1 - bottom]])) {
    const panel = $(where), seat = seats[p];
    const active = !over && toMove === p;
    panel.className = `player-panel seat-${p}` + (active ? " active" : "") + (where === "#panel-top" ? " top" : " bottom");
    /** @param {string} tag @param {string} cls @param {string} text @returns {HTMLElement} */
    const part = (tag, cls, text) => Object.assign(document.createElement(tag), { className: cls, textContent: text });
    const dot = part("span", `dot seat-${p}` + (seat.kind ? ` ${seat.kind}` : ""), "");
    dot.setAttribute("aria-hidden", "true");
    const who = part("span", "who", "");
    who.append(part("span", "name", seat.name + (seat.you ? " (you)" : "")), part("span", "side muted small", seat.side));
    const score = part("span", "score", String(board[p][board[p].length - 1]));
    score.setAttribute("aria-label", `store: ${board[p][board[p].length - 1]}`);
    panel.replaceChildren(dot, who, part("span", "turn", active ? seat.turn : ""), ...(seat.extras || []), score);
  }
}

/**
 * The two player panels of the board page: names, pit letters, scores, whose turn.
 * @param {Board} board @param {number} toMove @param {boolean} over
 */
export function drawPanels(board, toMove, over) {
  const players = currentPlayers();
  const m = board[0].length - 1;
  const seats = [0, 1].map((p) => {
    const kind = players ? (players[p].human ? "human" : "computer") : "";
    // a replay shows what was, nobody is thinking
    const turn = kind === "computer" && state.mode !== "replay" ? "thinking…" : "to move";
    return { name: players ? players[p].name : `Player ${p + 1}`, kind, side: sideText(p, m), turn };
  });
  fillPanels(board, toMove, over, bottomPlayer(), seats);
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
 * How a game ended, in words: "You win! 30 – 18", "Ann wins 30 – 18", "Draw, 24 – 24", "Bo resigned: Ann wins".
 * The one wording of the board page and the live page.
 * @param {object} outcome
 * @param {number[]} outcome.scores    the final totals (or the stores, for a game ended off the board)
 * @param {string[]} outcome.names     the players' names
 * @param {number | null} [outcome.you]  the player at this screen, who is told "You win!"
 * @param {{winner: number | null, reason: string} | null} [outcome.decided]  an end off the board (live games)
 * @param {boolean} [outcome.seated]   both seats were taken (for a game closed unplayed)
 * @returns {string}
 */
export function outcomeText({ scores, names, you = null, decided = null, seated = true }) {
  if (decided) {
    const winner = decided.winner;
    if (decided.reason === "abandoned") return seated ? "Closed: nobody began in time" : "Closed: nobody joined in time";
    if (winner === null) return "Draw";
    // by name, also to the players: both screens and the watchers read the same line
    if (decided.reason === "time") return `${names[1 - winner]} ran out of time: ${names[winner]} wins`;
    if (decided.reason === "resign") return `${names[1 - winner]} resigned: ${names[winner]} wins`;
    return `${names[winner]} wins`;
  }
  if (scores[0] === scores[1]) return `Draw, ${scores[0]} – ${scores[1]}`;
  const winner = scores[0] > scores[1] ? 0 : 1;
  return `${winner === you ? "You win!" : `${names[winner]} wins`} ${Math.max(...scores)} – ${Math.min(...scores)}`;
}

/**
 * The board page's result: "You win! 30 – 18", "Draw, 24 – 24", ...
 * @param {{scores?: number[] | null}} result the final totals, if known @param {Board} board the final board
 * @returns {string}
 */
export function resultText(result, board) {
  const scores = result.scores || [board[0][board[0].length - 1], board[1][board[1].length - 1]];
  const players = currentPlayers();
  const names = players ? players.map((p) => p.name) : ["Player 0", "Player 1"];
  // "You" is the person at this page's game: a replay shows a game someone played, perhaps not the viewer.
  const lone = players && players.filter((p) => p.human).length === 1 && state.mode !== "replay";
  return outcomeText({ scores, names, you: lone && players ? players.findIndex((p) => p.human) : null });
}

/** A game or replay the address names but the library does not hold: no board (not the previous game's,
 * left standing under the message), the message and the way back. @param {string} message */
export function showMissing(message) {
  $("#view-game").classList.add("missing");
  setStatus(message, true);
  $("#missing").hidden = false;
}

/** Show one view of the page (`#view-NAME`; the board page's board, library, review and puzzles, the live
 * page's new game, lobby and game) and hide the others, with the board page's controls of the mode.
 * @param {string} name */
export function showView(name) {
  for (const view of document.querySelectorAll("main > .view")) /** @type {HTMLElement} */ (view).hidden = view.id !== `view-${name}`;
  document.querySelector("#view-game")?.classList.remove("missing");
  /** @param {string} selector @param {boolean} hidden */
  const hide = (selector, hidden) => { const node = document.querySelector(selector); if (node) /** @type {HTMLElement} */ (node).hidden = hidden; };
  hide("#missing", true);
  hide("#play-controls", state.mode !== "play");
  hide("#replay-controls", state.mode !== "replay");
}
