// geometry.js in Node: where pits, stores, labels and seeds go (no browser).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { cellPlace, geometry, seedSpots, storeSpots, tagWidth } from "../../src/kalah/web/static/geometry.js";

const style = JSON.parse(readFileSync(new URL("../../src/kalah/rules/board.json", import.meta.url), "utf8"));

test("a board at full size is as wide as its pits and stores, and as tall as board.json says", () => {
  for (const m of [1, 4, 6, 8]) {
    const g = geometry(style, m);
    assert.equal(g.W, 2 * style.margin + 2 * style.store_width + 2 * style.gap + m * style.pit_step);
    assert.equal(g.rowTop, style.row_top);
    assert.equal(g.rowBottom - g.rowTop, style.row_bottom - style.row_top);
    assert.equal(g.H, g.rowTop + g.rowBottom);
    for (let j = 1; j < m; j++) assert.equal(g.colX(j) - g.colX(j - 1), style.pit_step);
    assert.ok(g.storeLeft.x + g.storeLeft.w < g.colX(0) - g.R && g.colX(m - 1) + g.R < g.storeRight.x);
  }
});

test("the bottom player's pits run left to right with the store on the right, the top player's the other way", () => {
  const m = 6, g = geometry(style, m);
  for (const bottom of [0, 1]) {
    const top = 1 - bottom, base = (p) => p * (m + 1);
    for (let i = 0; i < m; i++) {
      const low = cellPlace(g, base(bottom) + i, bottom), high = cellPlace(g, base(top) + i, bottom);
      assert.equal(low.kind, "pit");
      assert.equal(high.kind, "pit");
      assert.deepEqual([low.player, low.index, low.x, low.y, low.top], [bottom, i, g.colX(i), g.rowBottom, false]);
      assert.deepEqual([high.player, high.index, high.x, high.y, high.top], [top, i, g.colX(m - 1 - i), g.rowTop, true]);
    }
    assert.deepEqual(cellPlace(g, base(bottom) + m, bottom), { kind: "store", player: bottom, rect: g.storeRight });
    assert.deepEqual(cellPlace(g, base(top) + m, bottom), { kind: "store", player: top, rect: g.storeLeft });
  }
});

test("shown small, the labels keep a readable size on the screen and the board grows taller for them", () => {
  const full = geometry(style, 6);
  for (const shown of [300, 360, 500]) {
    const g = geometry(style, 6, shown);
    const pixels = (units) => units * shown / g.W;
    assert.equal(g.W, full.W);
    assert.ok(g.H > full.H);
    assert.ok(pixels(g.letterSize) >= 13 - 1e-9);
    assert.ok(pixels(g.tags.count.font) >= 13 - 1e-9 && pixels(g.tags.store.font) >= 14 - 1e-9);
    // the rows of letters sit between the rows of pits, inside the mover's outline, and do not overlap
    assert.ok(g.letterY(true) - g.letterSize / 2 > g.rowTop + g.R);
    assert.ok(g.letterY(false) + g.letterSize / 2 < g.rowBottom - g.R);
    assert.ok(g.letterY(true) + g.letterSize / 2 < g.letterY(false) - g.letterSize / 2);
    const glow = g.glow(false);
    assert.ok(glow.y <= g.letterY(false) - g.letterSize / 2 && glow.y + glow.h >= g.valueY(false) + g.tags.value.h / 2);
  }
  // shown larger than its own size, a board keeps its own label sizes
  assert.deepEqual(geometry(style, 6, 4000).tags, full.tags);
});

test("the value tags of neighbouring pits never touch, for the widest common value", () => {
  for (const m of [6, 8, 12]) {
    for (const shown of [0, 300, 390, 1280]) {
      const g = geometry(style, m, shown);
      // staggered, neighbours stand one tag apart in height, and the tags in one line two pits apart
      const span = g.staggered ? 2 * g.pitStep : g.pitStep;
      assert.ok(tagWidth("+7.75", g.tags.value, 0) <= span - 8 + 1e-9);
      if (g.staggered) assert.ok(Math.abs(Math.abs(g.valueY(false, 1) - g.valueY(false, 0)) - g.tags.value.h) < 1e-9);
      else assert.equal(g.valueY(false, 1), g.valueY(false, 0));
    }
  }
});

test("12 pits on a phone: values staggered to a readable size, counts apart, stores' counts further out", () => {
  for (const shown of [340, 390]) {
    const g = geometry(style, 12, shown), pixels = (units) => units * shown / g.W;
    assert.ok(g.staggered);
    assert.ok(pixels(g.tags.value.font) >= 12 - 1e-9 && pixels(g.tags.count.font) >= 13 - 1e-9);
    assert.ok(tagWidth("12", g.tags.count, g.countEms) < g.pitStep);  // neighbouring pits' counts
    // a store's count of three digits stays clear of its neighbouring pit's count
    const storeTag = tagWidth("288", g.tags.store, 2.5), countTag = tagWidth("12", g.tags.count, g.countEms);
    const apart = Math.abs(g.storeCountY(false) - g.countY(false)) >= (g.tags.store.h + g.tags.count.h) / 2;
    const room = g.storeRight.x + g.storeRight.w / 2 - g.colX(11) >= (storeTag + countTag) / 2;
    assert.ok(apart || room);
    const glow = g.glow(false);  // the mover's outline holds both lines of values
    assert.ok(glow.y + glow.h >= g.valueY(false, 1) + g.tags.value.h / 2);
  }
  // at full size nothing moves
  const full = geometry(style, 12);
  assert.ok(!full.staggered && full.countEms === 2);
  // the counts of pits and stores line up along their outer edges
  assert.ok(Math.abs(full.countY(false) + full.tags.count.h / 2 - full.storeCountY(false) - full.tags.store.h / 2) < 1e-9);
});

test("a board that never shows values keeps no room for them, and its outline still holds its pits", () => {
  for (const shown of [0, 300, 324, 390, 1280]) {
    for (const m of [6, 12]) {
      const bare = geometry(style, m, shown, { values: false }), full = geometry(style, m, shown);
      assert.ok(!bare.staggered && bare.H <= full.H);
      assert.equal(bare.W, full.W);
      for (const top of [true, false]) {
        const glow = bare.glow(top), rim = bare.R + 3;
        const row = top ? bare.rowTop : bare.rowBottom;
        assert.ok(glow.y < row - rim && glow.y + glow.h > row + rim);  // the pits and their rims inside
        // the seed counts stay outside the outline
        const count = bare.countY(top), half = bare.tags.count.h / 2;
        assert.ok(top ? count + half <= glow.y : count - half >= glow.y + glow.h);
      }
    }
  }
  // on a phone the blank band of two lines of values is gone
  assert.ok(geometry(style, 6, 324, { values: false }).H < geometry(style, 6, 324).H - 50);
});

test("seeds: a pit shows at most max_in_pit of them inside its cup, the same way every time", () => {
  const R = style.pit_radius;
  for (const count of [0, 1, 5, 24, 40]) {
    const spots = seedSpots(style, count, 3, R);
    assert.equal(spots.length, Math.min(count, style.seed.max_in_pit));
    for (const s of spots) {
      assert.ok(Math.hypot(s.x, s.y) + style.seed.rx <= R, `a seed reaches out of its pit: ${JSON.stringify(s)}`);
      assert.ok(Number.isInteger(s.color) && s.color >= 0 && s.color < style.seed_colors.length);
    }
    assert.deepEqual(seedSpots(style, count, 3, R), spots);
  }
  assert.notDeepEqual(seedSpots(style, 5, 3, R), seedSpots(style, 5, 4, R));
});

test("seeds: a store heaps them from its bottom, inside it", () => {
  const rect = geometry(style, 6).storeRight;
  assert.equal(storeSpots(style, 100, 6, rect).length, style.seed.max_in_store);
  const spots = storeSpots(style, 40, 6, rect);
  assert.equal(spots.length, 40);
  for (const s of spots) {
    assert.ok(s.x > rect.x && s.x < rect.x + rect.w && s.y > rect.y && s.y < rect.y + rect.h);
  }
  assert.ok(spots[0].y > spots[spots.length - 1].y);
});
