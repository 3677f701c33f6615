"""The browser board's server: a JSON API over the game library, and the page.

Every game lives in the SQLite game library; the server keeps nothing that
matters in memory (only the redo stacks of take-backs). A move is committed
to the library before the request that made it is answered. Computer moves
and analysis run in a small worker pool, off the event loop, and each game is
guarded by a lock so that two requests on one game never interleave.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import multiprocessing
import time
from contextlib import asynccontextmanager
from importlib.resources import files
from pathlib import Path
from typing import Any, Literal, Union

from fastapi import Body, FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.middleware.trustedhost import TrustedHostMiddleware
from pydantic import BaseModel, Field

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

from .analysis import analyse, analysis_available
from .levels import LEVELS, available_levels, default_level, level_named, level_of_spec

STATIC = files("kalah.web") / "static"

#: The Host header names a server on loopback answers to by default: a page on
#: another site that points its own name at 127.0.0.1 (DNS rebinding) is refused.
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]")

_EXEC_HINT = "this server runs no programs and reads no files for its clients (kalah serve --allow-exec allows it)"


# --- errors --------------------------------------------------------------------


class ApiError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def _bad(message: str) -> ApiError:
    return ApiError(422, message)


# --- models (they document the API in the OpenAPI schema) -------------------------


class VariantIn(BaseModel):
    """The variant of a new game."""

    pits: int = Field(6, ge=4, le=7, description="pits per side, 4 to 7")
    seeds: int = Field(4, ge=3, le=7, description="seeds per pit at the start, 3 to 7")
    empty_capture: bool = Field(False, description="a last seed in an empty own pit captures even when the opposite pit is empty")
    pie_rule: bool = Field(False, description="player 1 may swap sides after player 0's first move")


class NewGame(BaseModel):
    """A new game: the variant and, for each side, who plays it."""

    variant: VariantIn = Field(default_factory=VariantIn)
    players: list[str] | None = Field(
        None, min_length=2, max_length=2,
        description="for player 0 and player 1: 'human', a level name (see /api/levels) or a player spec"
                    " such as 'pvs:depth=8'; default: a human against the medium level")
    names: list[str | None] | None = Field(None, min_length=2, max_length=2, description="names to show")
    reuse_unstarted: bool = Field(
        False, description="return the newest web game with the same settings and no moves yet, if any,"
                           " instead of storing another empty game")


class MoveIn(BaseModel):
    move: Union[int, str] = Field(..., description="a pit index 0..pits-1 of the mover's side, a pit letter, or 'swap'")


class AnalyseIn(BaseModel):
    position: dict[str, Any] = Field(..., description="a position in the JSON form of the rules")
    seconds: float = Field(0.5, gt=0, le=10, description="thinking time")


class PlayerOut(BaseModel):
    name: str
    spec: str
    human: bool
    level: str | None


class EffectOut(BaseModel):
    number: int
    player: int
    move: Union[int, Literal["swap"]]
    name: str
    before: list[list[int]]
    sown: list[int] = Field(description="flat cells that got a seed, in order (player 0's pits, store 0, player 1's pits, store 1)")
    extra_turn: bool
    captured: int
    capture_pit: int | None
    game_over: bool


class GameState(BaseModel):
    id: int
    variant: dict[str, Any]
    variant_name: str
    players: list[PlayerOut]
    board: list[list[int]]
    to_move: int
    legal_moves: list[Union[int, Literal["swap"]]]
    over: bool
    status: str
    scores: list[int] | None = Field(description="final totals once the game is over")
    winner: int | None
    margin: int | None
    human_to_move: bool
    computer_to_move: bool
    moves: int
    last: EffectOut | None
    history: list[str] = Field(description="the moves so far in pit letters")
    can_take_back: bool
    can_redo: bool
    started_at: str


class GameSummaryOut(BaseModel):
    id: int
    started_at: str
    players: list[dict[str, str]]
    variant: dict[str, Any]
    variant_name: str
    moves: int
    status: str
    scores: list[int] | None
    winner: int | None


class FrameOut(BaseModel):
    board: list[list[int]]
    to_move: int
    over: bool
    last: EffectOut | None


class ReplayOut(BaseModel):
    id: int
    players: list[PlayerOut]
    variant: dict[str, Any]
    variant_name: str
    frames: list[FrameOut]


class LevelOut(BaseModel):
    name: str
    spec: str
    summary: str
    available: bool


class PlayerTypeOut(BaseModel):
    name: str
    summary: str
    options: str


class InfoOut(BaseModel):
    levels: list[LevelOut]
    default_level: str
    player_types: list[PlayerTypeOut]
    analysis: bool


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
        raise _bad("a player must be 'human', a level name or a player spec")
    if text.lower() == "human" or text.lower().startswith("human:"):
        return PlayerInfo(name or "Human", "human"), None
    known = {level.name: level for level in LEVELS}
    if text.lower() in known:
        level = level_named(text.lower())
        if level is None:
            raise _bad(f"level {text.lower()!r} is not available here: its engine ({known[text.lower()].spec}) is not"
                       f" installed; available levels: {', '.join(l.name for l in available_levels())}")
        return PlayerInfo(name or f"Computer ({level.name})", level.spec), level.name
    try:
        player = make_player(text, allow_external=allow_external)
    except ExternalPlayerRefusedError as error:
        raise _refused(error) from None
    except KalahError as error:
        raise _bad(str(error)) from None
    if getattr(player, "is_computer", None) is not True and not _is_human(text):
        raise _bad(f"{text!r} is not a computer player the server can run")
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
        return self._locks.setdefault(game_id, asyncio.Lock())

    async def _db(self, function, *args, **kwargs):
        try:
            return await asyncio.to_thread(function, *args, **kwargs)
        except LibraryError as error:
            text = str(error)
            raise ApiError(404 if text.startswith("no game") else 500, text) from None

    async def _pooled(self, function, *args):
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
            "scores": list(position.scores) if over else None, "winner": position.winner, "margin": position.margin,
            "human_to_move": not over and humans[position.to_move],
            "computer_to_move": not over and not humans[position.to_move],
            "moves": len(record.moves), "last": last,
            "history": [move_name(m.player, m.move) for m in record.moves],
            "can_take_back": self._take_back_count(record, humans) > 0,
            "can_redo": bool(self._redo.get(game_id)),
            "started_at": record.started_at,
        }

    async def state(self, game_id: int) -> dict[str, Any]:
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
            raise _bad(str(error)) from None
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
                    raise _bad(f"illegal move: {error}") from None
        else:
            move = raw
        try:
            position.play(move)
        except IllegalMoveError as error:
            raise _bad(f"illegal move: {error}") from None
        return move

    async def _store(self, game_id: int, move: Move, seconds: float, info: dict[str, Any], keep_redo: bool = False) -> None:
        try:
            await self._db(self.library.add_move, game_id, move, seconds, info)
        except IllegalMoveError as error:
            raise _bad(f"illegal move: {error}") from None
        if not keep_redo:
            self._redo.pop(game_id, None)

    async def computer_move(self, game_id: int) -> dict[str, Any]:
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
        async with self.lock(game_id):
            await self._db(self.library.mark_stopped, game_id, reason)
            return await self.state(game_id)

    @staticmethod
    def _result_text(state: dict[str, Any]) -> str:
        scores = state["scores"] or [0, 0]
        return f"{scores[0]}-{scores[1]}"

    # library

    async def games(self, limit: int | None) -> list[dict[str, Any]]:
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
        return await self._db(self._replay_sync, game_id)

    async def record(self, game_id: int) -> dict[str, Any]:
        record = await self._db(self.library.record, game_id)
        return record.to_dict()

    async def import_record(self, data: Any) -> dict[str, Any]:
        try:
            record = GameRecord.from_dict(data)
        except KalahError as error:
            raise _bad(f"not a valid game record: {error}") from None
        for player in record.players:
            self._check_runnable(player.spec)
        game_id = await self._db(self.library.import_record, record, tags={"source": "import"})
        return await self.state(game_id)

    async def analyse(self, position: Position, seconds: float) -> dict[str, Any]:
        if not analysis_available():
            return {"available": False, "reason": "analysis is unavailable: no search engine is installed yet"}
        try:
            return await self._pooled(analyse, position.to_json(), seconds)
        except KalahError as error:
            raise _bad(str(error)) from None


# --- the application ----------------------------------------------------------------


def _make_pool(workers: int, kind: str) -> concurrent.futures.Executor:
    if kind == "thread":
        return concurrent.futures.ThreadPoolExecutor(max_workers=workers, thread_name_prefix="kalah-engine")
    # Engines may hold the GIL for a long time: processes keep the event loop free.
    # "spawn" because forking a threaded server is unsafe.
    return concurrent.futures.ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))


def create_app(db_path: str | Path | None = None, workers: int = 2, pool: str = "process", *,
               allow_exec: bool = False, allowed_hosts: list[str] | tuple[str, ...] | None = None) -> FastAPI:
    """The web application over the game library at ``db_path`` (default: the user's library).

    ``workers`` engine workers of kind ``pool`` ("process" or "thread") play
    the computer's moves and run analyses. ``allow_exec`` lets clients name
    players that run programs or read files on this machine (``exec:``,
    ``replay:file=``); without it they are refused with 403 by every route.
    ``allowed_hosts``: the names the Host header may carry (default the
    loopback names; ``"*"`` accepts any).
    """
    library = GameLibrary(db_path)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        executor = _make_pool(max(1, workers), pool)
        app.state.service = GameService(library, executor, allow_exec=allow_exec)
        if pool != "thread":  # start the workers now rather than at the first computer move
            loop = asyncio.get_running_loop()
            await asyncio.gather(*(loop.run_in_executor(executor, _warm_up) for _ in range(max(1, workers))))
        try:
            yield
        finally:
            executor.shutdown(wait=False, cancel_futures=True)

    app = FastAPI(
        title="Kalah board",
        summary="Play, watch, analyse and replay Kalah; every game is kept in the local game library.",
        version=_version(),
        lifespan=lifespan,
    )
    app.state.library = library
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts or LOOPBACK_HOSTS))

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, error: ApiError) -> JSONResponse:
        return JSONResponse({"detail": error.message}, status_code=error.status)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, error: RequestValidationError) -> JSONResponse:
        problems = []
        for item in error.errors():
            where = ".".join(str(part) for part in item.get("loc", ()) if part != "body")
            if item.get("type") == "json_invalid":
                problems.append(f"malformed JSON: {item.get('ctx', {}).get('error', item.get('msg'))}")
            else:
                problems.append(f"{where or 'body'}: {item.get('msg')}")
        return JSONResponse({"detail": "; ".join(problems) or "bad request",
                             "errors": jsonable_encoder(error.errors())}, status_code=422)

    def service() -> GameService:
        return app.state.service

    # --- pages and static files

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(str(STATIC / "index.html"), media_type="text/html")

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")

    # --- API

    @app.get("/api/info", response_model=InfoOut, summary="Levels, player types and whether analysis is available")
    async def info() -> dict[str, Any]:
        available = {level.name for level in available_levels()}
        return {
            "levels": [{"name": l.name, "spec": l.spec, "summary": l.summary, "available": l.name in available}
                       for l in LEVELS],
            "default_level": default_level().name,
            "player_types": [{"name": t.name, "summary": t.summary, "options": t.options}
                             for t in player_types(include_external=allow_exec).values() if t.name != "replay"],
            "analysis": analysis_available(),
        }

    @app.get("/api/games", response_model=list[GameSummaryOut], summary="The game library, newest first")
    async def list_games(limit: int | None = None) -> list[dict[str, Any]]:
        return await service().games(limit)

    @app.post("/api/games", response_model=GameState, status_code=201, summary="Start (and store) a new game")
    async def new_game(request: NewGame) -> dict[str, Any]:
        return await service().create(request)

    @app.get("/api/games/{game_id}", response_model=GameState, summary="A game's current state")
    async def get_game(game_id: int) -> dict[str, Any]:
        return await service().state(game_id)

    @app.post("/api/games/{game_id}/moves", response_model=GameState,
              summary="Play a human move (stored before the answer)",
              responses={409: {"description": "not a human's turn, or the game is over"},
                         422: {"description": "illegal move"}, 404: {"description": "no such game"}})
    async def play_move(game_id: int, request: MoveIn) -> dict[str, Any]:
        return await service().human_move(game_id, request.move)

    @app.post("/api/games/{game_id}/computer-move", response_model=GameState,
              summary="Let the computer player to move choose and play its move",
              responses={409: {"description": "not a computer's turn, or the game is over"}})
    async def computer_move(game_id: int) -> dict[str, Any]:
        return await service().computer_move(game_id)

    @app.post("/api/games/{game_id}/takeback", response_model=GameState,
              summary="Take back the last human move (and the computer's answers to it)")
    async def take_back(game_id: int) -> dict[str, Any]:
        return await service().take_back(game_id)

    @app.post("/api/games/{game_id}/redo", response_model=GameState, summary="Replay what the last take-back removed")
    async def redo(game_id: int) -> dict[str, Any]:
        return await service().redo(game_id)

    @app.get("/api/games/{game_id}/record", summary="The game as a JSON game record")
    async def record(game_id: int, download: bool = False) -> JSONResponse:
        data = await service().record(game_id)
        headers = {"Content-Disposition": f'attachment; filename="kalah-game-{game_id}.json"'} if download else {}
        return JSONResponse(data, headers=headers)

    @app.get("/api/games/{game_id}/replay", response_model=ReplayOut,
             summary="Every position of a game with what each move did, for replaying")
    async def replay(game_id: int) -> dict[str, Any]:
        return await service().replay(game_id)

    @app.get("/api/games/{game_id}/analysis", summary="Values of the legal moves and the best line in a game's position")
    async def game_analysis(game_id: int, seconds: float = 0.5) -> dict[str, Any]:
        if not 0 < seconds <= 10:
            raise _bad("seconds must be more than 0 and at most 10")
        position = await service()._db(service().library.position, game_id)
        return await service().analyse(position, seconds)

    @app.post("/api/records", response_model=GameState, status_code=201, summary="Import a JSON game record")
    async def import_record(record: dict[str, Any] = Body(..., description="a kalah-game record, version 1")) -> dict[str, Any]:
        return await service().import_record(record)

    @app.post("/api/analyse", summary="Values of the legal moves and the best line in any position")
    async def analyse_position(request: AnalyseIn) -> dict[str, Any]:
        try:
            position = Position.from_dict(request.position)
        except KalahError as error:
            raise _bad(str(error)) from None
        return await service().analyse(position, request.seconds)

    @app.get("/api/board.svg", summary="A position drawn as SVG (the notebook's board)")
    async def board_svg(board: str, to_move: int = 0) -> Response:
        from kalah.notebook import board_svg as draw

        try:
            position = Position(json.loads(board), to_move)
        except (ValueError, KalahError) as error:
            raise _bad(f"bad board: {error}") from None
        return Response(draw(position), media_type="image/svg+xml")

    return app


def _version() -> str:
    from kalah import __version__

    return __version__
