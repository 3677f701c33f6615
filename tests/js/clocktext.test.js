// The live page's clock texts in Node: a chess clock in minutes and seconds, a correspondence clock in days
// and hours (never a ticking m:ss).
import assert from "node:assert/strict";
import { test } from "node:test";

import { clockText, daysText, dueText } from "../../src/kalah/web/static/clocktext.js";

const MINUTE = 60_000, HOUR = 60 * MINUTE, DAY = 24 * HOUR;

test("a chess clock shows minutes and seconds, tenths in the last ten seconds", () => {
  assert.equal(clockText(180_000), "3:00");
  assert.equal(clockText(179_001), "2:59");
  assert.equal(clockText(8_400), "0:08.4");
  assert.equal(clockText(3_723_000), "1:02:03");
  assert.equal(clockText(-5), "0:00.0");
});

test("a correspondence clock shows days and hours, then hours and minutes, then minutes", () => {
  assert.equal(daysText(3 * DAY), "3d 0h");
  assert.equal(daysText(2 * DAY + 4 * HOUR + 59 * MINUTE), "2d 4h");
  assert.equal(daysText(DAY - 1), "23h 59m");
  assert.equal(daysText(5 * HOUR + 12 * MINUTE + 30_000), "5h 12m");
  assert.equal(daysText(42 * MINUTE + 59_000), "42m");
  assert.equal(daysText(59_000), "under 1m");
  assert.equal(daysText(0), "0m");
  for (const ms of [DAY, HOUR + 1, 10 * MINUTE]) assert.doesNotMatch(daysText(ms), /\d:\d\d/);
});

test("a move's deadline is a day and a time", () => {
  const text = dueText(Date.UTC(2026, 10, 27, 14, 5), "en-GB");
  assert.match(text, /27 Nov/);
  assert.match(text, /\d\d:\d\d/);
});
