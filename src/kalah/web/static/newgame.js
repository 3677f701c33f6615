// @ts-check
/* The New game dialog: the variant and who plays each side (a human, a
 * computer level, or any player spec the server accepts). */

import * as api from "./api.js";
import { $, $dialog, $input, $select } from "./dom.js";
import { keepLeaveToken, state } from "./state.js";

/** @param {HTMLSelectElement} select @param {string} value the option chosen at first */
function fillPlayerSelect(select, value) {
  const info = state.info;
  select.replaceChildren();
  /** @param {string} val @param {string} text @param {boolean} [disabled] */
  const add = (val, text, disabled) => {
    const option = document.createElement("option");
    option.value = val;
    option.textContent = text;
    option.disabled = !!disabled;
    select.appendChild(option);
  };
  add("human", "Human");
  for (const level of info ? info.levels : []) {  // the name and what it means: "medium: a six-move search"
    add(level.name, `Computer, ${level.name}: ${level.summary}` + (level.available ? "" : " (not installed)"), !level.available);
  }
  add("custom", "Computer: a player spec…");
  select.value = value;
}

/** The line under a player's choice: what that player is, and the spec field for a custom one.
 * @param {number} p */
function describeChoice(p) {
  const info = state.info;
  const value = $select(`#ng-p${p}`).value;
  const level = info ? info.levels.find((l) => l.name === value) : undefined;
  $(`#ng-p${p}-spec`).hidden = value !== "custom";
  $(`#ng-p${p}-about`).textContent = value === "human" ? "A person at this board clicks the pits."
    : level ? `Plays as ${level.spec}: ${level.summary}.` : "Type a spec such as pvs:depth=8 (the player types are listed below).";
  const custom = [0, 1].some((q) => $select(`#ng-p${q}`).value === "custom");
  $("#ng-types-box").hidden = !custom;  // the list of player types only where a spec is typed
}

/** Open the dialog: a human against the default level. */
export function openNewGame() {
  const info = state.info;
  if (!info) return;
  fillPlayerSelect($select("#ng-p0"), "human");
  fillPlayerSelect($select("#ng-p1"), info.default_level);
  const types = $("#ng-types");
  types.replaceChildren();
  for (const type of info.player_types) {
    const item = document.createElement("li");
    const name = document.createElement("code");
    name.textContent = type.name;
    item.append(name, ` ${type.summary}` + (type.options ? `; options: ${type.options}` : ""));
    types.appendChild(item);
  }
  $("#ng-error").textContent = "";
  for (const p of [0, 1]) describeChoice(p);
  $dialog("#dlg-new").showModal();
}

/** Start the game the dialog describes, and open it. @param {Event} event the form's submit */
async function startNewGame(event) {
  event.preventDefault();
  const players = [0, 1].map((p) => {
    const value = $select(`#ng-p${p}`).value;
    return value === "custom" ? $input(`#ng-p${p}-spec`).value.trim() : value;
  });
  const body = {
    variant: { pits: Number($select("#ng-pits").value), seeds: Number($select("#ng-seeds").value),
      empty_capture: $input("#ng-empty").checked, pie_rule: $input("#ng-pie").checked },
    players,
  };
  try {
    const game = await api.newGame(body);
    keepLeaveToken(game);
    $dialog("#dlg-new").close();
    location.hash = `#/game/${game.id}`;
  } catch (error) {
    $("#ng-error").textContent = api.errorText(error);
  }
}

/** Wire the dialog's controls. */
export function setUpNewGameDialog() {
  // The bar's "New game" is a link (/#/new) so that it works from every page; here it opens the dialog in place.
  $("#btn-new").addEventListener("click", (event) => { event.preventDefault(); openNewGame(); });
  $("#ng-cancel").addEventListener("click", () => $dialog("#dlg-new").close());
  $("#form-new").addEventListener("submit", startNewGame);
  for (const p of [0, 1]) {
    $(`#ng-p${p}`).addEventListener("change", () => describeChoice(p));
  }
}
