// @ts-check
/* The game view: playing a game of the library against people or the
 * computer. Human moves come from clicks and keys; computer moves are chosen by
 * the engine in the page (pageengine.js) and stored by the server, or asked of
 * the server where the page has no engine, one at a time (driveComputer), and
 * animated as they arrive. Hints and analyses are the engine's too.
 *
 * For tests: #board carries data-game, data-moves and data-human-to-move
 * ("true" when a click would play). */

import { effectMarks } from "./anim.js";
import { analysisMessage, finalText, moveName, renderAnalysis } from "./analysis.js";
import * as api from "./api.js";
import { $, $input, boardElement, sleep } from "./dom.js";
import {
  announce, drawPanels, hideBanner, moveNews, resultText, setBusy, setStatus, showBanner, showMissing, showView,
} from "./page.js";
import { gameBoard as board } from "./pageboard.js";
import { engineFor, pageEngine, positionOf } from "./pageengine.js";
import { STATIC_SITE } from "./site.js";
import {
  enterGame, keepLeaveToken, setAnalysis, setDriving, setGame, setHint, setPaused, state,
} from "./state.js";

/** @typedef {import("./api.js").GameState} GameState */
/** @typedef {import("./api.js").Move} Move */
/** @typedef {import("./board.js").BoardOptions} BoardOptions */

/** The board's options for the open game: clickable pits, last move, analysis values, hint.
 * @param {GameState} game @returns {BoardOptions} */
function boardOpts(game) {
  /** @type {BoardOptions} */
  const opts = { marks: effectMarks(game.last) };
  if (game.human_to_move && !state.busy) { opts.legal = game.legal_moves; opts.onPit = playHuman; }
  const analysis = state.analysis;
  if (analysis && analysis.available && analysis.forMoves === game.moves) {
    /** @type {Record<number, number | null>} */
    const values = {};
    for (const entry of analysis.moves || []) if (entry.move !== "swap") values[entry.move] = entry.value;
    opts.values = values;
    opts.best = analysis.best_move;
  }
  if (state.hint && state.hint.forMoves === game.moves) opts.hint = state.hint.move;
  return opts;
}

/** Draw the open game: board, panels and controls. */
export function redraw() {
  if (state.mode !== "play" || !state.game) return;
  const game = state.game;
  board.draw(game.board, game.to_move, game.over, boardOpts(game));
  drawPanels(game.board, game.to_move, game.over);
  updateControls();
}

/** The buttons, the move list and the status line for the open game. */
export function updateControls() {
  const game = state.game;
  if (!game) return;
  const svg = boardElement();
  svg.dataset.humanToMove = game.human_to_move && !state.busy ? "true" : "false";
  svg.dataset.game = String(game.id);
  svg.dataset.moves = String(game.moves);
  const cvc = !game.players[0].human && !game.players[1].human;
  const hasComputer = !game.players[0].human || !game.players[1].human;
  /** @param {string} selector @param {boolean} disabled */
  const disable = (selector, disabled) => { /** @type {HTMLButtonElement} */ ($(selector)).disabled = disabled; };
  disable("#btn-takeback", !game.can_take_back || state.busy);
  disable("#btn-redo", !game.can_redo || state.busy);
  disable("#btn-hint", !game.human_to_move || state.busy);
  $("#btn-swap").hidden = !(game.human_to_move && game.legal_moves.includes("swap"));
  $("#btn-pause").hidden = !cvc || game.over;
  $("#btn-review").hidden = !game.over;
  $("#btn-rematch").hidden = !game.over;
  $("#btn-pause").textContent = state.paused ? "▶ Resume" : "❚❚ Pause";
  $("#cvc-speed").hidden = !cvc;
  const history = $("#history");
  history.replaceChildren();
  game.history.forEach((name, i) => {
    const li = document.createElement("li");
    li.textContent = name;
    if (i === game.history.length - 1) li.className = "current";
    history.appendChild(li);
  });
  history.scrollTop = history.scrollHeight;
  if (game.over) {
    setStatus(resultText(game, game.board));
    showBanner(resultText(game, game.board), "result");
    /** @type {HTMLAnchorElement} */ ($("#btn-review")).href = `#/review/${game.id}`;
  } else if (game.human_to_move) {
    const humans = game.players.filter((p) => p.human).length;
    setStatus(humans === 2 ? `${game.players[game.to_move].name} to move: click a pit` : "Your move: click a pit (or type its letter)");
  } else if (hasComputer) {
    setStatus(state.paused ? "Paused" : `${game.players[game.to_move].name} is thinking…`);
  }
}

/**
 * Take the server's new state of the game: animate the move it adds (when
 * `animate` and it is one move on), redraw, and let the computer go on.
 * @param {GameState} game @param {boolean} animate
 */
async function showState(game, animate) {
  const previous = state.game;
  setGame(game);
  if (state.mode !== "play") return;
  const sameGame = previous && previous.id === game.id;
  if (!(sameGame && previous.over && game.over)) hideBanner();
  if (sameGame && game.last && game.moves === previous.moves + 1) {
    const humans = game.players.filter((p) => p.human).length;
    announce(moveNews(game.players.map((p) => p.name), game.last, humans === 1 ? game.players.findIndex((p) => p.human) : null));
  }
  if (animate && sameGame && game.last && game.moves === previous.moves + 1) {
    setBusy(true);
    setStatus(playingText(game, game.last.player, game.last.name));  // not "Your move" while the seeds still travel
    drawPanels(game.last.before, game.last.player, false);
    await board.animate(game.last, game.board, game.to_move, game.over);
    setBusy(false);
  }
  redraw();
  if (state.analysisOn) refreshGameAnalysis();
  driveComputer();
}

/** Open game `id` of the library to play. @param {number} id */
export async function openGame(id) {
  enterGame();
  setGame(null);  // until this game is read: no key or click reaches the game shown before
  showView("game");
  setBusy(true);
  try {
    const game = await api.getGame(id);
    hideBanner();
    setBusy(false);
    await showState(game, false);
  } catch (error) {
    setBusy(false);
    if (api.hasStatus(error, 404)) showMissing(`${api.errorText(error)} in the library`);
    else setStatus(api.errorText(error), true);
  }
}

/** The default game, shown but not stored (id 0) until its first move: a visit leaves no empty game. */
export async function freshGame() {
  const game = await api.newGame({ preview: true });
  enterGame();
  showView("game");
  setGame(null);
  hideBanner();
  await showState(game, false);
}

/** The open game, stored first if it was only shown (freshGame); its id is then in the address.
 * @param {GameState} game @returns {Promise<GameState>} */
async function stored(game) {
  if (game.id !== 0) return game;
  const created = await api.newGame({});
  keepLeaveToken(created);
  history.replaceState(null, "", `#/game/${created.id}`);
  setGame(created);
  return created;
}

/** Seconds of an analysis or a hint (the server's too). */
const ANALYSIS_SECONDS = 0.5;

/** The analysis of the open game's position: the page's engine, or the server (a game not stored yet is
 * analysed as a position). @param {GameState} game @returns {Promise<import("./api.js").Analysis>} */
async function analyseOpen(game) {
  const engine = await pageEngine();
  if (engine) return engine.analyse(positionOf(game), { time: ANALYSIS_SECONDS });
  if (game.id !== 0) return api.analyseGame(game.id);
  return api.analysePosition({ board: game.board, to_move: game.to_move, variant: game.variant });
}

/** "You play C…" or "Ann plays c…": the status while a move is sent and its seeds travel.
 * @param {GameState} game @param {number} player @param {string} name the move in pit letters @returns {string} */
function playingText(game, player, name) {
  const lone = game.players.filter((p) => p.human).length === 1;
  return lone && game.players[player].human ? `You play ${name}…` : `${game.players[player].name} plays ${name}…`;
}

/**
 * Say why a pit the person chose does nothing: it is empty, or not theirs (a click used to be silent).
 * @param {GameState} game @param {number} player whose pit it is @param {Move} move
 */
export function refuseMove(game, player, move) {
  if (!game.human_to_move || state.busy || game.over) return;
  const legal = game.legal_moves.map((m) => moveName(game.to_move, m)).join(", ");
  let why;
  if (move === "swap") why = "No swap here: the pie rule allows it only as the answer to the first move.";
  else if (player !== game.to_move) why = `Pit ${moveName(player, move)} is not yours: play one of ${legal}.`;
  else why = `Pit ${moveName(player, move)} is empty: play one of ${legal}.`;
  setStatus(why, true);
  showBanner(why, "info", 2500);
}

/** A new game with the same players, seats and variant as the open one (offered when it is over). */
export async function rematch() {
  const game = state.game;
  if (!game) return;
  const players = game.players.map((p) => (p.human ? "human" : p.level || p.spec));
  try {
    const next = await api.newGame({ variant: game.variant, players });
    keepLeaveToken(next);
    location.hash = `#/game/${next.id}`;
  } catch (error) { setStatus(api.errorText(error), true); }
}

/** Play a human move, if it is a human's turn and the move is legal. @param {Move} move */
export async function playHuman(move) {
  const game = state.game;
  if (!game || state.busy || !game.human_to_move || state.mode !== "play") return;
  if (!game.legal_moves.includes(move)) { refuseMove(game, game.to_move, move); return; }
  setHint(null);
  setBusy(true);
  setStatus(playingText(game, game.to_move, moveName(game.to_move, move)));
  try {
    const saved = await stored(game);
    const after = await api.playMove(saved.id, move, saved.moves);
    setBusy(false);
    await showState(after, true);
  } catch (error) {
    setBusy(false);
    setStatus(api.errorText(error), true);
    if (api.hasStatus(error, 409)) reload();
  }
}

/** Fetch the open game again (after the server said our view was stale). */
async function reload() {
  if (!state.game) return;
  setGame(await api.getGame(state.game.id));
  redraw();
  driveComputer();
}

/** How long to wait before asking for a computer move. @param {GameState} game @returns {number} */
function computerDelay(game) {
  const cvc = !game.players[0].human && !game.players[1].human;
  if (cvc) return Number($input("#speed").value);
  return state.animMs > 0 ? 350 : 0;
}

/** Ask the server for computer moves while a computer is to move (one loop at a time). */
export async function driveComputer() {
  if (state.driving) return;
  setDriving(true);
  try {
    while (state.mode === "play" && state.game && state.game.computer_to_move && !state.paused) {
      const id = (await stored(state.game)).id;
      setBusy(true);
      updateControls();
      const wait = computerDelay(state.game);
      if (wait) await sleep(wait);
      if (!state.game || state.game.id !== id || state.paused || state.mode !== "play") break;
      let game;
      try {
        game = await computerMove(id, state.game);
      } catch (error) {
        if (api.hasStatus(error, 409)) { game = await api.getGame(id); }
        else if (api.hasStatus(error, 503) || api.hasStatus(error, 429)) {
          // the server's engines are all busy: wait as it asks, then ask again
          setStatus("The server is busy; the computer's move will follow.", false);
          await sleep(1000 * Math.max(1, error instanceof api.ApiError ? error.retryAfter : 1));
          continue;
        }
        else { setStatus(api.errorText(error), true); break; }
      }
      if (!state.game || state.game.id !== id || state.mode !== "play") break;
      setBusy(false);
      await showStateNoDrive(game);
    }
  } finally {
    setDriving(false);
    setBusy(false);
    if (state.mode === "play" && state.game) redraw();
  }
}

/**
 * The computer's move in game `id`: chosen by the engine in the page where it plays that player, and stored
 * by the server as the computer's; else chosen by the server. The engine's player keeps its table and its
 * time from move to move of the game.
 * @param {number} id @param {GameState} game @returns {Promise<GameState>}
 */
async function computerMove(id, game) {
  const spec = game.players[game.to_move].spec;
  const engine = await engineFor(spec);
  if (!engine) return api.computerMove(id, game.moves);
  try {
    const choice = await engine.choose(spec, positionOf(game), `${id}/${game.to_move}`);
    return await api.playMove(id, choice.move, game.moves, true);
  } catch (error) {
    if (STATIC_SITE || error instanceof api.ApiError) throw error;
    console.warn(`the engine in the page could not move for ${spec}, the server does:`, error);
    return api.computerMove(id, game.moves);
  }
}

/** showState from inside the computer loop. @param {GameState} game */
async function showStateNoDrive(game) {
  const wasDriving = state.driving;
  setDriving(true); // keeps showState from starting a second loop
  try { await showState(game, true); } finally { setDriving(wasDriving); }
}

/** Take back or redo. @param {"takeback" | "redo"} action */
export async function gameAction(action) {
  if (!state.game || state.busy) return;
  setHint(null);
  try {
    const game = await api.gameAction(state.game.id, action, state.game.moves);
    setPaused(state.paused && !game.over);
    await showState(game, false);
  } catch (error) {
    setStatus(api.errorText(error), true);
    if (api.hasStatus(error, 409)) reload();
  }
}

/** Pause or resume a computer-against-computer game. */
export function togglePause() {
  setPaused(!state.paused);
  updateControls();
  if (!state.paused) driveComputer();
}

/** Analyse the open game's position; show the values in the panel and on the board. */
export async function refreshGameAnalysis() {
  if (!state.analysisOn) return;
  const game = state.game;
  if (!game || game.over) { renderAnalysis(null); analysisMessage(game && game.over ? finalText(game.board) : ""); return; }
  const moves = game.moves;
  analysisMessage("Thinking…");
  try {
    const result = await analyseOpen(game);
    if (!state.game || state.game.moves !== moves || (state.game.id !== game.id && game.id !== 0)) return;
    setAnalysis({ ...result, forMoves: moves });
    renderAnalysis(result, game.to_move);
    if (!state.busy) redraw();
  } catch (error) { analysisMessage(api.errorText(error)); }
}

/** Show the best move on the board. */
export async function hint() {
  const game = state.game;
  if (!game || !game.human_to_move) return;
  setStatus("Looking for the best move…");
  try {
    const result = await analyseOpen(game);
    if (!result.available) { setStatus(result.reason || "Hints need a search engine, and none is installed.", true); return; }
    if (result.best_move === null || result.best_move === undefined) { setStatus("No hint for this position.", true); return; }
    setHint({ move: result.best_move, forMoves: game.moves });
    setStatus(`Hint: play ${moveName(game.to_move, result.best_move)}`);
    board.draw(game.board, game.to_move, game.over, boardOpts(game));
  } catch (error) { setStatus(api.errorText(error), true); }
}
