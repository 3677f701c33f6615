// Traces for the lab modules' tests (not a test file: node --test runs only *.test.js).

/** A node of a trace (docs/trace.md) with defaults. */
export const node = (id, parent, move, fields = {}) => ({ id, parent, move, depth: 0, alpha: "-inf", beta: "inf", value: 0,
  bound: "exact", cutoff: false, table_hit: false, kind: parent === null ? "root" : "search", ...fields });

/** Two iterations of progressive deepening: depth 1 (nodes 0-2), then depth 2 (nodes 3-7). */
export const TWO_ITERATIONS = {
  format: "kalah-trace/1", algorithm: "alphabeta", depth: 2, evaluation: "store", options: {},
  position: { board: [[3, 3, 3, 3, 0], [3, 3, 3, 3, 0]], to_move: 0, variant: { pits: 4, seeds: 3, empty_capture: false, pie_rule: false } },
  result: { value: 1, best_move: 1, pv: [1], nodes: 8, seconds: 0 },
  nodes: [
    node(0, null, null, { depth: 1 }), node(1, 0, 0), node(2, 0, 1),
    node(3, null, null, { depth: 2 }), node(4, 3, 0, { depth: 1 }), node(5, 4, 0), node(6, 4, 2),
    node(7, 3, 1, { depth: 1, cutoff: true, bound: "lower" }),
  ],
};

/** UCT on Kalah(2,1), six playouts, seed 1 (kalah.search.mcts_trace.trace_mcts(...).to_json(), the result left out):
 * the nodes carry the search's final visits, wins and margins. */
export const SMALL_UCT = {
  format: "kalah-mcts-trace/1", playouts: 6, seed: 1,
  position: { board: [[1, 1, 0], [1, 1, 0]], to_move: 0, variant: { pits: 2, seeds: 1, empty_capture: false, pie_rule: false } },
  result: { best_move: 1 }, alphabeta: null,
  nodes: [
    { id: 0, parent: null, move: null, mover: 1, visits: 6, wins: 1.0, margin: -8 },
    { id: 1, parent: 0, move: 0, mover: 0, visits: 1, wins: 0.0, margin: -2 },
    { id: 2, parent: 0, move: 1, mover: 0, visits: 5, wins: 5.0, margin: 10 },
    { id: 3, parent: 2, move: 0, mover: 0, visits: 4, wins: 4.0, margin: 8 },
  ],
  iterations: [
    { path: [0], expanded: 1, margin: -2 }, { path: [0], expanded: 2, margin: 2 }, { path: [0, 2], expanded: 3, margin: 2 },
    { path: [0, 2, 3], expanded: null, margin: 2 }, { path: [0, 2, 3], expanded: null, margin: 2 }, { path: [0, 2, 3], expanded: null, margin: 2 },
  ],
};
