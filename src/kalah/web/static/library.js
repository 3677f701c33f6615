// @ts-check
/* The game library: every game the server has stored, to continue, replay or
 * export, and the import of a JSON game record.
 *
 * For tests: each row is tr[data-game=ID][data-status=playing|finished|stopped]
 * with links a.continue, a.replay, a.review, a.export, a.watch (games between people in progress) and the
 * button button.delete; button#library-more shows the next page of older games. */

import * as api from "./api.js";
import { $ } from "./dom.js";
import { showView } from "./page.js";
import { setMode } from "./state.js";

/** @typedef {import("./api.js").GameSummary} GameSummary */

/** @param {string} text an ISO date @returns {string} */
function formatDate(text) {
  const date = new Date(text);
  if (isNaN(date.getTime())) return text || "";
  return date.toLocaleString(undefined, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}

/** @param {GameSummary} game @returns {string} */
function resultOf(game) {
  if (game.status === "finished" && game.scores) {
    const high = Math.max(...game.scores), low = Math.min(...game.scores);
    return game.winner === null ? `draw ${high}–${low}` : `${game.players[game.winner].name} won ${high}–${low}`;
  }
  return game.status === "stopped" ? "stopped" : "in progress";
}

/** @param {string} text @param {string} href @param {string} className @returns {HTMLAnchorElement} */
function link(text, href, className) {
  const a = document.createElement("a");
  a.href = href;
  a.textContent = text;
  a.className = className;
  return a;
}

/** @param {GameSummary} game @returns {HTMLTableRowElement} */
function row(game) {
  const tr = document.createElement("tr");
  tr.dataset.game = String(game.id);
  tr.dataset.status = game.status;
  const cells = [String(game.id), formatDate(game.started_at), `${game.players[0].name} vs ${game.players[1].name}`,
    game.variant_name, String(game.moves), resultOf(game)];
  for (const text of cells) {
    const td = document.createElement("td");
    td.textContent = text;
    tr.appendChild(td);
  }
  const actions = document.createElement("td");
  actions.className = "actions";
  if (game.live && game.status === "playing") {
    // a game between people: its players go on at /live (their browsers hold the seats), anyone may watch
    actions.appendChild(link("Continue", `/live#/game/${game.id}`, "button small continue"));
    const watch = link("Watch", `/live#/watch/${game.id}`, "button small watch");
    watch.dataset.watch = "";
    actions.appendChild(watch);
  } else if (game.status !== "finished") actions.appendChild(link("Continue", `#/game/${game.id}`, "button small continue"));
  const exportLink = link("Export", `/api/games/${game.id}/record?download=true`, "button small export");
  exportLink.setAttribute("download", `kalah-game-${game.id}.json`);
  const remove = document.createElement("button");
  remove.type = "button";
  remove.className = "button small delete";
  remove.textContent = "Delete";
  remove.addEventListener("click", () => deleteGame(game));
  actions.append(link("Replay", `#/replay/${game.id}`, "button small replay"), exportLink, remove);
  if (game.moves) actions.insertBefore(link("Review", `#/review/${game.id}`, "button small review"), exportLink);
  tr.appendChild(actions);
  return tr;
}

/** Delete a game of the library, once the user confirms. @param {GameSummary} game */
async function deleteGame(game) {
  const who = `${game.players[0].name} vs ${game.players[1].name}`;
  if (!window.confirm(`Delete game ${game.id} (${who}, ${resultOf(game)})? This cannot be undone.`)) return;
  try {
    await api.deleteGame(game.id);
    await openLibrary(`Deleted game ${game.id}.`);
  } catch (error) {
    $("#library-message").textContent = `Delete failed: ${api.errorText(error)}`;
  }
}

/** Show the library, newest game first, with `message` above it. @param {string} [message] */
export async function openLibrary(message) {
  setMode("library");
  showView("library");
  $("#library-message").textContent = message || "";
  const body = $("#library tbody");
  body.replaceChildren();
  let games;
  try { games = await api.listGames(); } catch (error) {
    $("#library-message").textContent = api.errorText(error); return;
  }
  if (!games.length) {
    const tr = document.createElement("tr");
    tr.innerHTML = '<td colspan="7" class="muted">No games yet.</td>';
    body.appendChild(tr);
  }
  showPage(games);
}

/** Add a page of games to the table; offer the next one when this one was full. @param {GameSummary[]} games */
function showPage(games) {
  const body = $("#library tbody");
  for (const game of games) body.appendChild(row(game));
  const more = /** @type {HTMLButtonElement} */ ($("#library-more"));
  more.hidden = games.length < api.LIBRARY_PAGE;
  more.dataset.before = games.length ? String(games[games.length - 1].id) : "";
}

/** The next page of older games, below those shown. */
export async function showOlderGames() {
  const more = /** @type {HTMLButtonElement} */ ($("#library-more"));
  more.disabled = true;
  try { showPage(await api.listGames(Number(more.dataset.before))); } catch (error) {
    $("#library-message").textContent = api.errorText(error);
  } finally { more.disabled = false; }
}

/** Import a JSON game record from a file the user chose. @param {File} file */
export async function importRecord(file) {
  try {
    const text = await file.text();
    const game = await api.importRecord(text);
    await openLibrary(`Imported as game ${game.id}.`);
  } catch (error) {
    $("#library-message").textContent = `Import failed: ${api.errorText(error)}`;
  }
}
