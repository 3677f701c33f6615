// @ts-check
/* "Play a friend" on the board page: a game between two people in the variant
 * shown, with this browser in the first seat; the live page (/live) shows the
 * invitation link and plays it. */

import * as api from "./api.js";
import { keepToken, storedName } from "./seatstore.js";
import { state } from "./state.js";

/** Make the game and go to it. */
export async function playAFriend() {
  const variant = state.game ? state.game.variant : undefined;
  /** @type {import("./api.js").Seat} */
  const seat = await api.request("POST", "/api/live/games", { variant, clock: {}, seat: 0, name: storedName() });
  keepToken(seat.game_id, seat.token);
  // the invitation is shown by the live page of this tab only (sessionStorage), never sent in a URL's query
  try { sessionStorage.setItem(`kalah.invite.${seat.game_id}`, seat.invite || ""); } catch (e) { /* private mode */ }
  location.assign(`/live#/game/${seat.game_id}`);
}
