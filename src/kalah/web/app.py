"""The browser board's server: the routes of the JSON API, the page and its static files.

:func:`create_app` builds the FastAPI application over a game library. The
request and response bodies are in :mod:`kalah.web.models`, the work behind
each route in :class:`kalah.web.service.GameService`; a route here only says
which URL does what.
"""

from __future__ import annotations

import json
import math
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.resources import files
from pathlib import Path
from typing import Annotated, Any

from fastapi import Body, FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from starlette.middleware.trustedhost import TrustedHostMiddleware

from kalah.records import GameLibrary
from kalah.rules import KalahError, Position
from kalah.rules.svg import board_svg as draw_board

from .apidocs import PagePolicy, add_redoc
from .enginedata import router as engine_data_router
from .guard import FRAME_POLICY, SameOriginOnly, from_this_machine
from .lab import router as lab_router
from .limits import (
    DEFAULT_GAMES_PER_MINUTE,
    DEFAULT_IMPORTS_PER_MINUTE,
    DEFAULT_MAX_BODY,
    DEFAULT_MAX_LIBRARY_BYTES,
    BodyLimit,
    RateLimit,
    client_key,
    library_bytes,
)
from .live import LiveLimits
from .live import install as install_live
from .memory import QuietCollector
from .models import (
    MAX_ID,
    AnalyseIn,
    AnalysisOut,
    Expected,
    GameAnalysisIn,
    GameId,
    GameState,
    GameSummaryOut,
    InfoOut,
    LeaveIn,
    MctsTraceIn,
    MoveIn,
    NewGame,
    NewGameOut,
    ReplayOut,
    TraceIn,
    validation_error,
)
from .puzzles import router as puzzles_router
from .redact import redact, server_paths
from .review import Reviews
from .review import router as review_router
from .scheduler import Scheduler, client_of, make_slots
from .service import DEFAULT_MOVE_SECONDS, GRACE_SECONDS, ApiError, GameService, invalid

STATIC = files("kalah.web") / "static"

#: The board's sizes and colours, shared by the page and :mod:`kalah.rules.svg`.
BOARD_STYLE = files("kalah.rules") / "board.json"

#: The Host header names a server on loopback answers to by default: a page on
#: another site that points its own name at 127.0.0.1 (DNS rebinding) is refused.
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]")

#: How many steps below the server its engine workers run: requests (a human move) get the CPU first.
ENGINE_NICE = 5


#: What a route that starts engine work answers when the scheduler refuses the job (kalah.web.scheduler).
ENGINE_REFUSALS: dict[int | str, dict[str, Any]] = {
    429: {"description": "this client has its share of engine jobs under way: retry after the Retry-After seconds"},
    503: {"description": "all engines are busy: retry after the Retry-After seconds"},
}

#: Why a client of another machine may not delete a game (without ``allow_delete``).
DELETE_REFUSED = (
    "games are deleted only from the server's own machine (a browser at localhost); whoever started the server"
    " can let every client delete with kalah serve --allow-delete"
)

#: Games per page of GET /api/games unless the client asks for another number, and the most it may ask.
PAGE = 100
MAX_PAGE = 1000


def create_app(
    db_path: str | Path | None = None,
    workers: int = 2,
    pool: str = "process",
    *,
    allow_exec: bool = False,
    allow_delete: bool = False,
    allowed_hosts: list[str] | tuple[str, ...] | None = None,
    move_seconds: float = DEFAULT_MOVE_SECONDS,
    max_body: int = DEFAULT_MAX_BODY,
    busy_timeout: float = 1.0,
    client_jobs: int = 4,
    queued_jobs: int = 256,
    games_per_minute: int = DEFAULT_GAMES_PER_MINUTE,
    imports_per_minute: int = DEFAULT_IMPORTS_PER_MINUTE,
    max_library_bytes: int = DEFAULT_MAX_LIBRARY_BYTES,
    live_limits: LiveLimits | None = None,
) -> FastAPI:
    """The web application over the game library at ``db_path`` (default: the user's library).

    ``workers`` engine workers of kind ``pool`` ("process" or "thread") play
    the computer's moves and run analyses. ``allow_exec`` lets clients name
    players that run programs or read files on this machine (``exec:``,
    ``replay:file=``); without it they are refused with 403 by every route.
    ``allow_delete`` lets every client delete games; without it only a
    client on this machine may (:func:`kalah.web.guard.from_this_machine`),
    so that a server open to a class keeps its library (others get 403).
    ``allowed_hosts``: the names the Host header may carry (default the
    loopback names; ``"*"`` accepts any). Limits: ``move_seconds`` of engine
    time per job whatever the player's spec asks; engine jobs shared fairly
    between clients (kalah.web.scheduler), each client with at most
    ``client_jobs`` queued or running (then 429 with Retry-After) and
    ``queued_jobs`` waiting in all (then 503); request bodies of ``max_body``
    bytes (413), ``busy_timeout`` seconds of waiting for a library locked by
    another program (then 503), ``games_per_minute`` new games and
    ``imports_per_minute`` imported records per client address (then 429 with
    Retry-After), and no new game or import once the library holds
    ``max_library_bytes`` (507). Requests from pages of other websites are
    refused (403, :mod:`kalah.web.guard`). ``live_limits``: what one
    address may hold of games between people (:mod:`kalah.web.live`).
    """
    library = GameLibrary(db_path, busy_timeout=busy_timeout)
    workers = max(1, workers)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engines = Scheduler(
            make_slots(workers, pool, nice=ENGINE_NICE),
            run_seconds=move_seconds + GRACE_SECONDS,
            per_client=client_jobs,
            max_queued=queued_jobs,
        )
        app.state.service = GameService(library, engines, allow_exec=allow_exec, move_seconds=move_seconds)
        collector = QuietCollector()
        try:
            await app.state.live.restore()  # the clocks of live games run on: their flags fall on time
            await app.state.service.warm_up()  # start the workers now rather than at the first computer move
            collector.settle()  # what lives now lives as long as the server: no full collection walks it
            yield
        finally:
            collector.restore()
            await app.state.reviews.stop()  # before the workers go: no review waits on a dead engine
            engines.stop()
            # This thread's connection, now rather than when the garbage collector gets to it (a sqlite3
            # connection is in a reference cycle with its statement cache): SQLite removes the -wal and -shm
            # files as the last connection closes.
            library.close()

    app = FastAPIOffline(
        title="Kalah board",
        summary="Play, watch, analyse and replay Kalah; every game is kept in the local game library.",
        version=_version(),
        lifespan=lifespan,
        redoc_url=None,  # added by add_redoc: its script asks no CDN for a logo
    )
    add_redoc(app)
    app.state.library = library
    app.state.reviews = Reviews()  # reviews under way (kalah.web.review)
    private = server_paths(library.path)
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts or LOOPBACK_HOSTS))
    app.add_middleware(BodyLimit, max_bytes=max_body)
    app.add_middleware(SameOriginOnly)  # outermost but for the one below: its 403 and frame headers come first

    # The API documentation pages are drawn by scripts bundled with fastapi-offline; the policy
    # keeps their browsers from fetching anything else (ReDoc's footer asks a CDN for its logo).
    app.add_middleware(
        PagePolicy,
        paths=("/docs", "/redoc"),
        policy="default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline';"
        f" img-src 'self' data:; worker-src 'self' blob:; font-src 'self' data:; {FRAME_POLICY}",
    )

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, error: ApiError) -> JSONResponse:
        message = redact(error.message, private)  # the server's paths stay on the server
        return JSONResponse({"detail": message}, status_code=error.status, headers=error.headers)

    app.add_exception_handler(RequestValidationError, validation_error)  # type: ignore[arg-type]

    @app.exception_handler(RecursionError)
    async def _too_deep(request: Request, error: RecursionError) -> JSONResponse:
        return JSONResponse({"detail": "the request is nested too deeply"}, status_code=422)

    games_rate, imports_rate = RateLimit(games_per_minute), RateLimit(imports_per_minute)

    def may_grow(request: Request, rate: RateLimit, what: str) -> None:
        """Refuse a new game or import when the library is full (507) or the client too quick (429)."""
        size = library_bytes(library.path)
        if size >= max_library_bytes:
            raise ApiError(
                507,
                f"the game library is full ({size // 2**20} MB of {max_library_bytes // 2**20} MB):"
                " delete games, or start the server with a larger --max-library-mb",
            )
        wait = rate.take(client_key(request.client.host) if request.client else "")
        if wait > 0:
            seconds = max(1, math.ceil(wait))
            raise ApiError(
                429,
                f"too many {what} from this address (at most {rate.capacity:g} a minute); try again in {seconds} s",
                {"Retry-After": str(seconds)},
            )

    def may_delete(request: Request) -> bool:
        """Whether the client of ``request`` may delete games (the page shows a Delete button to those only)."""
        return allow_delete or from_this_machine(request.client.host if request.client else None, request.headers)

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
    app.include_router(review_router)  # reviews of games (kalah.web.review)
    app.include_router(puzzles_router)  # the puzzle trainer's list (kalah.web.puzzles)
    app.include_router(engine_data_router)  # the opening books of the engine in the page (kalah.web.enginedata)
    install_live(app, live_limits, busy_timeout)  # games between people, the lobby (kalah.web.live)

    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")

    # --- API

    @app.get("/api/info", response_model=InfoOut, summary="Levels, player types and whether analysis is available")
    async def info(http: Request) -> InfoOut:
        return service().info(can_delete=may_delete(http))

    @app.get(
        "/api/games",
        response_model=list[GameSummaryOut],
        summary="The game library, newest first, a page at a time (the next page: the Link header)",
    )
    async def list_games(
        response: Response,
        limit: Annotated[int, Query(ge=1, le=MAX_PAGE, description="games per page")] = PAGE,
        before: Annotated[
            int | None,
            Query(ge=1, le=MAX_ID, description="only games with smaller ids: the last id of the previous page"),
        ] = None,
    ) -> list[GameSummaryOut]:
        games = await service().games(limit, before)
        if len(games) == limit:
            response.headers["Link"] = f'</api/games?limit={limit}&before={games[-1].id}>; rel="next"'
        return games

    @app.post(
        "/api/games",
        response_model=NewGameOut,
        status_code=201,
        summary="Start (and store) a new game",
        responses={
            429: {"description": "this address started too many games this minute: see Retry-After"},
            507: {"description": "the game library is full"},
        },
    )
    async def new_game(request: NewGame, http: Request) -> NewGameOut:
        if not request.preview:
            may_grow(http, games_rate, "new games")
        return await service().create(request)

    @app.get("/api/games/{game_id}", response_model=GameState, summary="A game's current state")
    async def get_game(game_id: GameId) -> GameState:
        return await service().state(game_id)

    @app.post(
        "/api/games/{game_id}/moves",
        response_model=GameState,
        summary="Play a human move, or the computer's as the page's engine chose it (stored before the answer)",
        responses={
            409: {"description": "not a human's turn (a computer's, with computer), or the game is over"},
            422: {"description": "illegal move"},
            404: {"description": "no such game"},
        },
    )
    async def play_move(game_id: GameId, request: MoveIn) -> GameState:
        return await service().human_move(game_id, request.move, request.moves, request.computer)

    @app.post(
        "/api/games/{game_id}/computer-move",
        response_model=GameState,
        summary="Let the computer player to move choose and play its move",
        responses={
            409: {"description": "not a computer's turn, the game is over or moved on"},
            **ENGINE_REFUSALS,
        },
    )
    async def computer_move(game_id: GameId, request: Expected, http: Request) -> GameState:
        return await service().computer_move(game_id, request.moves, client_of(http))

    @app.post(
        "/api/games/{game_id}/takeback",
        response_model=GameState,
        summary="Take back the last human move (and the computer's answers to it)",
    )
    async def take_back(game_id: GameId, request: Expected) -> GameState:
        return await service().take_back(game_id, request.moves)

    @app.post("/api/games/{game_id}/redo", response_model=GameState, summary="Replay what the last take-back removed")
    async def redo(game_id: GameId, request: Expected) -> GameState:
        return await service().redo(game_id, request.moves)

    @app.post(
        "/api/games/{game_id}/leave",
        response_model=GameState,
        summary="The page leaves the game: deleted if its creator leaves before the first move,"
        " marked unfinished if computers play it",
    )
    async def leave(game_id: GameId, request: Annotated[LeaveIn | None, Body()] = None) -> GameState:
        return await service().leave(game_id, request.token if request else None)

    @app.delete(
        "/api/games/{game_id}",
        status_code=204,
        summary="Delete a game and its moves from the library (from the server's own machine)",
        responses={403: {"description": "a client of another machine (kalah serve --allow-delete allows it)"}},
    )
    async def delete_game(game_id: GameId, http: Request) -> Response:
        if not may_delete(http):
            raise ApiError(403, DELETE_REFUSED)
        await service().delete(game_id)
        app.state.reviews.cancel(game_id)  # a review of a deleted game would use engines for nobody
        return Response(status_code=204)

    @app.get("/api/games/{game_id}/record", summary="The game as a JSON game record")
    async def record(game_id: GameId, download: bool = False) -> Response:
        data = await service().record(game_id)
        headers = {"Content-Disposition": f'attachment; filename="kalah-game-{game_id}.json"'} if download else {}
        return Response(data, media_type="application/json", headers=headers)

    @app.get(
        "/api/games/{game_id}/replay",
        response_model=ReplayOut,
        summary="Every position of a game with what each move did, for replaying",
    )
    async def replay(game_id: GameId) -> ReplayOut:
        return await service().replay(game_id)

    # Analyses answer with the fields that are set: best_moves only when the solver found them (AnalysisOut).
    @app.post(
        "/api/games/{game_id}/analysis",
        response_model=AnalysisOut,
        response_model_exclude_unset=True,
        summary="Values of the legal moves and the best line in a game's position",
    )
    async def game_analysis(game_id: GameId, request: GameAnalysisIn, http: Request) -> AnalysisOut:
        return await service().analyse_game(game_id, request.seconds, client_of(http))

    @app.post(
        "/api/records",
        response_model=GameState,
        status_code=201,
        summary="Import a JSON game record",
        responses={
            429: {"description": "this address imported too many records this minute: see Retry-After"},
            507: {"description": "the game library is full"},
        },
    )
    async def import_record(
        http: Request, record: dict[str, Any] = Body(..., description="a kalah-game record, version 1")
    ) -> GameState:
        may_grow(http, imports_rate, "imported records")
        return await service().import_record(record)

    @app.post(
        "/api/analyse",
        response_model=AnalysisOut,
        response_model_exclude_unset=True,
        summary="Values of the legal moves and the best line in any position",
    )
    async def analyse_position(request: AnalyseIn, http: Request) -> AnalysisOut:
        try:
            position = Position.from_dict(request.position)
        except KalahError as error:
            raise invalid(str(error)) from None
        return await service().analyse(position, request.seconds, client_of(http))

    @app.post(
        "/api/trace",
        summary="Every node of a search, in visiting order (kalah.trace; format kalah-trace/1)",
        responses={
            422: {"description": "a bad position, algorithm, option or depth, or too many nodes"},
            **ENGINE_REFUSALS,
        },
    )
    async def trace(request: TraceIn, http: Request) -> dict[str, Any]:
        return await service().trace(request, client_of(http))

    @app.post(
        "/api/trace/mcts",
        summary="UCT iteration by iteration (format kalah-mcts-trace/1) beside alpha-beta",
        responses={
            422: {"description": "a bad position, playouts, seed or depth"},
            **ENGINE_REFUSALS,
        },
    )
    async def trace_mcts(request: MctsTraceIn, http: Request) -> dict[str, Any]:
        return await service().mcts_trace(request, client_of(http))

    @app.get("/api/board.svg", summary="A position drawn as SVG (the notebook's board, kalah.rules.svg)")
    async def board_svg(
        board: Annotated[str, Query(max_length=2000)], to_move: Annotated[int, Query(ge=0, le=1)] = 0
    ) -> Response:
        try:
            position = Position.from_dict({"board": json.loads(board), "to_move": to_move})  # pits by its rows
        except (ValueError, TypeError, RecursionError, KalahError) as error:
            raise invalid(f"bad board: {error}") from None
        return Response(draw_board(position), media_type="image/svg+xml")

    return app


def _version() -> str:
    from kalah.version import __version__

    return __version__
