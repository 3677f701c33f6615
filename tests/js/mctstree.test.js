// lab/mctstree.js in Node: what the MCTS pane derives from a UCT trace.
import assert from "node:assert/strict";
import { test } from "node:test";

import { bornAfter, layoutMcts, movesTo, playoutFrom, statsAfter, touched } from "../../src/kalah/web/static/lab/mctstree.js";
import { SMALL_UCT } from "./fixtures.js";

test("each node is born by the iteration that expanded it", () => {
  assert.deepEqual(bornAfter(SMALL_UCT), [0, 1, 2, 3]);
});

test("after the last iteration the statistics are the search's own", () => {
  const s = statsAfter(SMALL_UCT, SMALL_UCT.iterations.length);
  assert.deepEqual(s.visits, SMALL_UCT.nodes.map((n) => n.visits));
  assert.deepEqual(s.wins, SMALL_UCT.nodes.map((n) => n.wins));
  assert.deepEqual(s.margin, SMALL_UCT.nodes.map((n) => n.margin));
});

test("before any iteration nothing is counted; after two, the root has two visits, one per child", () => {
  assert.deepEqual(statsAfter(SMALL_UCT, 0).visits, [0, 0, 0, 0]);
  const s = statsAfter(SMALL_UCT, 2);
  assert.deepEqual(s.visits, [2, 1, 1, 0]);
  // the first playout lost for player 0 (margin -2): node 1 (player 0 moved into it) has no win, the root (player 1) one
  assert.deepEqual(s.wins, [1, 0, 1, 0]);
});

test("an iteration touches its path and the expanded node; its playout starts at the new node or the path's end", () => {
  assert.deepEqual(touched(SMALL_UCT.iterations[2]), [0, 2, 3]);
  assert.deepEqual(touched(SMALL_UCT.iterations[3]), [0, 2, 3]);
  assert.equal(playoutFrom(SMALL_UCT.iterations[0]), 1);
  assert.equal(playoutFrom(SMALL_UCT.iterations[4]), 3);
});

test("the moves from the root to a node", () => {
  assert.deepEqual(movesTo(SMALL_UCT, 0), []);
  assert.deepEqual(movesTo(SMALL_UCT, 3), [1, 0]);
});

test("the layout shows the nodes made so far, to the depth asked, parents over their children", () => {
  const born = bornAfter(SMALL_UCT);
  const early = layoutMcts(SMALL_UCT, born, 2, 8);
  assert.deepEqual([...early.at.keys()].sort(), [0, 1, 2]);
  assert.deepEqual([early.at.get(1), early.at.get(2), early.at.get(0)], [{ x: 0, y: 1 }, { x: 1, y: 1 }, { x: 0.5, y: 0 }]);
  assert.equal(early.width, 2);
  const all = layoutMcts(SMALL_UCT, born, 6, 8);
  assert.deepEqual(all.at.get(3), { x: 1, y: 2 });
  assert.equal(all.height, 2);
  const shallow = layoutMcts(SMALL_UCT, born, 6, 1);
  assert.ok(!shallow.at.has(3));
  assert.equal(shallow.height, 1);
});
