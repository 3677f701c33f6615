// @ts-check
/* The live page (/live): a game between two people at two screens, watching
 * one, and the lobby.
 *
 * Routes: #/new (make an invitation), #/join/ID/INVITE (take the empty seat:
 * the invitation is in the fragment, which no browser sends to a server),
 * #/game/ID (play with this browser's seat token, kept in localStorage, or
 * watch without one), #/watch/ID (watch), #/lobby.
 *
 * The server pushes the game's state after every change over a WebSocket
 * (/api/games/ID/live); the page animates a move one on, as for a computer's
 * move, and sends its own moves by POST with the token in a header.
 *
 * For tests: #board carries data-game, data-moves, data-seat, data-busy,
 * data-human-to-move ("true" when a click would play); the invitation link is
 * [data-invite], the watch link [data-watch]; clocks are in liveview.js. */

import { effectMarks } from "./anim.js";
import * as api from "./api.js";
import { createBoard } from "./board.js";
import { $, $input, $select, boardElement, showBanner } from "./dom.js";
import { openLobby, offerChallenge, withdrawMine } from "./lobby.js";
import { mountNav } from "./nav.js";
import { dueText } from "./clocktext.js";
import { drawControls, drawLivePanels, liveResultText, moveDue, tickClocks } from "./liveview.js";
import { announce, moveNews, setStatus, showView } from "./page.js";
import { keepName, keepToken, storedName, tokenOf } from "./seatstore.js";
import { reducedMotion } from "./settings.js";
import { STYLE } from "./style.js";

/** @typedef {import("./api.js").Live} Live */
/** @typedef {import("./api.js").Move} Move */


const params = new URLSearchParams(location.search);
/** Milliseconds a seed of an animated move: ?anim=off|MS, else the board page's setting, else 170 (none where the
 * system asks for reduced motion). */
const animMs = params.has("anim") ? (params.get("anim") === "off" ? 0 : Number(params.get("anim"))) : savedAnimMs();

/** @returns {number} */
function savedAnimMs() {
  let saved = null;
  try { saved = localStorage.getItem("kalah.anim"); } catch (e) { saved = null; }
  if (saved !== null && !isNaN(Number(saved))) return Number(saved);
  return reducedMotion() ? 0 : 170;
}

/** The game this page shows, and this page's part in it.
 * @type {{id: number, seat: number | null, token: string | null, snap: Live | null, busy: boolean,
 *   socket: WebSocket | null, shown: Promise<void>, retry: number}} */
const liveGame = { id: 0, seat: null, token: null, snap: null, busy: false, socket: null, shown: Promise.resolve(), retry: 0 };

const board = createBoard(boardElement(), {
  style: STYLE, animMs: () => animMs, onPit: (pit) => play(pit), onBanner: showBanner,
});

/** A message that stays under the status line until another game opens. @param {string} text */
function notice(text) {
  $("#notice").textContent = text;
  $("#notice").hidden = !text;
}

// --- drawing -------------------------------------------------------------------------

/** Draw the game as `snap` says (the board, panels, controls, status). @param {Live} snap */
function draw(snap) {
  const { state, live } = snap;
  const ended = state.over || live.result !== null || state.status !== "playing";
  const myTurn = drawControls(snap, liveGame.seat, liveGame.busy);
  const canPlay = myTurn && !liveGame.busy;
  board.setBottom(liveGame.seat === 1 ? 1 : 0);
  board.draw(state.board, state.to_move, ended, {
    marks: effectMarks(state.last), ...(canPlay ? { legal: state.legal_moves } : {}),
  });
  drawLivePanels(snap, liveGame.seat, board.bottom(), state.board, state.to_move, ended);
  drawNameBox(snap, ended);
  const svg = boardElement();
  svg.dataset.game = String(state.id);
  svg.dataset.moves = String(state.moves);
  svg.dataset.seat = liveGame.seat === null ? "" : String(liveGame.seat);
  svg.dataset.humanToMove = canPlay ? "true" : "false";
  svg.dataset.over = ended ? "true" : "false";
  $("#view-game").classList.remove("unpainted");
  $("#invite-box").hidden = live.seats_taken[0] && live.seats_taken[1] || $("#invite-link").getAttribute("href") === "#";
  if (ended) { setStatus(liveResultText(snap, liveGame.seat)); showBanner(liveResultText(snap, liveGame.seat), "result"); }
  else if (!(live.seats_taken[0] && live.seats_taken[1])) setStatus("Waiting for your friend to open the invitation…");
  else {
    const due = moveDue();  // a correspondence game: the day and hour the move is due
    const by = due === null ? "" : ` (by ${dueText(due)})`;
    if (liveGame.seat === null) setStatus(`Watching: ${state.players[state.to_move].name} to move${by}`);
    else if (myTurn) setStatus(`Your move: click a pit${by}`);
    else setStatus(`${state.players[state.to_move].name} to move${by}` +
      (due === null ? "" : ". You may close this page: your seat stays in this browser."));
  }
}

/** Tell this page's player what became of their requests: a take-back declined or granted, a rematch made
 * (the players go to it, their seats held by the same tokens; a watcher follows them to it).
 * @param {Live | null} before @param {Live} now */
function answered(before, now) {
  if (!before || before.state.id !== now.state.id) return;
  const rematch = now.live.rematch_game;
  if (before.live.rematch_game === null && rematch !== null) {
    if (liveGame.seat === null) { location.hash = `#/watch/${rematch}`; return; }
    if (liveGame.token) { keepToken(rematch, liveGame.token); location.hash = `#/game/${rematch}`; return; }
  }
  if (liveGame.seat === null) return;
  const other = now.state.players[1 - liveGame.seat].name;
  if (before.live.takeback_from === liveGame.seat && now.live.takeback_from === null && now.live.result === null) {
    showBanner(now.state.moves < before.state.moves ? `${other} let you take back your move`
      : `${other} declined to take back your move`, "", 3000);
  }
}

/** The name field under the board, for a player who came without a name (by a link) while the game goes on.
 * @param {Live} snap @param {boolean} ended */
function drawNameBox(snap, ended) {
  const seat = liveGame.seat;
  const unnamed = seat !== null && /^Player [12]$/.test(snap.state.players[seat].name);
  $("#name-box").hidden = !unnamed || ended;
  if (unnamed && !ended && document.activeElement !== $("#name-input")) $input("#name-input").value = storedName();
}

/** Take news of the game: animate a move one on, then draw. @param {Live} snap */
async function show(snap) {
  const previous = liveGame.snap;
  if (snap.state.id !== liveGame.id) return;
  if (previous && snap.state.moves === previous.state.moves && snap.state.status === previous.state.status &&
      previous.live.result === null && snap.live.result === null && previous.state.id === snap.state.id) {
    // presence, a request or a clock: no move to animate
    liveGame.snap = snap;
    if (!liveGame.busy) draw(snap);
    answered(previous, snap);
    return;
  }
  liveGame.snap = snap;
  const last = snap.state.last;
  if (previous && last && snap.state.moves === previous.state.moves + 1) {
    announce(moveNews(snap.state.players.map((p) => p.name), last, liveGame.seat));
  }
  if (previous && last && snap.state.moves === previous.state.moves + 1 && animMs > 0) {
    liveGame.busy = true;
    boardElement().dataset.busy = "true";
    $("#banner").hidden = true;
    board.setBottom(liveGame.seat === 1 ? 1 : 0);
    await board.animate(last, snap.state.board, snap.state.to_move, snap.state.over);
  }
  liveGame.busy = false;
  boardElement().dataset.busy = "false";
  if (!(snap.live.result || snap.state.over)) $("#banner").hidden = true;
  draw(liveGame.snap);
  answered(previous, snap);
}

/** Queue news so that animations play one after another. @param {Live} snap */
function news(snap) { liveGame.shown = liveGame.shown.then(() => show(snap)).catch((e) => setStatus(api.errorText(e), true)); }

// --- the push connection -------------------------------------------------------------------

/** Connect to game `id`'s news (again after a drop, with a growing wait). @param {number} id */
function connect(id) {
  if (liveGame.socket) liveGame.socket.close();
  const socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/games/${id}/live`);
  liveGame.socket = socket;
  socket.addEventListener("open", () => { socket.send(JSON.stringify(liveGame.token ? { token: liveGame.token } : {})); });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "hello") {
      liveGame.retry = 0;
      if (liveGame.token && message.seat === null) notice("This browser's seat token is not valid for this game: watching.");
      liveGame.seat = message.seat;
      news(message);
    } else if (message.type === "state") news(message);
    else if (message.type === "presence" && liveGame.snap) {
      news({ state: liveGame.snap.state, live: { ...liveGame.snap.live, connected: message.connected, watchers: message.watchers } });
    }
  });
  socket.addEventListener("close", () => {
    if (liveGame.socket !== socket || liveGame.id !== id) return;
    liveGame.retry = Math.min(liveGame.retry + 1, 6);
    setTimeout(() => { if (liveGame.socket === socket && liveGame.id === id) connect(id); }, 300 * 2 ** liveGame.retry);
  });
}

/** Open game `id` as its player (with this browser's token) or as a watcher. @param {number} id @param {boolean} watch */
async function openGame(id, watch) {
  withdrawMine();
  // Opened fresh, the view is laid out but not painted until the game's first drawing: the board's size
  // depends on the game's pits, and all under it moved when it came (Lighthouse: a layout shift of 0.2).
  if ($("#view-game").hidden) $("#view-game").classList.add("unpainted");
  showView("game");
  liveGame.id = id;
  liveGame.snap = null;
  liveGame.token = watch ? null : tokenOf(id);
  liveGame.seat = null;
  notice("");
  const origin = `${location.origin}/live`;
  $("#watch-link").setAttribute("href", `${origin}#/watch/${id}`);
  let invite = null;
  try { invite = sessionStorage.getItem(`kalah.invite.${id}`); } catch (e) { invite = null; }
  $("#invite-link").setAttribute("href", invite ? `${origin}#/join/${id}/${invite}` : "#");
  $("#invite-link").textContent = invite ? `${origin}#/join/${id}/…` : "";
  try {
    news(await api.request("GET", `/api/live/games/${id}`));
  } catch (error) { $("#view-game").classList.remove("unpainted"); setStatus(api.errorText(error), true); return; }
  connect(id);
}

// --- acting ----------------------------------------------------------------------------

/** POST a live action with this page's token; news of its effect comes back (also by push).
 * @param {string} action @param {unknown} [body] */
async function act(action, body) {
  try {
    news(await api.request("POST", `/api/live/games/${liveGame.id}/${action}`, body, liveGame.token ? { "X-Seat-Token": liveGame.token } : {}));
  } catch (error) { setStatus(api.errorText(error), true); }
}

/** Play a pit (or the swap) when it is this page's turn. @param {Move} move */
async function play(move) {
  const snap = liveGame.snap;
  if (!snap || liveGame.busy || boardElement().dataset.humanToMove !== "true" || !snap.state.legal_moves.includes(move)) return;
  boardElement().dataset.humanToMove = "false";
  await act("moves", { move, moves: snap.state.moves });
}

/** The variant and clock chosen in the form. */
function chosen() {
  const clock = $select("#lv-clock").value;
  const variant = { pits: Number($select("#lv-pits").value), seeds: Number($select("#lv-seeds").value),
    empty_capture: $input("#lv-empty").checked, pie_rule: $input("#lv-pie").checked };
  /** @type {{minutes?: number, increment?: number, days?: number}} */
  let limit = {};
  if (clock.startsWith("d")) limit = { days: Number(clock.slice(1)) };
  else if (clock) limit = { minutes: Number(clock.split("+")[0]), increment: Number(clock.split("+")[1]) };
  const name = $input("#lv-name").value.trim();
  keepName(name);
  return { variant, clock: limit, name };
}

/** The side chosen in the form: 0, 1, or null for either (drawn by lot). @returns {0 | 1 | null} */
function chosenSeat() {
  const seat = $select("#lv-seat").value;
  return seat === "" ? null : seat === "1" ? 1 : 0;
}

/** Make a game and its invitation; show it. @param {object} body NewLiveGame */
async function invite(body) {
  /** @type {import("./api.js").Seat} */
  const seat = await api.request("POST", "/api/live/games", body);
  keepToken(seat.game_id, seat.token);
  try { sessionStorage.setItem(`kalah.invite.${seat.game_id}`, seat.invite || ""); } catch (e) { /* private mode */ }
  location.hash = `#/game/${seat.game_id}`;
}

/** Copy the invitation link, saying so on the button. A page served over plain http to another machine
 * (a room's network) has no navigator.clipboard: the link's text is selected for the reader to copy. */
async function copyInvitation() {
  const button = $("#btn-copy");
  const link = $("#invite-link");
  let copied = false;
  try {
    await navigator.clipboard.writeText(link.getAttribute("href") || "");
    copied = true;
  } catch (e) {
    link.textContent = link.getAttribute("href") || "";  // the whole link, selected: Ctrl+C copies it
    const range = document.createRange();
    range.selectNodeContents(link);
    getSelection()?.removeAllRanges();
    getSelection()?.addRange(range);
  }
  button.textContent = copied ? "Copied" : "Selected: copy it";
  setTimeout(() => { button.textContent = "Copy"; }, 2500);
}

/** Take the empty seat of `id` with the invitation. @param {number} id @param {string} code */
async function join(id, code) {
  try {
    const name = storedName();
    /** @type {import("./api.js").Seat} */
    const seat = await api.request("POST", `/api/live/games/${id}/claim`, { invite: code, ...(name ? { name } : {}) });
    keepToken(id, seat.token);
    history.replaceState(null, "", `#/game/${id}`);  // the spent invitation leaves the address
    await openGame(id, false);
  } catch (error) {
    history.replaceState(null, "", `#/game/${id}`);
    await openGame(id, false);
    notice(api.errorText(error));
  }
}

async function route() {
  const hash = location.hash || "#/new";
  let match;
  if (liveGame.socket && !hash.match(/^#\/(game|watch)\//)) { const socket = liveGame.socket; liveGame.socket = null; socket.close(); }
  if ((match = hash.match(/^#\/join\/(\d+)\/([\w-]+)$/))) return join(Number(match[1]), match[2]);
  if ((match = hash.match(/^#\/game\/(\d+)/))) return openGame(Number(match[1]), false);
  if ((match = hash.match(/^#\/watch\/(\d+)/))) return openGame(Number(match[1]), true);
  if (hash.startsWith("#/lobby")) { showView("lobby"); return openLobby(); }
  showView("new");
}

function init() {
  mountNav();
  $input("#lv-name").value = storedName();
  $("#lv-invite").addEventListener("click", () => invite({ ...chosen(), seat: chosenSeat() ?? (Math.random() < 0.5 ? 0 : 1) })
    .catch((e) => { $("#new-message").textContent = api.errorText(e); }));
  $("#lv-challenge").addEventListener("click", () => { location.hash = "#/lobby"; offerChallenge({ ...chosen(), seat: chosenSeat() }); });
  $("#name-box").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $input("#name-input").value.trim();
    if (!name) return;
    keepName(name);
    act("name", { name });
  });
  $("#btn-swap").addEventListener("click", () => play("swap"));
  $("#btn-resign").addEventListener("click", () => { if (confirm("Resign this game?")) act("resign"); });
  $("#btn-takeback").addEventListener("click", () => liveGame.snap && act("takeback", { action: "request", moves: liveGame.snap.state.moves }));
  $("#btn-accept").addEventListener("click", () => liveGame.snap && act("takeback", { action: "accept", moves: liveGame.snap.state.moves }));
  $("#btn-decline").addEventListener("click", () => liveGame.snap && act("takeback", { action: "decline", moves: liveGame.snap.state.moves }));
  $("#btn-rematch").addEventListener("click", () => act("rematch"));
  $("#rematch-link").addEventListener("click", () => {
    // the rematch keeps each player's token: this browser's seat there is held by the same one
    const next = liveGame.snap && liveGame.snap.live.rematch_game;
    if (next && liveGame.token) keepToken(next, liveGame.token);
  });
  $("#btn-copy").addEventListener("click", copyInvitation);
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof Element && event.target.closest("input, select, textarea")) return;
    const snap = liveGame.snap;
    if (!snap || event.key.length !== 1 || event.ctrlKey || event.metaKey || event.altKey) return;
    const index = event.key.toLowerCase().charCodeAt(0) - 97;
    if (index >= 0 && index < snap.state.board[0].length - 1) play(index);
    else if (event.key.toLowerCase() === "s") play("swap");
  });
  setInterval(tickClocks, 200);
  window.addEventListener("hashchange", route);
  route();
}

init();
