// @ts-check
/* The puzzle trainer (#/puzzles): the shipped puzzles (GET /api/puzzles,
 * kalah.puzzles), each a position whose one best move the solver proves.
 * The player's puzzle rating, streak and best streak are kept in the
 * browser (localStorage); puzzles are picked near the rating. A hint shows
 * the theme. The board is the play page's board component (board.js),
 * turned as the play page turns it for a human's seat: the mover's pits run
 * along the bottom, a..f or A..F from left to right, in the order of the move
 * buttons under it, with labels sized for the screen it is shown on.
 *
 * For tests: #view-puzzles[data-puzzle=ID][data-state=asking|solved|failed];
 * choices button[data-choice=MOVE]; #pz-board carries board.js's data-*;
 * #pz-rating[data-rating]; #pz-streak[data-streak]. */

import { moveName } from "./analysis.js";
import * as api from "./api.js";
import { createBoard } from "./board.js";
import { $ } from "./dom.js";
import { showView } from "./page.js";
import { setMode } from "./state.js";
import { STYLE } from "./style.js";

/** @typedef {import("./api.js").Move} Move */
/** @typedef {import("./board.js").BoardApi} BoardApi */

/** @typedef {import("./api.js").Puzzle} Puzzle */

const STORE = "kalah.puzzles";
const START_RATING = 1200, K = 32;

/** The player's record, kept in the browser. */
const progress = { rating: START_RATING, streak: 0, best: 0, solved: 0, tried: 0 };
/** @type {{all: Puzzle[], puzzle: Puzzle | null, tries: number, hinted: boolean, done: boolean}} */
const trainer = { all: [], puzzle: null, tries: 0, hinted: false, done: false };
/** The puzzle's board, made with the view. @type {BoardApi | null} */
let board = null;

/** A puzzle's rating from its difficulty (1: 1000 ... 5: 1800). @param {Puzzle} p @returns {number} */
const puzzleRating = (p) => 800 + 200 * p.difficulty;

function loadProgress() {
  try { Object.assign(progress, JSON.parse(localStorage.getItem(STORE) || "{}")); } catch (e) { /* a fresh start */ }
}

function saveProgress() {
  try { localStorage.setItem(STORE, JSON.stringify(progress)); } catch (e) { /* private mode: this visit only */ }
}

/** The view's parts, made once. */
function build() {
  const root = $("#view-puzzles");
  if (root.childElementCount) return;
  // painted from the first puzzle on: its question and board moved all below them (a layout shift of 0.07)
  root.classList.add("unpainted");
  root.innerHTML = `
    <div class="rv-head"><h2>Puzzles</h2>
      <label>Variant <select id="pz-variant"><option value="">any</option><option value="3">Kalah(6,3)</option>
        <option value="4">Kalah(6,4)</option><option value="5">Kalah(6,5)</option></select></label></div>
    <p class="pz-score"><span id="pz-rating"></span> <span id="pz-streak"></span></p>
    <h3 id="pz-question"></h3>
    <svg id="pz-board" class="board pz-board" role="group" aria-label="The puzzle's position"></svg>
    <div id="pz-choices" class="rv-choices"></div>
    <p id="pz-feedback" aria-live="polite"></p>
    <p><button id="pz-hint" type="button">Hint</button> <button id="pz-give-up" type="button">Show the answer</button>
      <button id="pz-next" type="button" class="primary">Next puzzle</button></p>`;
  board = createBoard(/** @type {SVGSVGElement} */ (/** @type {unknown} */ ($("#pz-board"))),
    { style: STYLE, values: false, touch: false, onPit: (pit) => answer(pit) });
  $("#pz-hint").addEventListener("click", hint);
  $("#pz-give-up").addEventListener("click", () => finish(false, true));
  $("#pz-next").addEventListener("click", next);
  $("#pz-variant").addEventListener("change", next);
}

/** Open the trainer with a puzzle near the player's rating. */
export async function openPuzzles() {
  setMode("puzzles");
  showView("puzzles");
  build();
  loadProgress();
  score();
  if (!trainer.all.length) {
    try { trainer.all = await api.listPuzzles(); } catch (error) {
      $("#view-puzzles").classList.remove("unpainted");
      $("#pz-feedback").textContent = api.errorText(error);
      return;
    }
  }
  next();
}

function score() {
  const rating = $("#pz-rating");
  rating.textContent = `Your puzzle rating: ${Math.round(progress.rating)}`;
  rating.dataset.rating = String(Math.round(progress.rating));
  const streak = $("#pz-streak");
  streak.textContent = `· streak ${progress.streak} (best ${progress.best}) · solved ${progress.solved} of ${progress.tried}`;
  streak.dataset.streak = String(progress.streak);
}

/** A random puzzle of the chosen variant, among the ten rated nearest the player. */
function next() {
  const seeds = /** @type {HTMLSelectElement} */ ($("#pz-variant")).value;
  const pool = trainer.all.filter((p) => !seeds || String(p.variant.seeds) === seeds);
  $("#view-puzzles").classList.remove("unpainted");
  if (!pool.length) { $("#pz-question").textContent = "No puzzles."; return; }
  const near = pool.slice().sort((a, b) => Math.abs(puzzleRating(a) - progress.rating) - Math.abs(puzzleRating(b) - progress.rating));
  const candidates = near.slice(0, Math.min(near.length, 40)).filter((p) => p !== trainer.puzzle);
  show(candidates[Math.floor(Math.random() * candidates.length)] || pool[0]);
}

/** @param {Puzzle} puzzle */
function show(puzzle) {
  Object.assign(trainer, { puzzle, tries: 0, hinted: false, done: false });
  const root = $("#view-puzzles");
  root.dataset.puzzle = puzzle.id;
  root.dataset.state = "asking";
  const me = puzzle.position.to_move;
  $("#pz-question").textContent = `${puzzle.variant_name}, ${"★".repeat(puzzle.difficulty)}: player ${me} ` +
    `(${me === 0 ? "A–F" : "a–f"}, the bottom row) to move. One move beats every other by ${puzzle.margin} seeds or more.`;
  drawBoard();
  const choices = $("#pz-choices");
  choices.replaceChildren();
  for (const move of puzzle.legal_moves) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "rv-choice";
    button.textContent = moveName(me, move);
    button.dataset.choice = String(move);
    button.addEventListener("click", () => answer(move));
    choices.appendChild(button);
  }
  $("#pz-feedback").textContent = "";
  $("#pz-next").hidden = true;
  $("#pz-hint").hidden = false;
  $("#pz-give-up").hidden = false;
}

/** The puzzle's position, the mover at the bottom (as the play page seats a human), its pits playable while it
 * asks. */
function drawBoard() {
  const puzzle = trainer.puzzle;
  if (!puzzle || !board) return;
  const me = puzzle.position.to_move;
  board.setBottom(me);
  board.draw(puzzle.position.board, me, false, { legal: trainer.done ? [] : puzzle.legal_moves });
}

function hint() {
  const puzzle = trainer.puzzle;
  if (!puzzle || trainer.done) return;
  trainer.hinted = true;
  $("#pz-feedback").textContent = `Hint: ${puzzle.theme.map((t) => t.replace("-", " ")).join(", ")}.`;
}

/** @param {Move} move */
function answer(move) {
  const puzzle = trainer.puzzle;
  if (!puzzle || trainer.done) return;
  trainer.tries++;
  if (move === puzzle.solution) { finish(trainer.tries === 1 && !trainer.hinted, false); return; }
  $("#pz-feedback").textContent = `${moveName(puzzle.position.to_move, move)} is not it: it gives away ` +
    `${puzzle.margin} seeds or more. Try again.`;
  if (trainer.tries === 1) rate(false);  // the first answer counts for the rating
}

/** The rating after a puzzle: Elo against the puzzle's rating. @param {boolean} won */
function rate(won) {
  if (!trainer.puzzle) return;
  const expected = 1 / (1 + 10 ** ((puzzleRating(trainer.puzzle) - progress.rating) / 400));
  progress.rating += K * ((won ? 1 : 0) - expected);
  progress.tried++;
  if (won) { progress.solved++; progress.streak++; progress.best = Math.max(progress.best, progress.streak); }
  else progress.streak = 0;
  saveProgress();
  score();
}

/** End the puzzle: solved at once (the rating counts it), solved late, or given up. @param {boolean} clean
 * @param {boolean} gaveUp */
function finish(clean, gaveUp) {
  const puzzle = trainer.puzzle;
  if (!puzzle || trainer.done) return;
  trainer.done = true;
  if (clean) rate(true);
  else if (trainer.tries === 0) rate(false);  // a hint or giving up before any answer counts as a miss
  const best = moveName(puzzle.position.to_move, puzzle.solution);
  $("#view-puzzles").dataset.state = gaveUp ? "failed" : "solved";
  $("#pz-feedback").textContent = gaveUp
    ? `The answer: ${best}, worth ${puzzle.value > 0 ? "+" : ""}${puzzle.value} for the mover (proven).`
    : `Solved: ${best} is best, ${puzzle.value > 0 ? "+" : ""}${puzzle.value} for you (proven).${clean ? "" : " (with help: no rating points)"}`;
  drawBoard();  // its pits no longer play
  $("#pz-next").hidden = false;
  $("#pz-hint").hidden = true;
  $("#pz-give-up").hidden = true;
}
