"""The game service: games of the library as the web API sees them.

Every game lives in the SQLite game library, the redo stacks of take-backs
too; the service keeps nothing that matters in memory (the secrets with which
pages delete the games they just started, by leaving them, are lost with a
restart: those games then stay in the library, as begun ones do). A move is committed
to the library before the request that made it is answered. Computer moves,
analyses and traces run in engine workers, off the event loop, scheduled
fairly between clients (:mod:`kalah.web.scheduler`), and each game is
guarded by a lock so that two requests on one game never interleave. Bad
requests raise :class:`ApiError`, which the application turns into a JSON
answer with that status. Answers are the response models of
:mod:`kalah.web.models`, built from the game record and its positions.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import hmac
import json
import os
import secrets
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from kalah.players import (
    ExternalPlayerRefusedError,
    PlayerSpecError,
    check_self_contained,
    make_player,
    parse_spec,
    player_types,
)
from kalah.records import (
    DamagedGameError,
    GameLibrary,
    GameNotFoundError,
    GameRecord,
    LibraryBusyError,
    LibraryError,
    PlayerInfo,
    StaleGameError,
)
from kalah.rules import SWAP, IllegalMoveError, KalahError, Move, Position, Variant, move_name, parse_move
from kalah.rules.wording import plural
from kalah.search import ALGORITHMS as SEARCH_ALGORITHMS
from kalah.search import TraceTooLargeError
from kalah.solve import clear_cache as clear_solver_cache

from .analysis import analyse, mcts_trace_json, trace_json
from .levels import LEVELS, available_levels, default_level, level_named, level_of_spec
from .models import (
    LEAVE_TOKEN_BYTES,
    MAX_TRACE_NODES,
    TRACE_OPTIONS,
    AnalysisOut,
    EffectOut,
    FrameOut,
    GameState,
    GameSummaryOut,
    InfoOut,
    LevelOut,
    MctsTraceIn,
    NewGame,
    NewGameOut,
    PlayerOut,
    PlayerTypeOut,
    ReplayOut,
    SideOut,
    TraceIn,
    VariantOut,
)
from .scheduler import Refused, Scheduler

T = TypeVar("T")

#: Engine seconds per computer move unless the server is told otherwise (kalah serve --max-move-seconds).
DEFAULT_MOVE_SECONDS = 5.0
#: How long a job may run past the cap before its worker is killed.
GRACE_SECONDS = 2.0
#: Whose engine jobs a request is, when nobody says (calls from Python rather than from a route).
ANONYMOUS = "addr:unknown"
#: Unstarted games whose leave tokens the service remembers at most; past it, the oldest is forgotten (that
#: game then stays in the library when left, as one begun does). Each costs about 200 bytes.
MAX_LEAVE_TOKENS = 10_000

_EXEC_HINT = "this server runs no programs and reads no files for its clients (kalah serve --allow-exec allows it)"


# --- errors --------------------------------------------------------------------


class ApiError(Exception):
    """A request the API refuses: answered as ``{"detail": message}`` with HTTP ``status``."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}


def busy(message: str, retry_after: int = 1) -> ApiError:
    """The server cannot take the request now (503); the client may try again after ``retry_after`` seconds."""
    return ApiError(503, message, {"Retry-After": str(retry_after)})


def invalid(message: str) -> ApiError:
    """A request that is well-formed but asks for something impossible (422)."""
    return ApiError(422, message)


# --- helpers -------------------------------------------------------------------


def _is_human(spec: str) -> bool:
    try:
        return parse_spec(spec)[0] == "human"
    except PlayerSpecError:
        return False


def _players_out(players: list[PlayerInfo]) -> list[PlayerOut]:
    return [PlayerOut(name=p.name, spec=p.spec, human=_is_human(p.spec), level=level_of_spec(p.spec)) for p in players]


def _effect(number: int, before: Position, move: Move) -> EffectOut:
    _, effect = before.play_explained(move)
    return EffectOut(
        number=number,
        player=effect.player,
        move=effect.move,
        name=move_name(effect.player, move),
        before=before.board,
        sown=list(effect.sown),
        extra_turn=effect.extra_turn,
        captured=effect.captured,
        capture_pit=effect.capture_pit,
        game_over=effect.game_over,
    )


def _result_text(position: Position) -> str:
    scores = position.scores or (0, 0)
    return f"{scores[0]}-{scores[1]}"


def _refused(error: ExternalPlayerRefusedError) -> ApiError:
    return ApiError(403, f"{error}: {_EXEC_HINT}")


def _resolve_player(entry: str, name: str | None, allow_external: bool) -> tuple[PlayerInfo, str | None]:
    """A player of a new game from 'human', a level name or a spec."""
    text = entry.strip() if isinstance(entry, str) else ""
    if not text:
        raise invalid("a player must be 'human', a level name or a player spec")
    if text.lower() == "human" or text.lower().startswith("human:"):
        return PlayerInfo(name or "Human", "human"), None
    known = {level.name: level for level in LEVELS}
    if text.lower() in known:
        level = level_named(text.lower())
        if level is None:
            raise invalid(
                f"level {text.lower()!r} is not available here: its engine ({known[text.lower()].spec}) is not"
                f" installed; available levels: {', '.join(known.name for known in available_levels())}"
            )
        return PlayerInfo(name or f"Computer ({level.name})", level.spec), level.name
    try:
        player = make_player(text, allow_external=allow_external)
    except ExternalPlayerRefusedError as error:
        raise _refused(error) from None
    except KalahError as error:
        raise invalid(str(error)) from None
    if getattr(player, "is_computer", None) is not True and not _is_human(text):
        raise invalid(f"{text!r} is not a computer player the server can run")
    return PlayerInfo(name or f"Computer ({text})", player.spec), level_of_spec(player.spec)


def capped_spec(spec: str, seconds: float) -> str:
    """``spec`` with its thinking time held to ``seconds``: the server's cap on engine time per move.

    Search players (depth or time) get ``time`` at most ``seconds`` (a depth
    limit stays, and the search stops at whichever comes first); ``perfect``
    shares ``seconds`` between its solve and its fallback search. ``ponder``
    is dropped: the server makes a fresh player for every move, so thinking
    on the opponent's time could not help the next move, and would go on in
    the worker after the answer. Players that do not think (human, random) are
    unchanged; so is a spec that does not parse, which making the player then
    refuses.
    """
    try:
        name, options = parse_spec(spec)
        options.pop("ponder", None)
        if name == "perfect":
            total = min(float(options.get("time", 10.0)) + float(options.get("fallback", 2.0)), seconds)
            options["time"], options["fallback"] = f"{0.65 * total:.4g}", f"{0.3 * total:.4g}"
        elif name in SEARCH_ALGORITHMS:
            options["time"] = f"{min(float(options.get('time', seconds)), seconds):.4g}"
        else:
            return spec
    except (PlayerSpecError, ValueError):
        return spec
    return f"{name}:" + ",".join(f"{key}={value}" for key, value in options.items())


def _choose_move(spec: str, position_json: str, allow_external: bool) -> tuple[Any, float, dict[str, Any]]:
    """Run in a worker: make the player and let it choose (players are made fresh for every move)."""
    player = make_player(spec, allow_external=allow_external)
    position = Position.from_json(position_json)
    began = time.perf_counter()
    try:
        move = player.choose_move(position)
    finally:
        stop_thinking = getattr(player, "stop_thinking", None)
        if callable(stop_thinking):  # nothing may go on thinking in the worker once the move is answered
            stop_thinking()
        release_memory()
    seconds = time.perf_counter() - began
    info = getattr(player, "last_info", {}) or {}
    try:
        info = json.loads(json.dumps(info, default=str))
    except (TypeError, ValueError):
        info = {}
    return move, seconds, info if isinstance(info, dict) else {}


#: A worker that holds more than this after a job gives its caches back (a big solve can take gigabytes).
KEEP_BYTES = 1 << 30


def release_memory() -> None:
    """In a worker: drop the solver's tables and return freed memory to the system when the worker grew big."""
    try:
        with open("/proc/self/statm") as statm:
            resident = int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        resident = KEEP_BYTES + 1  # cannot tell: assume big
    if resident <= KEEP_BYTES:
        return
    clear_solver_cache()
    try:
        ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc: the allocator keeps what it keeps
        pass


# --- the service ------------------------------------------------------------------


class GameService:
    """Games of the library, as the API sees them. Engine work goes to ``engines``."""

    def __init__(
        self,
        library: GameLibrary,
        engines: Scheduler,
        allow_exec: bool = False,
        *,
        move_seconds: float = DEFAULT_MOVE_SECONDS,
    ) -> None:
        """``engines`` runs the engine jobs, fairly between clients; each job is held to ``move_seconds``
        of thinking, and one that overruns by GRACE_SECONDS is stopped with its worker."""
        self.library = library
        self.engines = engines
        self.allow_exec = allow_exec
        self.move_seconds = move_seconds
        # A game's lock lives while a request holds it or waits for it: ids asked about once (unknown
        # ones too) leave nothing behind.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        # The secret of each unstarted game a page stored, by id, oldest first: ids are sequential, so leaving
        # may delete a game only for the page that proves it stored it. Memory only: a restart forgets them,
        # and those games stay in the library (as a begun game does).
        self._leave_tokens: OrderedDict[int, str] = OrderedDict()

    def lock(self, game_id: int) -> asyncio.Lock:
        """The lock that keeps two requests on one game from interleaving."""
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

    async def _db(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a library call in a thread: a missing game is a 404, a stale request 409, a damaged game 422,
        a locked or read-only library 503."""
        try:
            return await asyncio.to_thread(function, *args, **kwargs)
        except GameNotFoundError as error:
            raise ApiError(404, f"no game {error.game_id}") from None
        except StaleGameError as error:
            raise ApiError(409, str(error)) from None
        except DamagedGameError as error:
            raise invalid(str(error)) from None
        except LibraryBusyError as error:
            raise busy(str(error), retry_after=2) from None
        except LibraryError as error:
            raise busy(str(error), retry_after=5) from None

    async def _pooled(self, client: str, function: Callable[..., T], *args: Any) -> T:
        """Run engine work for ``client`` when its turn comes (:mod:`kalah.web.scheduler`): 429 when the
        client has its share of jobs under way, 503 when the queue is full or the job overran."""
        try:
            return await self.engines.run(client, function, *args)
        except Refused as refusal:
            raise ApiError(refusal.status, refusal.message, {"Retry-After": str(refusal.retry_after)}) from None

    # reading

    def _state_sync(self, game_id: int) -> GameState:
        return self._state_of(
            game_id,
            self.library.record(game_id),
            self.library.summary(game_id).status,
            self.library.redo_steps(game_id) > 0,
        )

    def _state_of(self, game_id: int, record: GameRecord, status: str, can_redo: bool) -> GameState:
        positions = list(record.positions())
        position = positions[-1]
        players = _players_out(record.players)
        last = _effect(len(record.moves), positions[-2], record.moves[-1].move) if record.moves else None
        humans = [player.human for player in players]
        over = position.is_over
        return GameState(
            id=game_id,
            variant=VariantOut(**position.variant.to_dict()),
            variant_name=position.variant.name,
            players=players,
            board=position.board,
            to_move=position.to_move,
            legal_moves=position.legal_moves(),
            over=over,
            status=status,
            scores=list(position.scores) if position.scores is not None else None,
            winner=position.winner,
            margin=position.margin,
            human_to_move=not over and humans[position.to_move],
            computer_to_move=not over and not humans[position.to_move],
            moves=len(record.moves),
            last=last,
            history=[move_name(m.player, m.move) for m in record.moves],
            can_take_back=self._take_back_count(record, humans) > 0,
            can_redo=can_redo,
            started_at=record.started_at,
        )

    @staticmethod
    def _state_after(state: GameState, before: Position, move: Move, after: Position) -> GameState:
        """The state after ``move`` (played from ``before``, stored by ``GameLibrary.add_move``), made from the
        state before it rather than read back: reading and replaying a whole game of 40 moves holds the
        interpreter about 2.5 ms, this a tenth of it. What ``add_move`` stored follows from the position:
        the status, and an emptied redo list."""
        humans = [player.human for player in state.players]
        over = after.is_over
        number = state.moves + 1
        return state.model_copy(
            update={
                "board": after.board,
                "to_move": after.to_move,
                "legal_moves": after.legal_moves(),
                "over": over,
                "status": "finished" if over else "playing",
                "scores": list(after.scores) if after.scores is not None else None,
                "winner": after.winner,
                "margin": after.margin,
                "human_to_move": not over and humans[after.to_move],
                "computer_to_move": not over and not humans[after.to_move],
                "moves": number,
                "last": _effect(number, before, move),
                "history": [*state.history, move_name(before.to_move, move)],
                # _take_back_count > 0: some move is a human's (any move, when neither side is human)
                "can_take_back": state.can_take_back or humans[before.to_move] or not any(humans),
                "can_redo": False,
            }
        )

    async def state(self, game_id: int) -> GameState:
        """The game as the page shows it (``GameState``); 404 for an unknown game."""
        return await self._db(self._state_sync, game_id)

    @staticmethod
    def _take_back_count(record: GameRecord, humans: list[bool]) -> int:
        """How many moves a take-back removes: back to before the last human move
        (one move when no side is human)."""
        if not record.moves:
            return 0
        if not any(humans):
            return 1
        for count, recorded in enumerate(reversed(record.moves), 1):
            if humans[recorded.player]:
                return count
        return 0

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
        resolved = [_resolve_player(entry, name, self.allow_exec) for entry, name in zip(entries, names, strict=False)]
        infos = [info for info, _ in resolved]
        try:
            variant = Variant(**request.variant.model_dump())
        except KalahError as error:
            raise invalid(str(error)) from None
        start = Position.start(variant)
        tags = {"source": "web", "levels": [level for _, level in resolved]}
        if request.preview:  # what the game would be; stored when its first move is played
            return NewGameOut(**dict(self._state_of(0, GameRecord(start, infos), "playing", False)))
        if request.reuse_unstarted:
            game_id = await self._db(self._find_unstarted, start, infos)
            if game_id is not None:  # stored by someone else, maybe: no secret to delete it
                return NewGameOut(**dict(await self.state(game_id)))
        state = await self._db(self._create_sync, start, infos, tags)
        token = secrets.token_urlsafe(LEAVE_TOKEN_BYTES)
        self._leave_tokens[state.id] = token
        while len(self._leave_tokens) > MAX_LEAVE_TOKENS:
            self._leave_tokens.popitem(last=False)
        return NewGameOut(**dict(state), leave_token=token)

    def _stored_by(self, game_id: int, token: str | None) -> bool:
        """Whether ``token`` is the secret the game's creator was given (compared in constant time)."""
        kept = self._leave_tokens.get(game_id)
        if kept is None or token is None:
            return False
        # as bytes: compare_digest refuses str with characters beyond ASCII, which a client may send
        return hmac.compare_digest(kept.encode(), token.encode())

    def _create_sync(self, start: Position, infos: list[PlayerInfo], tags: dict[str, Any]) -> GameState:
        return self._state_sync(self.library.create_game(start, infos, tags=tags))

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
            state = await self._db(self._human_move_sync, game_id, raw, expected_moves, computer)
            self._leave_tokens.pop(game_id, None)  # begun: leaving never deletes it
            return state

    def _human_move_sync(self, game_id: int, raw: int | str, expected_moves: int, computer: bool = False) -> GameState:
        # one trip to a database thread: the checks, the move and the new state
        record = self.library.record(game_id)
        self.check_current(game_id, len(record.moves), expected_moves)
        position = record.final
        if position.is_over:
            raise ApiError(409, f"game {game_id} is over ({_result_text(position)}); no more moves")
        mover = record.players[position.to_move]
        if _is_human(mover.spec) == computer:
            raise ApiError(
                409,
                f"it is not a {'computer' if computer else 'human'}'s turn in game {game_id}: player"
                f" {position.to_move} ({mover.name}) is {'a person' if computer else 'a computer'}",
            )
        move = self._parse(raw, position)
        try:
            after = self.library.add_move(game_id, move, 0.0, {"engine": "browser"} if computer else {}, expected_moves)
        except IllegalMoveError as error:
            raise invalid(f"illegal move: {error}") from None
        # the state after, from the record read above: the game is not read and replayed again (its status
        # and redo list before the move do not matter, the move sets both)
        return self._state_after(self._state_of(game_id, record, "playing", False), position, move, after)

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
    def _parse(raw: int | str, position: Position) -> Move:
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
            record = await self._db(self.library.record, game_id)
            self.check_current(game_id, len(record.moves), expected_moves)
            position = record.final
            if position.is_over:
                raise ApiError(409, f"game {game_id} is over ({_result_text(position)}); no more moves")
            spec = record.players[position.to_move].spec
            if _is_human(spec):
                raise ApiError(409, f"it is a human's turn in game {game_id}, not the computer's")
            self._check_runnable(spec)
            try:
                move, seconds, info = await self._pooled(
                    client, _choose_move, capped_spec(spec, self.move_seconds), position.to_json(), self.allow_exec
                )
            except ExternalPlayerRefusedError as error:
                raise _refused(error) from None
            except KalahError as error:
                raise ApiError(422, f"the computer player {spec!r} cannot move: {error}") from None
            state = await self._db(self._store_sync, game_id, move, round(seconds, 6), info, expected_moves)
            self._leave_tokens.pop(game_id, None)  # begun: leaving never deletes it
            return state

    def _store_sync(
        self, game_id: int, move: Move, seconds: float, info: dict[str, Any], expected_moves: int
    ) -> GameState:
        try:
            self.library.add_move(game_id, move, seconds, info, expected_moves)
        except IllegalMoveError as error:
            raise invalid(f"illegal move: {error}") from None
        return self._state_sync(game_id)

    def _check_runnable(self, spec: str) -> None:
        """Refuse (403) a player that would run a program or read a file, unless allowed."""
        if not self.allow_exec:
            try:
                check_self_contained(spec)
            except ExternalPlayerRefusedError as error:
                raise _refused(error) from None

    async def take_back(self, game_id: int, expected_moves: int) -> GameState:
        """Undo back to before the last human move; the moves go on the game's redo stack in the library."""
        async with self.lock(game_id):
            record = await self._db(self.library.record, game_id)
            self.check_current(game_id, len(record.moves), expected_moves)
            humans = [_is_human(p.spec) for p in record.players]
            count = self._take_back_count(record, humans)
            if count == 0:
                raise ApiError(409, f"game {game_id} has no move to take back")
            await self._db(self.library.take_back, game_id, count, expected_moves, keep_for_redo=True)
            return await self.state(game_id)

    async def redo(self, game_id: int, expected_moves: int) -> GameState:
        """Play again what the last take-back removed (409 when the game changed since, on any server)."""
        async with self.lock(game_id):
            if await self._db(self.library.redo, game_id, expected_moves) is None:
                raise ApiError(409, f"game {game_id} has nothing to redo")
            return await self.state(game_id)

    async def leave(self, game_id: int, token: str | None = None) -> GameState:
        """The page left the game. One left before its first move by the page that stored it (``token`` is
        the secret :meth:`create` gave it) is deleted: an abandoned page leaves no empty game in the library;
        the state returned is its last. Otherwise a computer-against-computer game nobody watches any more is
        stopped ("left unfinished"), and a game of a person stays (they come back); other clients, who cannot
        know the secret, can thus delete nobody's new game."""
        state = await self.state(game_id)
        if state.moves > 0:
            self._leave_tokens.pop(game_id, None)  # begun: leaving never deletes it any more
        elif self._stored_by(game_id, token) and not self.lock(game_id).locked():
            try:
                await self.delete(game_id)
            except ApiError as error:
                if error.status != 409:  # a computer's first move under way: the game is begun, keep it
                    raise
            else:
                return state
        if not state.over and not any(player.human for player in state.players):
            return await self.stop(game_id, "left unfinished")
        return state

    async def delete(self, game_id: int) -> None:
        """Delete the game (404 if there is none); a move of it in the making is refused (409)."""
        if self.lock(game_id).locked():
            raise ApiError(409, f"game {game_id} is busy: a move of it is being made")
        async with self.lock(game_id):
            await self._db(self.library.delete_game, game_id)
            self._leave_tokens.pop(game_id, None)

    async def stop(self, game_id: int, reason: str = "left unfinished") -> GameState:
        """Mark the game stopped for ``reason``."""
        async with self.lock(game_id):
            await self._db(self.library.mark_stopped, game_id, reason)
            return await self.state(game_id)

    # library

    async def games(self, limit: int | None, before: int | None = None) -> list[GameSummaryOut]:
        """The library's games, newest first (those with ids below ``before``), with their variants' names."""
        return await self._db(self._games_sync, limit, before)

    def _games_sync(self, limit: int | None, before: int | None) -> list[GameSummaryOut]:
        out = []
        for summary in self.library.list_games(limit=limit, before=before):
            try:
                variant_name = Variant.from_dict(summary.variant).name
            except KalahError:
                variant_name = str(summary.variant)
            out.append(
                GameSummaryOut(
                    id=summary.id,
                    started_at=summary.started_at,
                    players=[SideOut(name=p.name, spec=p.spec) for p in summary.players],
                    variant=summary.variant,
                    variant_name=variant_name,
                    moves=summary.moves,
                    status=summary.status,
                    scores=list(summary.scores) if summary.scores else None,
                    winner=summary.winner,
                    stop_reason=summary.stop_reason,
                    live=summary.tags.get("source") == "live",
                )
            )
        return out

    def _replay_sync(self, game_id: int) -> ReplayOut:
        record = self.library.record(game_id)
        positions = list(record.positions())
        frames = [
            FrameOut(board=positions[0].board, to_move=positions[0].to_move, over=positions[0].is_over, last=None)
        ]
        for number, recorded in enumerate(record.moves, 1):
            after = positions[number]
            frames.append(
                FrameOut(
                    board=after.board,
                    to_move=after.to_move,
                    over=after.is_over,
                    last=_effect(number, positions[number - 1], recorded.move),
                )
            )
        return ReplayOut(
            id=game_id,
            players=_players_out(record.players),
            variant=VariantOut(**record.variant.to_dict()),
            variant_name=record.variant.name,
            frames=frames,
        )

    async def replay(self, game_id: int) -> ReplayOut:
        """Every position of the game and what each move did (``ReplayOut``)."""
        return await self._db(self._replay_sync, game_id)

    async def record(self, game_id: int) -> bytes:
        """The game as a JSON game record, encoded (off the event loop, as the reading)."""
        return await self._db(self._record_sync, game_id)

    def _record_sync(self, game_id: int) -> bytes:
        return json.dumps(self.library.record(game_id).to_dict(), ensure_ascii=False, allow_nan=False).encode()

    async def import_record(self, data: Any) -> GameState:
        """Store a JSON game record as a new game; 422 when invalid, 403 when its players would run programs.
        Checking the record move by move is done off the event loop."""
        return await self._db(self._import_sync, data)

    def _import_sync(self, data: Any) -> GameState:
        try:
            record = GameRecord.from_dict(data)
        except KalahError as error:
            raise invalid(f"not a valid game record: {error}") from None
        for player in record.players:
            self._check_runnable(player.spec)
        return self._state_sync(self.library.import_record(record, tags={"source": "import"}))

    async def analyse_game(self, game_id: int, seconds: float, client: str = ANONYMOUS) -> AnalysisOut:
        """The analysis of a game's current position."""
        position = await self._db(self.library.position, game_id)
        return await self.analyse(position, seconds, client)

    async def analyse(self, position: Position, seconds: float, client: str = ANONYMOUS) -> AnalysisOut:
        """The value of every legal move and the best line, thought about for ``seconds`` (at most the
        server's ``move_seconds``) in a worker."""
        try:
            found = await self._pooled(client, analyse, position.to_json(), min(seconds, self.move_seconds))
        except KalahError as error:
            raise invalid(str(error)) from None
        # the worker answers in plain JSON data (it crosses a process boundary); the model checks it here
        return AnalysisOut.model_validate(found)

    async def trace(self, request: TraceIn, client: str = ANONYMOUS) -> dict[str, Any]:
        """A traced search (``kalah.trace(...).to_json()``) in a worker: at most ``MAX_TRACE_NODES`` nodes."""
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

    async def mcts_trace(self, request: MctsTraceIn, client: str = ANONYMOUS) -> dict[str, Any]:
        """Traced UCT beside alpha-beta (``analysis.mcts_trace_json``) in a worker."""
        try:
            position = Position.from_dict(request.position)
            return await self._pooled(
                client, mcts_trace_json, position.to_json(), request.playouts, request.seed, request.depth
            )
        except KalahError as error:
            raise invalid(str(error)) from None
