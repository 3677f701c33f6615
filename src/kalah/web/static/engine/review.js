// @ts-check
/* The review of a whole game on the WebAssembly core: kalah.review (src/kalah/review/). Every position
 * of a game record is analysed (from the end back: late positions are proven at once, and the
 * solver's table they leave helps with the earlier ones), and each move is judged by the seeds it lost
 * against the best; the answer is GameReview.to_dict, the JSON the review page draws.
 */

import { moveName, Position, Variant } from "./rules.js";

/** @typedef {import("./rules.js").Move} Move */
/** @typedef {import("./analyse.js").Analysis} Analysis */
/** @typedef {import("./analyse.js").Analyses} Analyses */

export const FORMAT = "kalah-review";
/** Seconds of analysis per position by default (kalah.review.DEFAULT_TIME). */
export const DEFAULT_TIME = 0.4;
/** [class, the largest loss in seeds it takes], best first (kalah.review.CLASSES). */
export const CLASSES = /** @type {[string, number][]} */ ([["best", 0], ["good", 2], ["inaccuracy", 4], ["mistake", 8], ["blunder", Infinity]]);
/** An estimate's loss under this many seeds counts as none. */
const ESTIMATE_SLACK = 0.5;

/** The class of a move that lost `loss` seeds. @param {number} loss @returns {string} */
export function classify(loss) {
  for (const [name, most] of CLASSES) if (loss <= most) return name;
  return CLASSES[CLASSES.length - 1][0];
}

/** The positions of a game record (kalah-game JSON): the start, then after each move.
 * @param {Record<string, any>} record @returns {Position[]} */
export function recordPositions(record) {
  if (!record || record.format !== "kalah-game") throw new Error("not a kalah game record");
  const variant = Variant.fromJSON(record.variant);
  let position = Position.fromJSON({ variant: variant.toJSON(), ...record.start });
  const positions = [position];
  for (const [index, recorded] of (record.moves ?? []).entries()) {
    try { position = position.play(recorded.move); } catch (error) { throw new Error(`move ${index + 1}: ${/** @type {Error} */ (error).message}`); }
    positions.push(position);
  }
  return positions;
}

/** -1, 0 or 1 for the mover: an estimate within a seed of zero is a draw. @param {number | null} value @returns {number | null} */
function outcome(value) {
  if (value === null) return null;
  return Math.abs(value) < 1 ? 0 : value > 0 ? 1 : -1;
}

/** @param {number} x @param {number} digits @returns {number} */
const rounded = (x, digits) => Math.round(x * 10 ** digits) / 10 ** digits;

/**
 * Review every move of `record`, analysing each position for `time` seconds.
 * @param {Analyses} analyses @param {Record<string, any>} record @param {number} [time]
 * @param {(done: number, total: number) => void} [progress] @returns {Promise<Record<string, any>>}
 */
export async function review(analyses, record, time = DEFAULT_TIME, progress) {
  if (!(typeof time === "number" && time > 0)) throw new Error(`time must be a positive number of seconds, got ${time}`);
  const started = performance.now();
  const positions = recordPositions(record);
  /** @type {Analysis[]} */
  const found = new Array(positions.length);
  for (let index = positions.length - 1, done = 1; index >= 0; index--, done++) {
    found[index] = await analyses.analyse(positions[index], { time });
    if (progress) progress(done, positions.length);
  }
  return reviewOfAnalyses(record, positions, found, time, (performance.now() - started) / 1000);
}

/**
 * The review from the analyses of the record's positions (kalah.review.review_of_analyses).
 * @param {Record<string, any>} record @param {Position[]} positions @param {Analysis[]} analyses @param {number} time
 * @param {number} seconds @returns {Record<string, any>}
 */
export function reviewOfAnalyses(record, positions, analyses, time, seconds) {
  const reviewed = [];
  let pair = 0, lastPlayer = null;
  for (const [index, recorded] of record.moves.entries()) {
    const before = positions[index], analysis = analyses[index];
    if (lastPlayer === null || (recorded.player === 0 && lastPlayer !== 0)) pair++;
    lastPlayer = recorded.player;
    const entry = analysis.moves.find((m) => m.move === recorded.move);
    let valueAfter = entry ? entry.value : null;
    const moveExact = entry ? entry.exact : false;
    const forced = before.legalMoves().length === 1;
    const exact = analysis.exact && moveExact && analysis.moves.every((m) => m.exact);
    let loss = 0;
    if (analysis.best_moves.includes(recorded.move)) {
      valueAfter = valueAfter === null ? analysis.value : valueAfter;
    } else if (analysis.value !== null && valueAfter !== null) {
      loss = Math.max(analysis.value - valueAfter, 0);
      if (!exact && loss < ESTIMATE_SLACK) loss = 0;
      if (exact) loss = Math.max(loss, 2);
      loss = Number.isInteger(loss) ? loss : rounded(loss, 2);
    }
    reviewed.push({
      number: index + 1, pair, player: recorded.player, move: recorded.move, name: moveName(recorded.player, recorded.move),
      board: before.board, value_before: analysis.value, value_after: valueAfter, best_moves: [...analysis.best_moves],
      loss: forced ? 0 : loss, class: forced ? "best" : classify(loss), exact, forced,
    });
  }
  const evaluation = positions.map((position, i) => {
    const value = analyses[i].value;
    return value === null ? null : position.to_move === 0 ? value : -value;
  });
  const turning = reviewed.filter((entry) => {
    const was = outcome(entry.value_before), now = outcome(entry.value_after);
    return was !== null && now !== null && entry.loss > 0 && now < was;
  }).map((entry) => entry.number);
  const accuracy = [], averageLoss = [], counts = [];
  for (const player of [0, 1]) {
    const decisions = reviewed.filter((entry) => entry.player === player && !entry.forced);
    /** @type {Record<string, number>} */
    const count = Object.fromEntries(CLASSES.map(([name]) => [name, 0]));
    for (const entry of reviewed) if (entry.player === player) count[entry.class]++;
    counts.push(count);
    if (!decisions.length) { accuracy.push(null); averageLoss.push(null); continue; }
    const good = decisions.filter((entry) => entry.class === "best" || entry.class === "good").length;
    accuracy.push(rounded(100 * good / decisions.length, 1));
    averageLoss.push(rounded(decisions.reduce((sum, entry) => sum + entry.loss, 0) / decisions.length, 2));
  }
  const last = positions[positions.length - 1];
  return {
    format: FORMAT, version: 1, variant: record.variant, players: record.players.map((/** @type {{name: string}} */ p) => p.name),
    moves: reviewed, evaluation, exact: analyses.map((analysis) => analysis.exact), accuracy, average_loss: averageLoss,
    turning_points: turning, classes: Object.fromEntries(CLASSES.map(([name, most]) => [name, most === Infinity ? null : most])),
    counts, seconds_per_position: time, seconds: rounded(seconds, 3), game_moves: reviewed.length,
    final: { board: last.board, to_move: last.to_move, over: last.is_over },
  };
}
