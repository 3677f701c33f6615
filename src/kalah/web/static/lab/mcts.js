// @ts-check
/* The lab's MCTS page: UCT from POST /api/trace/mcts (format kalah-mcts-trace/1, docs/trace.md),
 * stepped iteration by iteration: selection's path, the expanded node, the playout's result and
 * the visit counts after the iteration shown, beside an alpha-beta search of the same position.
 *
 * Test hooks: [data-iteration] (the iteration shown), svg#mcts-tree [data-node-id] with
 * data-visits, the classes "selected" and "expanded", the step button [data-action="step"]. */

/** @typedef {{id: number, parent: number|null, move: number|string|null, mover: number}} MctsNode */
/** @typedef {{path: number[], expanded: number|null, margin: number}} MctsIteration */
/** @typedef {{move: number|string, value: number|null, bound: string}} MoveValue */
/** @typedef {{depth: number, value: number|null, best_move: number|string|null, moves: MoveValue[], nodes: number}} AlphaBeta */
/** @typedef {{nodes: MctsNode[], iterations: MctsIteration[], position: {to_move: number},
 *   alphabeta: AlphaBeta|null, result: {best_move: number|string|null}}} MctsTrace */
/** @typedef {{visits: number[], wins: number[], margin: number[]}} Stats */

const START = '{"board": [[4,4,4,4,4,4,0],[4,4,4,4,4,4,0]], "to_move": 0}';
const SVG = "http://www.w3.org/2000/svg";

/** @param {string} id */
function element(id) {
  const found = document.getElementById(id);
  if (!found) throw new Error(`#${id} is missing`);
  return found;
}

const input = /** @type {(id: string) => HTMLInputElement} */ ((id) => /** @type {HTMLInputElement} */ (element(id)));
const positionBox = /** @type {HTMLTextAreaElement} */ (element("position"));
const status = element("mcts-status");
const slider = input("iteration");

/** @type {MctsTrace | null} */
let trace = null;
/** @type {number[]} iteration after which each node exists (0: the root) */
let bornAfter = [];

/** The name of a move made by `mover`: its pit letter (A.. for player 0, a.. for player 1) or "swap". */
function moveName(/** @type {number|string|null} */ move, /** @type {number} */ mover) {
  if (move === null) return "root";
  if (move === "swap") return "swap";
  return String.fromCharCode((mover === 0 ? 65 : 97) + Number(move));
}

/** Every node's visits, wins and margin (for the player who moved into it) after `count` iterations. */
function statsAfter(/** @type {MctsTrace} */ t, /** @type {number} */ count) {
  /** @type {Stats} */
  const s = { visits: t.nodes.map(() => 0), wins: t.nodes.map(() => 0), margin: t.nodes.map(() => 0) };
  for (const step of t.iterations.slice(0, count)) {
    const through = step.expanded === null ? step.path : [...step.path, step.expanded];
    for (const id of through) {
      const mine = t.nodes[id].mover === 0 ? step.margin : -step.margin;
      s.visits[id] += 1;
      s.wins[id] += mine > 0 ? 1 : mine === 0 ? 0.5 : 0;
      s.margin[id] += mine;
    }
  }
  return s;
}

/** The tree's visible part (created by `count`, at most `depth` moves deep), laid out: leaves in creation order. */
function layout(/** @type {MctsTrace} */ t, /** @type {number} */ count, /** @type {number} */ depth) {
  /** @type {Map<number, number[]>} */
  const children = new Map();
  const level = t.nodes.map(() => 0);
  for (const node of t.nodes) {
    if (node.parent === null || bornAfter[node.id] > count) continue;
    level[node.id] = level[node.parent] + 1;
    if (level[node.id] > depth) continue;
    children.set(node.parent, [...(children.get(node.parent) || []), node.id]);
  }
  /** @type {Map<number, {x: number, y: number}>} */
  const at = new Map();
  let next = 0;
  const place = (/** @type {number} */ id) => {
    const kids = children.get(id) || [];
    kids.forEach(place);
    const x = kids.length ? (at.get(kids[0])?.x ?? 0) / 2 + (at.get(kids[kids.length - 1])?.x ?? 0) / 2 : next++;
    at.set(id, { x, y: level[id] });
  };
  place(0);
  return { at, width: Math.max(next, 1) };
}

function draw() {
  if (!trace) return;
  const count = Number(slider.value);
  const stats = statsAfter(trace, count);
  const step = count > 0 ? trace.iterations[count - 1] : null;
  const { at, width } = layout(trace, count, Math.max(1, Math.min(8, Number(input("shown-depth").value) || 3)));
  const svg = element("mcts-tree");
  const columnWidth = 64, rowHeight = 86, margin = 40;
  const depthShown = Math.max(...[...at.values()].map((p) => p.y));
  // Drawn at its own size (labels stay readable); the frame around it scrolls.
  const [wide, high] = [width * columnWidth + 2 * margin, depthShown * rowHeight + 2 * margin];
  svg.setAttribute("viewBox", `0 0 ${wide} ${high}`);
  svg.setAttribute("width", String(wide));
  svg.setAttribute("height", String(high));
  svg.replaceChildren();
  const onPath = new Set(step ? step.path : []);
  const x = (/** @type {number} */ column) => margin + column * columnWidth + columnWidth / 2;
  const y = (/** @type {number} */ row) => margin + row * rowHeight;
  for (const [id, p] of at) {
    const parent = trace.nodes[id].parent;
    if (parent === null || !at.has(parent)) continue;
    const q = /** @type {{x: number, y: number}} */ (at.get(parent));
    const line = document.createElementNS(SVG, "line");
    line.setAttribute("class", onPath.has(id) || (step && step.expanded === id) ? "medge selected" : "medge");
    line.setAttribute("x1", String(x(q.x))); line.setAttribute("y1", String(y(q.y)));
    line.setAttribute("x2", String(x(p.x))); line.setAttribute("y2", String(y(p.y)));
    svg.append(line);
  }
  const most = Math.max(1, stats.visits[0]);
  for (const [id, p] of at) {
    const node = trace.nodes[id];
    const group = document.createElementNS(SVG, "g");
    const kind = step && step.expanded === id ? " expanded" : onPath.has(id) ? " selected" : "";
    group.setAttribute("class", `mnode${kind}`);
    group.dataset.nodeId = String(id);
    group.dataset.visits = String(stats.visits[id]);
    const circle = document.createElementNS(SVG, "circle");
    circle.setAttribute("cx", String(x(p.x))); circle.setAttribute("cy", String(y(p.y)));
    circle.setAttribute("r", String(6 + 16 * Math.sqrt(stats.visits[id] / most)));
    const label = document.createElementNS(SVG, "text");
    label.setAttribute("x", String(x(p.x))); label.setAttribute("y", String(y(p.y) + 34));
    const rate = stats.visits[id] ? (stats.wins[id] / stats.visits[id]).toFixed(2) : "–";
    label.textContent = `${moveName(node.move, node.mover)} ${stats.visits[id]} ${rate}`;
    const title = document.createElementNS(SVG, "title");
    title.textContent = `node ${id}: ${stats.visits[id]} visits, ${stats.wins[id]} wins, margin ${stats.margin[id]}`;
    group.append(circle, label, title);
    svg.append(group);
  }
  // Keep this iteration's work in sight: the frame scrolls to the expanded node (or the root).
  const focus = at.get(step && step.expanded !== null && at.has(step.expanded) ? step.expanded : 0);
  const frame = svg.parentElement;
  if (focus && frame) frame.scrollLeft = x(focus.x) - frame.clientWidth / 2;
  describe(trace, count, step, stats);
}

/** The phases of the iteration shown, and the root moves' table after it. */
function describe(/** @type {MctsTrace} */ t, /** @type {number} */ count, /** @type {MctsIteration|null} */ step,
  /** @type {Stats} */ stats) {
  const number = element("iteration-number");
  number.textContent = String(count);
  number.dataset.iteration = String(count);
  element("iteration-count").textContent = String(t.iterations.length);
  const phases = element("phases");
  phases.replaceChildren();
  const add = (/** @type {string} */ term, /** @type {string} */ text) => {
    const dt = document.createElement("dt"), dd = document.createElement("dd");
    dt.textContent = term; dd.textContent = text;
    phases.append(dt, dd);
  };
  if (!step) {
    add("before", "no iteration yet: only the root");
  } else {
    const names = step.path.slice(1).map((id) => moveName(t.nodes[id].move, t.nodes[id].mover));
    add("selection", names.length ? `root → ${names.join(" → ")} (UCB1 at each step)` : "the root (it has untried moves)");
    add("expansion", step.expanded === null ? "none: the game is over there"
      : `new node ${moveName(t.nodes[step.expanded].move, t.nodes[step.expanded].mover)} (node ${step.expanded})`);
    add("playout", `random moves to the end: margin ${step.margin > 0 ? "+" : ""}${step.margin} for player 0`);
    add("backpropagation", `a visit and the result to ${step.path.length + (step.expanded === null ? 0 : 1)} nodes`);
  }
  const table = /** @type {HTMLTableElement} */ (element("root-moves"));
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
  const verdict = element("verdict");
  const mover = t.position.to_move;
  verdict.textContent = !roots.length ? "The game is over here." : [
    `UCT after ${count} iterations: ${stats.visits[busiest.id] ? moveName(busiest.move, mover) : "–"} (most visited).`,
    t.alphabeta && t.alphabeta.best_move !== null
      ? `Alpha-beta to depth ${t.alphabeta.depth}: ${moveName(t.alphabeta.best_move, mover)}, value ${t.alphabeta.value}, ${t.alphabeta.nodes} nodes.`
      : "",
  ].join(" ");
  verdict.dataset.uct = stats.visits[busiest?.id ?? 0] ? String(busiest.move) : "";
  for (const node of roots) {
    const row = table.insertRow();
    const visits = stats.visits[node.id];
    const beside = t.alphabeta ? t.alphabeta.moves.find((m) => m.move === node.move) : undefined;
    for (const text of [moveName(node.move, node.mover), String(visits),
      visits ? (stats.wins[node.id] / visits).toFixed(2) : "–", visits ? (stats.margin[node.id] / visits).toFixed(1) : "–",
      beside && beside.value !== null ? String(beside.value) : "–"]) {
      row.insertCell().textContent = text;
    }
  }
}

async function run() {
  status.textContent = "Running UCT…";
  let position;
  try {
    position = JSON.parse(positionBox.value);
  } catch (error) {
    status.textContent = `The position is not JSON: ${error}`;
    return;
  }
  const body = { position, playouts: Number(input("playouts").value), seed: Number(input("seed").value),
    depth: Number(input("ab-depth").value) };
  const answer = await fetch("/api/trace/mcts", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body) });
  const data = await answer.json();
  if (!answer.ok) {
    status.textContent = typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail);
    return;
  }
  trace = /** @type {MctsTrace} */ (data);
  bornAfter = trace.nodes.map(() => 0);
  trace.iterations.forEach((step, index) => { if (step.expanded !== null) bornAfter[step.expanded] = index + 1; });
  slider.max = String(trace.iterations.length);
  slider.value = String(Math.min(1, trace.iterations.length));
  status.textContent = `${trace.iterations.length} iterations, ${trace.nodes.length} nodes`;
  const lab = /** @type {HTMLAnchorElement} */ (element("open-lab"));
  lab.href = `/lab?position=${encodeURIComponent(JSON.stringify(position))}&algorithm=alphabeta&depth=${Math.min(body.depth, 6)}`;
  draw();
}

/** Move the iteration shown by `delta` (or to an end). */
function go(/** @type {string|undefined} */ action) {
  const last = Number(slider.max);
  const now = Number(slider.value);
  const to = { start: 0, back: now - 1, step: now + 1, end: last }[action || ""] ?? now;
  slider.value = String(Math.max(0, Math.min(last, to)));
  draw();
}

const params = new URLSearchParams(location.search);
positionBox.value = params.get("position") || START;
for (const [name, id] of [["playouts", "playouts"], ["seed", "seed"], ["depth", "ab-depth"]]) {
  const given = params.get(name);
  if (given) input(id).value = given;
}
element("run").addEventListener("click", run);
slider.addEventListener("input", draw);
input("shown-depth").addEventListener("change", draw);
for (const button of document.querySelectorAll("[data-action]")) {
  button.addEventListener("click", () => go(/** @type {HTMLElement} */ (button).dataset.action));
}
run();

export {};  // a module (loaded with type="module"): its names stay its own
