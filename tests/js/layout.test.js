// lab/layout.js in Node: the tidy layout of the open part of a search tree.
import assert from "node:assert/strict";
import { test } from "node:test";

import { BOX_H, BOX_W, GAP_X, GAP_Y, layoutTree } from "../../src/kalah/web/static/lab/layout.js";
import { indexTrace } from "../../src/kalah/web/static/lab/trace.js";
import { TWO_ITERATIONS } from "./fixtures.js";

const ix = indexTrace(TWO_ITERATIONS);
/** The drawn nodes by id: {x, y}. */
const placed = (layout) => new Map(layout.items.filter((i) => i.kind === "node").map((i) => [i.id, { x: i.x, y: i.y }]));

test("closed, only the roots are drawn, side by side", () => {
  const layout = layoutTree(ix, new Set(), new Map());
  const at = placed(layout);
  assert.deepEqual([...at.keys()], [0, 3]);
  assert.equal(at.get(0).x, BOX_W / 2);
  assert.equal(at.get(3).x - at.get(0).x, BOX_W + GAP_X + 2 * GAP_X);
  assert.deepEqual(layout.edges, []);
  assert.equal(layout.size.h, BOX_H * 1.8 + GAP_Y);
});

test("open, the leaves sit side by side in visiting order and each parent is centred over its children", () => {
  const layout = layoutTree(ix, new Set([0, 3, 4]), new Map());
  const at = placed(layout);
  assert.deepEqual([...at.keys()].sort((a, b) => a - b), [0, 1, 2, 3, 4, 5, 6, 7]);
  const leaves = [1, 2, 5, 6, 7].map((id) => at.get(id).x);
  for (let k = 1; k < leaves.length; k++) assert.ok(leaves[k] - leaves[k - 1] >= BOX_W + GAP_X);
  for (const id of [0, 3, 4]) {
    const kids = ix.children[id].map((k) => at.get(k).x);
    assert.equal(at.get(id).x, (kids[0] + kids[kids.length - 1]) / 2);
  }
  for (const [id, p] of at) assert.equal(p.y, ix.level[id] * (BOX_H + GAP_Y));
  // every child hangs from its parent by an edge
  assert.equal(layout.edges.length, 6);
  assert.ok(layout.edges.every((e) => e.y2 - e.y1 === GAP_Y && !e.pruned));
  assert.equal(layout.size.h, 2 * (BOX_H + GAP_Y) + BOX_H * 1.8 + GAP_Y);
  // a node is drawn after its subtree (parents over their children's edges)
  const order = layout.items.map((i) => i.kind === "node" && i.id);
  assert.ok(order.indexOf(4) > order.indexOf(6) && order.indexOf(3) > order.indexOf(7));
});

test("the moves a cutoff skipped hang under it, greyed, and widen the tree", () => {
  const without = layoutTree(ix, new Set([3]), new Map());
  const layout = layoutTree(ix, new Set([3]), new Map([[7, ["c", "d"]]]));
  const skipped = layout.items.filter((i) => i.kind === "pruned");
  assert.deepEqual(skipped.map((i) => i.move), ["c", "d"]);
  const seven = placed(layout).get(7);
  assert.equal(seven.x, (skipped[0].x + skipped[1].x) / 2);
  assert.ok(skipped.every((i) => i.y === seven.y + BOX_H + GAP_Y));
  assert.equal(layout.edges.filter((e) => e.pruned).length, 2);
  assert.ok(layout.size.w > without.size.w);
  // under a closed node with children, skipped moves do not show
  assert.equal(layoutTree(ix, new Set(), new Map([[3, ["c"]]])).items.filter((i) => i.kind === "pruned").length, 0);
});
