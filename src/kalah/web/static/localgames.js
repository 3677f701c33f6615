// @ts-check
/* The games of a static site, kept in this browser's localStorage (one entry a game) as the library's JSON game
 * records (kalah-game, version 1: kalah.records), with what the library keeps beside a record (why it stopped,
 * the take-backs redo can play again); read and written for localapi.js, which answers the API with them. */

import { ApiError } from "./api.js";
import { Position, RulesError, Variant } from "./engine/rules.js";

/** @typedef {import("./api.js").Move} Move */
/** @typedef {{move: Move, seconds: number, info?: Record<string, any>}} Played */
/**
 * A game as this browser keeps it: its record and what the library keeps beside it.
 * @typedef {object} Stored
 * @property {Record<string, any>} record   the kalah-game record (its result is made when it is read)
 * @property {string | null} stop_reason     why it stopped unfinished (left by the page, for computer games)
 * @property {Played[][]} redo               the take-backs that redo can play again, the last last
 */

export const PREFIX = "kalah.site.game.";
const NEXT = "kalah.site.next";

/** @param {number} id @returns {Stored} */
export function load(id) {
  const text = localStorage.getItem(PREFIX + id);
  if (text === null) throw new ApiError(404, `no game ${id}`);
  return JSON.parse(text);
}

/** @param {number} id @param {Stored} stored */
export function save(id, stored) {
  try {
    localStorage.setItem(PREFIX + id, JSON.stringify(stored));
  } catch (error) {
    throw new ApiError(503, "this browser's storage is full: export and delete some games of the library");
  }
}

/** The ids of the games kept, newest first. @returns {number[]} */
export function ids() {
  const found = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key && key.startsWith(PREFIX)) found.push(Number(key.slice(PREFIX.length)));
  }
  return found.sort((a, b) => b - a);
}

/** @returns {number} */
export function nextId() {
  const next = Math.max(Number(localStorage.getItem(NEXT) || "1"), (ids()[0] || 0) + 1);
  localStorage.setItem(NEXT, String(next + 1));
  return next;
}

/** The positions of a record: the start, then after each move. @param {Record<string, any>} record @returns {Position[]} */
export function positionsOf(record) {
  let position = Position.fromJSON({ variant: record.variant, ...record.start });
  const positions = [position];
  for (const played of record.moves) {
    position = position.play(played.move);
    positions.push(position);
  }
  return positions;
}

/** The record with its result, as the library exports it. @param {Stored} stored @returns {Record<string, any>} */
export function exported(stored) {
  const positions = positionsOf(stored.record);
  const final = positions[positions.length - 1];
  const scores = final.scores;
  /** @type {Record<string, any>} */
  const result = {
    finished: final.is_over, scores: scores ? [...scores] : [final.store(0), final.store(1)],
    winner: scores && scores[0] !== scores[1] ? (scores[0] > scores[1] ? 0 : 1) : null, margin: final.is_over ? final.margin : null,
  };
  if (!final.is_over && stored.stop_reason) result.stop_reason = stored.stop_reason;
  return { ...stored.record, result };
}

/** Keep a JSON game record (text) as a new game, every move checked as the library checks it.
 * @param {unknown} text @returns {number} the new game's id */
export function importRecord(text) {
  let data;
  try { data = typeof text === "string" ? JSON.parse(text) : text; } catch (error) { throw invalid(`not a valid game record: not JSON (${/** @type {Error} */ (error).message})`); }
  const bad = (/** @type {string} */ why) => invalid(`not a valid game record: ${why}`);
  if (!data || typeof data !== "object" || data.format !== "kalah-game") throw bad("not a kalah game record (its format is not \"kalah-game\")");
  if (data.version !== 1) throw bad(`unsupported record version ${JSON.stringify(data.version)} (this site reads 1)`);
  for (const key of ["variant", "players", "start", "moves"]) if (!(key in data)) throw bad(`the record has no ${JSON.stringify(key)}`);
  if (!Array.isArray(data.players) || data.players.length !== 2 || !data.players.every((/** @type {any} */ p) => p && typeof p === "object")) {
    throw bad("'players' must list two players, each with a name and a spec");
  }
  let position;
  try { position = Position.fromJSON({ variant: data.variant, ...data.start }); } catch (error) { throw bad(`bad start position: ${/** @type {Error} */ (error).message}`); }
  if (!Array.isArray(data.moves)) throw bad("'moves' must be a list");
  const moves = [];
  for (const [index, played] of data.moves.entries()) {
    try {
      /** @type {Position} */
      const after = position.play(played.move);
      if (played.board && JSON.stringify(played.board) !== JSON.stringify(after.board)) throw new RulesError("its board is not the one the move leaves");
      moves.push({ number: index + 1, player: position.to_move, move: played.move, board: after.board,
        seconds: typeof played.seconds === "number" ? played.seconds : 0, ...(played.info ? { info: played.info } : {}) });
      position = after;
    } catch (error) { throw bad(`move ${index + 1}: ${/** @type {Error} */ (error).message}`); }
  }
  const record = {
    format: "kalah-game", version: 1, program: String(data.program ?? "unknown"), started_at: String(data.started_at ?? new Date().toISOString()),
    variant: Variant.fromJSON(data.variant).toJSON(),
    players: data.players.map((/** @type {any} */ p, /** @type {number} */ k) => ({ name: String(p.name ?? `player ${k}`).slice(0, 200), spec: String(p.spec ?? "human").slice(0, 500) })),
    start: Position.fromJSON({ variant: data.variant, ...data.start }).toJSON(), moves,
  };
  const id = nextId();
  /** @type {Stored} */
  // a game decided off the board (a resignation, time, a forfeit) is kept as stopped for that reason
  /** @type {Record<string, any>} */
  const ended = data.result && typeof data.result === "object" ? data.result : {};
  const why = ended.stop_reason ?? (["resignation", "time", "forfeit"].includes(ended.termination) ? ended.termination : null);
  const stored = { record, stop_reason: why === null ? null : String(why).slice(0, 500), redo: [] };
  save(id, stored);
  return id;
}

/** @param {string} message */
function invalid(message) { return new ApiError(422, message); }
