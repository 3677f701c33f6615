// @ts-check
/* The Kalah board page: plain JavaScript modules, no build step, nothing from the internet.
 *
 * The server owns the rules and the games; this page draws the board in SVG
 * (board.js), animates what the server says a move did (anim.js), and sends
 * clicks and keys as moves (game.js). The one state is in state.js.
 *
 * Routes: #/ (the default game), #/game/ID, #/replay/ID, #/review/ID, #/library, #/puzzles, #/analyse?position=JSON
 * (a position and its analysis: the lab links there), and #/new (the default game with the New game dialog open: the
 * bar's "New game" from another page).
 *
 * For tests: #board carries data-to-move, data-over, data-busy (true while a
 * move is animated or the computer thinks) and data-human-to-move; every pit
 * data-pit="P-I" and data-seeds, every store data-store="P" and data-seeds.
 */

import { renderAnalysis } from "./analysis.js";
import * as api from "./api.js";
import { $, $dialog, $input, boardElement } from "./dom.js";
import {
  freshGame, gameAction, hint, openGame, playHuman, redraw, refreshGameAnalysis, refuseMove, rematch, togglePause,
} from "./game.js";
import { playAFriend } from "./invite.js";
import { importRecord, openLibrary, setUpLibraryFilters, showOlderGames } from "./library.js";
import { mountNav } from "./nav.js";
import { openNewGame, setUpNewGameDialog } from "./newgame.js";
import { openPuzzles } from "./puzzles.js";
import { closeReview, openReview } from "./review.js";
import { setStatus, showView } from "./page.js";
import {
  continueReplayed, openPosition, openReplay, refreshReplayAnalysis, replayAutoplay, replayJump, replayShow, replayStep, stopAutoplay,
} from "./replay.js";
import { pageEngine } from "./pageengine.js";
import { STATIC_SITE } from "./site.js";
import { setUpSettings } from "./settings.js";
import { bottomPlayer, setAnalysisOn, setFlipped, setInfo, setMode, state, takeLeaveToken } from "./state.js";

/** Tell the server the page leaves the open game (a beacon, because the page may be closing): a
 * computer-against-computer game is marked unfinished (nobody drives it any more), and a game this page
 * stored, left before its first move, is removed, so that abandoned pages do not pile empty games up in the
 * library. Only this page has the game's secret (its leave token), so no other client can remove it. */
function leaveGame() {
  const game = state.game;
  if (!game || game.id === 0 || game.over || state.mode !== "play") return;
  const token = takeLeaveToken(game.id);
  if (game.moves > 0 && game.players.some((p) => p.human)) return;  // a person comes back to a game begun
  if (STATIC_SITE) { api.request("POST", `/api/games/${game.id}/leave`, { token }); return; }  // kept in this browser
  // in the body: a beacon sets no header, and a token in the address would be in the server's access log
  const body = new Blob([JSON.stringify({ token })], { type: "application/json" });
  navigator.sendBeacon(`/api/games/${game.id}/leave`, body);
}

/** A click on a pit that cannot be played (empty, or the other side's) is explained; the pits that can be
 * played have their own handler (board.js). @param {MouseEvent} event */
function onBoardClick(event) {
  const game = state.game;
  if (state.mode !== "play" || !game || !(event.target instanceof Element)) return;
  const pit = event.target.closest("[data-pit]");
  if (!pit) return;
  const [player, index] = String(pit.getAttribute("data-pit")).split("-").map(Number);
  if (player === game.to_move && game.legal_moves.includes(index)) return;
  refuseMove(game, player, index);
}

/** Show what the address names. */
async function route() {
  stopAutoplay();
  closeReview();
  leaveGame();
  const hash = location.hash || "#/";
  // the New game dialog belongs to the board it was opened over: another address (a review, the library)
  // closes it (it stayed open over a review reached by its address)
  if (!hash.startsWith("#/new") && $dialog("#dlg-new").open) $dialog("#dlg-new").close();
  let match;
  if ((match = hash.match(/^#\/game\/(\d+)/))) return openGame(Number(match[1]));
  if ((match = hash.match(/^#\/replay\/(\d+)/))) return openReplay(Number(match[1]));
  if ((match = hash.match(/^#\/analyse\?(.*)$/))) return openPosition(new URLSearchParams(match[1]).get("position"));
  if ((match = hash.match(/^#\/review\/(\d+)/))) return openReview(Number(match[1]));
  if (hash.startsWith("#/library")) return openLibrary();
  if (hash.startsWith("#/puzzles")) return openPuzzles();
  // the dialog is opened once: a reload or Back does not bring it up again
  const asked = hash.startsWith("#/new");
  if (asked) history.replaceState(null, "", "#/");
  setMode("play");
  showView("game");
  try { await freshGame(); } catch (error) { setStatus(api.errorText(error), true); }
  // ... unless the page went elsewhere meanwhile (a review's address opened while the board loaded)
  if (asked && (location.hash || "#/") === "#/" && state.mode === "play") openNewGame();
}

/** Keys: pit letters play, S swaps; arrows, Home and End step a replay. @param {KeyboardEvent} event */
function onKey(event) {
  if (event.target instanceof Element && event.target.closest("input, select, textarea, dialog")) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (state.mode === "replay") {
    if (event.key === "ArrowRight") { replayStep(1); event.preventDefault(); }
    else if (event.key === "ArrowLeft") { replayStep(-1); event.preventDefault(); }
    // Home and End jump the replay, not the page as well (on a phone that pulled the board out of sight).
    else if (event.key === "Home") { replayJump("start"); event.preventDefault(); }
    else if (event.key === "End") { replayJump("end"); event.preventDefault(); }
    return;
  }
  const game = state.game;
  if (state.mode !== "play" || !game || !game.human_to_move) return;
  const key = event.key;
  if (key.length !== 1 || !/[a-z]/i.test(key)) return;
  const m = game.board[0].length - 1;
  const index = key.toLowerCase().charCodeAt(0) - 97;
  if (index >= 0 && index < m) { playHuman(index); return; }
  if (key.toLowerCase() === "s" && game.legal_moves.includes("swap")) playHuman("swap");
}

/** Turn the board around. */
function flip() {
  setFlipped(1 - bottomPlayer());
  if (state.mode === "replay" && state.replay) replayShow(state.replay.index, false); else redraw();
}

/** Switch the analysis panel on or off. @param {boolean} on */
function toggleAnalysis(on) {
  setAnalysisOn(on);
  if (!on) { renderAnalysis(null); redraw(); return; }
  if (state.mode === "replay") refreshReplayAnalysis(); else refreshGameAnalysis();
}

async function init() {
  mountNav();
  setUpSettings(new URLSearchParams(location.search));
  setUpNewGameDialog();
  setUpLibraryFilters();
  $("#btn-takeback").addEventListener("click", () => gameAction("takeback"));
  $("#btn-redo").addEventListener("click", () => gameAction("redo"));
  $("#btn-swap").addEventListener("click", () => playHuman("swap"));
  $("#btn-hint").addEventListener("click", hint);
  $("#btn-invite").hidden = STATIC_SITE;  // games between people need a server
  $("#btn-invite").addEventListener("click", () => playAFriend().catch((error) => setStatus(api.errorText(error), true)));
  $("#btn-flip").addEventListener("click", flip);
  $("#btn-pause").addEventListener("click", togglePause);
  $("#btn-rematch").addEventListener("click", rematch);
  boardElement().addEventListener("click", onBoardClick);
  $("#analysis-toggle").addEventListener("change", () => toggleAnalysis($input("#analysis-toggle").checked));
  $("#rp-first").addEventListener("click", () => replayJump("start"));
  $("#rp-prev").addEventListener("click", () => replayStep(-1));
  $("#rp-next").addEventListener("click", () => replayStep(1));
  $("#rp-last").addEventListener("click", () => replayJump("end"));
  $("#rp-play").addEventListener("click", replayAutoplay);
  $("#rp-slider").addEventListener("input", () => replayShow(Number($input("#rp-slider").value), false));
  $("#rp-continue").addEventListener("click", continueReplayed);
  $("#library-more").addEventListener("click", showOlderGames);
  $("#import-file").addEventListener("change", () => {
    const input = $input("#import-file");
    if (input.files && input.files[0]) importRecord(input.files[0]);
    input.value = "";
  });
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", route);
  window.addEventListener("pagehide", leaveGame);
  try { setInfo(await api.getInfo()); } catch (error) { setStatus(api.errorText(error), true); return; }
  await route();
  pageEngine();  // the engine loads in its worker once the board is up (a computer to move starts it sooner)
}

init();
