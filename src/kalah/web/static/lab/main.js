// @ts-check
/* The lab page (/lab): a position, a traced search of it, the tree, and a
 * step control that replays the search node by node.
 *
 * URL: /lab?position=<JSON>&algorithm=<name>&depth=<d> opens a trace at once;
 * the URL follows the user's changes (history.replaceState).
 * For tests: the node count is in [data-node-count]; the current tree node
 * carries data-current="true"; the step button is [data-action="step"].
 */

import { $, $input, $select, sleep } from "../dom.js";
import { errorText } from "../api.js";
import { mountNav } from "../nav.js";
import { pageEngine } from "../pageengine.js";
import { pageHref } from "../site.js";
import { Compare } from "./compare.js";
import { Editor, parsePosition } from "./editor.js";
import { Lines, fetchTrace, fetchTreeFacts } from "./source.js";
import { ALGORITHMS, MAX_DEPTH, boundText, describeNode, indexTrace, lineText, moveLetter, pathTo } from "./trace.js";
import { TreeView } from "./tree.js";

/** @typedef {import("./trace.js").Position} Position */
/** @typedef {import("./trace.js").Indexed} Indexed */
/** @typedef {import("./trace.js").Move} Move */

pageEngine();  // the engine loads in its worker while the page opens
mountNav();  // first: the page points the bar's MCTS link at its position

/**
 * The page's state; changed only by the functions below.
 * @type {{position: Position, ix: Indexed | null, current: number, playing: boolean, lines: Lines | null}}
 */
const S = { position: /** @type {Position} */ (/** @type {unknown} */ (null)), ix: null, current: 0, playing: false, lines: null };

const editor = new Editor((position) => { S.position = position; clearTrace(); updateUrl(); });
const tree = new TreeView(/** @type {SVGSVGElement} */ (/** @type {unknown} */ ($("#tree"))), (id) => show(id));
new Compare(() => S.position, () => Number($input("#depth").value), () => $select("#algorithm").value, status);

/** @param {string} text @param {boolean} [error] */
function status(text, error) {
  const s = $("#lab-status");
  s.textContent = text;
  s.classList.toggle("error", !!error);
}

function updateUrl() {
  const params = new URLSearchParams({ position: JSON.stringify(S.position), algorithm: $select("#algorithm").value,
    depth: $input("#depth").value });
  history.replaceState(null, "", pageHref("lab", `?${params}`));
  // The MCTS page searches the same position with UCT beside the algorithm chosen here.
  for (const id of ["#nav-mcts", "#open-mcts-duel"]) /** @type {HTMLAnchorElement} */ ($(id)).href = pageHref("lab/mcts", `?${params}`);
  // The board page analyses it: every move's value, exact where the book, a database or the solver proves it.
  /** @type {HTMLAnchorElement} */ ($("#open-analysis")).href =
    pageHref("", `#/analyse?${new URLSearchParams({ position: JSON.stringify(S.position) })}`);
}

function clearTrace() {
  S.ix = null;
  stop();
  $("#tree").replaceChildren();
  setCount(0);
  for (const id of ["#now-node", "#now-window", "#now-value", "#now-line", "#now-best"]) $(id).textContent = "–";
  $("#board-caption").textContent = "";
}

/** @param {number} n */
function setCount(n) { const c = $("#node-count"); c.textContent = n.toLocaleString("en"); c.dataset.nodeCount = String(n); }

async function run() {
  const asked = Math.round(Number($input("#depth").value) || 1);
  const depth = Math.max(1, Math.min(MAX_DEPTH, asked));
  $input("#depth").value = String(depth);
  updateUrl();
  // A depth beyond what the lab traces is said, not silently cut (the answer below keeps the note).
  const capped = asked > MAX_DEPTH ? `The lab traces at most depth ${MAX_DEPTH}: depth ${asked} was lowered to ${MAX_DEPTH}. ` : "";
  status(`${capped}Tracing…`);
  clearTrace();
  try {
    const trace = await fetchTrace(S.position, $select("#algorithm").value, depth);
    S.ix = indexTrace(trace);
    S.lines = new Lines(trace.position);
    setCount(trace.nodes.length);
    tree.load(S.ix);
    status(`${capped}${trace.algorithm}, depth ${trace.depth}: value ${boundText(trace.result.value)}, best move ` +
      `${moveLetter(trace.result.best_move, trace.position.to_move)}.`);
    learnTree(S.ix);
    await show(0);
  } catch (error) {
    const text = errorText(error);
    status(capped ? `${capped}${text.charAt(0).toUpperCase()}${text.slice(1)}.` : text, true);
  }
}

/** Ask the server who moves at each node and which moves each cutoff skipped. @param {Indexed} ix */
async function learnTree(ix) {
  try {
    const facts = await fetchTreeFacts(ix.trace);
    if (S.ix !== ix) return;
    tree.learn(facts);
    showLine(S.current);
  } catch (error) { /* the tree keeps numbered moves */ }
}

/** Go to a node: the tree, the window, the line and the board there. @param {number} id */
async function show(id) {
  const ix = S.ix;
  if (!ix) return;
  S.current = Math.max(0, Math.min(ix.trace.nodes.length - 1, id));
  tree.goTo(S.current);
  const said = describeNode(ix, S.current);
  $("#now-node").textContent = said.node;
  $("#now-window").textContent = said.window;
  $("#now-value").textContent = said.value;
  showLine(S.current);
  await showBoard(ix, S.current);
}

/** The line from the root to a node, and the best line known when the node is visited. @param {number} id */
function showLine(id) {
  const ix = S.ix;
  if (!ix) return;
  $("#now-line").textContent = lineText(ix, tree.mover, id);
  $("#now-best").textContent = bestLine(ix, pathTo(ix, id)[0], id) || "none yet";
}

/**
 * The best line under `root` among the subtrees finished by step `step`:
 * at each node, the finished child whose value (seen from the node's mover) is highest.
 * @param {Indexed} ix @param {number} root @param {number} step @returns {string}
 */
function bestLine(ix, root, step) {
  const nodes = ix.trace.nodes;
  /** @type {string[]} */
  const names = [];
  let at = root;
  for (;;) {
    const mover = tree.mover[at];
    let best = -1, bestValue = -Infinity;
    for (const child of ix.children[at]) {
      if (ix.end[child] >= step || nodes[child].value === null) continue;
      const same = tree.mover[child] === mover;
      const v = same ? Number(nodes[child].value) : -Number(nodes[child].value);
      if (v > bestValue) { bestValue = v; best = child; }
    }
    if (best < 0 || mover < 0) break;
    names.push(`${moveLetter(nodes[best].move, mover)}`);
    at = best;
  }
  return names.join(" ");
}

/** @param {Indexed} ix @param {number} id */
async function showBoard(ix, id) {
  const moves = pathTo(ix, id).slice(1).map((at) => /** @type {Move} */ (ix.trace.nodes[at].move));
  const lines = S.lines;
  if (!lines) return;
  let position;
  try {
    position = await lines.after(moves);
  } catch (error) { status(errorText(error), true); return; }
  if (S.ix === ix && S.current === id) {
    editor.draw(position);
    $("#board-caption").textContent = moves.length ? `at node ${id + 1}` : "at the root";
  }
}

function stop() { S.playing = false; $('[data-action="play"]').textContent = "Play"; }

async function play() {
  if (S.playing) { stop(); return; }
  if (!S.ix) return;
  S.playing = true;
  $('[data-action="play"]').textContent = "Pause";
  if (S.current >= S.ix.trace.nodes.length - 1) await show(0);
  while (S.playing && S.ix && S.current < S.ix.trace.nodes.length - 1) {
    await sleep(1000 / Number($input("#speed").value));
    if (S.playing) await show(S.current + 1);
  }
  stop();
}

/** @param {string} action */
function act(action) {
  if (!S.ix) return;
  if (action !== "play") stop();
  if (action === "step") show(S.current + 1);
  else if (action === "back") show(S.current - 1);
  else if (action === "start") show(0);
  else if (action === "end") show(S.ix.trace.nodes.length - 1);
  else if (action === "play") play();
}

function setUp() {
  const algorithm = $select("#algorithm"), other = $select("#other");
  for (const name of ALGORITHMS) { algorithm.add(new Option(name, name)); other.add(new Option(name, name)); }
  algorithm.value = "alphabeta";
  other.value = "pvs";
  $input("#depth").max = String(MAX_DEPTH);
  $("#run").addEventListener("click", run);
  algorithm.addEventListener("change", updateUrl);
  $input("#depth").addEventListener("change", updateUrl);
  for (const button of document.querySelectorAll(".step-buttons [data-action]"))
    button.addEventListener("click", () => act(String(button.getAttribute("data-action"))));
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement || event.target instanceof HTMLSelectElement) return;
    if (event.key === "ArrowRight") act("step");
    else if (event.key === "ArrowLeft") act("back");
  });
  $("#zoom-in").addEventListener("click", () => tree.zoom(1 / 1.3));
  $("#zoom-out").addEventListener("click", () => tree.zoom(1.3));
  $("#fit").addEventListener("click", () => tree.fit());
  $("#expand").addEventListener("click", () => { tree.expandAll(); tree.mark(S.current); });
  $("#collapse").addEventListener("click", () => tree.collapseAll());

  const params = new URLSearchParams(location.search);
  const name = params.get("algorithm");
  if (name && ALGORITHMS.includes(name)) algorithm.value = name;
  const depth = Number(params.get("depth"));
  if (depth) $input("#depth").value = String(Math.max(1, Math.round(depth)));  // run() says so if above MAX_DEPTH
  S.position = editor.position;
  const given = params.get("position");
  if (given) {
    try { S.position = parsePosition(JSON.parse(given)); } catch (error) { status(`position in the URL: ${errorText(error)}`, true); }
  }
  editor.set(S.position);
  updateUrl();
  if (given && name) run();
}

setUp();
