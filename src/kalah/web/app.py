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
from typing import Any, AsyncIterator

from fastapi import Body, FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.middleware.trustedhost import TrustedHostMiddleware

from kalah.records import GameLibrary
from kalah.rules import KalahError, Position
from kalah.rules.svg import board_svg as draw_board

from .lab import router as lab_router
from .models import AnalyseIn, GameState, GameSummaryOut, InfoOut, MoveIn, NewGame, ReplayOut
from .service import ApiError, GameService, invalid, make_pool

STATIC = files("kalah.web") / "static"

#: The board's sizes and colours, shared by the page and :mod:`kalah.rules.svg`.
BOARD_STYLE = files("kalah.rules") / "board.json"

#: The Host header names a server on loopback answers to by default: a page on
#: another site that points its own name at 127.0.0.1 (DNS rebinding) is refused.
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]")


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
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        executor = make_pool(max(1, workers), pool)
        app.state.service = GameService(library, executor, allow_exec=allow_exec)
        if pool != "thread":  # start the workers now rather than at the first computer move
            await app.state.service.warm_up(max(1, workers))
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

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")

    # --- API

    @app.get("/api/info", response_model=InfoOut, summary="Levels, player types and whether analysis is available")
    async def info() -> dict[str, Any]:
        return service().info()

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
            raise invalid("seconds must be more than 0 and at most 10")
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

    @app.get("/api/board.svg", summary="A position drawn as SVG (the notebook's board, kalah.rules.svg)")
    async def board_svg(board: str, to_move: int = 0) -> Response:
        try:
            position = Position(json.loads(board), to_move)
        except (ValueError, KalahError) as error:
            raise invalid(f"bad board: {error}") from None
        return Response(draw_board(position), media_type="image/svg+xml")

    return app


def _version() -> str:
    from kalah import __version__

    return __version__
