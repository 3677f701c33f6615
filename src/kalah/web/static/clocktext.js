// @ts-check
/* How the live page writes a clock's time left (pure: unit-tested in Node, tests/js/clocktext.test.js).
 *
 * A chess clock ticks in minutes and seconds ("2:59", "0:08.4"). A
 * correspondence clock (days a move) counts days and hours, then hours and
 * minutes: a ticking m:ss would say nothing useful to someone who answers
 * tomorrow, and would only make them nervous. */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A chess clock: "2:59", "0:08.4", "1:02:03". @param {number} ms @returns {string} */
export function clockText(ms) {
  const total = Math.max(0, ms);
  const seconds = Math.floor(total / 1000);
  const pad = (/** @type {number} */ n) => String(n).padStart(2, "0");
  if (seconds >= 3600) return `${Math.floor(seconds / 3600)}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}`;
  if (total < 10_000) return `0:0${(total / 1000).toFixed(1)}`;
  return `${Math.floor(seconds / 60)}:${pad(seconds % 60)}`;
}

/** A correspondence clock: "2d 4h", "5h 12m", "42m", "under 1m", "0m" (time is out).
 * @param {number} ms @returns {string} */
export function daysText(ms) {
  const total = Math.max(0, ms);
  if (total >= DAY) return `${Math.floor(total / DAY)}d ${Math.floor((total % DAY) / HOUR)}h`;
  if (total >= HOUR) return `${Math.floor(total / HOUR)}h ${Math.floor((total % HOUR) / MINUTE)}m`;
  if (total >= MINUTE) return `${Math.floor(total / MINUTE)}m`;
  return total > 0 ? "under 1m" : "0m";
}

/** When a correspondence move is due, in the reader's own time: "Fri 27 Nov, 14:05".
 * @param {number} at milliseconds since the epoch @param {string} [locale] @returns {string} */
export function dueText(at, locale) {
  return new Date(at).toLocaleString(locale, { weekday: "short", day: "numeric", month: "short", hour: "2-digit",
    minute: "2-digit" });
}
