// @ts-check
/* The JSON API of the server (kalah/web/app.py) and the shapes of its answers. On a static site (kalah site
 * build: no server) localapi.js answers the same requests in the browser.
 *
 * The server owns the rules and the games; the page only asks. The typedefs
 * mirror the response models of kalah/web/models.py: each says which with
 * `@schema Model`, and tests/test_web_contract.py checks them field by field
 * against /openapi.json. A refused request rejects with an ApiError carrying
 * the HTTP status and the server's message.
 */

import { STATIC_SITE } from "./site.js";

/** A pit index 0..pits-1 of the mover's side, or the pie-rule swap.
 * @typedef {number | "swap"} Move */

/** [[player 0's pits..., store 0], [player 1's pits..., store 1]].
 * @typedef {number[][]} Board */

/** The variant of a game.
 * @schema VariantOut
 * @typedef {{pits: number, seeds: number, empty_capture: boolean, pie_rule: boolean}} Variant */

/**
 * A side of a game.
 * @schema PlayerOut
 * @typedef {object} Player
 * @property {string} name    the name shown
 * @property {string} spec    the player spec ("human", "pvs:depth=8", ...)
 * @property {boolean} human  a person clicks for this side
 * @property {string | null} level  the computer level the spec came from, if any
 */

/**
 * What a move did, for animating it.
 * @schema EffectOut
 * @typedef {object} Effect
 * @property {number} number    the move's number in the game, from 1
 * @property {number} player    who moved
 * @property {Move} move
 * @property {string} name      the move in pit letters
 * @property {Board} before     the board before the move
 * @property {number[]} sown    flat cells that got a seed, in order (player 0's pits, store 0, player 1's pits, store 1)
 * @property {boolean} extra_turn
 * @property {number} captured  seeds captured (0: no capture)
 * @property {number | null} capture_pit  the flat cell of the mover's pit that captured
 * @property {boolean} game_over
 */

/**
 * What ended a finished game: its board, or a decision off it (kalah.rules.outcome).
 * @typedef {"board" | "resignation" | "time" | "forfeit"} Termination
 */

/**
 * A game as the server tells it.
 * @schema GameState
 * @typedef {object} GameState
 * @property {number} id
 * @property {Variant} variant
 * @property {string} variant_name
 * @property {Player[]} players
 * @property {Board} board
 * @property {number} to_move
 * @property {Move[]} legal_moves
 * @property {boolean} over
 * @property {string} status            playing, finished or stopped
 * @property {number[] | null} scores   final totals once the game is over
 * @property {number | null} winner
 * @property {number | null} margin     player 0's final total minus player 1's, once over
 * @property {Termination | null} [termination]  what ended a finished game
 * @property {boolean} human_to_move
 * @property {boolean} computer_to_move
 * @property {number} moves             moves played so far
 * @property {Effect | null} last       the last move
 * @property {string[]} history         the moves so far in pit letters
 * @property {boolean} can_take_back
 * @property {boolean} can_redo
 * @property {string} started_at        ISO date
 */

/**
 * A game just started: its state and, when this request stored it, the secret with which its page deletes it
 * by leaving it before its first move (leaveGame).
 * @schema NewGameOut
 * @typedef {GameState & {leave_token?: string | null}} NewGameState
 */

/**
 * One position of a replay and the move that led to it.
 * @schema FrameOut
 * @typedef {{board: Board, to_move: number, over: boolean, last: Effect | null}} Frame
 */

/** Every position of a game, for replaying it.
 * @schema ReplayOut
 * @typedef {{id: number, players: Player[], variant: Variant, variant_name: string, frames: Frame[]}} ReplayData */

/**
 * One game of the library list.
 * @schema GameSummaryOut
 * @typedef {object} GameSummary
 * @property {number} id
 * @property {string} started_at   ISO date
 * @property {{name: string, spec: string}[]} players
 * @property {Variant} variant
 * @property {string} variant_name
 * @property {number} moves
 * @property {string} status       playing, finished or stopped
 * @property {number[] | null} scores
 * @property {number | null} winner
 * @property {Termination | null} [termination]  what ended a finished game
 * @property {string | null} [stop_reason]  why a stopped game ended: left unfinished, nobody joined
 * @property {boolean} [live]      a game between people at two screens (played and watched at /live)
 */

/**
 * A game's review: done (with the review), running (its progress) or failed.
 * @schema ReviewStatusOut
 * @typedef {object} ReviewStatus
 * @property {"done" | "running" | "failed"} status
 * @property {object | null} [review]   the review (kalah.review.GameReview.to_dict), once done
 * @property {number | null} [done]     positions analysed so far, while running
 * @property {number | null} [total]    positions to analyse, while running
 * @property {number | null} [seconds_per_position]
 * @property {string | null} [error]    why it failed
 */

/**
 * A shipped puzzle (kalah.puzzles.Puzzle.to_dict): the only move that keeps the exact value is the solution.
 * @schema PuzzleOut
 * @typedef {object} Puzzle
 * @property {string} id
 * @property {Variant} variant
 * @property {string} variant_name
 * @property {{board: Board, to_move: number}} position
 * @property {Move[]} legal_moves
 * @property {Move} solution
 * @property {number} value        the exact value for the player to move
 * @property {number} margin       every other move is worth at least this many seeds less
 * @property {string[]} theme
 * @property {number} difficulty   1 (easy) to 5 (hard)
 * @property {string} source
 */

/** The positions along a line of moves (the lab).
 * @schema LineOut
 * @typedef {{positions: object[], over: boolean}} LineOut */

/** Who moves at each node of a traced tree, and what each cutoff left unvisited (the lab).
 * @schema TreeFactsOut
 * @typedef {{to_move: number[], pruned: Record<string, Move[]>}} TreeFacts */

/**
 * What the server offers.
 * @schema InfoOut
 * @typedef {object} Info
 * @property {{name: string, spec: string, summary: string, available: boolean}[]} levels
 * @property {string} default_level
 * @property {{name: string, summary: string, options: string}[]} player_types
 * @property {boolean} analysis
 * @property {boolean} can_delete whether this client may delete games (the server's own machine, or --allow-delete)
 */

/**
 * The value of one legal move for the side to move: proven (exact), or a search's estimate or bound.
 * @schema MoveValueOut
 * @typedef {{move: Move, value: number | null, bound: "exact" | "estimate" | "lower" | "upper", exact: boolean}} MoveValue
 */

/**
 * The value of every legal move (from the mover's point of view) and the best line.
 * @schema AnalysisOut
 * @typedef {object} Analysis
 * @property {boolean} available
 * @property {string | null} [reason]     why it is unavailable (absent when it is available)
 * @property {number} to_move
 * @property {MoveValue[]} moves
 * @property {Move[]} pv                  the best line
 * @property {number | null} value
 * @property {Move | null} best_move
 * @property {Move[] | null} [best_moves] every best move (all of them where every move's value is exact)
 * @property {boolean} exact              proven (rules, book, endgame database, solver) rather than estimated
 * @property {"rules" | "book" | "endgame" | "solver" | "search" | null} source
 * @property {number | null} [depth]      the search's depth when estimated
 * @property {string[]} pv_names          the best line in pit letters
 */

/**
 * A seat of a game between people: the token that moves it (kept in this browser's localStorage,
 * never put in a link) and, for the one who invites, the invitation to the other seat.
 * @schema SeatOut
 * @typedef {object} Seat
 * @property {number} game_id
 * @property {number} seat
 * @property {string} token
 * @property {string | null} [invite]
 */

/**
 * A game's clock as the server keeps it.
 * @schema ClockOut
 * @typedef {object} Clock
 * @property {"none" | "clock" | "days"} kind
 * @property {string} text             "3 min + 2 s", "2 days a move" or "no clock"
 * @property {number[]} ms             milliseconds left for each player when the server answered
 * @property {number | null} running   whose time runs
 */

/**
 * How a game between people ended off the board: the other resigned or ran out of time, or nobody joined.
 * @schema ResultOut
 * @typedef {{winner: number | null, reason: "resign" | "time" | "abandoned"}} LiveResult
 */

/**
 * What a game between people has beyond its moves.
 * @schema LiveInfoOut
 * @typedef {object} LiveInfo
 * @property {boolean[]} seats_taken
 * @property {boolean[]} connected      which seats have a page connected now
 * @property {number} watchers
 * @property {Clock} clock
 * @property {LiveResult | null} result  how the game ended off the board
 * @property {number | null} takeback_from  the player asking for a take-back
 * @property {number[]} rematch_from
 * @property {number | null} rematch_game   the rematch's game id, once both asked
 */

/** A game between people: its state and its live part.
 * @schema LiveOut
 * @typedef {{state: GameState, live: LiveInfo}} Live */

/** An open challenge of the lobby.
 * @schema ChallengeOut
 * @typedef {{id: string, variant: Variant, variant_name: string, clock: string, author: string, seat: number | null}} Challenge */

/** A request the server refused. */
export class ApiError extends Error {
  /** @param {number} status the HTTP status @param {string} message the server's explanation
   * @param {number} [retryAfter] seconds the server asked to wait (503, 429) */
  constructor(status, message, retryAfter) { super(message); this.status = status; this.retryAfter = retryAfter || 0; }
}

/** The text of an error of any kind, for the status line.
 * @param {unknown} error @returns {string} */
export function errorText(error) {
  return error instanceof Error ? error.message : String(error);
}

/** @param {unknown} error @param {number} status @returns {boolean} */
export function hasStatus(error, status) {
  return error instanceof ApiError && error.status === status;
}

/**
 * A JSON request; the answer's JSON, or an ApiError.
 * @param {string} method @param {string} url @param {unknown} [body] an object, or text sent as it is
 * @param {Record<string, string>} [headers] more headers (a seat's token)
 * @returns {Promise<any>}
 */
export async function request(method, url, body, headers) {
  if (STATIC_SITE) return (await import("./localapi.js")).localRequest(method, url, body);
  /** @type {RequestInit & {headers: Record<string, string>}} */
  const options = { method, headers: { ...(headers || {}) } };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  const response = await fetch(url, options);
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  if (!response.ok) {
    const detail = data && data.detail ? (typeof data.detail === "string" ? data.detail : JSON.stringify(data.detail)) : response.statusText;
    throw new ApiError(response.status, detail, Number(response.headers.get("Retry-After")) || 0);
  }
  return data;
}

/** @returns {Promise<Info>} */
export const getInfo = () => request("GET", "/api/info");

/** @param {number} id @returns {Promise<GameState>} */
export const getGame = (id) => request("GET", `/api/games/${id}`);

/** Start a game (stored by the server at once, unless a preview).
 * @param {object} body the NewGame request of kalah/web/models.py @returns {Promise<NewGameState>} */
export const newGame = (body) => request("POST", "/api/games", body);

/** Play a human move; ``moves`` is the game's move count the page saw (a stale request gets 409). With
 * ``computer``, the move is the computer's to move, chosen by the engine in the page.
 * @param {number} id @param {Move} move @param {number} moves @param {boolean} [computer] @returns {Promise<GameState>} */
export const playMove = (id, move, moves, computer = false) =>
  request("POST", `/api/games/${id}/moves`, computer ? { move, moves, computer } : { move, moves });

/** @param {number} id @param {number} moves the game's move count the page saw @returns {Promise<GameState>} */
export const computerMove = (id, moves) => request("POST", `/api/games/${id}/computer-move`, { moves });

/** @param {number} id @param {"takeback" | "redo"} action @param {number} moves the game's move count the page saw
 * @returns {Promise<GameState>} */
export const gameAction = (id, action, moves) => request("POST", `/api/games/${id}/${action}`, { moves });

/** Delete a game of the library. @param {number} id @returns {Promise<null>} */
export const deleteGame = (id) => request("DELETE", `/api/games/${id}`);

/** @param {number} id @returns {Promise<ReplayData>} */
export const getReplay = (id) => request("GET", `/api/games/${id}/replay`);

/** @returns {Promise<GameSummary[]>} */
/** The library a page at a time (the server sends 100 games unless asked otherwise), newest first.
 * @param {number} [before] only games with smaller ids: the last id of the previous page
 * @returns {Promise<GameSummary[]>} */
export const listGames = (before) => request("GET", `/api/games?limit=${LIBRARY_PAGE}${before ? `&before=${before}` : ""}`);

/** Games the library view shows at a time. */
export const LIBRARY_PAGE = 100;

/** Store a JSON game record (its text as read from a file) as a new game.
 * @param {string} text @returns {Promise<GameState>} */
export const importRecord = (text) => request("POST", "/api/records", text);

/** @param {number} id @returns {Promise<Analysis>} */
export const analyseGame = (id) => request("POST", `/api/games/${id}/analysis`, { seconds: 0.5 });

/** A review's answer: done (with the review), under way (positions done of total) or failed.
 * @typedef {{status: "done" | "running" | "failed", review?: any, done: number, total: number, error?: string}} ReviewAnswer */

/** Start reviewing a game (or get the stored review). @param {number} id @returns {Promise<ReviewAnswer>} */
export const startReview = (id) => request("POST", `/api/games/${id}/review`);

/** @param {number} id @returns {Promise<ReviewAnswer>} */
export const getReview = (id) => request("GET", `/api/games/${id}/review`);

/** The shipped puzzles (kalah.puzzles; the shape in puzzles.js). @returns {Promise<any[]>} */
export const listPuzzles = () => request("GET", "/api/puzzles");

/** @param {{board: Board, to_move: number, variant: Variant}} position @returns {Promise<Analysis>} */
export const analysePosition = (position) => request("POST", "/api/analyse", { position, seconds: 0.5 });
