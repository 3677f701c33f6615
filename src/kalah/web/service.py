"""The game service: games of the library as the web API sees them.

Every game lives in the SQLite game library; the service keeps nothing that
matters in memory (only the redo stacks of take-backs). A move is committed
to the library before the request that made it is answered. Computer moves
and analyses run in a worker pool, off the event loop, and each game is
guarded by a lock so that two requests on one game never interleave. Bad
requests raise :class:`ApiError`, which the application turns into a JSON
answer with that status.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import multiprocessing
import time
from typing import Any, Callable, TypeVar

from kalah.players import (
    ExternalPlayerRefusedError,
    PlayerSpecError,
    check_self_contained,
    make_player,
    parse_spec,
    player_types,
)
from kalah.records import GameLibrary, GameRecord, LibraryError, PlayerInfo
from kalah.rules import SWAP, IllegalMoveError, KalahError, Move, Position, Variant, move_name, parse_move

from .analysis import analyse
from .levels import LEVELS, available_levels, default_level, level_named, level_of_spec
from .models import NewGame

T = TypeVar("T")

_EXEC_HINT = "this server runs no programs and reads no files for its clients (kalah serve --allow-exec allows it)"


# --- errors --------------------------------------------------------------------


class ApiError(Exception):
    """A request the API refuses: answered as ``{"detail": message}`` with HTTP ``status``."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def invalid(message: str) -> ApiError:
    """A request that is well-formed but asks for something impossible (422)."""
    return ApiError(422, message)


# --- helpers -------------------------------------------------------------------


def _is_human(spec: str) -> bool:
    try:
        return parse_spec(spec)[0] == "human"
    except PlayerSpecError:
        return False


def _players_out(players: list[PlayerInfo]) -> list[dict[str, Any]]:
    return [{"name": p.name, "spec": p.spec, "human": _is_human(p.spec), "level": level_of_spec(p.spec)} for p in players]


def _effect(number: int, before: Position, move: Move) -> dict[str, Any]:
    _, effect = before.play_explained(move)
    return {
        "number": number, "player": effect.player, "move": effect.move, "name": move_name(effect.player, move),
        "before": before.board, "sown": list(effect.sown), "extra_turn": effect.extra_turn,
        "captured": effect.captured, "capture_pit": effect.capture_pit, "game_over": effect.game_over,
    }


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
            raise invalid(f"level {text.lower()!r} is not available here: its engine ({known[text.lower()].spec}) is not"
                       f" installed; available levels: {', '.join(l.name for l in available_levels())}")
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


def _choose_move(spec: str, position_json: str, allow_external: bool) -> tuple[Any, float, dict[str, Any]]:
    """Run in a worker: make the player and let it choose (players are made fresh for every move)."""
    player = make_player(spec, allow_external=allow_external)
    position = Position.from_json(position_json)
    began = time.perf_counter()
    move = player.choose_move(position)
    seconds = time.perf_counter() - began
    info = getattr(player, "last_info", {}) or {}
    try:
        info = json.loads(json.dumps(info, default=str))
    except (TypeError, ValueError):
        info = {}
    return move, seconds, info if isinstance(info, dict) else {}


def _warm_up() -> bool:
    player_types()
    return True


# --- the service ------------------------------------------------------------------


class GameService:
    """Games of the library, as the API sees them. Engine work goes to ``pool``."""

    def __init__(self, library: GameLibrary, pool: concurrent.futures.Executor, allow_exec: bool = False) -> None:
        self.library = library
        self.pool = pool
        self.allow_exec = allow_exec
        self._locks: dict[int, asyncio.Lock] = {}
        self._redo: dict[int, list[list[Move]]] = {}

    def lock(self, game_id: int) -> asyncio.Lock:
        """The lock that keeps two requests on one game from interleaving."""
        return self._locks.setdefault(game_id, asyncio.Lock())

    async def warm_up(self, workers: int) -> None:
        """Start ``workers`` engine workers now rather than at the first computer move."""
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(self.pool, _warm_up) for _ in range(workers)))

    def info(self) -> dict[str, Any]:
        """The levels, the player types a client may name, and whether analysis works."""
        available = {level.name for level in available_levels()}
        return {
            "levels": [{"name": l.name, "spec": l.spec, "summary": l.summary, "available": l.name in available}
                       for l in LEVELS],
            "default_level": default_level().name,
            "player_types": [{"name": t.name, "summary": t.summary, "options": t.options}
                             for t in player_types(include_external=self.allow_exec).values() if t.name != "replay"],
            "analysis": True,  # search and solve ship with the package
        }

    async def _db(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a library call in a thread; a missing game is a 404."""
        try:
            return await asyncio.to_thread(function, *args, **kwargs)
        except LibraryError as error:
            text = str(error)
            raise ApiError(404 if text.startswith("no game") else 500, text) from None

    async def _pooled(self, function: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool, function, *args)

    # reading

    def _state_sync(self, game_id: int) -> dict[str, Any]:
        record = self.library.record(game_id)
        summary = self.library.summary(game_id)
        positions = list(record.positions())
        position = positions[-1]
        players = _players_out(record.players)
        last = _effect(len(record.moves), positions[-2], record.moves[-1].move) if record.moves else None
        humans = [p["human"] for p in players]
        over = position.is_over
        return {
            "id": game_id, "variant": position.variant.to_dict(), "variant_name": position.variant.name,
            "players": players, "board": position.board, "to_move": position.to_move,
            "legal_moves": position.legal_moves(), "over": over, "status": summary.status,
            "scores": list(position.scores) if position.scores is not None else None, "winner": position.winner, "margin": position.margin,
            "human_to_move": not over and humans[position.to_move],
            "computer_to_move": not over and not humans[position.to_move],
            "moves": len(record.moves), "last": last,
            "history": [move_name(m.player, m.move) for m in record.moves],
            "can_take_back": self._take_back_count(record, humans) > 0,
            "can_redo": bool(self._redo.get(game_id)),
            "started_at": record.started_at,
        }

    async def state(self, game_id: int) -> dict[str, Any]:
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

    async def create(self, request: NewGame) -> dict[str, Any]:
        """Store a new game (or reuse an unstarted one when asked) and return its state."""
        names = request.names or [None, None]
        if request.players is None:
            entries = ["human", default_level().name]
        else:
            entries = request.players
        resolved = [_resolve_player(entry, name, self.allow_exec) for entry, name in zip(entries, names)]
        infos = [info for info, _ in resolved]
        try:
            variant = Variant(**request.variant.model_dump())
        except KalahError as error:
            raise invalid(str(error)) from None
        start = Position.start(variant)
        tags = {"source": "web", "levels": [level for _, level in resolved]}
        if request.reuse_unstarted:
            game_id = await self._db(self._find_unstarted, start, infos)
            if game_id is not None:
                return await self.state(game_id)
        game_id = await self._db(self.library.create_game, start, infos, tags=tags)
        return await self.state(game_id)

    def _find_unstarted(self, start: Position, infos: list[PlayerInfo]) -> int | None:
        for summary in self.library.list_games(tags={"source": "web"}, limit=20):
            if (summary.moves == 0 and summary.status == "playing" and summary.variant == start.variant.to_dict()
                    and list(summary.players) == list(infos)):
                return summary.id
        return None

    async def human_move(self, game_id: int, raw: int | str) -> dict[str, Any]:
        """Play a human's move (index, letter or swap); 409 when no human is to move, 422 when illegal."""
        async with self.lock(game_id):
            state = await self.state(game_id)
            if state["over"]:
                raise ApiError(409, f"game {game_id} is over ({self._result_text(state)}); no more moves")
            if not state["human_to_move"]:
                raise ApiError(409, f"it is not a human's turn in game {game_id}: player {state['to_move']}"
                                    f" ({state['players'][state['to_move']]['name']}) is a computer")
            position = await self._db(self.library.position, game_id)
            move = self._parse(raw, position)
            await self._store(game_id, move, 0.0, {})
            return await self.state(game_id)

    @staticmethod
    def _parse(raw: int | str, position: Position) -> Move:
        if isinstance(raw, str):
            if raw.strip().lower() == SWAP:
                move: Move = SWAP
            elif raw.strip().lstrip("-").isdigit():
                move = int(raw.strip())
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

    async def _store(self, game_id: int, move: Move, seconds: float, info: dict[str, Any], keep_redo: bool = False) -> None:
        try:
            await self._db(self.library.add_move, game_id, move, seconds, info)
        except IllegalMoveError as error:
            raise invalid(f"illegal move: {error}") from None
        if not keep_redo:
            self._redo.pop(game_id, None)

    async def computer_move(self, game_id: int) -> dict[str, Any]:
        """Let the computer to move choose in a worker, and store its move."""
        async with self.lock(game_id):
            state = await self.state(game_id)
            if state["over"]:
                raise ApiError(409, f"game {game_id} is over ({self._result_text(state)}); no more moves")
            if not state["computer_to_move"]:
                raise ApiError(409, f"it is a human's turn in game {game_id}, not the computer's")
            spec = state["players"][state["to_move"]]["spec"]
            self._check_runnable(spec)
            position = await self._db(self.library.position, game_id)
            try:
                move, seconds, info = await self._pooled(_choose_move, spec, position.to_json(), self.allow_exec)
            except ExternalPlayerRefusedError as error:
                raise _refused(error) from None
            except KalahError as error:
                raise ApiError(422, f"the computer player {spec!r} cannot move: {error}") from None
            await self._store(game_id, move, round(seconds, 6), info)
            return await self.state(game_id)

    def _check_runnable(self, spec: str) -> None:
        """Refuse (403) a player that would run a program or read a file, unless allowed."""
        if not self.allow_exec:
            try:
                check_self_contained(spec)
            except ExternalPlayerRefusedError as error:
                raise _refused(error) from None

    async def take_back(self, game_id: int) -> dict[str, Any]:
        """Undo back to before the last human move; the moves go on the redo stack."""
        async with self.lock(game_id):
            record = await self._db(self.library.record, game_id)
            humans = [_is_human(p.spec) for p in record.players]
            count = self._take_back_count(record, humans)
            if count == 0:
                raise ApiError(409, f"game {game_id} has no move to take back")
            undone = [m.move for m in record.moves[-count:]]
            await self._db(self.library.take_back, game_id, count)
            self._redo.setdefault(game_id, []).append(undone)
            return await self.state(game_id)

    async def redo(self, game_id: int) -> dict[str, Any]:
        """Play again what the last take-back removed."""
        async with self.lock(game_id):
            await self.state(game_id)  # 404 for unknown games
            stack = self._redo.get(game_id)
            if not stack:
                raise ApiError(409, f"game {game_id} has nothing to redo")
            moves = stack.pop()
            for move in moves:
                await self._store(game_id, move, 0.0, {}, keep_redo=True)
            return await self.state(game_id)

    async def stop(self, game_id: int, reason: str = "left unfinished") -> dict[str, Any]:
        """Mark the game stopped for ``reason``."""
        async with self.lock(game_id):
            await self._db(self.library.mark_stopped, game_id, reason)
            return await self.state(game_id)

    @staticmethod
    def _result_text(state: dict[str, Any]) -> str:
        scores = state["scores"] or [0, 0]
        return f"{scores[0]}-{scores[1]}"

    # library

    async def games(self, limit: int | None) -> list[dict[str, Any]]:
        """The library's games, newest first, with their variants' names."""
        summaries = await self._db(self.library.list_games, limit=limit)
        out = []
        for summary in summaries:
            data = summary.to_dict()
            try:
                data["variant_name"] = Variant.from_dict(summary.variant).name
            except KalahError:
                data["variant_name"] = str(summary.variant)
            out.append(data)
        return out

    def _replay_sync(self, game_id: int) -> dict[str, Any]:
        record = self.library.record(game_id)
        positions = list(record.positions())
        frames = [{"board": positions[0].board, "to_move": positions[0].to_move, "over": positions[0].is_over,
                   "last": None}]
        for number, recorded in enumerate(record.moves, 1):
            after = positions[number]
            frames.append({"board": after.board, "to_move": after.to_move, "over": after.is_over,
                           "last": _effect(number, positions[number - 1], recorded.move)})
        return {"id": game_id, "players": _players_out(record.players), "variant": record.variant.to_dict(),
                "variant_name": record.variant.name, "frames": frames}

    async def replay(self, game_id: int) -> dict[str, Any]:
        """Every position of the game and what each move did (``ReplayOut``)."""
        return await self._db(self._replay_sync, game_id)

    async def record(self, game_id: int) -> dict[str, Any]:
        """The game as a JSON game record."""
        record = await self._db(self.library.record, game_id)
        return record.to_dict()

    async def import_record(self, data: Any) -> dict[str, Any]:
        """Store a JSON game record as a new game; 422 when invalid, 403 when its players would run programs."""
        try:
            record = GameRecord.from_dict(data)
        except KalahError as error:
            raise invalid(f"not a valid game record: {error}") from None
        for player in record.players:
            self._check_runnable(player.spec)
        game_id = await self._db(self.library.import_record, record, tags={"source": "import"})
        return await self.state(game_id)

    async def analyse_game(self, game_id: int, seconds: float) -> dict[str, Any]:
        """The analysis of a game's current position."""
        position = await self._db(self.library.position, game_id)
        return await self.analyse(position, seconds)

    async def analyse(self, position: Position, seconds: float) -> dict[str, Any]:
        """The value of every legal move and the best line, thought about for ``seconds`` in a worker."""
        try:
            return await self._pooled(analyse, position.to_json(), seconds)
        except KalahError as error:
            raise invalid(str(error)) from None


def make_pool(workers: int, kind: str) -> concurrent.futures.Executor:
    """The engine workers: ``workers`` processes, or threads when ``kind`` is "thread"."""
    if kind == "thread":
        return concurrent.futures.ThreadPoolExecutor(max_workers=workers, thread_name_prefix="kalah-engine")
    # Engines may hold the GIL for a long time: processes keep the event loop free.
    # "spawn" because forking a threaded server is unsafe.
    return concurrent.futures.ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
