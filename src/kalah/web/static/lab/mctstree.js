// @ts-check
/* A UCT trace (docs/trace.md, format kalah-mcts-trace/1) and what the MCTS pane derives from it: when
 * each node was made, every node's visits and results after any iteration, the moves from the root
 * to a node, and where the visible part of the tree goes. Pure: tests/js/mctstree.test.js checks it
 * in Node; mctsview.js draws it. */

/** @typedef {import("../api.js").Move} Move */
/** @typedef {import("./trace.js").Position} Position */

/** @typedef {{id: number, parent: number|null, move: Move|null, mover: number}} MctsNode */
/** @typedef {{path: number[], expanded: number|null, margin: number}} MctsIteration */
/** @typedef {{move: Move, value: number|null, bound: string}} MoveValue */
/** @typedef {{depth: number, value: number|null, best_move: Move|null, moves: MoveValue[], nodes: number}} AlphaBeta */
/**
 * @typedef {object} MctsTrace
 * @property {string} format
 * @property {Position} position
 * @property {MctsNode[]} nodes
 * @property {MctsIteration[]} iterations
 * @property {AlphaBeta | null} alphabeta   the alpha-beta search of POST /api/trace/mcts, beside UCT
 * @property {{best_move: Move | null}} result
 */
/** Every node's visits, wins (a draw counts 1/2) and summed margin, for the player who moved into it.
 * @typedef {{visits: number[], wins: number[], margin: number[]}} Stats */

/** The iteration whose expansion made each node (0: the root, there before the first). @param {MctsTrace} t */
export function bornAfter(t) {
  const born = t.nodes.map(() => 0);
  t.iterations.forEach((step, index) => { if (step.expanded !== null) born[step.expanded] = index + 1; });
  return born;
}

/** The nodes an iteration backpropagates through: selection's path and the expanded node.
 * @param {MctsIteration} step @returns {number[]} */
export function touched(step) {
  return step.expanded === null ? step.path : [...step.path, step.expanded];
}

/** Every node's statistics after `count` iterations (as the search keeps them). @param {MctsTrace} t @param {number} count */
export function statsAfter(t, count) {
  /** @type {Stats} */
  const s = { visits: t.nodes.map(() => 0), wins: t.nodes.map(() => 0), margin: t.nodes.map(() => 0) };
  for (const step of t.iterations.slice(0, count)) {
    for (const id of touched(step)) {
      const mine = t.nodes[id].mover === 0 ? step.margin : -step.margin;
      s.visits[id] += 1;
      s.wins[id] += mine > 0 ? 1 : mine === 0 ? 0.5 : 0;
      s.margin[id] += mine;
    }
  }
  return s;
}

/** The moves from the root to a node, in order. @param {MctsTrace} t @param {number} id @returns {Move[]} */
export function movesTo(t, id) {
  /** @type {Move[]} */
  const moves = [];
  for (let at = t.nodes[id]; at.parent !== null; at = t.nodes[at.parent]) moves.unshift(/** @type {Move} */ (at.move));
  return moves;
}

/** The node an iteration's playout started from: the expanded one, else where selection stopped (a game's end).
 * @param {MctsIteration} step @returns {number} */
export function playoutFrom(step) {
  return step.expanded === null ? step.path[step.path.length - 1] : step.expanded;
}

/**
 * The visible part of the tree after `count` iterations, at most `depth` moves deep, laid out in columns:
 * leaves side by side in the order they were made, each parent centred over its children.
 * @param {MctsTrace} t @param {number[]} born @param {number} count @param {number} depth
 * @returns {{at: Map<number, {x: number, y: number}>, width: number, height: number}} x in columns, y in levels
 */
export function layoutMcts(t, born, count, depth) {
  /** @type {Map<number, number[]>} */
  const children = new Map();
  const level = t.nodes.map(() => 0);
  for (const node of t.nodes) {
    if (node.parent === null || born[node.id] > count) continue;
    level[node.id] = level[node.parent] + 1;
    if (level[node.id] > depth) continue;
    children.set(node.parent, [...(children.get(node.parent) || []), node.id]);
  }
  /** @type {Map<number, {x: number, y: number}>} */
  const at = new Map();
  let next = 0, height = 0;
  /** @param {number} id */
  const place = (id) => {
    const kids = children.get(id) || [];
    kids.forEach(place);
    const first = at.get(kids[0]), last = at.get(kids[kids.length - 1]);
    const x = first && last ? (first.x + last.x) / 2 : next++;
    at.set(id, { x, y: level[id] });
    height = Math.max(height, level[id]);
  };
  place(0);
  return { at, width: Math.max(next, 1), height };
}
