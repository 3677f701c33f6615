// @ts-check
/* The position editor: any board of any supported variant, drawn by a board
 * of its own (board.js's createBoard) over #board. In edit mode a click on a
 * pit or store adds a seed; shift-click, or the "remove seeds" switch, takes one away. */

import * as api from "../api.js";
import { createBoard } from "../board.js";
import { $, $input, $select, boardElement } from "../dom.js";
import { STYLE } from "../style.js";

/** @typedef {import("./trace.js").Position} Position */

// 8 pits at most: traces come from the byte build of the core (kalah.core.builds), which the rules outgrow at 12
export const MIN_PITS = 1, MAX_PITS = 8, MIN_SEEDS = 1, MAX_SEEDS = 15;

/** The start of a variant. @param {number} pits @param {number} seeds @returns {Position} */
export function startPosition(pits, seeds) {
  const row = () => Array(pits).fill(seeds).concat([0]);
  return { board: [row(), row()], to_move: 0, variant: { pits, seeds, empty_capture: false, pie_rule: false } };
}

/** A position from pasted or URL JSON: the board is required, the rest has defaults.
 * @param {unknown} data @returns {Position} */
export function parsePosition(data) {
  const d = /** @type {any} */ (data);
  if (!d || !Array.isArray(d.board) || d.board.length !== 2 || !d.board.every((/** @type {unknown} */ r) => Array.isArray(r)))
    throw new Error("a position needs \"board\": two rows of pits and a store");
  const pits = d.board[0].length - 1;
  if (pits < MIN_PITS || pits > MAX_PITS || d.board[1].length !== pits + 1) throw new Error(`the lab traces boards of ${MIN_PITS} to ${MAX_PITS} pits a side (the trace build of the core): rows need ${MIN_PITS + 1} to ${MAX_PITS + 1} numbers, both alike`);
  /** @type {number[][]} */
  const board = d.board.map((/** @type {unknown[]} */ r) => r.map((x) => {
    const n = Number(x);
    if (!Number.isInteger(n) || n < 0) throw new Error("seed counts are whole numbers, 0 or more");
    return n;
  }));
  const v = d.variant || {};
  const seeds = Number(v.seeds) || Math.max(1, Math.round(board[0].slice(0, pits).reduce((a, b) => a + b, 0) / pits));
  return { board, to_move: d.to_move === 1 ? 1 : 0,
    variant: { pits, seeds, empty_capture: !!v.empty_capture, pie_rule: !!v.pie_rule } };
}

/** The editor over #board and its controls; tells `onChange` of every change the user makes. */
export class Editor {
  /** @param {(position: Position) => void} onChange the user changed the position */
  constructor(onChange) {
    this.onChange = onChange;
    /** @type {Position} */
    this.position = startPosition(6, 4);
    this.board = createBoard(boardElement(), { style: STYLE });
    const pits = $select("#pits"), seeds = $select("#seeds");
    for (let n = MIN_PITS; n <= MAX_PITS; n++) pits.add(new Option(String(n), String(n)));
    for (let n = MIN_SEEDS; n <= MAX_SEEDS; n++) seeds.add(new Option(String(n), String(n)));
    const restart = () => {
      const start = startPosition(Number(pits.value), Number(seeds.value));
      this.change({ ...start, variant: { ...start.variant, empty_capture: $input("#empty-capture").checked, pie_rule: $input("#pie-rule").checked } });
    };
    pits.addEventListener("change", restart);
    seeds.addEventListener("change", restart);
    for (const [id, field] of /** @type {["#empty-capture" | "#pie-rule", "empty_capture" | "pie_rule"][]} */ ([["#empty-capture", "empty_capture"], ["#pie-rule", "pie_rule"]]))
      $input(id).addEventListener("change", () => this.change({ ...this.position, variant: { ...this.position.variant, [field]: $input(id).checked } }));
    $("#to-move").addEventListener("click", () => this.change({ ...this.position, to_move: 1 - this.position.to_move }));
    $input("#edit-mode").addEventListener("change", () => this.showMode());
    this.board.element.addEventListener("click", (event) => this.clicked(/** @type {MouseEvent} */ (event)));
    $("#load-paste").addEventListener("click", () => {
      try { this.change(parsePosition(JSON.parse($input("#paste").value))); } catch (error) { this.error(error); }
    });
    $("#load-game").addEventListener("click", () => this.loadGame());
    $("details.loaders").addEventListener("toggle", () => this.listGames(), { once: true });
    this.showMode();
  }

  /** @param {unknown} error */
  error(error) { const s = $("#lab-status"); s.textContent = api.errorText(error); s.classList.add("error"); }

  showMode() {
    const editing = $input("#edit-mode").checked;
    document.body.classList.toggle("editing", editing);
  }

  /** Show a position without telling anyone (a trace step, or the URL at start). @param {Position} position */
  set(position) {
    this.position = position;
    $select("#pits").value = String(position.variant.pits);
    $select("#seeds").value = String(position.variant.seeds);
    $("#to-move").textContent = position.to_move === 0 ? "First player (bottom) to move" : "Second player (top) to move";
    $input("#empty-capture").checked = position.variant.empty_capture;
    $input("#pie-rule").checked = position.variant.pie_rule;
    this.draw(position);
  }

  /** Draw any position (the editor's, or the one at a node of the tree). @param {Position} position */
  draw(position) {
    this.board.draw(position.board, position.to_move, false, {});
  }

  /** @param {Position} position */
  change(position) { this.set(position); this.onChange(position); }

  /** @param {MouseEvent} event */
  clicked(event) {
    if (!$input("#edit-mode").checked) return;
    const target = /** @type {Element} */ (event.target);
    const pit = target.closest("[data-pit]"), store = target.closest("[data-store]");
    const remove = event.shiftKey || $input("#remove-mode").checked;
    const board = this.position.board.map((row) => row.slice());
    const pits = this.position.variant.pits;
    let player, index;
    if (pit) [player, index] = String(pit.getAttribute("data-pit")).split("-").map(Number);
    else if (store) { player = Number(store.getAttribute("data-store")); index = pits; }
    else return;
    const limit = index === pits ? 2 * pits * MAX_SEEDS : 99;
    board[player][index] = Math.max(0, Math.min(limit, board[player][index] + (remove ? -1 : 1)));
    this.change({ ...this.position, board });
  }

  async listGames() {
    const select = $select("#game");
    try {
      const games = await api.listGames();
      select.replaceChildren(...games.map((g) => new Option(`#${g.id} ${g.players.map((p) => p.name).join(" – ")} (${g.moves} moves)`, String(g.id))));
      if (!games.length) select.add(new Option("no games yet", ""));
    } catch (error) { this.error(error); }
  }

  async loadGame() {
    const id = Number($select("#game").value);
    if (!id) return;
    try {
      const replay = await api.getReplay(id);
      const n = Math.max(0, Math.min(replay.frames.length - 1, Number($input("#game-move").value) || 0));
      const frame = replay.frames[n];
      this.change({ board: frame.board, to_move: frame.to_move, variant: replay.variant });
    } catch (error) { this.error(error); }
  }
}
