// @ts-check
/* The rules of Kalah in JavaScript: the twin of kalah/rules/position.py for the browser's engine and
 * the pages that play without a server (a static site). Positions are immutable; the board, the
 * moves and the pie rule's swap are those of the Python reference, and tests/test_wasm_engine.py
 * plays random games through both and compares every position and every move's effect.
 *
 * A position's JSON is Position.to_dict's: {board: [[pits..., store], [pits..., store]], to_move,
 * variant: {pits, seeds, empty_capture, pie_rule}}. Moves are pit indices 0..pits-1 or "swap".
 */

export const SWAP = "swap";
export const MIN_PITS = 1, MAX_PITS = 12, MIN_SEEDS = 1, MAX_SEEDS = 15, MAX_TOTAL_SEEDS = 1000;

/** @typedef {number | "swap"} Move */
/** @typedef {{pits: number, seeds: number, empty_capture: boolean, pie_rule: boolean}} VariantJSON */
/** @typedef {{board: number[][], to_move: number, variant: VariantJSON}} PositionJSON */

/**
 * What a move did, for displays and animations (the fields of kalah.rules.MoveEffect).
 * @typedef {object} MoveEffect
 * @property {number} player @property {Move} move
 * @property {number[]} sown          flat cells that got a seed, in order
 * @property {boolean} extra_turn
 * @property {number} captured        seeds moved to the store by a capture, the capturing seed included
 * @property {number | null} capture_pit  the flat cell of the pit whose opposite was captured
 * @property {boolean} game_over
 */

/** A position or a variant that breaks the rules, or a move that is not legal. */
export class RulesError extends Error {
  /** @param {string} message */
  constructor(message) { super(message); this.name = "RulesError"; }
}

/** @param {unknown} value @returns {boolean} */
const isWhole = (value) => typeof value === "number" && Number.isInteger(value);

/** Kalah(pits, seeds) with the optional empty-capture and pie rules. */
export class Variant {
  /** @param {number} [pits] @param {number} [seeds] @param {boolean} [emptyCapture] @param {boolean} [pieRule] */
  constructor(pits = 6, seeds = 4, emptyCapture = false, pieRule = false) {
    for (const [name, value, low, high] of /** @type {[string, unknown, number, number][]} */ (
      [["pits", pits, MIN_PITS, MAX_PITS], ["seeds", seeds, MIN_SEEDS, MAX_SEEDS]])) {
      if (!isWhole(value)) throw new RulesError(`${name} must be an integer, got ${JSON.stringify(value)}`);
      if (/** @type {number} */ (value) < low || /** @type {number} */ (value) > high) {
        throw new RulesError(`${name} must be between ${low} and ${high}, got ${value}`);
      }
    }
    for (const [name, value] of /** @type {[string, unknown][]} */ ([["empty_capture", emptyCapture], ["pie_rule", pieRule]])) {
      if (typeof value !== "boolean") throw new RulesError(`${name} must be true or false, got ${JSON.stringify(value)}`);
    }
    this.pits = pits; this.seeds = seeds; this.empty_capture = emptyCapture; this.pie_rule = pieRule;
    Object.freeze(this);
  }

  /** "Kalah(6,4)", "Kalah(7,7) pie". @returns {string} */
  get name() {
    const extras = [this.empty_capture ? "empty-capture" : "", this.pie_rule ? "pie" : ""].filter(Boolean);
    return [`Kalah(${this.pits},${this.seeds})`, ...extras].join(" ");
  }

  /** @returns {VariantJSON} */
  toJSON() { return { pits: this.pits, seeds: this.seeds, empty_capture: this.empty_capture, pie_rule: this.pie_rule }; }

  /** @param {unknown} data @returns {Variant} */
  static fromJSON(data) {
    if (!data || typeof data !== "object" || Array.isArray(data)) throw new RulesError("a variant must be a JSON object");
    const fields = /** @type {Record<string, any>} */ (data);
    const unknown = Object.keys(fields).filter((key) => !["pits", "seeds", "empty_capture", "pie_rule"].includes(key));
    if (unknown.length) throw new RulesError(`unknown variant field(s): ${unknown.sort().join(", ")}`);
    return new Variant(fields.pits ?? 6, fields.seeds ?? 4, fields.empty_capture ?? false, fields.pie_rule ?? false);
  }

  /** @param {Variant} other @returns {boolean} */
  equals(other) {
    return this.pits === other.pits && this.seeds === other.seeds && this.empty_capture === other.empty_capture &&
      this.pie_rule === other.pie_rule;
  }
}

/** A Kalah position: the flat board (player 0's pits and store, then player 1's), who moves, the variant. */
export class Position {
  /** @param {number[]} cells @param {number} toMove @param {Variant} variant */
  constructor(cells, toMove, variant) {
    if (cells.length !== 2 * (variant.pits + 1)) {
      throw new RulesError(`a flat ${variant.name} board has ${2 * (variant.pits + 1)} cells, got ${cells.length}`);
    }
    cells.forEach((count, index) => {
      if (!isWhole(count) || count < 0) throw new RulesError(`cell ${index} must be a count of seeds, got ${JSON.stringify(count)}`);
    });
    const total = cells.reduce((sum, count) => sum + count, 0);
    if (total > MAX_TOTAL_SEEDS) throw new RulesError(`the board holds ${total} seeds; at most ${MAX_TOTAL_SEEDS} are supported`);
    if (toMove !== 0 && toMove !== 1) throw new RulesError(`to_move must be 0 or 1, got ${JSON.stringify(toMove)}`);
    /** @type {readonly number[]} */
    this.cells = Object.freeze(cells.slice());
    this.to_move = toMove;
    this.variant = variant;
    Object.freeze(this);
  }

  /** The start of `variant` (default Kalah(6,4)), player 0 to move. @param {Variant} [variant] @returns {Position} */
  static start(variant = new Variant()) {
    const row = [...Array(variant.pits).fill(variant.seeds), 0];
    return new Position([...row, ...row], 0, variant);
  }

  /** A position from Position.to_dict's JSON (or its text). @param {unknown} data @returns {Position} */
  static fromJSON(data) {
    if (typeof data === "string") {
      try { data = JSON.parse(data); } catch (error) { throw new RulesError(`not valid JSON: ${/** @type {Error} */ (error).message}`); }
    }
    if (!data || typeof data !== "object" || Array.isArray(data)) throw new RulesError("a position must be a JSON object");
    const fields = /** @type {Record<string, any>} */ (data);
    const unknown = Object.keys(fields).filter((key) => !["board", "to_move", "variant"].includes(key));
    if (unknown.length) throw new RulesError(`unknown position field(s): ${unknown.sort().join(", ")}`);
    const board = fields.board;
    if (!Array.isArray(board) || board.length !== 2 || !board.every((row) => Array.isArray(row))) {
      throw new RulesError("a board has 2 rows (one per player), each a list of counts");
    }
    if (board[0].length !== board[1].length) throw new RulesError(`the rows have different lengths (${board[0].length} and ${board[1].length})`);
    const variant = fields.variant == null ? new Variant(board[0].length - 1)
      : Variant.fromJSON({ pits: board[0].length - 1, ...fields.variant });
    if (board[0].length !== variant.pits + 1) {
      throw new RulesError(`a row has ${board[0].length} entries; ${variant.name} needs ${variant.pits} pits and a store`);
    }
    return new Position([...board[0], ...board[1]], fields.to_move ?? 0, variant);
  }

  /** @returns {PositionJSON} */
  toJSON() { return { board: this.board, to_move: this.to_move, variant: this.variant.toJSON() }; }

  /** [[pits..., store], [pits..., store]] (a fresh copy). @returns {number[][]} */
  get board() {
    const half = this.variant.pits + 1;
    return [this.cells.slice(0, half), this.cells.slice(half)];
  }

  /** @param {number} player @returns {number[]} */
  pits(player) {
    const start = player * (this.variant.pits + 1);
    return this.cells.slice(start, start + this.variant.pits);
  }

  /** @param {number} player @returns {number} */
  store(player) { return this.cells[player * (this.variant.pits + 1) + this.variant.pits]; }

  /** @param {number} player @returns {number} */
  sideSeeds(player) { return this.pits(player).reduce((sum, count) => sum + count, 0); }

  /** The seeds still in play. @returns {number} */
  get seeds_in_pits() { return this.sideSeeds(0) + this.sideSeeds(1); }

  /** @returns {boolean} */
  get is_over() { return this.sideSeeds(0) === 0 || this.sideSeeds(1) === 0; }

  /** Final totals once over, else null. @returns {[number, number] | null} */
  get scores() {
    if (!this.is_over) return null;
    return [this.store(0) + this.sideSeeds(0), this.store(1) + this.sideSeeds(1)];
  }

  /** Player 0's final total minus player 1's, once over. @returns {number | null} */
  get margin() { const s = this.scores; return s ? s[0] - s[1] : null; }

  /** The mover's final total minus the opponent's, once over. @returns {number | null} */
  get mover_margin() { const m = this.margin; return m === null ? null : (this.to_move === 0 ? m : -m); }

  /** @returns {boolean} */
  get is_first_move() {
    if (this.to_move !== 0) return false;
    const start = Position.start(this.variant).cells;
    return this.cells.every((count, i) => count === start[i]);
  }

  /** Player 1 may answer the first move with a swap. @returns {boolean} */
  get swap_available() {
    if (!this.variant.pie_rule || this.to_move !== 1) return false;
    const start = Position.start(this.variant);
    for (let pit = 0; pit < this.variant.pits; pit++) {
      const after = start.sow(pit)[0].cells;
      if (after.every((count, i) => count === this.cells[i])) return true;
    }
    return false;
  }

  /** The mover's non-empty pits in ascending order, then the swap where allowed. @returns {Move[]} */
  legalMoves() {
    if (this.is_over) return [];
    /** @type {Move[]} */
    const moves = [];
    this.pits(this.to_move).forEach((count, pit) => { if (count > 0) moves.push(pit); });
    if (this.swap_available) moves.push(SWAP);
    return moves;
  }

  /** @param {unknown} move @returns {boolean} */
  isLegal(move) { return this.legalMoves().includes(/** @type {Move} */ (move)); }

  /** @param {Move} move @returns {Position} */
  play(move) { return this.playExplained(move)[0]; }

  /** The position after `move` and what the move did. @param {Move} move @returns {[Position, MoveEffect]} */
  playExplained(move) {
    if (!this.isLegal(move)) {
      const legal = this.legalMoves();
      throw new RulesError(`${JSON.stringify(move)} is not a legal move here; legal: ${legal.length ? legal.join(", ") : "none: the game is over"}`);
    }
    if (move === SWAP) {
      const half = this.variant.pits + 1;
      const swapped = new Position([...this.cells.slice(half), ...this.cells.slice(0, half)], 0, this.variant);
      return [swapped, { player: this.to_move, move: SWAP, sown: [], extra_turn: false, captured: 0, capture_pit: null, game_over: false }];
    }
    return this.sow(move);
  }

  /** The sowing of `pit` (legal): kalah.rules.Position._sow. @param {number} pit @returns {[Position, MoveEffect]} */
  sow(pit) {
    const m = this.variant.pits, me = this.to_move;
    const own = me * (m + 1), opp = (1 - me) * (m + 1), ownStore = own + m;
    const ring = [...Array(m + 1).keys()].map((i) => own + i).concat([...Array(m).keys()].map((i) => opp + i));
    const cells = this.cells.slice();
    const seeds = cells[own + pit];
    cells[own + pit] = 0;
    let place = pit;
    /** @type {number[]} */
    const sown = [];
    for (let k = 0; k < seeds; k++) {
      place = (place + 1) % ring.length;
      cells[ring[place]] += 1;
      sown.push(ring[place]);
    }
    const last = ring[place];
    const extraTurn = last === ownStore && !(this.variant.pie_rule && this.is_first_move);
    let captured = 0, capturePit = null;
    if (own <= last && last < ownStore && cells[last] === 1) {
      const opposite = opp + (m - 1 - (last - own));
      if (cells[opposite] > 0 || this.variant.empty_capture) {
        captured = cells[opposite] + 1;
        cells[ownStore] += captured;
        cells[last] = cells[opposite] = 0;
        capturePit = last;
      }
    }
    const sum = (/** @type {number} */ from) => cells.slice(from, from + m).reduce((a, b) => a + b, 0);
    const gameOver = sum(0) === 0 || sum(m + 1) === 0;
    if (gameOver) {
      for (const base of [0, m + 1]) {
        cells[base + m] += sum(base);
        for (let i = 0; i < m; i++) cells[base + i] = 0;
      }
    }
    const after = new Position(cells, extraTurn ? me : 1 - me, this.variant);
    return [after, { player: me, move: pit, sown, extra_turn: extraTurn, captured, capture_pit: capturePit, game_over: gameOver }];
  }

  /** The opening book's key: the cells separated by dots, a slash, the player to move. @returns {string} */
  key() { return `${this.cells.join(".")}/${this.to_move}`; }

  /** @param {Position} other @returns {boolean} */
  equals(other) {
    return this.to_move === other.to_move && this.variant.equals(other.variant) &&
      this.cells.every((count, i) => count === other.cells[i]);
  }
}

/** A move in pit letters: A.. for player 0, a.. for player 1, "swap". @param {number} player @param {Move} move @returns {string} */
export function moveName(player, move) {
  if (move === SWAP) return SWAP;
  return String.fromCharCode((player === 0 ? 65 : 97) + move);
}

/** A line of moves in pit letters, as far as it is legal from `position`. @param {Position} position @param {Move[]} moves
 * @returns {string[]} */
export function lineNames(position, moves) {
  /** @type {string[]} */
  const names = [];
  for (const move of moves) {
    if (!position.isLegal(move)) break;
    names.push(moveName(position.to_move, move));
    position = position.play(move);
  }
  return names;
}
