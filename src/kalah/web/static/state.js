// @ts-check
/* The page's one state. Other modules read `state` (typed read-only) and
 * change it only through the functions below, so every change has a name. */

/** @typedef {import("./api.js").Analysis} Analysis */
/** An analysis as the page keeps it: forMoves is the game's move count it was asked for.
 * @typedef {Analysis & {forMoves: number}} ShownAnalysis */
/** @typedef {import("./api.js").Frame} Frame */
/** @typedef {import("./api.js").GameState} GameState */
/** @typedef {import("./api.js").Info} Info */
/** @typedef {import("./api.js").Move} Move */
/** @typedef {import("./api.js").Player} Player */
/** @typedef {import("./api.js").Variant} Variant */

/** What the page shows: a game to play, a game to replay, or the library.
 * @typedef {"play" | "replay" | "library" | "review" | "puzzles"} Mode */

/**
 * A game being replayed.
 * @typedef {object} Replay
 * @property {number} id            the game's id in the library
 * @property {Frame[]} frames       every position, the start first
 * @property {Player[]} players
 * @property {Variant} variant
 * @property {number} index         the frame shown
 * @property {boolean} playing      autoplay is on
 * @property {boolean} unfinished   the game was left before its end (it can be continued)
 */

/**
 * A hint: the best move, for the game at a given number of moves.
 * @typedef {{move: Move, forMoves: number}} Hint
 */

/**
 * @typedef {object} State
 * @property {Info | null} info          what the server offers (levels, player types); null until /api/info answers
 * @property {GameState | null} game    the server's state of the open game
 * @property {boolean} busy              a move is being animated or the computer thinks: clicks wait
 * @property {boolean} driving           the loop that asks for computer moves is running (one at a time)
 * @property {boolean} paused            a computer-against-computer game is paused
 * @property {number | null} flipped     the player shown at the bottom; null: chosen automatically
 * @property {Mode} mode
 * @property {Replay | null} replay      the game being replayed
 * @property {boolean} analysisOn        the analysis panel is switched on
 * @property {ShownAnalysis | null} analysis  the last analysis of the open game (its forMoves says for which move)
 * @property {Hint | null} hint          the hint shown on the board
 * @property {number} animMs             milliseconds per animation step; 0 turns animation off
 * @property {Map<number, string>} leaveTokens  the secret of each game this page stored, by id: with it, leaving
 *                                       the game before its first move deletes it (no other client can)
 */

/** @type {State} */
const pageState = {
  info: null,
  game: null,
  busy: false,
  driving: false,
  paused: false,
  flipped: null,
  mode: "play",
  replay: null,
  analysisOn: false,
  analysis: null,
  hint: null,
  animMs: 170,
  leaveTokens: new Map(),
};

/** The state, to read. @type {Readonly<State>} */
export const state = pageState;

// --- views --------------------------------------------------------------------------

/** Open a game to play: a fresh view (no replay, pause, analysis, hint or flip of a previous game). */
export function enterGame() {
  pageState.mode = "play";
  pageState.replay = null;
  pageState.paused = false;
  pageState.analysis = null;
  pageState.hint = null;
  pageState.flipped = null;
}

/** Start replaying: the replay itself arrives with setReplay. */
export function enterReplay() {
  pageState.mode = "replay";
  pageState.paused = false;
  pageState.flipped = null;
}

/** @param {Mode} mode */
export function setMode(mode) { pageState.mode = mode; }

/** @param {Info} info */
export function setInfo(info) { pageState.info = info; }

// --- the game -----------------------------------------------------------------------

/** @param {GameState | null} game */
export function setGame(game) { pageState.game = game; }

/** Keep the secret of a game this page just stored (none for a preview).
 * @param {import("./api.js").NewGameState} game */
export function keepLeaveToken(game) {
  if (game.leave_token) pageState.leaveTokens.set(game.id, game.leave_token);
}

/** The secret of game `id`, forgotten as it is handed out (leaving is done once).
 * @param {number} id @returns {string | null} */
export function takeLeaveToken(id) {
  const token = pageState.leaveTokens.get(id) ?? null;
  pageState.leaveTokens.delete(id);
  return token;
}

/** @param {boolean} busy */
export function setBusyFlag(busy) { pageState.busy = busy; }

/** @param {boolean} driving */
export function setDriving(driving) { pageState.driving = driving; }

/** @param {boolean} paused */
export function setPaused(paused) { pageState.paused = paused; }

/** @param {number | null} bottom the player to show at the bottom, or null for automatic */
export function setFlipped(bottom) { pageState.flipped = bottom; }

/** @param {Hint | null} hint */
export function setHint(hint) { pageState.hint = hint; }

/** Switch the analysis panel; switching it off forgets the last analysis. @param {boolean} on */
export function setAnalysisOn(on) {
  pageState.analysisOn = on;
  if (!on) pageState.analysis = null;
}

/** @param {ShownAnalysis | null} analysis */
export function setAnalysis(analysis) { pageState.analysis = analysis; }

/** @param {number} ms */
export function setAnimMs(ms) { pageState.animMs = ms; }

// --- the replay ---------------------------------------------------------------------

/** @param {Replay | null} replay */
export function setReplay(replay) { pageState.replay = replay; }

/** @param {Replay} replay @param {number} index */
export function setReplayIndex(replay, index) { replay.index = index; }

/** @param {Replay} replay @param {boolean} playing */
export function setReplayPlaying(replay, playing) { replay.playing = playing; }

// --- derived ------------------------------------------------------------------------

/** The players of what is shown (the replayed game or the open game). @returns {Player[] | null} */
export function currentPlayers() {
  if (pageState.mode === "replay" && pageState.replay) return pageState.replay.players;
  return pageState.game ? pageState.game.players : null;
}

/** The player whose pits run along the bottom: a lone human, else the first player, unless flipped.
 * @returns {number} */
export function bottomPlayer() {
  if (pageState.flipped !== null) return pageState.flipped;
  const players = currentPlayers();
  if (players && players[1].human && !players[0].human) return 1;
  return 0;
}
