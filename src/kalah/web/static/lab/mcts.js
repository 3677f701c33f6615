// @ts-check
/* The lab's MCTS page (/lab/mcts): one position searched two ways, side by side. On the left UCT traced by
 * the engine in the page (or POST /api/trace/mcts where the page has none; format kalah-mcts-trace/1, docs/trace.md), stepped iteration by iteration, or
 * phase by phase within one, with its four phases marked on the tree (mctsview.js) and the board where
 * selection stopped or the playout began; on the right
 * a search of the alpha-beta family chosen by the user, traced the same way (trace.js) and stepped node by
 * node in the lab's own tree (tracepane.js). Below, the root moves: UCT's statistics beside alpha-beta's values.
 *
 * URL: ?position=<JSON>&playouts=&seed=&depth=&algorithm= (the URL follows the user's changes).
 * Test hooks: [data-iteration] (the iteration shown), #mcts-pane and #ab-pane (each with its own
 * [data-action="step"]), svg#mcts-tree [data-node-id] (mctsview.js), #ab-pane's data-current, the
 * boards' data-* (board.js), #verdict's data-uct. */

import { errorText } from "../api.js";
import { createBoard } from "../board.js";
import { mountNav } from "../nav.js";
import { pageEngine } from "../pageengine.js";
import { pageHref } from "../site.js";
import { $, $input, $select } from "../dom.js";
import { STYLE } from "../style.js";
import { bornAfter, movesTo, playoutFrom, statsAfter } from "./mctstree.js";
import { MctsView, signed } from "./mctsview.js";
import { Lines } from "./source.js";
import { ALGORITHMS, MAX_DEPTH, moveLetter } from "./trace.js";
import { TracePane } from "./tracepane.js";

/** @typedef {import("./mctstree.js").MctsTrace} MctsTrace */
/** @typedef {import("./mctstree.js").MctsIteration} MctsIteration */
/** @typedef {import("./mctstree.js").Stats} Stats */

const START = '{"board": [[4,4,4,4,4,4,0],[4,4,4,4,4,4,0]], "to_move": 0}';

/** The four phases of an iteration, in order (phase 1 is selection). */
const PHASES = ["selection", "expansion", "playout", "backpropagation"];

pageEngine();  // the engine loads in its worker while the page opens
mountNav();  // first: the page points the bar's Lab link at its position

/**
 * The page's state: the UCT trace shown, when each of its nodes was made, the positions along its lines,
 * and how far the iteration shown (the slider's) has got: its phases 1 to `phase` (4: all of it).
 * @type {{trace: MctsTrace | null, born: number[], lines: Lines | null, run: number, phase: number}}
 */
const S = { trace: null, born: [], lines: null, run: 0, phase: 4 };

const slider = $input("#iteration");
const mctsBoard = createBoard(/** @type {SVGSVGElement} */ (/** @type {unknown} */ ($("#mcts-board"))), { style: STYLE });
const view = new MctsView(/** @type {SVGSVGElement} */ (/** @type {unknown} */ ($("#mcts-tree"))), () => {});
const pane = new TracePane($("#ab-pane"));

/** @param {string} text @param {boolean} [error] */
function status(text, error) {
  const s = $("#mcts-status");
  s.textContent = text;
  s.classList.toggle("error", !!error);
}

const shownDepth = () => Math.max(1, Math.min(8, Number($input("#shown-depth").value) || 3));
const abDepth = () => Math.max(1, Math.min(MAX_DEPTH, Math.round(Number($input("#ab-depth").value) || 1)));

/** The URL of this page and of the alpha-beta lab for the position and settings. @param {unknown} position */
function updateUrls(position) {
  const json = JSON.stringify(position);
  const params = new URLSearchParams({ position: json, playouts: $input("#playouts").value, seed: $input("#seed").value,
    depth: String(abDepth()), algorithm: $select("#ab-algorithm").value });
  history.replaceState(null, "", pageHref("lab/mcts", `?${params}`));
  const lab = pageHref("lab", `?${new URLSearchParams({ position: json, algorithm: $select("#ab-algorithm").value, depth: String(abDepth()) })}`);
  for (const id of ["#open-lab", "#nav-lab"]) /** @type {HTMLAnchorElement} */ ($(id)).href = lab;
}

/** Draw the iteration shown as far as it has got: the tree with its phases, the board, the texts. */
function draw() {
  const t = S.trace;
  if (!t) return;
  const count = Number(slider.value);
  const step = count > 0 ? t.iterations[count - 1] : null;
  const phase = step ? S.phase : 4;
  const done = phase === 4 ? count : count - 1; // the counts change at backpropagation
  const stats = statsAfter(t, done);
  view.draw(t, S.born, count, shownDepth(), stats, phase);
  describe(t, count, step, phase);
  rootMoves(t, done, stats);
  showBoard(t, boardNode(step, phase));
}

/** The node whose board the pane shows: the root, where selection stopped, or where the playout began.
 * @param {MctsIteration | null} step @param {number} phase */
function boardNode(step, phase) {
  if (!step) return 0;
  return phase === 1 ? step.path[step.path.length - 1] : playoutFrom(step);
}

/** The board at a node of the UCT tree (see boardNode). @param {MctsTrace} t @param {number} id */
async function showBoard(t, id) {
  const lines = S.lines;
  if (!lines) return;
  try {
    const position = await lines.after(movesTo(t, id));
    const count = Number(slider.value);
    if (S.trace !== t || boardNode(count > 0 ? t.iterations[count - 1] : null, S.phase) !== id) return;
    mctsBoard.draw(position.board, position.to_move, false, {});
    $("#mcts-board-caption").textContent = id === 0 ? "at the root"
      : S.phase === 1 ? `where selection stopped (node ${id})` : `where the playout began (node ${id})`;
  } catch (error) { status(errorText(error), true); }
}

/** The phases of the iteration shown: those done so far, the current one marked, the rest still to come.
 * @param {MctsTrace} t @param {number} count @param {MctsIteration|null} step @param {number} phase */
function describe(t, count, step, phase) {
  const number = $("#iteration-number");
  number.textContent = String(count);
  number.dataset.iteration = String(count);
  number.dataset.phase = String(phase);
  $("#iteration-count").textContent = String(t.iterations.length);
  $("#phase-name").textContent = step && phase < 4 ? `, phase ${phase} of 4: ${PHASES[phase - 1]}` : "";
  const phases = $("#phases");
  phases.replaceChildren();
  /** @param {string} term @param {string} text @param {string} [state] */
  const add = (term, text, state = "") => {
    const dt = document.createElement("dt"), dd = document.createElement("dd");
    dt.textContent = term;
    dt.className = `phase-${term}${state}`;
    dd.textContent = text;
    if (state) dd.className = state.trim();
    phases.append(dt, dd);
  };
  if (!step) {
    add("before", "no iteration yet: only the root");
    return;
  }
  const name = (/** @type {number} */ id) => moveLetter(t.nodes[id].move, t.nodes[id].mover);
  const names = step.path.slice(1).map(name);
  const texts = [
    names.length ? `root → ${names.join(" → ")} (the highest UCB1 at each step)` : "the root (it has untried moves)",
    step.expanded === null ? "none: the game is over there" : `a new node for move ${name(step.expanded)} (node ${step.expanded})`,
    `random moves to the end: margin ${signed(step.margin)} for player 0`,
    `a visit and the result to ${step.path.length + (step.expanded === null ? 0 : 1)} nodes, the root included`,
  ];
  PHASES.forEach((term, i) => {
    if (i + 1 > phase) add(term, "still to come", " pending");
    else add(term, texts[i], phase < 4 && i + 1 === phase ? " current" : "");
  });
}

/** The root moves' table after `count` iterations, and the two searches' answers. @param {MctsTrace} t @param {number} count @param {Stats} stats */
function rootMoves(t, count, stats) {
  const table = /** @type {HTMLTableElement} */ ($("#root-moves"));
  table.replaceChildren();
  const head = table.insertRow();
  for (const text of ["move", "visits", "win rate", "margin", `α-β d${t.alphabeta ? t.alphabeta.depth : "–"}`]) {
    const th = document.createElement("th");
    th.textContent = text;
    head.append(th);
  }
  // The two answers side by side: UCT's most visited move so far, and alpha-beta's best move.
  const roots = t.nodes.filter((n) => n.parent === 0);
  const busiest = roots.reduce((best, n) => (stats.visits[n.id] > stats.visits[best.id] ? n : best), roots[0]);
  const mover = t.position.to_move;
  const verdict = $("#verdict");
  verdict.textContent = !roots.length ? "The game is over here." : [
    `UCT after ${count} iterations: ${stats.visits[busiest.id] ? moveLetter(busiest.move, mover) : "–"} (most visited).`,
    t.alphabeta && t.alphabeta.best_move !== null
      ? `Alpha-beta to depth ${t.alphabeta.depth}: ${moveLetter(t.alphabeta.best_move, mover)}, value ${t.alphabeta.value}, ${t.alphabeta.nodes} nodes.`
      : "",
  ].join(" ");
  verdict.dataset.uct = busiest && stats.visits[busiest.id] ? String(busiest.move) : "";
  for (const node of roots) {
    const row = table.insertRow();
    const visits = stats.visits[node.id];
    const beside = t.alphabeta ? t.alphabeta.moves.find((m) => m.move === node.move) : undefined;
    for (const text of [moveLetter(node.move, node.mover), String(visits),
      visits ? (stats.wins[node.id] / visits).toFixed(2) : "–", visits ? (stats.margin[node.id] / visits).toFixed(1) : "–",
      beside && beside.value !== null ? String(beside.value) : "–"]) {
      row.insertCell().textContent = text;
    }
  }
}

/** Trace UCT, then the alpha-beta search beside it from the position UCT answered with (the same one). */
async function run() {
  const run = ++S.run;
  let position;
  try {
    position = JSON.parse(/** @type {HTMLTextAreaElement} */ ($("#position")).value);
  } catch (error) {
    status(`The position is not JSON: ${error}`, true);
    return;
  }
  $input("#ab-depth").value = String(abDepth());
  updateUrls(position);
  status("Running UCT…");
  const body = { position, playouts: Number($input("#playouts").value), seed: Number($input("#seed").value), depth: abDepth() };
  /** @type {any} */
  let data;
  try {
    data = await traceMcts(body);
  } catch (error) {
    if (run === S.run) status(errorText(error), true);
    return;
  }
  if (run !== S.run) return;
  const t = /** @type {MctsTrace} */ (data);
  S.trace = t;
  S.born = bornAfter(t);
  S.lines = new Lines(t.position);
  slider.max = String(t.iterations.length);
  slider.value = String(Math.min(1, t.iterations.length));
  S.phase = 4;
  status(`UCT: ${t.iterations.length} iterations, ${t.nodes.length} nodes.`);
  draw();
  await traceBeside(t);
}

/** UCT traced beside alpha-beta: by the engine in the page, or the server (POST /api/trace/mcts) where the page
 * has none. @param {{position: any, playouts: number, seed: number, depth: number}} body @returns {Promise<any>} */
async function traceMcts(body) {
  const engine = await pageEngine();
  if (engine) return engine.traceMcts(body.position, { playouts: body.playouts, seed: body.seed, depth: body.depth });
  let answer;
  try {
    answer = await fetch("/api/trace/mcts", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  } catch (error) {
    throw new Error(`The server did not answer: ${errorText(error)}`);
  }
  const statusText = answer.statusText;
  const data = await answer.json().catch(() => ({ detail: statusText }));
  if (!answer.ok) throw new Error(typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail));
  return data;
}

/** The alpha-beta pane: the chosen algorithm on UCT's position. @param {MctsTrace} t */
async function traceBeside(t) {
  $("#ab-name").textContent = `${$select("#ab-algorithm").value}, node by node`;
  await pane.load(t.position, $select("#ab-algorithm").value, abDepth());
}

/** Move the iteration shown (or to an end), or ("phase") on to the next phase of an iteration.
 * @param {string|undefined} action */
function go(action) {
  const last = Number(slider.max);
  const now = Number(slider.value);
  if (action === "phase") {
    if (now > 0 && S.phase < 4) S.phase += 1;
    else if (now < last) {
      slider.value = String(now + 1);
      S.phase = 1;
    }
    draw();
    return;
  }
  const to = { start: 0, back: now - 1, step: now + 1, end: last }[action || ""] ?? now;
  slider.value = String(Math.max(0, Math.min(last, to)));
  S.phase = 4;
  draw();
}

function setUp() {
  const algorithm = $select("#ab-algorithm");
  for (const name of ALGORITHMS) algorithm.add(new Option(name, name));
  algorithm.value = "alphabeta";
  const params = new URLSearchParams(location.search);
  /** @type {HTMLTextAreaElement} */ ($("#position")).value = params.get("position") || START;
  for (const [name, id] of [["playouts", "#playouts"], ["seed", "#seed"], ["depth", "#ab-depth"]]) {
    const given = params.get(name);
    if (given) $input(id).value = given;
  }
  const name = params.get("algorithm");
  if (name && ALGORITHMS.includes(name)) algorithm.value = name;
  $("#run").addEventListener("click", run);
  // Another algorithm beside the same UCT: only the right pane is traced again (a new depth changes the
  // root moves' alpha-beta values too: both run again).
  algorithm.addEventListener("change", () => {
    if (!S.trace) return;
    updateUrls(S.trace.position);
    traceBeside(S.trace);
  });
  $input("#ab-depth").addEventListener("change", run);
  slider.addEventListener("input", () => {
    S.phase = 4;
    draw();
  });
  $input("#shown-depth").addEventListener("change", draw);
  for (const button of document.querySelectorAll("#mcts-pane .step-buttons [data-action]")) {
    button.addEventListener("click", () => go(/** @type {HTMLElement} */ (button).dataset.action));
  }
  run();
}

setUp();
