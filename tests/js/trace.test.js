// lab/trace.js in Node: the trace's index (children, subtree ends, levels) and the texts of windows and values.
import assert from "node:assert/strict";
import { test } from "node:test";

import { boundText, describeNode, indexTrace, lineText, moveLetter, pathTo, valueText, windowText } from "../../src/kalah/web/static/lab/trace.js";
import { TWO_ITERATIONS, node } from "./fixtures.js";

test("the index: each node's children in visiting order, its subtree's last id, its level; the roots", () => {
  const ix = indexTrace(TWO_ITERATIONS);
  assert.deepEqual(ix.children, [[1, 2], [], [], [4, 7], [5, 6], [], [], []]);
  assert.deepEqual(ix.end, [2, 1, 2, 7, 6, 5, 6, 7]);
  assert.deepEqual(ix.level, [0, 1, 1, 0, 1, 2, 2, 1]);
  assert.deepEqual(ix.roots, [0, 3]);
  assert.equal(ix.trace, TWO_ITERATIONS);
});

test("a subtree is the run of ids from a node to its end", () => {
  const ix = indexTrace(TWO_ITERATIONS);
  for (const n of TWO_ITERATIONS.nodes) {
    for (let id = n.id; id <= ix.end[n.id]; id++) assert.ok(pathTo(ix, id).includes(n.id));
    if (ix.end[n.id] + 1 < TWO_ITERATIONS.nodes.length) assert.ok(!pathTo(ix, ix.end[n.id] + 1).includes(n.id));
  }
});

test("the path from a node's root down to it", () => {
  const ix = indexTrace(TWO_ITERATIONS);
  assert.deepEqual(pathTo(ix, 6), [3, 4, 6]);
  assert.deepEqual(pathTo(ix, 2), [0, 2]);
  assert.deepEqual(pathTo(ix, 3), [3]);
});

test("bounds, windows and values for people", () => {
  assert.deepEqual(["inf", "-inf", null, -3, 0, 5].map(boundText), ["∞", "−∞", "", "−3", "0", "5"]);
  assert.equal(windowText(node(0, null, null)), "[−∞, ∞]");
  assert.equal(windowText(node(0, null, null, { alpha: null, beta: null })), "");
  assert.equal(windowText(node(0, null, null, { alpha: 2, beta: 3 })), "[2, 3]");
  assert.equal(valueText(node(0, null, null, { value: 4, bound: "lower" })), "≥4");
  assert.equal(valueText(node(0, null, null, { value: -4, bound: "upper" })), "≤−4");
  assert.equal(valueText(node(0, null, null, { value: 0 })), "0");
  assert.equal(valueText(node(0, null, null, { value: null })), "?");
});

test("moves in the pit letters of the side that made them", () => {
  assert.equal(moveLetter(0, 0), "A");
  assert.equal(moveLetter(5, 1), "f");
  assert.equal(moveLetter("swap", 1), "swap");
  assert.equal(moveLetter(null, 0), "root");
});

test("a node described as the lab says it, and its line in the letters of the side that moved", () => {
  const ix = indexTrace(TWO_ITERATIONS);
  assert.deepEqual(describeNode(ix, 7), { node: "8 of 8 · search · 1 plies left", window: "[−∞, ∞]",
    value: "≥0 — cutoff: the other moves are not searched" });
  assert.equal(lineText(ix, [0, 1, 1, 0, 1, 0, 0, 1], 6), "A c");
  assert.equal(lineText(ix, ix.trace.nodes.map(() => -1), 6), "A C");  // who moves not known yet: numbered as player 0's
  assert.equal(lineText(ix, [], 3), "(the root)");
  const scout = indexTrace({ ...TWO_ITERATIONS, nodes: [node(0, null, null, { alpha: null, beta: null, kind: "eval" })] });
  assert.equal(describeNode(scout, 0).window, "none (Scout's EVAL: an exact value)");
  const minimax = indexTrace({ ...TWO_ITERATIONS, nodes: [node(0, null, null, { alpha: null, beta: null })] });
  assert.equal(describeNode(minimax, 0).window, "none (plain minimax)");
});
