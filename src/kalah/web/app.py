"""The browser board's server: the routes of the JSON API, the page and its static files.

:func:`create_app` builds the FastAPI application over a game library. The
request and response bodies are in :mod:`kalah.web.models`, the work behind
each route in :class:`kalah.web.service.GameService`; a route here only says
which URL does what.
"""

from __future__ import annotations

import json
from contextlib import asynccontextmanager
from importlib.resources import files
from pathlib import Path
from typing import Annotated, Any, AsyncIterator

from fastapi import Body, FastAPI, Query, Request
from fastapi import Path as PathParameter
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from starlette.middleware.trustedhost import TrustedHostMiddleware

from kalah.arena.workers import stop_pool
from kalah.records import GameLibrary
from kalah.rules import KalahError, Position
from kalah.rules.svg import board_svg as draw_board

from .lab import router as lab_router
from .limits import DEFAULT_MAX_BODY, BodyLimit
from .live import LiveLimits, install as install_live
from .models import (
    MAX_ID,
    AnalyseIn,
    Expected,
    GameState,
    GameSummaryOut,
    InfoOut,
    MoveIn,
    NewGame,
    ReplayOut,
    TraceIn,
)
from .service import DEFAULT_MOVE_SECONDS, ApiError, GameService, invalid, make_pool

#: A game's id in a URL: SQLite's ids are signed 64-bit integers.
GameId = Annotated[int, PathParameter(ge=1, le=MAX_ID, description="the game's id")]

STATIC = files("kalah.web") / "static"

#: The board's sizes and colours, shared by the page and :mod:`kalah.rules.svg`.
BOARD_STYLE = files("kalah.rules") / "board.json"

#: The Host header names a server on loopback answers to by default: a page on
#: another site that points its own name at 127.0.0.1 (DNS rebinding) is refused.
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]")


def create_app(db_path: str | Path | None = None, workers: int = 2, pool: str = "process", *,
               allow_exec: bool = False, allowed_hosts: list[str] | tuple[str, ...] | None = None,
               move_seconds: float = DEFAULT_MOVE_SECONDS, max_body: int = DEFAULT_MAX_BODY,
               busy_timeout: float = 1.0, live_limits: LiveLimits | None = None) -> FastAPI:
    """The web application over the game library at ``db_path`` (default: the user's library).

    ``workers`` engine workers of kind ``pool`` ("process" or "thread") play
    the computer's moves and run analyses. ``allow_exec`` lets clients name
    players that run programs or read files on this machine (``exec:``,
    ``replay:file=``); without it they are refused with 403 by every route.
    ``allowed_hosts``: the names the Host header may carry (default the
    loopback names; ``"*"`` accepts any). Limits: ``move_seconds`` of engine
    time per computer move whatever the player's spec asks, at most twice
    ``workers`` engine jobs at once (then 503 with Retry-After), request
    bodies of ``max_body`` bytes (413), and ``busy_timeout`` seconds of waiting
    for a library locked by another program (then 503). ``live_limits``: what one
    address may hold of games between people (:mod:`kalah.web.live`).
    """
    library = GameLibrary(db_path, busy_timeout=busy_timeout)
    workers = max(1, workers)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.service = GameService(
            library, make_pool(workers, pool), allow_exec=allow_exec, move_seconds=move_seconds,
            max_jobs=2 * workers, new_pool=None if pool == "thread" else (lambda: make_pool(workers, pool)))
        if pool != "thread":  # start the workers now rather than at the first computer move
            await app.state.service.warm_up(workers)
        try:
            yield
        finally:
            stop_pool(app.state.service.pool)

    app = FastAPIOffline(
        title="Kalah board",
        summary="Play, watch, analyse and replay Kalah; every game is kept in the local game library.",
        version=_version(),
        lifespan=lifespan,
    )
    app.state.library = library
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts or LOOPBACK_HOSTS))
    app.add_middleware(BodyLimit, max_bytes=max_body)

    @app.middleware("http")
    async def _docs_stay_local(request: Request, call_next: Any) -> Response:
        # The API documentation pages are drawn by scripts bundled with fastapi-offline; the policy
        # keeps their browsers from fetching anything else (ReDoc's footer asks a CDN for its logo).
        response: Response = await call_next(request)
        if request.url.path in ("/docs", "/redoc"):
            response.headers["Content-Security-Policy"] = (
                "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline';"
                " img-src 'self' data:; worker-src 'self' blob:; font-src 'self' data:")
        return response

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, error: ApiError) -> JSONResponse:
        return JSONResponse({"detail": error.message}, status_code=error.status, headers=error.headers)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, error: RequestValidationError) -> JSONResponse:
        problems, errors = [], []
        for item in error.errors()[:20]:
            where = ".".join(str(part) for part in item.get("loc", ()) if part != "body")
            if item.get("type") == "json_invalid":
                problems.append(f"malformed JSON: {item.get('ctx', {}).get('error', item.get('msg'))}")
            else:
                problems.append(f"{where or 'body'}: {item.get('msg')}")
            # what the client sent is not echoed: it may be megabytes
            errors.append({key: value for key, value in item.items() if key not in ("input", "url", "ctx")})
        return JSONResponse({"detail": "; ".join(problems)[:2000] or "bad request",
                             "errors": jsonable_encoder(errors)}, status_code=422)

    @app.exception_handler(RecursionError)
    async def _too_deep(request: Request, error: RecursionError) -> JSONResponse:
        return JSONResponse({"detail": "the request is nested too deeply"}, status_code=422)

    def service() -> GameService:
        running: GameService = app.state.service  # set by lifespan when the server starts
        return running

    # --- pages and static files

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(str(STATIC / "index.html"), media_type="text/html")

    @app.get("/static/board.json", include_in_schema=False)
    async def board_style() -> FileResponse:
        return FileResponse(str(BOARD_STYLE), media_type="application/json")

    app.include_router(lab_router)  # the /lab page and its API (kalah.web.lab)
    install_live(app, live_limits, busy_timeout)  # games between people, the lobby (kalah.web.live)

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")

    # --- API

    @app.get("/api/info", response_model=InfoOut, summary="Levels, player types and whether analysis is available")
    async def info() -> dict[str, Any]:
        return service().info()

    @app.get("/api/games", response_model=list[GameSummaryOut], summary="The game library, newest first")
    async def list_games(limit: Annotated[int | None, Query(ge=1, le=10_000)] = None) -> list[dict[str, Any]]:
        return await service().games(limit)

    @app.post("/api/games", response_model=GameState, status_code=201, summary="Start (and store) a new game")
    async def new_game(request: NewGame) -> dict[str, Any]:
        return await service().create(request)

    @app.get("/api/games/{game_id}", response_model=GameState, summary="A game's current state")
    async def get_game(game_id: GameId) -> dict[str, Any]:
        return await service().state(game_id)

    @app.post("/api/games/{game_id}/moves", response_model=GameState,
              summary="Play a human move (stored before the answer)",
              responses={409: {"description": "not a human's turn, or the game is over"},
                         422: {"description": "illegal move"}, 404: {"description": "no such game"}})
    async def play_move(game_id: GameId, request: MoveIn) -> dict[str, Any]:
        return await service().human_move(game_id, request.move, request.moves)

    @app.post("/api/games/{game_id}/computer-move", response_model=GameState,
              summary="Let the computer player to move choose and play its move",
              responses={409: {"description": "not a computer's turn, the game is over or moved on"},
                         503: {"description": "all engines are busy: retry after the Retry-After seconds"}})
    async def computer_move(game_id: GameId, request: Expected) -> dict[str, Any]:
        return await service().computer_move(game_id, request.moves)

    @app.post("/api/games/{game_id}/takeback", response_model=GameState,
              summary="Take back the last human move (and the computer's answers to it)")
    async def take_back(game_id: GameId, request: Expected) -> dict[str, Any]:
        return await service().take_back(game_id, request.moves)

    @app.post("/api/games/{game_id}/redo", response_model=GameState, summary="Replay what the last take-back removed")
    async def redo(game_id: GameId, request: Expected) -> dict[str, Any]:
        return await service().redo(game_id, request.moves)

    @app.post("/api/games/{game_id}/leave", response_model=GameState,
              summary="The page stops watching a computer-against-computer game: it is marked unfinished")
    async def leave(game_id: GameId) -> dict[str, Any]:
        return await service().leave(game_id)

    @app.delete("/api/games/{game_id}", status_code=204, summary="Delete a game and its moves from the library")
    async def delete_game(game_id: GameId) -> Response:
        await service().delete(game_id)
        return Response(status_code=204)

    @app.get("/api/games/{game_id}/record", summary="The game as a JSON game record")
    async def record(game_id: GameId, download: bool = False) -> JSONResponse:
        data = await service().record(game_id)
        headers = {"Content-Disposition": f'attachment; filename="kalah-game-{game_id}.json"'} if download else {}
        return JSONResponse(data, headers=headers)

    @app.get("/api/games/{game_id}/replay", response_model=ReplayOut,
             summary="Every position of a game with what each move did, for replaying")
    async def replay(game_id: GameId) -> dict[str, Any]:
        return await service().replay(game_id)

    @app.get("/api/games/{game_id}/analysis", summary="Values of the legal moves and the best line in a game's position")
    async def game_analysis(game_id: GameId, seconds: Annotated[float, Query(gt=0, le=10, allow_inf_nan=False)] = 0.5
                            ) -> dict[str, Any]:
        return await service().analyse_game(game_id, seconds)

    @app.post("/api/records", response_model=GameState, status_code=201, summary="Import a JSON game record")
    async def import_record(record: dict[str, Any] = Body(..., description="a kalah-game record, version 1")) -> dict[str, Any]:
        return await service().import_record(record)

    @app.post("/api/analyse", summary="Values of the legal moves and the best line in any position")
    async def analyse_position(request: AnalyseIn) -> dict[str, Any]:
        try:
            position = Position.from_dict(request.position)
        except KalahError as error:
            raise invalid(str(error)) from None
        return await service().analyse(position, request.seconds)

    @app.post("/api/trace", summary="Every node of a search, in visiting order (kalah.trace; format kalah-trace/1)",
              responses={422: {"description": "a bad position, algorithm, option or depth, or too many nodes"},
                         503: {"description": "all engines are busy: retry after the Retry-After seconds"}})
    async def trace(request: TraceIn) -> dict[str, Any]:
        return await service().trace(request)

    @app.get("/api/board.svg", summary="A position drawn as SVG (the notebook's board, kalah.rules.svg)")
    async def board_svg(board: Annotated[str, Query(max_length=2000)],
                        to_move: Annotated[int, Query(ge=0, le=1)] = 0) -> Response:
        try:
            position = Position(json.loads(board), to_move)
        except (ValueError, TypeError, RecursionError, KalahError) as error:
            raise invalid(f"bad board: {error}") from None
        return Response(draw_board(position), media_type="image/svg+xml")

    return app


def _version() -> str:
    from kalah.version import __version__

    return __version__
