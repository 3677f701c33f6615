// Pit letters in Node: the page's moveName (analysis.js) and the lab's moveLetter (trace.js) name moves alike,
// as kalah.rules.notation.move_name does: A.. for the first player's pits, a.. for the second's, "swap".
import assert from "node:assert/strict";
import { test } from "node:test";

import { moveName } from "../../src/kalah/web/static/analysis.js";
import { moveLetter } from "../../src/kalah/web/static/lab/trace.js";

test("pits are letters of the side that plays them, the swap is swap", () => {
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 7].map((pit) => moveName(0, pit)).join(""), "ABCDEFGH");
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 7].map((pit) => moveName(1, pit)).join(""), "abcdefgh");
  assert.equal(moveName(1, "swap"), "swap");
});

test("the page and the lab agree on every move", () => {
  for (const player of [0, 1]) {
    for (const move of [0, 1, 2, 3, 4, 5, 6, 7, "swap"]) assert.equal(moveLetter(move, player), moveName(player, move));
  }
});
