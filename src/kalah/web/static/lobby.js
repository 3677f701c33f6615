// @ts-check
/* The lobby view of the live page: open challenges pushed by the server
 * (/api/lobby/live), accepting one, and offering one's own. An offered
 * challenge lives as long as this page's connection (a reload within a few
 * seconds keeps it, with the key the server gave); when someone accepts it,
 * the server sends this page its seat's token and the page opens the game.
 *
 * Each challenge names its author and their side ("Ann plays first"), its variant and clock; accepting one
 * sends the name in the lobby's field (kept in the browser for next time).
 *
 * For tests: each challenge is li[data-challenge=ID] with span.who, button.accept; this
 * page's own challenge has data-mine="true" and button.withdraw. */

import * as api from "./api.js";
import { $, $input } from "./dom.js";
import { keepName, keepToken, storedName } from "./seatstore.js";

/** @typedef {import("./api.js").Challenge} Challenge */

/** @type {WebSocket | null} */
let socket = null;
/** @type {object | null} a challenge to offer once connected */
let pending = null;
/** @type {string | null} */
let mine = null;
/** @type {Challenge[]} */
let listed = [];

const KEY = "kalah.challenge.key";

/** @param {string} text @param {boolean} [error] */
function say(text, error) {
  const message = $("#lobby-message");
  message.textContent = text;
  message.classList.toggle("error", !!error);
}

function drawList() {
  const list = $("#challenges");
  list.replaceChildren(...listed.map((challenge) => {
    const li = document.createElement("li");
    li.dataset.challenge = challenge.id;
    const who = document.createElement("span");
    who.className = `who seat-${challenge.seat ?? "either"}`;
    who.textContent = `${challenge.author || "Someone"} plays ` +
      (challenge.seat === 0 ? "first" : challenge.seat === 1 ? "second" : "either side (by lot)");
    const what = document.createElement("span");
    what.className = "what";
    what.textContent = `${challenge.variant_name} · ${challenge.clock}`;
    li.append(who, what);
    if (challenge.id === mine) {
      li.dataset.mine = "true";
      const note = document.createElement("span");
      note.className = "muted";
      note.textContent = "yours: waiting for someone to accept";
      const withdraw = document.createElement("button");
      withdraw.type = "button";
      withdraw.className = "withdraw small";
      withdraw.textContent = "Withdraw";
      withdraw.addEventListener("click", () => cancel(challenge.id));
      li.append(note, withdraw);
    } else {
      const accept = document.createElement("button");
      accept.type = "button";
      accept.className = "accept primary";
      accept.textContent = "Accept";
      accept.addEventListener("click", () => take(challenge.id));
      li.append(accept);
    }
    return li;
  }));
  if (!listed.length) {
    const li = document.createElement("li");
    li.className = "muted";
    li.textContent = "No open challenges.";
    list.append(li);
  }
}

/** Accept challenge `id`: the game starts. @param {string} id */
async function take(id) {
  try {
    const name = $input("#lobby-name").value.trim();
    keepName(name);
    /** @type {import("./api.js").Seat} */
    const seat = await api.request("POST", `/api/live/challenges/${encodeURIComponent(id)}/accept`, name ? { name } : undefined);
    keepToken(seat.game_id, seat.token);
    location.hash = `#/game/${seat.game_id}`;
  } catch (error) { say(api.errorText(error), true); }
}

/** Withdraw this page's challenge `id`. @param {string} id */
function cancel(id) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "cancel", id }));
  mine = null;
  try { sessionStorage.removeItem(KEY); } catch (e) { /* private mode */ }
  say("Your challenge is withdrawn.");
}

/** Withdraw this page's open challenge, if it has one: its author went to play or watch a game, and
 * someone accepting it then would pull them out of that game. */
export function withdrawMine() {
  if (mine !== null) cancel(mine);
}

/** Connect to the lobby's news (once). */
export function openLobby() {
  if (!$input("#lobby-name").value) $input("#lobby-name").value = storedName();
  if (socket && socket.readyState <= 1) { drawList(); return; }
  socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/lobby/live`);
  const here = socket;
  here.addEventListener("open", () => {
    let key = null;
    try { key = sessionStorage.getItem(KEY); } catch (e) { key = null; }
    if (key) here.send(JSON.stringify({ type: "resume", key }));
    if (pending) { here.send(JSON.stringify({ type: "challenge", ...pending })); pending = null; }
  });
  here.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "challenges") { listed = message.challenges; drawList(); }
    else if (message.type === "offered") {
      mine = message.id;
      try { sessionStorage.setItem(KEY, message.key); } catch (e) { /* private mode */ }
      say("Your challenge is open: stay on this page until someone accepts it.");
      drawList();
    } else if (message.type === "matched") {
      keepToken(message.game_id, message.token);
      try { sessionStorage.removeItem(KEY); } catch (e) { /* private mode */ }
      mine = null;
      location.hash = `#/game/${message.game_id}`;
    } else if (message.type === "error") say(message.detail, true);
  });
  here.addEventListener("close", () => { if (socket === here) socket = null; });
}

/** Offer a challenge (the variant and clock of the form). @param {object} offer */
export function offerChallenge(offer) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "challenge", ...offer }));
  else pending = offer;
}
