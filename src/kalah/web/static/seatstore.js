// @ts-check
/* This browser's seat tokens, one per live game, in localStorage: closing the
 * tab and coming back keeps the seat. A token never goes into a link. And the
 * name its player gave last, offered again for the next game. */

/** @param {number} id */
const seatKey = (id) => `kalah.seat.${id}`;

/** This browser's token for its seat of game `id`, if any. @param {number} id @returns {string | null} */
export function tokenOf(id) {
  try { return localStorage.getItem(seatKey(id)); } catch (e) { return null; }
}

/** Remember the token of this browser's seat of game `id`. @param {number} id @param {string} token */
export function keepToken(id, token) {
  try { localStorage.setItem(seatKey(id), token); } catch (e) { /* private mode: the seat lasts as long as the tab */ }
}

const NAME_KEY = "kalah.name";

/** The name this browser's player gave last ("" when none). @returns {string} */
export function storedName() {
  try { return localStorage.getItem(NAME_KEY) || ""; } catch (e) { return ""; }
}

/** Remember the player's name for their next game (an empty one is not kept over a given one). @param {string} name */
export function keepName(name) {
  if (!name) return;
  try { localStorage.setItem(NAME_KEY, name); } catch (e) { /* private mode: this visit only */ }
}
