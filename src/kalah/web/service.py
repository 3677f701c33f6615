"""The game service: games of the library as the web API sees them.

Every game lives in the game library (SQLite or PostgreSQL), the redo stacks
of take-backs and the secrets with which pages delete the games they just
started too: the service keeps nothing that matters in memory, so that any
number of server processes can serve one PostgreSQL library. A move is
committed to the library before the request that made it is answered.
Computer moves, analyses and traces run in engine workers, off the event
loop, scheduled fairly between clients (:mod:`kalah.web.scheduler`), and
each game is guarded by a lock so that two requests on one game never
interleave in a process (the library's row lock does it between processes).
Bad requests raise :class:`~kalah.web.errors.ApiError`, which the application
turns into a JSON answer with that status. Answers are the response models
of :mod:`kalah.web.models`, built from the game record and its positions
(:mod:`kalah.web.gamestate`). Games between people are
:mod:`kalah.web.live`'s: the routes here refuse them (403), whichever asks.
"""

from __future__ import annotations

import asyncio
import json
import weakref
from collections.abc import Callable
from typing import Any, TypeVar

from kalah.players import ExternalPlayerRefusedError, player_types
from kalah.records import GameLibrary, GameRecord, PlayerInfo, StoredGame
from kalah.records.store import new_token
from kalah.rules import SWAP, IllegalMoveError, KalahError, Move, Position, parse_move
from kalah.rules.wording import plural
from kalah.search import TraceTooLargeError

from .analysis import analyse, mcts_trace_json, trace_json
from .errors import ApiError, in_thread, invalid
from .gamestate import (
    is_human,
    replay_out,
    score_text,
    state_after,
    state_of,
    stored_state,
    summary_out,
    take_back_count,
)
from .levels import LEVELS, available_levels, default_level
from .models import (
    MAX_TRACE_NODES,
    TRACE_OPTIONS,
    AnalysisOut,
    GameState,
    GameSummaryOut,
    InfoOut,
    LevelOut,
    MctsTraceIn,
    NewGame,
    NewGameOut,
    PlayerTypeOut,
    ReplayOut,
    TraceIn,
)
from .player_choice import check_runnable, refused, resolve_player
from .scheduler import Refused, Scheduler
from .worker import capped_spec, choose_move

T = TypeVar("T")

#: Engine seconds per computer move unless the server is told otherwise (kalah serve --max-move-seconds).
DEFAULT_MOVE_SECONDS = 5.0
#: How long a job may run past the cap before its worker is killed.
GRACE_SECONDS = 2.0
#: Whose engine jobs a request is, when nobody says (calls from Python rather than from a route).
ANONYMOUS = "addr:unknown"
#: Bytes the game library may reach before new games and imports are refused (507), by default.
DEFAULT_MAX_LIBRARY_BYTES = 2 * 1024**3


def played_between_people(game_id: int) -> ApiError:
    """403: a route of games against the computer asked to change a game between people."""
    return ApiError(
        403,
        f"game {game_id} is played between people: its players move with their seats' tokens"
        f" (/api/live/games/{game_id}/...)",
    )


class GameService:
    """Games of the library, as the API sees them. Engine work goes to ``engines``."""

    def __init__(
        self,
        library: GameLibrary,
        engines: Scheduler,
        allow_exec: bool = False,
        *,
        move_seconds: float = DEFAULT_MOVE_SECONDS,
        max_library_bytes: int = DEFAULT_MAX_LIBRARY_BYTES,
    ) -> None:
        """``engines`` runs the engine jobs, fairly between clients; each job is held to ``move_seconds``
        of thinking, and one that overruns by GRACE_SECONDS is stopped with its worker. No new game is stored
        once the library holds ``max_library_bytes`` (507)."""
        self.library = library
        self.engines = engines
        self.allow_exec = allow_exec
        self.move_seconds = move_seconds
        self.max_library_bytes = max_library_bytes
        # A game's lock lives while a request holds it or waits for it: ids asked about once (unknown
        # ones too) leave nothing behind.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    def lock(self, game_id: int) -> asyncio.Lock:
        """The lock that keeps two requests on one game of this process from interleaving."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    async def warm_up(self) -> None:
        """Start the engine workers now rather than at the first computer move."""
        await self.engines.start()

    def info(self, can_delete: bool) -> InfoOut:
        """The levels, the player types a client may name, whether analysis works and whether the client
        may delete games (``can_delete``, which the route decides from the request)."""
        available = {level.name for level in available_levels()}
        return InfoOut(
            levels=[
                LevelOut(name=lv.name, spec=lv.spec, summary=lv.summary, available=lv.name in available)
                for lv in LEVELS
            ],
            default_level=default_level().name,
            player_types=[
                PlayerTypeOut(name=t.name, summary=t.summary, options=t.options)
                for t in player_types(include_external=self.allow_exec).values()
                if t.name != "replay"
            ],
            analysis=True,
            can_delete=can_delete,
        )

    def check_room(self) -> None:
        """507 when the library is full: no new game or import is stored (in the calling thread: it may read
        the database)."""
        size = self.library.database.size_bytes()
        if size >= self.max_library_bytes:
            raise ApiError(
                507,
                f"the game library is full ({size // 2**20} MB of {self.max_library_bytes // 2**20} MB):"
                " delete games, or start the server with a larger --max-library-mb",
            )

    async def _pooled(self, client: str, function: Callable[..., T], *args: Any) -> T:
        """Run engine work for ``client`` when its turn comes (:mod:`kalah.web.scheduler`): 429 when the
        client has its share of jobs under way, 503 when the queue is full or the job overran."""
        try:
            return await self.engines.run(client, function, *args)
        except Refused as refusal:
            raise ApiError(refusal.status, refusal.message, {"Retry-After": str(refusal.retry_after)}) from None

    # reading

    def state_sync(self, game_id: int) -> GameState:
        """The game's state, read in the calling thread (a library call: run it off the event loop)."""
        return stored_state(self.library.game(game_id))

    async def state(self, game_id: int) -> GameState:
        """The game as the page shows it (``GameState``); 404 for an unknown game."""
        return await in_thread(self.state_sync, game_id)

    @staticmethod
    def _not_live(stored: StoredGame, allow_ended: bool = False) -> None:
        """403 for a game between people (whose players move with seat tokens, :mod:`kalah.web.live`); with
        ``allow_ended``, one that has ended passes (it may be deleted)."""
        summary = stored.summary
        if summary.tags.get("source") == "live" and not (allow_ended and summary.status != "playing"):
            raise played_between_people(summary.id)

    async def check_analysable(self, game_id: int) -> GameRecord:
        """The game's record, unless it is a game between people still being played (409): nobody's engine
        helps a player during a game."""
        stored = await in_thread(self.library.game, game_id)
        if stored.summary.tags.get("source") == "live" and stored.summary.status == "playing":
            raise ApiError(409, f"game {game_id} is being played between people: it is analysed once it is over")
        return stored.record

    # writing

    async def create(self, request: NewGame) -> NewGameOut:
        """Store a new game (or reuse an unstarted one when asked) and return its state; a game stored by this
        request comes with the secret that lets its page delete it by leaving it before its first move
        (:meth:`leave`)."""
        names = request.names or [None, None]
        if request.players is None:
            entries = ["human", default_level().name]
        else:
            entries = request.players
        resolved = [resolve_player(entry, name, self.allow_exec) for entry, name in zip(entries, names, strict=False)]
        infos = [info for info, _ in resolved]
        start = Position.start(request.variant.to_variant())
        tags = {"source": "web", "levels": [level for _, level in resolved]}
        if request.preview:  # what the game would be; stored when its first move is played
            return NewGameOut(**dict(state_of(0, GameRecord(start, infos), "playing", False)))
        if request.reuse_unstarted:
            game_id = await in_thread(self._find_unstarted, start, infos)
            if game_id is not None:  # stored by someone else, maybe: no secret to delete it
                return NewGameOut(**dict(await self.state(game_id)))
        token = new_token()
        state = await in_thread(self._create_sync, start, infos, tags, token)
        return NewGameOut(**dict(state), leave_token=token)

    def _create_sync(self, start: Position, infos: list[PlayerInfo], tags: dict[str, Any], token: str) -> GameState:
        digest = self.library.database.digest(token)
        return self.state_sync(self.library.create_game(start, infos, tags=tags, leave_digest=digest))

    def _find_unstarted(self, start: Position, infos: list[PlayerInfo]) -> int | None:
        for summary in self.library.list_games(tags={"source": "web"}, limit=20):
            if (
                summary.moves == 0
                and summary.status == "playing"
                and summary.variant == start.variant.to_dict()
                and list(summary.players) == list(infos)
            ):
                return summary.id
        return None

    async def human_move(self, game_id: int, raw: int | str, expected_moves: int, computer: bool = False) -> GameState:
        """Play a human's move (index, letter or swap) as move ``expected_moves + 1``; 409 when the game
        moved on or no human is to move, 422 when illegal. With ``computer``, the move is the computer's to
        move, chosen by the page's engine (409 when a human is to move)."""
        async with self.lock(game_id):
            return await in_thread(self._human_move_sync, game_id, raw, expected_moves, computer)

    def _human_move_sync(self, game_id: int, raw: int | str, expected_moves: int, computer: bool = False) -> GameState:
        # one trip to a database thread: the checks, the move and the new state
        stored = self.library.game(game_id)
        self._not_live(stored)
        record = stored.record
        self.check_current(game_id, len(record.moves), expected_moves)
        position = record.final
        if position.is_over or record.decision is not None:
            raise ApiError(409, f"game {game_id} is over ({score_text(position)}); no more moves")
        mover = record.players[position.to_move]
        if is_human(mover.spec) == computer:
            raise ApiError(
                409,
                f"it is not a {'computer' if computer else 'human'}'s turn in game {game_id}: player"
                f" {position.to_move} ({mover.name}) is {'a person' if computer else 'a computer'}",
            )
        move = self.parse_move(raw, position)
        try:
            after = self.library.add_move(game_id, move, 0.0, {"engine": "browser"} if computer else {}, expected_moves)
        except IllegalMoveError as error:
            raise invalid(f"illegal move: {error}") from None
        # the state after, from the record read above: the game is not read and replayed again (its status
        # and redo list before the move do not matter, the move sets both)
        return state_after(state_of(game_id, record, "playing", False), position, move, after)

    @staticmethod
    def check_current(game_id: int, moves: int, expected_moves: int) -> None:
        """409 when the game has ``moves`` moves and the request was made at ``expected_moves``: checked
        before the move itself, so that a repeated request is called stale rather than illegal."""
        if moves != expected_moves:
            raise ApiError(
                409,
                f"game {game_id} has {plural(moves, 'move')}, not {expected_moves}: it moved on"
                " since this request was made (reload it)",
            )

    @staticmethod
    def parse_move(raw: int | str, position: Position) -> Move:
        """A move of a request (a pit index, a letter, or swap) as a legal move of ``position`` (422 if not)."""
        if isinstance(raw, str):
            if raw.strip().lower() == SWAP:
                move: Move = SWAP
            elif any(c.isdigit() for c in raw):  # "3": index 3, or pit 3 as the CLI counts? Neither: say so
                raise invalid(
                    f"move: a pit index is a JSON number (0 to pits-1), not the text {raw[:8]!r};"
                    " or give the pit's letter"
                )
            else:
                try:
                    return parse_move(raw, position)
                except IllegalMoveError as error:
                    raise invalid(f"illegal move: {error}") from None
        else:
            move = raw
        try:
            position.play(move)
        except IllegalMoveError as error:
            raise invalid(f"illegal move: {error}") from None
        return move

    async def computer_move(self, game_id: int, expected_moves: int, client: str = ANONYMOUS) -> GameState:
        """Let the computer to move choose in a worker (thinking at most ``move_seconds``), and store its move."""
        if self.lock(game_id).locked():
            raise ApiError(409, f"game {game_id} is busy: a move of it is being made")
        async with self.lock(game_id):
            stored = await in_thread(self.library.game, game_id)
            self._not_live(stored)
            record = stored.record
            self.check_current(game_id, len(record.moves), expected_moves)
            position = record.final
            if position.is_over or record.decision is not None:
                raise ApiError(409, f"game {game_id} is over ({score_text(position)}); no more moves")
            spec = record.players[position.to_move].spec
            if is_human(spec):
                raise ApiError(409, f"it is a human's turn in game {game_id}, not the computer's")
            check_runnable(spec, self.allow_exec)
            try:
                move, seconds, info = await self._pooled(
                    client, choose_move, capped_spec(spec, self.move_seconds), position.to_json(), self.allow_exec
                )
            except ExternalPlayerRefusedError as error:
                raise refused(error) from None
            except KalahError as error:
                raise ApiError(422, f"the computer player {spec!r} cannot move: {error}") from None
            return await in_thread(self._store_sync, game_id, move, round(seconds, 6), info, expected_moves)

    def _store_sync(
        self, game_id: int, move: Move, seconds: float, info: dict[str, Any], expected_moves: int
    ) -> GameState:
        try:
            self.library.add_move(game_id, move, seconds, info, expected_moves)
        except IllegalMoveError as error:
            raise invalid(f"illegal move: {error}") from None
        return self.state_sync(game_id)

    async def take_back(self, game_id: int, expected_moves: int) -> GameState:
        """Undo back to before the last human move; the moves go on the game's redo stack in the library."""
        async with self.lock(game_id):
            stored = await in_thread(self.library.game, game_id)
            self._not_live(stored)
            record = stored.record
            self.check_current(game_id, len(record.moves), expected_moves)
            humans = [is_human(p.spec) for p in record.players]
            count = take_back_count(record, humans)
            if count == 0:
                raise ApiError(409, f"game {game_id} has no move to take back")
            await in_thread(self.library.take_back, game_id, count, expected_moves, keep_for_redo=True)
            return await self.state(game_id)

    async def redo(self, game_id: int, expected_moves: int) -> GameState:
        """Play again what the last take-back removed (409 when the game changed since, on any server)."""
        async with self.lock(game_id):
            self._not_live(await in_thread(self.library.game, game_id))
            if await in_thread(self.library.redo, game_id, expected_moves) is None:
                raise ApiError(409, f"game {game_id} has nothing to redo")
            return await self.state(game_id)

    async def leave(self, game_id: int, token: str | None = None) -> GameState:
        """The page left the game. One left before its first move by the page that stored it (``token`` is
        the secret :meth:`create` gave it, whose digest the library keeps) is deleted: an abandoned page
        leaves no empty game in the library; the state returned is its last. Otherwise a
        computer-against-computer game nobody watches any more is stopped ("left unfinished"), and a game of
        a person stays (they come back); other clients, who cannot know the secret, can thus delete nobody's
        new game."""
        stored = await in_thread(self.library.game, game_id)
        self._not_live(stored)
        state = stored_state(stored)
        if state.moves == 0 and token and not self.lock(game_id).locked():
            if await in_thread(self._is_leave_secret, game_id, token):
                try:
                    await self.delete(game_id)
                except ApiError as error:
                    if error.status != 409:  # a computer's first move under way: the game is begun, keep it
                        raise
                else:
                    return state
        if not state.over and state.status == "playing" and not any(player.human for player in state.players):
            return await self.stop(game_id, "left unfinished")
        return state

    def _is_leave_secret(self, game_id: int, token: str) -> bool:
        database = self.library.database
        return database.same_secret(self.library.leave_digest(game_id), database.digest(token))

    async def delete(self, game_id: int) -> None:
        """Delete the game (404 if there is none); a move of it in the making is refused (409); a game between
        people only once it has ended (403)."""
        if self.lock(game_id).locked():
            raise ApiError(409, f"game {game_id} is busy: a move of it is being made")
        async with self.lock(game_id):
            self._not_live(await in_thread(self.library.game, game_id), allow_ended=True)
            await in_thread(self.library.delete_game, game_id)

    async def stop(self, game_id: int, reason: str = "left unfinished") -> GameState:
        """Mark the game stopped for ``reason``."""
        async with self.lock(game_id):
            await in_thread(self.library.mark_stopped, game_id, reason)
            return await self.state(game_id)

    # library

    async def games(self, limit: int | None, before: int | None = None) -> list[GameSummaryOut]:
        """The library's games, newest first (those with ids below ``before``), with their variants' names."""
        return await in_thread(
            lambda: [summary_out(summary) for summary in self.library.list_games(limit=limit, before=before)]
        )

    async def replay(self, game_id: int) -> ReplayOut:
        """Every position of the game and what each move did (``ReplayOut``)."""
        return await in_thread(lambda: replay_out(game_id, self.library.record(game_id)))

    async def record(self, game_id: int) -> bytes:
        """The game as a JSON game record, encoded (off the event loop, as the reading)."""
        return await in_thread(self._record_sync, game_id)

    def _record_sync(self, game_id: int) -> bytes:
        return json.dumps(self.library.record(game_id).to_dict(), ensure_ascii=False, allow_nan=False).encode()

    async def import_record(self, data: Any) -> GameState:
        """Store a JSON game record (its JSON text, or the object) as a new game; 422 when invalid, 403 when
        its players would run programs, 507 when the library is full. Parsing and checking the record move by
        move are done off the event loop."""
        return await in_thread(self._import_sync, data)

    def _import_sync(self, data: Any) -> GameState:
        if isinstance(data, bytes | str):
            try:
                data = json.loads(data)
            except (ValueError, RecursionError) as error:
                raise invalid(f"malformed JSON: {error}"[:300]) from None
        try:
            record = GameRecord.from_dict(data)
        except KalahError as error:
            raise invalid(f"not a valid game record: {error}") from None
        for player in record.players:
            check_runnable(player.spec, self.allow_exec)
        self.check_room()
        return self.state_sync(self.library.import_record(record, tags={"source": "import"}))

    async def analyse_game(self, game_id: int, seconds: float, client: str = ANONYMOUS) -> AnalysisOut:
        """The analysis of a game's current position (409 for a game between people still being played)."""
        record = await self.check_analysable(game_id)
        return await self.analyse(record.final, seconds, client)

    async def analyse(self, position: Position, seconds: float, client: str = ANONYMOUS) -> AnalysisOut:
        """The value of every legal move and the best line, thought about for ``seconds`` (at most the
        server's ``move_seconds``) in a worker."""
        try:
            found = await self._pooled(client, analyse, position.to_json(), min(seconds, self.move_seconds))
        except KalahError as error:
            raise invalid(str(error)) from None
        # the worker answers in plain JSON data (it crosses a process boundary); the model checks it here
        return AnalysisOut.model_validate(found)

    async def trace(self, request: TraceIn, client: str = ANONYMOUS) -> bytes:
        """A traced search (``kalah.trace(...).to_json()``, encoded in the worker) at most ``MAX_TRACE_NODES``
        nodes."""
        unknown = sorted(set(request.options) - set(TRACE_OPTIONS))
        if unknown:
            raise invalid(f"unknown option {unknown[0]!r}; accepted: {', '.join(TRACE_OPTIONS)}")
        for name, value in request.options.items():
            if not isinstance(value, bool):
                raise invalid(f"options.{name} must be true or false, got {value!r}"[:200])
        try:
            position = Position.from_dict(request.position)
            return await self._pooled(
                client,
                trace_json,
                position.to_json(),
                request.algorithm,
                request.depth,
                request.evaluation,
                dict(request.options),
                MAX_TRACE_NODES,
            )
        except TraceTooLargeError:
            # Said in the lab's words: how much it shows, and what to change (not the library's max_nodes).
            raise invalid(
                f"a {request.algorithm} search of depth {request.depth} visits more than"
                f" {MAX_TRACE_NODES:,} nodes, more than the lab shows: trace a smaller depth"
                + (
                    ""
                    if request.algorithm in ("alphabeta", "pvs", "mtdf")
                    else ", or alphabeta, pvs or mtdf, which visit fewer"
                )
            ) from None
        except KalahError as error:
            raise invalid(str(error)) from None

    async def mcts_trace(self, request: MctsTraceIn, client: str = ANONYMOUS) -> bytes:
        """Traced UCT beside alpha-beta (``analysis.mcts_trace_json``, encoded) in a worker."""
        try:
            position = Position.from_dict(request.position)
            return await self._pooled(
                client, mcts_trace_json, position.to_json(), request.playouts, request.seed, request.depth
            )
        except KalahError as error:
            raise invalid(str(error)) from None
