// @ts-check
/* The live page's drawing around the board: the two player panels with
 * presence and clocks, the controls, the request line and the watchers.
 *
 * For tests: each clock is [data-clock="0"|"1"] with the milliseconds left in
 * data-ms (counted down on the page between the server's news; the server
 * decides when time is out); a correspondence clock (days a move) shows days
 * and hours, and its deadline in its title; #watchers has data-watchers. */

import { clockText, daysText, dueText } from "./clocktext.js";
import { $ } from "./dom.js";
import { fillPanels, outcomeText, sideText } from "./page.js";

/** @typedef {import("./api.js").Live} Live */

/** The clock as the server last told it, and when (performance.now()). */
let clockBase = { ms: [0, 0], running: /** @type {number | null} */ (null), at: 0, kind: "none" };

/** The milliseconds left for player `p` now, by the page's reckoning. @param {number} p @returns {number} */
function msLeft(p) {
  const spent = clockBase.running === p ? performance.now() - clockBase.at : 0;
  return Math.max(0, Math.round(clockBase.ms[p] - spent));
}

/** When the running correspondence move is due (milliseconds since the epoch), or null. @returns {number | null} */
export function moveDue() {
  if (clockBase.kind !== "days" || clockBase.running === null) return null;
  return Date.now() + msLeft(clockBase.running);
}

/** Show the clocks' time left (called every few hundred milliseconds). */
export function tickClocks() {
  for (const element of document.querySelectorAll("[data-clock]")) {
    const clock = /** @type {HTMLElement} */ (element);
    const p = Number(clock.dataset.clock);
    const ms = msLeft(p);
    clock.dataset.ms = String(ms);
    clock.textContent = clockBase.kind === "days" ? daysText(ms) : clockText(ms);
    clock.classList.toggle("running", clockBase.running === p);
    clock.classList.toggle("low", clockBase.kind === "clock" ? ms < 20_000 : ms < 3_600_000);
  }
}

/**
 * The two panels (page.js's, as on the board page): names (yours marked), presence, clock, score, whose turn.
 * @param {Live} snap @param {number | null} seat the seat this page holds @param {number} bottom
 * @param {number[][]} board the board shown (the one before a move while it is animated)
 * @param {number} toMove @param {boolean} over
 */
export function drawLivePanels(snap, seat, bottom, board, toMove, over) {
  const { state, live } = snap;
  clockBase = { ms: live.clock.ms, running: live.clock.running, at: performance.now(), kind: live.clock.kind };
  const m = board[0].length - 1;
  fillPanels(board, toMove, over, bottom, [0, 1].map((p) => {
    /** @type {HTMLElement[]} */
    const extras = [];
    const presence = document.createElement("span");
    presence.className = "presence " + (live.connected[p] ? "on" : "off");
    presence.textContent = !live.seats_taken[p] ? "waiting for them to join" : live.connected[p] ? "here" : "away";
    presence.dataset.presence = String(live.connected[p]);
    extras.push(presence);
    if (live.clock.kind !== "none") {
      const clock = document.createElement("span");
      clock.className = "clock";
      clock.dataset.clock = String(p);
      clock.dataset.kind = live.clock.kind;
      const due = live.clock.kind === "days" && live.clock.running === p ? Date.now() + live.clock.ms[p] : null;
      clock.title = live.clock.text + (due === null ? "" : `: to move by ${dueText(due)}`);
      clock.setAttribute("aria-label", `${state.players[p].name}'s clock`);
      extras.push(clock);
    }
    return { name: state.players[p].name, kind: "human", you: seat === p, side: sideText(p, m), turn: "to move", extras };
  }));
  tickClocks();
}

/** "Player 2 wins on time", "Player 1 resigned: Player 2 wins", "You win! 30 – 18": page.js's wording.
 * @param {Live} snap @param {number | null} seat the seat this page holds @returns {string} */
export function liveResultText(snap, seat) {
  const { state, live } = snap;
  return outcomeText({ scores: state.scores || [0, 0], names: state.players.map((p) => p.name), you: seat,
    decided: live.result, seated: live.seats_taken.every(Boolean) });
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
    const control = /** @type {HTMLButtonElement} */ ($(id));
    control.hidden = hidden;
    control.disabled = !!disabled;
  };
  button("#btn-swap", !(myTurn && state.legal_moves.includes("swap")), busy);
  const seated = live.seats_taken[0] && live.seats_taken[1];
  // the first player's first move is move 1, the second's move 2 at the earliest (the server knows for sure)
  const haveMoved = seat !== null && state.moves >= seat + 1;
  button("#btn-takeback", !player || ended || !seated, busy || live.takeback_from !== null || !haveMoved);
  button("#btn-resign", !player || ended || !seated, busy);
  const asked = seat !== null && live.rematch_from.includes(seat);
  const offered = seat !== null && live.rematch_from.includes(1 - seat);
  button("#btn-rematch", !player || !ended || live.rematch_game !== null, asked);
  $("#btn-rematch").textContent = asked ? "Rematch asked" : offered ? "Accept the rematch" : "Rematch";
  const rematch = $("#rematch-link");
  rematch.hidden = live.rematch_game === null;
  if (live.rematch_game !== null) rematch.setAttribute("href", `#/${player ? "game" : "watch"}/${live.rematch_game}`);
  const asking = live.takeback_from;
  $("#request").hidden = !(player && asking !== null && asking !== seat && !ended);
  $("#request-text").textContent = asking !== null ? `${state.players[asking].name} asks to take back their last move.` : "";
  const other = seat === null ? "" : state.players[1 - seat].name;
  /** @type {string} */
  let waiting = "";
  if (!ended && asking !== null && asking === seat) waiting = `You asked to take back your last move: waiting for ${other}.`;
  else if (ended && live.rematch_game === null && asked) waiting = `Rematch asked: waiting for ${other}.`;
  else if (ended && live.rematch_game === null && offered) waiting = `${other} asks for a rematch.`;
  else if (seat === null && ended && live.rematch_from.length && live.rematch_game === null) waiting = "A rematch is asked.";
  $("#asked").textContent = waiting;
  $("#asked").hidden = !waiting;
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
