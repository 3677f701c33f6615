// @ts-check
/* The live page's drawing around the board: the two player panels with
 * presence and clocks, the controls, the request line and the watchers.
 *
 * For tests: each clock is [data-clock="0"|"1"] with the milliseconds left in
 * data-ms (counted down on the page between the server's news; the server
 * decides when time is out); #watchers has data-watchers. */

import { $ } from "./dom.js";

/** @typedef {import("./api.js").Live} Live */

/** The clock as the server last told it, and when (performance.now()). */
let clockBase = { ms: [0, 0], running: /** @type {number | null} */ (null), at: 0, kind: "none" };

/** Milliseconds as a clock shows them: "2:59", "0:08.4", "1:02:03", "2d 4h". @param {number} ms @returns {string} */
export function clockText(ms) {
  const total = Math.max(0, ms);
  if (total >= 86_400_000) return `${Math.floor(total / 86_400_000)}d ${Math.floor(total / 3_600_000) % 24}h`;
  const seconds = Math.floor(total / 1000);
  const pad = (/** @type {number} */ n) => String(n).padStart(2, "0");
  if (seconds >= 3600) return `${Math.floor(seconds / 3600)}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}`;
  if (total < 10_000) return `0:0${(total / 1000).toFixed(1)}`;
  return `${Math.floor(seconds / 60)}:${pad(seconds % 60)}`;
}

/** The milliseconds left for player `p` now, by the page's reckoning. @param {number} p @returns {number} */
function msLeft(p) {
  const spent = clockBase.running === p ? performance.now() - clockBase.at : 0;
  return Math.max(0, Math.round(clockBase.ms[p] - spent));
}

/** Show the clocks' time left (called every few hundred milliseconds). */
export function tickClocks() {
  for (const element of document.querySelectorAll("[data-clock]")) {
    const el = /** @type {HTMLElement} */ (element);
    const p = Number(el.dataset.clock);
    const ms = msLeft(p);
    el.dataset.ms = String(ms);
    el.textContent = clockText(ms);
    el.classList.toggle("running", clockBase.running === p);
    el.classList.toggle("low", clockBase.kind === "clock" && ms < 20_000);
  }
}

/**
 * The two panels: names (yours marked), presence, clock, score, whose turn.
 * @param {Live} snap @param {number | null} seat the seat this page holds @param {number} bottom
 * @param {number[][]} board the board shown (the one before a move while it is animated)
 * @param {number} toMove @param {boolean} over
 */
export function drawPanels(snap, seat, bottom, board, toMove, over) {
  const { state, live } = snap;
  clockBase = { ms: live.clock.ms, running: live.clock.running, at: performance.now(), kind: live.clock.kind };
  for (const [where, p] of /** @type {[string, number][]} */ ([["#panel-bottom", bottom], ["#panel-top", 1 - bottom]])) {
    const panel = $(where);
    const active = !over && toMove === p;
    panel.className = "player-panel" + (active ? " active" : "") + (where === "#panel-top" ? " top" : " bottom");
    panel.replaceChildren();
    const add = (/** @type {string} */ tag, /** @type {string} */ cls, /** @type {string} */ text) => {
      const el = document.createElement(tag);
      el.className = cls;
      el.textContent = text;
      panel.append(el);
      return el;
    };
    add("span", "dot human", "");
    add("span", "name", state.players[p].name + (seat === p ? " (you)" : ""));
    const presence = !live.seats_taken[p] ? "waiting for them to join" : live.connected[p] ? "here" : "away";
    add("span", "presence " + (live.connected[p] ? "on" : "off"), presence).dataset.presence = String(live.connected[p]);
    add("span", "turn", active ? "to move" : "");
    if (live.clock.kind !== "none") {
      const clock = add("span", "clock", "");
      clock.dataset.clock = String(p);
      clock.title = live.clock.text;
    }
    add("span", "score", String(board[p][board[p].length - 1]));
  }
  tickClocks();
}

/** "Player 2 wins on time", "Player 1 resigned: Player 2 wins", "Draw, 24 – 24". @param {Live} snap @returns {string} */
export function resultText(snap) {
  const { state, live } = snap;
  const name = (/** @type {number} */ p) => state.players[p].name;
  if (live.result) {
    const winner = live.result.winner;
    if (winner === null) return "Draw";
    if (live.result.reason === "time") return `${name(1 - winner)} ran out of time: ${name(winner)} wins`;
    if (live.result.reason === "resign") return `${name(1 - winner)} resigned: ${name(winner)} wins`;
    return `${name(winner)} wins`;
  }
  const scores = state.scores || [0, 0];
  if (scores[0] === scores[1]) return `Draw, ${scores[0]} – ${scores[1]}`;
  const winner = scores[0] > scores[1] ? 0 : 1;
  return `${name(winner)} wins ${Math.max(...scores)} – ${Math.min(...scores)}`;
}

/**
 * The buttons, the request line, the watchers and the move list.
 * @param {Live} snap @param {number | null} seat @param {boolean} busy
 */
export function drawControls(snap, seat, busy) {
  const { state, live } = snap;
  const ended = state.over || live.result !== null || state.status !== "playing";
  const player = seat !== null;
  const myTurn = player && !ended && state.to_move === seat && live.seats_taken[0] && live.seats_taken[1];
  /** @param {string} id @param {boolean} hidden @param {boolean} [disabled] */
  const button = (id, hidden, disabled) => {
    const el = /** @type {HTMLButtonElement} */ ($(id));
    el.hidden = hidden;
    el.disabled = !!disabled;
  };
  button("#btn-swap", !(myTurn && state.legal_moves.includes("swap")), busy);
  button("#btn-takeback", !player || ended, busy || live.takeback_from !== null ||
    !state.history.length || state.moves === 0);
  button("#btn-resign", !player || ended, busy);
  button("#btn-rematch", !player || !ended || live.rematch_game !== null, seat !== null && live.rematch_from.includes(seat));
  const rematch = $("#rematch-link");
  rematch.hidden = live.rematch_game === null;
  if (live.rematch_game !== null) rematch.setAttribute("href", `#/${player ? "game" : "watch"}/${live.rematch_game}`);
  const asking = live.takeback_from;
  $("#request").hidden = !(player && asking !== null && asking !== seat && !ended);
  $("#request-text").textContent = asking !== null ? `${state.players[asking].name} asks to take back their last move.` : "";
  const watchers = $("#watchers");
  watchers.dataset.watchers = String(live.watchers);
  watchers.textContent = live.watchers === 0 ? "no one watching" : live.watchers === 1 ? "1 watching" : `${live.watchers} watching`;
  const history = $("#history");
  history.replaceChildren(...state.history.map((name, i) => {
    const li = document.createElement("li");
    li.textContent = name;
    if (i === state.history.length - 1) li.className = "current";
    return li;
  }));
  return myTurn;
}
