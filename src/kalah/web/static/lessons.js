// @ts-check
/* "Learn from your mistakes" (review.js): which of your moves become lessons, and how a choice is judged. Pure
 * functions (no DOM): tests/js/lessons.test.js runs them in Node.
 *
 * The trainer asks for a better move than the one played, so a better move is right even when it is not the
 * best ("F is not the best" rejected a move that kept more than the game's): one whose value beats the played
 * move's. A review stored before moves had their values (no move_values) can only tell the best moves: it asks
 * for the best move, and says so. */

/** @typedef {import("./api.js").Move} Move */

/**
 * One move as the review judged it (kalah.review.ReviewedMove.to_dict): values in seeds for its player.
 * @typedef {object} ReviewedMove
 * @property {number} number @property {number} pair @property {number} player
 * @property {Move} move @property {string} name @property {number[][]} board the board before it
 * @property {number | null} value_before @property {number | null} value_after
 * @property {Move[]} best_moves @property {number} loss @property {string} class
 * @property {boolean} exact @property {boolean} forced
 * @property {{move: Move, value: number | null, exact: boolean}[]} [move_values] every legal move's value
 */

export const BAD = ["mistake", "blunder"];
/** An estimate's lead under this many seeds is noise (kalah.review's ESTIMATE_SLACK): not better. */
export const SLACK = 0.5;

/** Your mistakes and blunders, or your inaccuracies when you made none.
 * @param {ReviewedMove[]} moves @param {boolean[]} yours which players are "you" @returns {ReviewedMove[]} */
export function lessonsOf(moves, yours) {
  const mine = moves.filter((m) => yours[m.player] && !m.forced);
  const bad = mine.filter((m) => BAD.includes(m.class));
  return bad.length ? bad : mine.filter((m) => m.class === "inaccuracy");
}

/** Whether the lesson knows every move's value, so that it can ask for a better move rather than the best.
 * @param {ReviewedMove} lesson @returns {boolean} */
export const knowsValues = (lesson) => Array.isArray(lesson.move_values) && lesson.move_values.length > 0;

/**
 * How a choice in the trainer is judged: "best", "better" (beats the move played, short of the best), "played"
 * (the game's own move), or "worse" (no better than the game's).
 * @param {ReviewedMove} lesson @param {Move} move
 * @returns {{verdict: "best" | "better" | "played" | "worse", value: number | null}}
 */
export function judge(lesson, move) {
  const entry = (lesson.move_values || []).find((m) => m.move === move);
  const value = entry ? entry.value : null;
  if (lesson.best_moves.includes(move)) return { verdict: "best", value: value ?? lesson.value_before };
  if (move === lesson.move) return { verdict: "played", value: lesson.value_after };
  const slack = entry && entry.exact && lesson.exact ? 0 : SLACK;
  const lead = value !== null && lesson.value_after !== null ? value - lesson.value_after : 0;
  if (lead > 0 && lead >= slack) return { verdict: "better", value };
  return { verdict: "worse", value };
}
