// @ts-check
/* The game library: every game the server has stored, to continue, replay or
 * export, and the import of a JSON game record.
 *
 * For tests: each row is tr[data-game=ID][data-status=playing|finished|stopped]
 * with links a.continue, a.replay, a.review, a.export, a.watch (games between people in progress) and the
 * button button.delete; button#library-more shows the next page of older games. A game between people in
 * progress has a.continue only in a browser that holds one of its seats, and no button.delete. */

import * as api from "./api.js";
import { $, $input, $select } from "./dom.js";
import { showView } from "./page.js";
import { tokenOf } from "./seatstore.js";
import { STATIC_SITE } from "./site.js";
import { setMode, state } from "./state.js";

/** @typedef {import("./api.js").GameSummary} GameSummary */

/** @param {string} text an ISO date @returns {string} */
function formatDate(text) {
  const date = new Date(text);
  if (isNaN(date.getTime())) return text || "";
  return date.toLocaleString(undefined, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}

/** @param {GameSummary} game @returns {string} */
function resultOf(game) {
  if (game.status === "finished" && game.winner !== null && game.termination && game.termination !== "board") {
    const winner = game.players[game.winner].name, loser = game.players[1 - game.winner].name;
    const how = { resignation: `${loser} resigned`, time: `${loser} ran out of time`, forfeit: `${loser} forfeited` };
    return `${winner} won: ${how[game.termination]}`;
  }
  if (game.status === "finished" && game.scores) {
    const high = Math.max(...game.scores), low = Math.min(...game.scores);
    return game.winner === null ? `draw ${high}–${low}` : `${game.players[game.winner].name} won ${high}–${low}`;
  }
  if (game.status === "stopped") return game.stop_reason || "stopped";
  return "in progress";
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
  const livePlaying = game.live && game.status === "playing";
  if (livePlaying) {
    // a game between people: its players go on at /live (their browsers hold the seats), anyone may watch
    if (tokenOf(game.id)) actions.appendChild(link("Continue", `/live#/game/${game.id}`, "button small continue"));
    const watch = link("Watch", `/live#/watch/${game.id}`, "button small watch");
    watch.dataset.watch = "";
    actions.appendChild(watch);
  } else if (game.status !== "finished" && !game.live) {  // a game between people goes on only at /live
    actions.appendChild(link("Continue", `#/game/${game.id}`, "button small continue"));
  }
  const exportLink = link("Export", `/api/games/${game.id}/record?download=true`, "button small export");
  exportLink.setAttribute("download", `kalah-game-${game.id}.json`);
  if (STATIC_SITE) exportLink.addEventListener("click", (event) => { event.preventDefault(); download(game.id); });
  const remove = document.createElement("button");
  remove.type = "button";
  remove.className = "button small delete";
  remove.textContent = "Delete";
  remove.addEventListener("click", () => deleteGame(game));
  // the server deletes a game between people only once it has ended, and only for its own machine's
  // browser (unless --allow-delete): a button that can only fail is not shown
  const deletable = !livePlaying && state.info?.can_delete !== false;
  actions.append(link("Replay", `#/replay/${game.id}`, "button small replay"), exportLink, ...(deletable ? [remove] : []));
  if (game.moves) actions.insertBefore(link("Review", `#/review/${game.id}`, "button small review"), exportLink);
  tr.appendChild(actions);
  return tr;
}

/** Save a game kept in this browser as its JSON record (a static site: no server to download it from).
 * @param {number} id */
async function download(id) {
  try {
    const record = await api.request("GET", `/api/games/${id}/record`);
    const url = URL.createObjectURL(new Blob([JSON.stringify(record, null, 1)], { type: "application/json" }));
    const a = link("", url, "");
    a.download = `kalah-game-${id}.json`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  } catch (error) {
    $("#library-message").textContent = `Export failed: ${api.errorText(error)}`;
  }
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

/** The games the library page lists (the filters choose among them). @type {GameSummary[]} */
let listed = [];

/** The local day (YYYY-MM-DD) a game started. @param {GameSummary} game @returns {string} */
function startDay(game) {
  const date = new Date(game.started_at);
  if (isNaN(date.getTime())) return "";
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, "0")}-${String(date.getDate()).padStart(2, "0")}`;
}

/** Whether the filters keep `game`: the rules of `kalah games list` (kalah.records.GameFilter), with days
 * in the viewer's time zone. @param {GameSummary} game @returns {boolean} */
function kept(game) {
  const player = $input("#lib-player").value.trim().toLowerCase();
  if (player && !game.players.some((p) => `${p.name}\n${p.spec}`.toLowerCase().includes(player))) return false;
  const variant = $select("#lib-variant").value;
  if (variant && game.variant_name !== variant) return false;
  const result = $select("#lib-result").value;
  const finished = game.status === "finished";
  if (result === "finished" && !finished) return false;
  if (result === "unfinished" && finished) return false;
  if ((result === "draw" || result === "decisive") && (!finished || (game.winner === null) !== (result === "draw"))) return false;
  const since = $input("#lib-since").value, until = $input("#lib-until").value, day = startDay(game);
  if ((since && day < since) || (until && day > until)) return false;
  return true;
}

/** Each listed game's row, made once: filtering shows and hides rows, never makes them again. */
/** @type {Map<number, HTMLTableRowElement>} */
let rows = new Map();
/** The filters as last applied (null: none yet), so that a change that changes nothing does nothing.
 * @type {string | null} */
let applied = null;

/** The filters' values, as one text. @returns {string} */
const filters = () => ["#lib-player", "#lib-variant", "#lib-result", "#lib-since", "#lib-until"]
  .map((id) => $input(id).value).join("\n");

/** Make the rows of the games listed (after a load), then show those the filters keep. */
function listRows() {
  rows = new Map(listed.map((game) => [game.id, row(game)]));
  applied = null;
  showListed();
}

/** The line shown when no game is listed. @param {string} text @returns {HTMLTableRowElement} */
function emptyRow(text) {
  const tr = document.createElement("tr");
  tr.className = "empty";
  const td = document.createElement("td");
  td.colSpan = 7;
  td.className = "muted";
  td.textContent = text;
  tr.appendChild(td);
  return tr;
}

/** Show the games the filters keep, each by its row made once. A field's change event after its input events
 * finds the filters as they were, and changes nothing: nothing moves under the pointer. (It rebuilt the table,
 * so the first click after typing in the player filter, which blurs the field, landed on a row that was gone:
 * Replay, Export and Review swallowed it.) */
function showListed() {
  const now = filters();
  if (now === applied) return;
  applied = now;
  const shown = listed.filter(kept).map((game) => /** @type {HTMLTableRowElement} */ (rows.get(game.id)));
  $("#library tbody").replaceChildren(...(shown.length ? shown
    : [emptyRow(listed.length ? "No game matches the filters." : "No games yet.")]));
  $("#library").dataset.shown = String(shown.length);
}

/** Show the library, newest game first, with `message` above it. @param {string} [message] */
export async function openLibrary(message) {
  setMode("library");
  showView("library");
  $("#library-message").textContent = message || "";
  try { listed = await api.listGames(); } catch (error) {
    listed = [];
    listRows();
    offerMore(listed);
    $("#library-message").textContent = api.errorText(error); return;
  }
  fillVariants();
  listRows();
  offerMore(listed);
}

/** Filter the list as the filters change. */
export function setUpLibraryFilters() {
  for (const id of ["#lib-player", "#lib-variant", "#lib-result", "#lib-since", "#lib-until"]) {
    $(id).addEventListener("input", showListed);
    $(id).addEventListener("change", showListed);
  }
}

/** Offer the next page of older games when the last page was full. @param {GameSummary[]} page */
function offerMore(page) {
  const more = /** @type {HTMLButtonElement} */ ($("#library-more"));
  more.hidden = page.length < api.LIBRARY_PAGE;
  more.dataset.before = page.length ? String(page[page.length - 1].id) : "";
}

/** The variant filter's choices: every variant among the games loaded. */
function fillVariants() {
  const variants = $select("#lib-variant"), chosen = variants.value;
  variants.replaceChildren(new Option("Every variant", ""));
  for (const name of [...new Set(listed.map((g) => g.variant_name))].sort()) variants.add(new Option(name, name));
  variants.value = [...variants.options].some((o) => o.value === chosen) ? chosen : "";
}

/** The next page of older games, added to those listed (the filters apply to it too). */
export async function showOlderGames() {
  const more = /** @type {HTMLButtonElement} */ ($("#library-more"));
  more.disabled = true;
  try {
    const page = await api.listGames(Number(more.dataset.before));
    listed = listed.concat(page);
    fillVariants();
    listRows();
    offerMore(page);
  } catch (error) {
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
