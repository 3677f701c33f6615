// upright.js in Node: when a board stands upright and where its pits, stores and labels go (no browser).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { cellPlace, countAt, geometry, hitAt, letterAt, storeCountAt, storeSpots, tagWidth, valueAt } from "../../src/kalah/web/static/geometry.js";
import { MIN_PIT, boardGeometry, uprightGeometry } from "../../src/kalah/web/static/upright.js";

const style = JSON.parse(readFileSync(new URL("../../src/kalah/rules/board.json", import.meta.url), "utf8"));

/** A pit's diameter on the screen, in CSS pixels. */
const pitPixels = (g, shown) => (2 * g.R * shown) / g.W;

test("a board stands upright only where its pits side by side would be smaller than MIN_PIT", () => {
  const cases = [[12, 354, true], [12, 500, true], [12, 600, false], [12, 900, false], [8, 354, true], [7, 354, false], [7, 324, true],
    [6, 354, false], [6, 324, false], [12, 0, false], [12, undefined, false]];
  for (const [m, shown, upright] of cases) {
    const g = boardGeometry(style, m, shown);
    assert.equal(g.upright, upright, `${m} pits at ${shown} px`);
    if (shown) assert.ok(pitPixels(g, shown) >= MIN_PIT - 1e-9 || !upright, `${m} pits at ${shown} px`);
    if (!upright) assert.deepEqual(g.frame, { x: 0, y: 0, w: g.W, h: g.H });
  }
  // side by side is the same layout as ever
  assert.deepEqual(JSON.stringify(boardGeometry(style, 6, 800)), JSON.stringify(geometry(style, 6, 800)));
});

test("upright on a phone, twelve pits a side are 34 px across and the board fits the screen's height", () => {
  for (const shown of [324, 354]) {
    const g = uprightGeometry(style, 12, shown), scale = shown / g.W;
    assert.ok(Math.abs(pitPixels(g, shown) - 34) < 1e-6);
    assert.ok(g.H * scale <= 600, String(g.H * scale));
    // the wooden board is centred in the drawing, as wide as the element, inside it
    assert.ok(g.frame.x >= 0 && g.frame.x + g.frame.w <= g.W + 1e-9 && Math.abs(g.frame.x + g.frame.w / 2 - g.W / 2) < 1e-9);
    // its labels keep their sizes on the screen
    assert.ok(g.letterSize * scale >= 13 - 1e-9 && g.tags.count.font * scale >= 13 - 1e-9 && g.tags.value.font * scale >= 12 - 1e-9);
  }
  // a screen narrower still: the pits shrink with it, and the board still fits its width
  const narrow = uprightGeometry(style, 12, 200);
  assert.ok(narrow.frame.w <= narrow.W + 1e-9 && pitPixels(narrow, 200) < 34);
});

test("the bottom player's pits run down the left column to their store at the bottom, the top player's up the right", () => {
  const m = 12, g = uprightGeometry(style, m, 354);
  for (const bottom of [0, 1]) {
    const top = 1 - bottom, base = (p) => p * (m + 1);
    /** the cells in sowing order from the bottom player's first pit, once around */
    const order = [...Array(m + 1).keys()].map((i) => base(bottom) + i).concat([...Array(m + 1).keys()].map((i) => base(top) + i));
    const places = order.map((cell) => cellPlace(g, cell, bottom));
    const centre = (p) => (p.kind === "store" ? { x: p.rect.x + p.rect.w / 2, y: p.rect.y + p.rect.h / 2 } : p);
    for (let i = 0; i < m; i++) {
      const mine = places[i], theirs = places[m + 1 + i];
      assert.deepEqual([mine.x, mine.y, mine.top], [g.rowBottom, g.colX(i), false]);  // A at the top, down
      assert.deepEqual([theirs.x, theirs.y, theirs.top], [g.rowTop, g.colX(m - 1 - i), true]);  // a at the bottom, up
    }
    assert.ok(g.rowBottom < g.rowTop);  // the bottom player's column on the left
    assert.equal(places[m].rect, g.storeRight);
    assert.equal(places[2 * m + 1].rect, g.storeLeft);
    assert.ok(g.storeLeft.y + g.storeLeft.h < g.colX(0) - g.R && g.colX(m - 1) + g.R < g.storeRight.y);
    // counter-clockwise, as side by side: the turn from each row to the next is to the left (screen y down)
    for (let k = 0; k + 2 < places.length; k++) {
      const [a, b, c] = [places[k], places[k + 1], places[k + 2]].map(centre);
      const cross = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x);
      assert.ok(cross <= 1e-6, `sowing turns clockwise at ${k}`);
    }
  }
});

test("upright labels: letters between the columns, counts and values outside, nothing overlapping", () => {
  for (const values of [true, false]) {
    const g = uprightGeometry(style, 12, 354, { values }), boxes = [];
    for (let cell = 0; cell < 26; cell++) {
      const place = cellPlace(g, cell, 0);
      if (place.kind === "store") {
        const spot = storeCountAt(g, place.rect), w = tagWidth("288", g.tags.store, 2.5) / 2, h = g.tags.store.h / 2;
        boxes.push({ what: `store ${cell}`, x0: spot.x - w, x1: spot.x + w, y0: spot.y - h, y1: spot.y + h });
        assert.ok(spot.x - w > place.rect.x + place.rect.w || spot.x + w < place.rect.x, "a store's count beside it");
        continue;
      }
      const letter = letterAt(g, place), count = countAt(g, place), value = valueAt(g, place);
      const half = g.letterSize / 2, cw = tagWidth("888", g.tags.count, 2) / 2, ch = g.tags.count.h / 2;
      boxes.push({ what: `letter ${cell}`, x0: letter.x - half, x1: letter.x + half, y0: letter.y - half, y1: letter.y + half });
      boxes.push({ what: `count ${cell}`, x0: count.x - cw, x1: count.x + cw, y0: count.y - ch, y1: count.y + ch });
      boxes.push({ what: `pit ${cell}`, x0: place.x - g.R - 3, x1: place.x + g.R + 3, y0: place.y - g.R - 3, y1: place.y + g.R + 3 });
      const inward = place.top ? -1 : 1;
      assert.ok((letter.x - place.x) * inward > g.R, "the letter between the columns");
      assert.ok((count.x - place.x) * inward < -g.R && (value.x - place.x) * inward < 0, "count and value outside");
      if (values) {
        const vw = tagWidth("+7.75", g.tags.value, 2) / 2;
        assert.ok(Math.abs(value.x - count.x) >= vw + cw, "the value clear of the count");
      }
      // a tap anywhere from the letter to the count plays the pit, and only it
      const hit = hitAt(g, place);
      assert.ok(hit.x <= Math.min(letter.x, count.x) && hit.x + hit.w >= Math.max(letter.x, count.x));
      assert.ok(hit.h === g.pitStep && Math.abs(hit.y + hit.h / 2 - place.y) < 1e-9);
      const glow = g.glow(place.top);
      assert.ok(glow.x <= place.x - g.R && glow.x + glow.w >= place.x + g.R && glow.y <= place.y - g.R);
      const held = values ? [letter.x, value.x] : [letter.x];
      assert.ok(glow.x <= Math.min(...held) && glow.x + glow.w >= Math.max(...held), "the outline holds letters and values");
    }
    for (let i = 0; i < boxes.length; i++) {
      for (const b of boxes.slice(i + 1)) {
        const a = boxes[i];
        if (a.what.split(" ")[1] === b.what.split(" ")[1] && (a.what.startsWith("pit") || b.what.startsWith("pit"))) continue;
        assert.ok(a.x1 <= b.x0 || b.x1 <= a.x0 || a.y1 <= b.y0 || b.y1 <= a.y0, `${a.what} overlaps ${b.what}`);
      }
    }
    // everything inside the wooden board
    for (const b of boxes) assert.ok(b.x0 >= g.frame.x && b.x1 <= g.frame.x + g.frame.w && b.y0 >= 0 && b.y1 <= g.H, b.what);
  }
});

test("an upright board's stores lie across it, their seeds heaped inside", () => {
  const g = uprightGeometry(style, 12, 354), rect = g.storeRight;
  assert.ok(rect.w > rect.h);
  const round = rect.h / 2;
  for (const count of [1, 7, 40, 288]) {
    const spots = storeSpots(style, count, 12, rect);
    assert.ok(spots.length === count || spots.length >= 60, `${count}: ${spots.length}`);
    for (const s of spots) {
      // inside the capsule: its straight middle, or within its round ends
      const ends = [rect.x + round, rect.x + rect.w - round];
      const dx = s.x < ends[0] ? ends[0] - s.x : s.x > ends[1] ? s.x - ends[1] : 0;
      assert.ok(Math.hypot(dx, s.y - (rect.y + round)) + style.seed.rx <= round + 2, `${count}: ${JSON.stringify(s)}`);
    }
  }
  // one seed lies in the middle, not in a corner
  assert.ok(Math.abs(storeSpots(style, 1, 12, rect)[0].x - (rect.x + rect.w / 2)) <= 2);
});
