// reviewgraph.js in Node: where the review graph's points and move numbers go (no browser).
import assert from "node:assert/strict";
import { test } from "node:test";

import { graphLayout } from "../../src/kalah/web/static/reviewgraph.js";

/** A game of `n` moves, with a blunder at move 3; its values zig-zag up to +/-`top`. */
function game(n, top = 10) {
  const moves = Array.from({ length: n }, (_, k) => ({ number: k + 1, class: k === 2 ? "blunder" : "best" }));
  const values = Array.from({ length: n + 1 }, (_, i) => (i % 2 ? top : -top) * (i / n));
  return { moves, values };
}

test("drawn at the width it is shown, within its height bounds, points inside", () => {
  for (const width of [300, 354, 800, 1200]) {
    const { moves, values } = game(40);
    const g = graphLayout(values, moves, width);
    assert.equal(g.width, width);
    assert.ok(g.height >= 170 && g.height <= 240, String(g.height));
    assert.equal(g.points.length, values.length);
    for (const p of g.points) {
      assert.ok(p.x - p.r >= 0 && p.x + p.r <= width, JSON.stringify(p));
      assert.ok(p.y - p.r >= 0 && p.y + p.r <= g.axisY - 6, JSON.stringify(p));  // clear of the 12 px numbers
    }
    // the move numbers are below the plot, inside the drawing
    assert.ok(g.axisY > g.plotBottom && g.axisY < g.height);
  }
  // a phone's graph is not a scaled-down desktop's: 170 px high where 800x220 scaled to 354 px was 97
  assert.equal(graphLayout(game(40).values, game(40).moves, 354).height, 170);
});

test("an even game is the middle line; the largest value reaches the edge of the plot", () => {
  const g = graphLayout([0, 8, -8, 0], [{ number: 1, class: "best" }, { number: 2, class: "best" }, { number: 3, class: "best" }], 600);
  assert.equal(g.top, 8);
  assert.equal(g.points[0].y, g.zeroY);
  assert.ok(Math.abs(g.points[1].y - 12) < 1e-9 && Math.abs(g.points[2].y - g.plotBottom) < 1e-9);
  // a small lead is not blown up to the full height: the scale is at least 4 seeds
  assert.equal(graphLayout([0, 1], [{ number: 1, class: "best" }], 600).top, 4);
});

test("crowded points shrink to their spacing; mistakes and blunders stay larger", () => {
  const few = graphLayout(game(10).values, game(10).moves, 800);
  const many = graphLayout(game(150).values, game(150).moves, 354);
  assert.equal(few.points[1].r, 5);
  assert.equal(few.points[3].r, 7);  // the blunder
  const step = many.points[1].x - many.points[0].x;
  assert.ok(many.points[1].r <= Math.max(2.5, step * 0.42) + 1e-9 && many.points[1].r >= 2.5);
  assert.equal(many.points[3].r, many.points[1].r + 2);
});

test("move numbers stand at their move's point, never closer than a label's room", () => {
  for (const [n, width] of [[10, 354], [40, 354], [150, 354], [40, 1000], [300, 1000]]) {
    const { moves, values } = game(n);
    const g = graphLayout(values, moves, width);
    assert.ok(g.ticks.length >= 2, `${n} moves at ${width} px: ${g.ticks.length} numbers`);
    for (const tick of g.ticks) {
      const k = moves.findIndex((m) => m.number === tick.number);
      assert.equal(tick.x, g.points[k + 1].x);
    }
    for (let t = 1; t < g.ticks.length; t++) assert.ok(g.ticks[t].x - g.ticks[t - 1].x >= 34 - 1e-9);
  }
});
