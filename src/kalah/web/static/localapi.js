// @ts-check
/* The JSON API of kalah serve, answered in the browser: what a static site (kalah site build) has in place of
 * a server. api.js sends its requests here on such a site. The games are kept in this browser as the library's
 * JSON game records (localgames.js), so that they export and import as the library's; the rules are engine/rules.js, the computer's moves and the analyses the
 * engine in the page (pageengine.js), the puzzles and the levels files the site holds (static/puzzles.json,
 * static/site.json). The answers have the shapes of the server's (api.js's typedefs), and a refused request
 * rejects with an ApiError of the server's status and words.
 */

import { ApiError } from "./api.js";
import { moveName, Position, SWAP, Variant } from "./engine/rules.js";
import { playsInBrowser } from "./engine/players.js";
import { exported, ids, importRecord, load, nextId, PREFIX, positionsOf, save } from "./localgames.js";
import { pageEngine, positionOf } from "./pageengine.js";

/** @typedef {import("./api.js").GameState} GameState */
/** @typedef {import("./api.js").Move} Move */
/** @typedef {import("./localgames.js").Stored} Stored */

/** The site's description (levels, player types, version), written by kalah site build. */
const SITE_FILE = new URL("./site.json", import.meta.url);
const PUZZLES_FILE = new URL("./puzzles.json", import.meta.url);

/** @type {Promise<Record<string, any>> | null} */
let site = null;
/** @returns {Promise<Record<string, any>>} */
function siteInfo() {
  if (!site) site = fetch(SITE_FILE).then((answer) => answer.json());
  return site;
}

/** @param {string} message */
const invalid = (message) => new ApiError(422, message);

/** @param {string} spec @returns {boolean} */
const isHuman = (spec) => spec.trim().toLowerCase() === "human" || spec.trim().toLowerCase().startsWith("human:");

/** The players as the API shows them. @param {{name: string, spec: string}[]} players @param {Record<string, any>} info */
function playersOut(players, info) {
  return players.map((p) => ({
    name: p.name, spec: p.spec, human: isHuman(p.spec),
    level: (info.levels.find((/** @type {{spec: string}} */ level) => level.spec === p.spec) || { name: null }).name,
  }));
}

/** What a move did (the API's EffectOut). @param {number} number @param {Position} before @param {Move} move */
function effectOf(number, before, move) {
  const [, effect] = before.playExplained(move);
  return { number, player: effect.player, move: effect.move, name: moveName(effect.player, move), before: before.board,
    sown: effect.sown, extra_turn: effect.extra_turn, captured: effect.captured, capture_pit: effect.capture_pit,
    game_over: effect.game_over };
}

/** How many moves a take-back removes: back to before the last human move (one when no side is human).
 * @param {Record<string, any>} record @param {boolean[]} humans @returns {number} */
function takeBackCount(record, humans) {
  if (!record.moves.length) return 0;
  if (!humans.some(Boolean)) return 1;
  for (let count = 1; count <= record.moves.length; count++) if (humans[record.moves[record.moves.length - count].player]) return count;
  return 0;
}

/** @param {Position} final @param {string | null} stopReason */
function statusOf(final, stopReason) {
  return final.is_over ? "finished" : stopReason ? "stopped" : "playing";
}

/** The game as the page shows it (GameState). @param {number} id @param {Stored} stored @returns {Promise<GameState>} */
async function stateOf(id, stored) {
  const info = await siteInfo();
  const record = stored.record;
  const positions = positionsOf(record);
  const position = positions[positions.length - 1];
  const players = playersOut(record.players, info);
  const humans = players.map((p) => p.human);
  const over = position.is_over;
  const scores = position.scores;
  return {
    id, variant: position.variant.toJSON(), variant_name: position.variant.name, players, board: position.board,
    to_move: position.to_move, legal_moves: position.legalMoves(), over, status: statusOf(position, stored.stop_reason),
    scores: scores ? [...scores] : null, winner: scores && scores[0] !== scores[1] ? (scores[0] > scores[1] ? 0 : 1) : null,
    margin: position.margin, termination: over ? "board" : null,
    human_to_move: !over && humans[position.to_move], computer_to_move: !over && !humans[position.to_move],
    moves: record.moves.length,
    last: record.moves.length ? effectOf(record.moves.length, positions[positions.length - 2], record.moves[record.moves.length - 1].move) : null,
    history: record.moves.map((/** @type {{player: number, move: Move}} */ m) => moveName(m.player, m.move)),
    can_take_back: takeBackCount(record, humans) > 0, can_redo: stored.redo.length > 0, started_at: record.started_at,
  };
}

/** A player of a new game from "human", a level's name or a player spec the browser plays.
 * @param {unknown} entry @param {string | null | undefined} name @param {Record<string, any>} info @returns {{name: string, spec: string}} */
function resolvePlayer(entry, name, info) {
  const text = typeof entry === "string" ? entry.trim() : "";
  if (!text) throw invalid("a player must be 'human', a level name or a player spec");
  if (isHuman(text)) return { name: name || "Human", spec: "human" };
  const level = info.levels.find((/** @type {{name: string}} */ l) => l.name === text.toLowerCase());
  if (level) return { name: name || `Computer (${level.name})`, spec: level.spec };
  if (!playsInBrowser(text)) throw invalid(`${JSON.stringify(text)} is not a computer player this site can run (it plays: ${info.player_types.map((/** @type {{name: string}} */ t) => t.name).join(", ")})`);
  return { name: name || `Computer (${text})`, spec: text };
}

/** A new game: the variant and players of the NewGame request. @param {Record<string, any>} body */
async function create(body) {
  const info = await siteInfo();
  const entries = body.players ?? ["human", info.default_level];
  if (!Array.isArray(entries) || entries.length !== 2) throw invalid("players: two players, for player 0 and player 1");
  const names = body.names ?? [null, null];
  let variant;
  try { variant = Variant.fromJSON(body.variant ?? {}); } catch (error) { throw invalid(/** @type {Error} */ (error).message); }
  const players = entries.map((entry, k) => resolvePlayer(entry, names[k], info));
  if (body.players) {
    const engine = await pageEngine();
    for (const player of players) if (!isHuman(player.spec) && engine) await engine.checkSpec(player.spec).catch((error) => { throw invalid(error.message); });
  }
  const record = {
    format: "kalah-game", version: 1, program: `kalah ${info.version} (a static site)`, started_at: new Date().toISOString().replace(/\.\d+Z$/, "+00:00"),
    variant: variant.toJSON(), players, start: Position.start(variant).toJSON(), moves: [],
  };
  /** @type {Stored} */
  const stored = { record, stop_reason: null, redo: [] };
  if (body.preview) return { ...(await stateOf(0, stored)), leave_token: null };
  const id = nextId();
  save(id, stored);
  return { ...(await stateOf(id, stored)), leave_token: "kept in this browser" };
}

/** @param {Stored} stored @param {number} expected @param {number} id */
function checkCurrent(stored, expected, id) {
  const moves = stored.record.moves.length;
  if (moves !== expected) throw new ApiError(409, `game ${id} has ${moves} move${moves === 1 ? "" : "s"}, not ${expected}: it moved on since this request was made (reload it)`);
}

/** Play a move (a human's, or with `computer` the computer's the engine chose) and keep it.
 * @param {number} id @param {Record<string, any>} body */
async function play(id, body) {
  const stored = load(id);
  checkCurrent(stored, body.moves, id);
  const positions = positionsOf(stored.record);
  const position = positions[positions.length - 1];
  if (position.is_over) throw new ApiError(409, `game ${id} is over; no more moves`);
  const mover = stored.record.players[position.to_move];
  const computer = body.computer === true;
  if (isHuman(mover.spec) === computer) {
    throw new ApiError(409, `it is not a ${computer ? "computer" : "human"}'s turn in game ${id}: player ${position.to_move} (${mover.name}) is ${computer ? "a person" : "a computer"}`);
  }
  let move = body.move;
  if (typeof move === "string" && move.trim().toLowerCase() !== SWAP) move = move.trim().toLowerCase().charCodeAt(0) - 97;
  if (typeof move === "string") move = SWAP;
  let after;
  try { after = position.play(move); } catch (error) { throw invalid(`illegal move: ${/** @type {Error} */ (error).message}`); }
  stored.record.moves.push({ number: stored.record.moves.length + 1, player: position.to_move, move, board: after.board,
    seconds: 0, ...(computer ? { info: { engine: "browser" } } : {}) });
  stored.redo = [];
  stored.stop_reason = null;
  save(id, stored);
  return stateOf(id, stored);
}

/** The computer to move chooses with the engine in the page. @param {number} id @param {Record<string, any>} body */
async function computerMove(id, body) {
  const stored = load(id);
  checkCurrent(stored, body.moves, id);
  const positions = positionsOf(stored.record);
  const position = positions[positions.length - 1];
  const spec = stored.record.players[position.to_move].spec;
  if (position.is_over || isHuman(spec)) throw new ApiError(409, `it is not the computer's turn in game ${id}`);
  const engine = await pageEngine();
  if (!engine) throw new ApiError(503, "the engine cannot run in this browser (no WebAssembly): the computer cannot move on this site");
  const choice = await engine.choose(spec, positionOf(position.toJSON()), `${id}/${position.to_move}`);
  return play(id, { move: choice.move, moves: body.moves, computer: true });
}

/** @param {number} id @param {Record<string, any>} body */
async function takeBack(id, body) {
  const stored = load(id);
  checkCurrent(stored, body.moves, id);
  const humans = stored.record.players.map((/** @type {{spec: string}} */ p) => isHuman(p.spec));
  const count = takeBackCount(stored.record, humans);
  if (!count) throw new ApiError(409, `game ${id} has no move to take back`);
  const removed = stored.record.moves.splice(stored.record.moves.length - count, count);
  stored.redo.push(removed.map((/** @type {Record<string, any>} */ m) => ({ move: m.move, seconds: m.seconds, info: m.info })));
  stored.stop_reason = null;
  save(id, stored);
  return stateOf(id, stored);
}

/** @param {number} id @param {Record<string, any>} body */
async function redo(id, body) {
  const stored = load(id);
  checkCurrent(stored, body.moves, id);
  const step = stored.redo.pop();
  if (!step) throw new ApiError(409, `game ${id} has nothing to redo`);
  let position = positionsOf(stored.record).pop();
  for (const played of step) {
    const before = /** @type {Position} */ (position);
    position = before.play(played.move);
    stored.record.moves.push({ number: stored.record.moves.length + 1, player: before.to_move, move: played.move, board: position.board,
      seconds: played.seconds, ...(played.info ? { info: played.info } : {}) });
  }
  save(id, stored);
  return stateOf(id, stored);
}

/** The library's list, newest first: a page of `limit` games with ids below `before`. @param {URLSearchParams} query */
async function list(query) {
  const limit = Number(query.get("limit") || 100), before = Number(query.get("before") || 0);
  const summaries = [];
  for (const id of ids()) {
    if (before && id >= before) continue;
    if (summaries.length >= limit) break;
    const stored = load(id);
    const record = exported(stored);
    summaries.push({
      id, started_at: record.started_at, players: record.players.map((/** @type {{name: string, spec: string}} */ p) => ({ name: p.name, spec: p.spec })),
      variant: record.variant, variant_name: Variant.fromJSON(record.variant).name, moves: record.moves.length,
      status: record.result.finished ? "finished" : stored.stop_reason ? "stopped" : "playing",
      scores: record.result.finished ? record.result.scores : null, winner: record.result.winner,
      termination: record.result.finished ? "board" : null,
      stop_reason: stored.stop_reason, live: false,
    });
  }
  return summaries;
}

/** Every position of a game and what each move did (ReplayOut). @param {number} id */
async function replay(id) {
  const stored = load(id);
  const info = await siteInfo();
  const positions = positionsOf(stored.record);
  const frames = positions.map((position, number) => ({
    board: position.board, to_move: position.to_move, over: position.is_over,
    last: number ? effectOf(number, positions[number - 1], stored.record.moves[number - 1].move) : null,
  }));
  const variant = Variant.fromJSON(stored.record.variant);
  return { id, players: playersOut(stored.record.players, info), variant: variant.toJSON(), variant_name: variant.name, frames };
}

/** The page left a game: one with no move is deleted; a computer game nobody watches stops. @param {number} id */
async function leave(id) {
  const stored = load(id);
  const final = positionsOf(stored.record).pop();
  if (!stored.record.moves.length) { localStorage.removeItem(PREFIX + id); return null; }
  if (final && !final.is_over && !stored.record.players.some((/** @type {{spec: string}} */ p) => isHuman(p.spec))) {
    stored.stop_reason = "left unfinished";
    save(id, stored);
  }
  return stateOf(id, stored);
}

/** The analysis of a position by the engine in the page (AnalysisOut). @param {Record<string, any>} position @param {number} seconds */
async function analyse(position, seconds) {
  const engine = await pageEngine();
  if (!engine) return { available: false, reason: "The engine cannot run in this browser (no WebAssembly).", to_move: position.to_move, moves: [], pv: [], value: null, best_move: null, exact: false, source: null, pv_names: [] };
  return engine.analyse(position, { time: seconds });
}

/** What the site offers (InfoOut): the levels and the player types the browser plays. */
async function info() {
  const described = await siteInfo();
  return {
    levels: described.levels, default_level: described.default_level,
    player_types: described.player_types.filter((/** @type {{name: string}} */ t) => t.name === "human" || playsInBrowser(t.name)),
    analysis: true, can_delete: true,
  };
}

/**
 * Answer a request of api.js as the server would.
 * @param {string} method @param {string} url @param {unknown} [body] @returns {Promise<any>}
 */
export async function localRequest(method, url, body) {
  const where = new URL(url, "http://site");
  const path = where.pathname;
  const data = /** @type {Record<string, any>} */ (typeof body === "string" && path !== "/api/records" ? JSON.parse(body) : body ?? {});
  let match;
  if (path === "/api/info") return info();
  if (path === "/api/games") return method === "POST" ? create(data) : list(where.searchParams);
  if (path === "/api/records" && method === "POST") { const id = importRecord(body); return stateOf(id, load(id)); }
  if (path === "/api/puzzles") return (await fetch(PUZZLES_FILE)).json();
  if (path === "/api/analyse" && method === "POST") return analyse(data.position, data.seconds ?? 0.5);
  if ((match = path.match(/^\/api\/games\/(\d+)(?:\/([a-z-]+))?$/))) {
    const id = Number(match[1]), action = match[2] || "";
    if (action === "" && method === "GET") return stateOf(id, load(id));
    if (action === "" && method === "DELETE") { load(id); localStorage.removeItem(PREFIX + id); return null; }
    if (action === "moves") return play(id, data);
    if (action === "computer-move") return computerMove(id, data);
    if (action === "takeback") return takeBack(id, data);
    if (action === "redo") return redo(id, data);
    if (action === "replay") return replay(id);
    if (action === "record") return exported(load(id));
    if (action === "leave") return leave(id);
    if (action === "analysis") return analyse(positionsOf(load(id).record).pop()?.toJSON() ?? {}, data.seconds ?? 0.5);
  }
  throw new ApiError(404, `this site has no ${method} ${path}: it plays without a server`);
}
