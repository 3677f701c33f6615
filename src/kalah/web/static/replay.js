// @ts-check
/* Replaying a game of the library: step, jump, autoplay; a stepped-forward
 * move is animated. An unfinished game can be continued from its end. A
 * position alone (#/analyse?position=JSON) is shown the same way, analysed.
 *
 * For tests: #board carries data-replay-index, the frame shown (0: the start). */

import { effectMarks } from "./anim.js";
import { analyseFrame } from "./analysis.js";
import * as api from "./api.js";
import { $, $input, boardElement, scrollIntoList, sleep } from "./dom.js";
import { drawPanels, hideBanner, resultText, setBusy, setStatus, showBanner, showMissing, showView } from "./page.js";
import { replayBoard as board } from "./pageboard.js";
import { Position } from "./engine/rules.js";
import { enterReplay, setAnalysisOn, setReplay, setReplayIndex, setReplayPlaying, state } from "./state.js";

/**
 * Show a position given as Position.to_dict's JSON (the address #/analyse?position=JSON, which the lab links
 * to for the board it shows or was pasted) with its analysis: a replay of one frame, the analysis on.
 * @param {string | null} text
 */
export async function openPosition(text) {
  enterReplay();
  setReplay(null);
  showView("game");
  hideBanner();
  let position;
  try {
    position = Position.fromJSON(text ?? "");
  } catch (error) {
    showMissing(`Not a position to analyse: ${api.errorText(error)}`);
    return;
  }
  const frame = { board: position.board, to_move: position.to_move, over: position.is_over, last: null };
  const players = [0, 1].map((p) => ({ name: `Player ${p}`, spec: "human", human: true, level: null }));
  setReplay({ id: 0, frames: [frame], players, variant: position.variant.toJSON(), index: 0, playing: false, unfinished: false });
  $input("#rp-slider").max = "0";
  setAnalysisOn(true);
  $input("#analysis-toggle").checked = true;
  await replayShow(0, false);
}

/** Open game `id` of the library for replaying, at its start. @param {number} id */
export async function openReplay(id) {
  enterReplay();
  setReplay(null);  // until this game is read: nothing of the previous replay speaks for it
  showView("game");
  hideBanner();
  setBusy(true);
  try {
    const data = await api.getReplay(id);
    setReplay({ id, frames: data.frames, players: data.players, variant: data.variant, index: 0, playing: false,
      unfinished: !data.frames[data.frames.length - 1].over });
    $input("#rp-slider").max = String(data.frames.length - 1);
    setBusy(false);
    replayShow(0, false);
  } catch (error) {
    setBusy(false);
    if (api.hasStatus(error, 404)) showMissing(`${api.errorText(error)} in the library`);
    else setStatus(api.errorText(error), true);
  }
}

/**
 * Show frame `index` (clamped to the game); a step forward is animated when `animate`.
 * @param {number} index @param {boolean} animate
 */
export async function replayShow(index, animate) {
  const rp = state.replay;
  if (!rp) return;
  index = Math.max(0, Math.min(rp.frames.length - 1, index));
  const frame = rp.frames[index];
  const forward = animate && index === rp.index + 1 && frame.last;
  setReplayIndex(rp, index);
  hideBanner();
  if (forward && frame.last) {
    setBusy(true);
    drawPanels(frame.last.before, frame.last.player, false);
    await board.animate(frame.last, frame.board, frame.to_move, frame.over);
    setBusy(false);
  } else {
    board.draw(frame.board, frame.to_move, frame.over, { marks: effectMarks(frame.last) });
  }
  if (state.mode !== "replay" || state.replay !== rp) return;
  drawPanels(frame.board, frame.to_move, frame.over);
  $input("#rp-slider").value = String(index);
  $("#rp-pos").textContent = `move ${index} of ${rp.frames.length - 1}` + (frame.last ? ` (${frame.last.name})` : "");
  $("#rp-continue").hidden = !(rp.unfinished && index === rp.frames.length - 1);
  const historyList = $("#history");
  historyList.replaceChildren();
  rp.frames.slice(1).forEach((f, i) => {
    const li = document.createElement("li");
    li.textContent = f.last ? f.last.name : "";
    li.tabIndex = 0;
    if (i + 1 === index) li.className = "current";
    li.addEventListener("click", () => replayShow(i + 1, false));
    historyList.appendChild(li);
  });
  // The list is a short scrolled box: a jump (Last, End, the slider) would leave the shown move out of sight.
  const current = historyList.querySelector("li.current");
  if (current) scrollIntoList(historyList, current);
  else historyList.scrollTop = 0;
  const scores = [frame.board[0][frame.board[0].length - 1], frame.board[1][frame.board[1].length - 1]];
  if (frame.over) {
    const text = resultText({ scores }, frame.board);
    setStatus(`Replay of game ${rp.id}: ${text}`);
    showBanner(text, "result");
  } else {
    setStatus(rp.id ? `Replay of game ${rp.id}: ${rp.players[frame.to_move].name} to move` : `A position: ${rp.players[frame.to_move].name} to move`);
  }
  const svg = boardElement();
  svg.dataset.humanToMove = "false";
  svg.dataset.replayIndex = String(index);
  refreshReplayAnalysis();
}

/** Analyse the frame shown, when the analysis panel is on. */
export function refreshReplayAnalysis() {
  const rp = state.replay;
  if (state.analysisOn && rp) analyseFrame(rp.frames[rp.index], rp.variant);
}

/** Step by `delta` frames (animated forward). @param {number} delta */
export function replayStep(delta) {
  if (state.replay) replayShow(state.replay.index + delta, delta > 0);
}

/** Jump to the start or the end. @param {"start" | "end"} where */
export function replayJump(where) {
  if (state.replay) replayShow(where === "start" ? 0 : state.replay.frames.length - 1, false);
}

/** Start autoplay, or stop it when it runs. */
export async function replayAutoplay() {
  const rp = state.replay;
  if (!rp) return;
  if (rp.playing) { setReplayPlaying(rp, false); $("#rp-play").textContent = "▶ Play"; return; }
  setReplayPlaying(rp, true);
  $("#rp-play").textContent = "❚❚ Pause";
  if (rp.index >= rp.frames.length - 1) await replayShow(0, false);
  while (rp.playing && state.replay === rp && rp.index < rp.frames.length - 1) {
    await sleep(Math.max(250, state.animMs * 3));
    if (!rp.playing || state.replay !== rp) break;
    await replayShow(rp.index + 1, true);
  }
  setReplayPlaying(rp, false);
  $("#rp-play").textContent = "▶ Play";
}

/** Stop autoplay (when the page goes elsewhere). */
export function stopAutoplay() {
  if (state.replay) setReplayPlaying(state.replay, false);
}

/** Continue the replayed game from its end, as a game to play. */
export function continueReplayed() {
  if (state.replay) location.hash = `#/game/${state.replay.id}`;
}
