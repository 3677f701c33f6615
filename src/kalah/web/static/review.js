// @ts-check
/* The Review view (#/review/ID): the review of a game (kalah.review) by the engine in the page (or the
 * server's, where the page has none; the page keeps its own for the visit, by game and moves),
 * an evaluation graph to click, every move with its class, each player's
 * accuracy and the turning points, and "learn from your mistakes", which puts
 * each of your mistakes back on the board and asks for a better move before
 * it shows the answer. The boards are the play page's board component
 * (board.js), two instances of their own: the server's picture of a board
 * (/api/board.svg) scaled down with the column, and its letters were a few
 * pixels high on a phone, while board.js sizes its labels for the screen.
 * The review's board has the person's seat at the bottom, as the play page
 * has; the trainer's has the mover's, as the puzzles have, with its pits in
 * the order of the choice buttons (and playable like them).
 *
 * For tests: #view-review[data-state=loading|running|done|failed]; graph points
 * circle[data-point=I][data-class]; the scale's labels #rv-ahead-0 (above the
 * graph) and #rv-ahead-1 (below); moves li[data-move=N][data-class] (with the mover data-player, the move
 * played data-played and the best moves data-best, as JSON, and data-forced);
 * #rv-board[data-index] (and board.js's data-*; the move played from the
 * position has the class "origin"); #rv-trainer-board (board.js's data-*);
 * trainer choices button[data-choice=MOVE]; #rv-feedback[data-correct=true|false]. */

import { moveName } from "./analysis.js";
import { BAD, judge, knowsValues, lessonsOf } from "./lessons.js";
import * as api from "./api.js";
import { createBoard } from "./board.js";
import { $, sleep } from "./dom.js";
import { showView } from "./page.js";
import { pageEngine } from "./pageengine.js";
import { drawGraph, pointAt, signed } from "./reviewgraph.js";
import { setMode } from "./state.js";
import { STYLE } from "./style.js";

/** @typedef {import("./api.js").Move} Move */
/** @typedef {import("./board.js").BoardApi} BoardApi */

/** @typedef {import("./lessons.js").ReviewedMove} ReviewedMove */

/**
 * A game's review (kalah.review.GameReview.to_dict).
 * @typedef {object} Review
 * @property {string[]} players @property {ReviewedMove[]} moves
 * @property {(number | null)[]} evaluation player 0's point of view, before each move and at the end
 * @property {boolean[]} exact @property {(number | null)[]} accuracy @property {(number | null)[]} average_loss
 * @property {number[]} turning_points @property {Record<string, Record<string, number>>} counts
 * @property {{board: number[][], to_move: number, over: boolean}} final
 */


/** What the view shows now; `token` changes when another review (or view) is opened. */
const view = {
  /** @type {Review | null} */ review: null,
  id: 0,
  token: 0,
  index: 0,
  /** @type {boolean[]} which players are "you": the humans, or both when none is */ yours: [true, true],
  /** @type {ReviewedMove[]} */ lessons: [],
  lesson: 0,
  /** @type {BoardApi | null} the position at the move selected */ board: null,
  /** @type {BoardApi | null} the trainer's */ trainerBoard: null,
  /** @type {import("./reviewgraph.js").GraphLayout | null} the graph as drawn */ graph: null,
};

/** @param {string} tag @param {string} [className] @param {string} [text] @returns {HTMLElement} */
function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The view's parts, made once. */
function build() {
  const root = $("#view-review");
  if (root.childElementCount) return;
  root.innerHTML = `
    <div class="rv-head"><h2 id="rv-title">Review</h2>
      <a id="rv-replay" class="button small" href="#/library">Replay</a></div>
    <p id="rv-status" class="status" aria-live="polite"></p>
    <progress id="rv-progress" max="1" value="0" hidden></progress>
    <div id="rv-body" hidden>
      <div id="rv-summary" class="rv-summary"></div>
      <figure class="rv-graph-box">
        <p id="rv-ahead-0" class="rv-label"></p>
        <svg id="rv-graph" class="rv-graph" role="img"
          aria-label="Evaluation graph: the value for the first player after each move"></svg>
        <p id="rv-ahead-1" class="rv-label"></p>
      </figure>
      <div class="rv-main">
        <figure class="rv-position"><svg id="rv-board" class="board" role="group" aria-label="The position"></svg>
          <figcaption id="rv-detail"></figcaption></figure>
        <ol id="rv-moves" class="rv-moves"></ol>
      </div>
      <p><button id="rv-learn" type="button" class="primary">Learn from your mistakes</button></p>
      <section id="rv-trainer" class="card rv-trainer" hidden>
        <h3 id="rv-question"></h3>
        <svg id="rv-trainer-board" class="board" role="group" aria-label="The position of the mistake"></svg>
        <div id="rv-choices" class="rv-choices"></div>
        <p id="rv-feedback" aria-live="polite"></p>
        <button id="rv-answer" type="button">Show the answer</button>
        <button id="rv-next" type="button">Next mistake</button>
      </section>
    </div>`;
  const svg = (/** @type {string} */ id) => /** @type {SVGSVGElement} */ (/** @type {unknown} */ ($(id)));
  view.board = createBoard(svg("#rv-board"), { style: STYLE, values: false, touch: false });
  view.trainerBoard = createBoard(svg("#rv-trainer-board"), { style: STYLE, values: false, touch: false, onPit: (pit) => {
    const lesson = view.lessons[view.lesson];
    if (lesson) answer(lesson, pit);
  } });
  $("#rv-learn").addEventListener("click", startLessons);
  $("#rv-answer").addEventListener("click", showAnswer);
  $("#rv-next").addEventListener("click", () => showLesson(view.lesson + 1));
  const graph = svg("#rv-graph");
  graph.addEventListener("click", (event) => { if (view.graph) select(pointAt(graph, view.graph, event.clientX)); });
  // Drawn at its width on the screen (reviewgraph.js), so drawn again when that changes; a change under a
  // scrollbar's width is left to the viewBox's scaling, since the redrawn height could bring the scrollbar back.
  new ResizeObserver(() => {
    const width = graph.getBoundingClientRect().width;
    if (view.review && view.graph && width > 0 && Math.abs(width - view.graph.width) > 24) showGraph(view.review);
  }).observe(graph);
}

/** Open the review of game `id`: the stored one, or one the server starts and the page waits for.
 * @param {number} id */
export async function openReview(id) {
  setMode("review");
  showView("review");
  build();
  const token = ++view.token;
  Object.assign(view, { review: null, id, index: 0, lessons: [], lesson: 0 });
  const root = $("#view-review");
  root.dataset.state = "loading";
  $("#rv-title").textContent = `Review of game ${id}`;
  /** @type {HTMLAnchorElement} */ ($("#rv-replay")).href = `#/replay/${id}`;
  $("#rv-body").hidden = true;
  $("#rv-trainer").hidden = true;
  status("Reviewing…");
  try {
    const game = await api.getGame(id);
    const humans = game.players.map((p) => p.human);
    view.yours = humans.some(Boolean) ? humans : [true, true];
    const engine = await pageEngine();
    if (engine) {
      const review = await reviewHere(engine, id, game.moves, (done, total) => {
        if (token !== view.token) return;
        root.dataset.state = "running";
        progress(done, total);
      });
      if (token !== view.token) return;
      progress(0, 0);
      show(review);
      root.dataset.state = "done";
      return;
    }
    let answer = await api.startReview(id);
    while (answer.status === "running" && token === view.token) {
      root.dataset.state = "running";
      progress(answer.done, answer.total);
      await sleep(500);
      answer = await api.getReview(id);
    }
    if (token !== view.token) return;
    if (answer.status !== "done" || !answer.review) throw new Error(answer.error || "the review failed");
    progress(0, 0);
    show(answer.review);
    root.dataset.state = "done";
  } catch (error) {
    if (token !== view.token) return;
    progress(0, 0);
    root.dataset.state = "failed";
    status(api.errorText(error), true);
  }
}

/** Seconds of analysis a position of the review gets, and all of them together at most (kalah.web.review's). */
const REVIEW_SECONDS = 0.3, REVIEW_ENGINE_SECONDS = 60;
/** The reviews the engine made in this visit, by game and moves. @type {Map<string, any>} */
const made = new Map();

/**
 * The review of game `id` (`moves` moves) by the engine in the page, from the game's record.
 * @param {import("./engine/engine.js").Engine} engine @param {number} id @param {number} moves
 * @param {(done: number, total: number) => void} onProgress @returns {Promise<any>}
 */
async function reviewHere(engine, id, moves, onProgress) {
  const key = `${id}/${moves}`;
  if (!made.has(key)) {
    const record = await api.request("GET", `/api/games/${id}/record`);
    const seconds = Math.min(REVIEW_SECONDS, REVIEW_ENGINE_SECONDS / Math.max(1, record.moves.length + 1));
    made.set(key, await engine.review(record, { time: seconds }, ({ done, total }) => onProgress(done, total)));
  }
  return made.get(key);
}

/** Leave the view: a review still being waited for is no longer polled. */
export function closeReview() { view.token++; }

/** @param {string} text @param {boolean} [error] */
function status(text, error) {
  const line = $("#rv-status");
  line.textContent = text;
  line.classList.toggle("error", !!error);
}

/** The progress bar: positions analysed of the total (0 of 0 hides it). @param {number} done @param {number} total */
function progress(done, total) {
  const bar = /** @type {HTMLProgressElement} */ ($("#rv-progress"));
  bar.hidden = !total;
  bar.max = total || 1;
  bar.value = done;
  if (total) status(`Reviewing: ${done} of ${total} positions analysed…`);
}

/** Draw the whole review. @param {Review} review */
function show(review) {
  view.review = review;
  $("#rv-body").hidden = false;
  const exact = review.moves.filter((m) => m.exact).length;
  status(exact === review.moves.length ? `Every move judged exactly (${exact}).`
    : `${exact} of ${review.moves.length} moves judged exactly; the rest by a search's estimate.`);
  const summary = $("#rv-summary");
  summary.replaceChildren();
  review.players.forEach((name, p) => {
    const card = element("div", "rv-player");
    card.dataset.player = String(p);
    const accuracy = review.accuracy[p];
    const you = view.yours[p] && !view.yours[1 - p] && name.toLowerCase() !== "you";
    card.append(element("strong", "", `${name}${you ? " (you)" : ""}`),
      element("span", "rv-accuracy", accuracy === null ? "no decisions" : `accuracy ${Math.round(accuracy)}%`),
      element("span", "muted", [["blunder", "blunders"], ["mistake", "mistakes"], ["inaccuracy", "inaccuracies"]]
        .map(([one, many]) => `${review.counts[p][one] || 0} ${(review.counts[p][one] || 0) === 1 ? one : many}`).join(", ")));
    summary.appendChild(card);
  });
  const turning = review.turning_points.map((n) => `${n}. ${review.moves[n - 1].name}`);
  summary.appendChild(element("p", "rv-turning", `Turning points: ${turning.join(", ") || "none"}`));
  showGraph(review);
  listMoves(review);
  view.lessons = lessonsOf(review.moves, view.yours);
  $("#rv-learn").hidden = !view.lessons.length;
  const first = review.moves.findIndex((m) => BAD.includes(m.class));
  select(first >= 0 ? first : 0);
}

/** The evaluation graph at its width on the screen, and the scale's labels. @param {Review} review */
function showGraph(review) {
  const svg = /** @type {SVGSVGElement} */ (/** @type {unknown} */ ($("#rv-graph")));
  view.graph = drawGraph(svg, review, view.index);
  // The scale's labels are text of the page above and below the graph, not in it: inside they lay over the
  // first points.
  $("#rv-ahead-0").textContent = `${review.players[0]} ahead (+${Math.round(view.graph.top)})`;
  $("#rv-ahead-1").textContent = `${review.players[1]} ahead (−${Math.round(view.graph.top)})`;
}

/** The moves, each with its own number as in the game's move list (one player's extra turns are several moves), and
 * its class. @param {Review} review */
function listMoves(review) {
  const list = $("#rv-moves");
  list.replaceChildren();
  review.moves.forEach((move) => {
    const li = element("li", `rv-move ${move.class}`);
    li.dataset.move = String(move.number);
    li.dataset.class = move.class;
    Object.assign(li.dataset, { player: String(move.player), played: JSON.stringify(move.move), best: JSON.stringify(move.best_moves),
      forced: String(move.forced) });
    li.tabIndex = 0;
    li.append(element("span", "rv-num", `${move.number}.`),
      element("span", "rv-who", review.players[move.player]),
      element("span", "rv-name", move.name), element("span", "rv-class", move.forced ? "forced" : move.class),
      element("span", "rv-loss", move.loss ? `−${signed(move.loss).slice(1)}` : ""));
    li.addEventListener("click", () => select(move.number - 1));
    li.addEventListener("keydown", (event) => { if (event.key === "Enter") select(move.number - 1); });
    list.appendChild(li);
  });
}

/** The flat cell of a player's pit (board.js's marks count cells over both rows and the stores).
 * @param {number[][]} board @param {number} player @param {Move} move @returns {number} */
const cellOf = (board, player, move) => (move === "swap" ? -1 : player * board[0].length + move);

/** The player at the bottom of the review's board: the person's seat when one person played, as on the play page. */
const reviewBottom = () => (view.yours[0] !== view.yours[1] && view.yours[1] ? 1 : 0);

/** Show the position before move `index` + 1 (the last index: the final position) and what was played there.
 * @param {number} index */
function select(index) {
  const review = view.review;
  if (!review) return;
  index = Math.max(0, Math.min(review.moves.length, index));
  view.index = index;
  const move = review.moves[index];
  const board = /** @type {BoardApi} */ (view.board);
  board.setBottom(reviewBottom());
  // the pit played from this position is ringed as a move's origin is on the play page
  if (move) board.draw(move.board, move.player, false, { marks: { origin: cellOf(move.board, move.player, move.move), sown: new Set(), capture: [] } });
  else board.draw(review.final.board, review.final.to_move, review.final.over);
  board.element.dataset.index = String(index);
  for (const dot of $("#rv-graph").querySelectorAll("[data-point]")) {
    dot.classList.toggle("selected", Number(/** @type {SVGElement} */ (dot).dataset.point) === index);
  }
  for (const li of $("#rv-moves").querySelectorAll("li")) li.classList.toggle("current", Number(li.dataset.move) === index + 1);
  const detail = $("#rv-detail");
  if (!move) { detail.textContent = `The final position${review.final.over ? "" : " (the game was not finished)"}.`; return; }
  const who = review.players[move.player];
  const best = move.best_moves.map((m) => moveName(move.player, m)).join(", ") || "?";
  detail.textContent = `Move ${move.number}. ${move.name} by ${who}. Before it: ${signed(move.value_before)} for ${who}` +
    ` (${move.exact ? "exact" : "estimate"}); best ${best}. ` +
    (move.forced ? "The only legal move." : move.loss ? `It lost ${signed(move.loss).slice(1)} seeds: ${move.class}.` : `${move.class === "best" ? "A best move" : "Good"}.`);
}


function startLessons() {
  $("#rv-trainer").hidden = false;
  showLesson(0);
  $("#rv-trainer").scrollIntoView({ block: "nearest" });
}

/** Put lesson `n` on the board and ask for a better move. @param {number} n */
function showLesson(n) {
  const lesson = view.lessons[n];
  const feedback = $("#rv-feedback");
  feedback.textContent = "";
  delete feedback.dataset.correct;
  const choices = $("#rv-choices");
  choices.replaceChildren();
  $("#rv-next").hidden = true;
  $("#rv-answer").hidden = !lesson;
  $("#rv-trainer-board").toggleAttribute("hidden", !lesson);
  if (!lesson) { $("#rv-question").textContent = "That was every mistake. Well done!"; return; }
  view.lesson = n;
  select(lesson.number - 1);
  $("#rv-question").textContent = `${n + 1} of ${view.lessons.length}: move ${lesson.number}, ${view.review?.players[lesson.player]} ` +
    `played ${lesson.name} and lost ${signed(lesson.loss).slice(1)} seeds. ` +
    (knowsValues(lesson) ? "Find a better move." : "Find the best move.");
  const pits = lesson.board[lesson.player].length - 1;
  /** @type {Move[]} */
  const legal = [];
  for (let i = 0; i < pits; i++) if (lesson.board[lesson.player][i] > 0) legal.push(i);
  if (lesson.move === "swap" || lesson.best_moves.includes("swap")) legal.push("swap");
  const board = /** @type {BoardApi} */ (view.trainerBoard);
  board.setBottom(lesson.player);
  board.draw(lesson.board, lesson.player, false, { legal });
  for (const move of legal) {
    const button = element("button", "rv-choice", moveName(lesson.player, move));
    button.dataset.choice = String(move);
    /** @type {HTMLButtonElement} */ (button).type = "button";
    button.addEventListener("click", () => answer(lesson, move));
    choices.appendChild(button);
  }
}

/** Judge a choice: the best move, or a better one than the game's, is right (lessons.js).
 * @param {ReviewedMove} lesson @param {Move} move */
function answer(lesson, move) {
  const feedback = $("#rv-feedback");
  const { verdict, value } = judge(lesson, move);
  const name = moveName(lesson.player, move);
  const best = lesson.best_moves.map((m) => moveName(lesson.player, m)).join(" or ");
  feedback.dataset.correct = String(verdict === "best" || verdict === "better");
  feedback.dataset.verdict = verdict;
  if (verdict === "best") {
    feedback.textContent = `Yes: ${name} is best (${signed(lesson.value_before)} for the mover).`;
  } else if (verdict === "better") {
    feedback.textContent = `Yes: ${name} is better than ${lesson.name} (${signed(value)} for the mover against ` +
      `${signed(lesson.value_after)}). The best, ${best}, keeps ${signed(lesson.value_before)}.`;
  } else if (verdict === "played") {
    feedback.textContent = "That is the move played in the game. Try another.";
  } else {
    feedback.textContent = knowsValues(lesson) && value !== null
      ? `${name} is no better than ${lesson.name} (${signed(value)} for the mover). Try again, or see the answer.`
      : `${name} is not the best. Try again, or see the answer.`;
  }
  $("#rv-next").hidden = !(verdict === "best" || verdict === "better");
}

function showAnswer() {
  const lesson = view.lessons[view.lesson];
  if (!lesson) return;
  const best = lesson.best_moves.map((m) => moveName(lesson.player, m)).join(" or ");
  $("#rv-feedback").textContent = `The best move: ${best} (${signed(lesson.value_before)} for the mover, ` +
    `${lesson.exact ? "exact" : "estimate"}).`;
  $("#rv-next").hidden = false;
}
