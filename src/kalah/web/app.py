"""The browser board's server: the application, its middleware, and the life of a server process.

:func:`create_app` builds the FastAPI application over a game library (a
SQLite file or a PostgreSQL database). The routes are routers of their own
(:mod:`.routes`, :mod:`.lab`, :mod:`.review`, :mod:`.puzzles`,
:mod:`kalah.web.live`); the request and response bodies are in
:mod:`.models`, the work behind each route in
:class:`kalah.web.service.GameService`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import fields, replace
from importlib.resources import files
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from pydantic import TypeAdapter
from starlette.middleware.trustedhost import TrustedHostMiddleware

from kalah.records import GameLibrary
from kalah.records.claim import ServerClaim, claim_library, describe_holder

from . import live
from .apidocs import PagePolicy, add_redoc
from .compress import CompressPublic
from .enginedata import router as engine_data_router
from .errors import ApiError
from .guard import FRAME_POLICY, SameOriginOnly
from .lab import TreeIn
from .lab import router as lab_router
from .limits import BodyLimit, RateLimit
from .live.models import ClientMessage, ServerMessage
from .memory import QuietCollector
from .models import validation_error
from .pages import page
from .puzzles import router as puzzles_router
from .redact import redact, server_paths
from .review import Reviews
from .review import router as review_router
from .routes import router as game_router
from .scheduler import Scheduler, make_slots
from .service import GRACE_SECONDS, GameService
from .settings import LOOPBACK_HOSTS, ServerSettings

STATIC = files("kalah.web") / "static"

#: The board's sizes and colours, shared by the page and :mod:`kalah.rules.svg`.
BOARD_STYLE = files("kalah.rules") / "board.json"

#: How many steps below the server its engine workers run: requests (a human move) get the CPU first.
ENGINE_NICE = 5

__all__ = ["LOOPBACK_HOSTS", "ServerSettings", "create_app"]


def create_app(db_path: str | Path | None = None, settings: ServerSettings | None = None, **options: Any) -> FastAPI:
    """The web application over the game library at ``db_path`` (a path, ``postgresql://...``; default: the
    user's library), with ``settings`` (:class:`ServerSettings`), or the defaults changed by ``options``
    (each a field of ServerSettings: ``workers=1, pool="thread"``).

    Requests from pages of other websites are refused (403, :mod:`kalah.web.guard`); every limit of the
    settings is answered with its status (413, 429, 503, 507).
    """
    known = {field.name for field in fields(ServerSettings)}
    unknown = sorted(set(options) - known)
    if unknown:
        raise TypeError(f"create_app() got unknown settings {', '.join(unknown)}")
    if "allowed_hosts" in options and options["allowed_hosts"] is not None:
        options["allowed_hosts"] = tuple(options["allowed_hosts"])
    options = {key: value for key, value in options.items() if value is not None}
    settings = replace(settings or ServerSettings(), **options)
    library = GameLibrary(db_path, busy_timeout=settings.busy_timeout)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        claim = (
            claim_library(library.database, "board server", describe_holder("kalah serve"))
            if settings.claim
            else ServerClaim()
        )
        engines = Scheduler(
            make_slots(max(1, settings.workers), settings.pool, nice=ENGINE_NICE),
            run_seconds=settings.move_seconds + GRACE_SECONDS,
            per_client=settings.client_jobs,
            max_queued=settings.queued_jobs,
        )
        app.state.service = GameService(
            library,
            engines,
            allow_exec=settings.allow_exec,
            move_seconds=settings.move_seconds,
            max_library_bytes=settings.max_library_bytes,
        )
        collector = QuietCollector()
        try:
            await live.start(app)  # the clocks of live games run on: their flags fall on time
            await app.state.service.warm_up()  # start the workers now rather than at the first computer move
            collector.settle()  # what lives now lives as long as the server: no full collection walks it
            yield
        finally:
            collector.restore()
            await live.stop(app)
            await app.state.reviews.stop()  # before the workers go: no review waits on a dead engine
            engines.stop()
            # This thread's connection, now rather than when the garbage collector gets to it (a sqlite3
            # connection is in a reference cycle with its statement cache): SQLite removes the -wal and -shm
            # files as the last connection closes.
            library.close()
            claim.release()

    app = FastAPIOffline(
        title="Kalah board",
        summary="Play, watch, analyse and replay Kalah; every game is kept in the game library.",
        version=_version(),
        lifespan=lifespan,
        redoc_url=None,  # added by add_redoc: its script asks no CDN for a logo
    )
    add_redoc(app)
    app.state.settings = settings
    app.state.library = library
    app.state.reviews = Reviews()  # reviews under way (kalah.web.review)
    app.state.games_rate = RateLimit(settings.games_per_minute)
    app.state.imports_rate = RateLimit(settings.imports_per_minute)
    private = server_paths(library.path, library.where)
    app.add_middleware(CompressPublic)  # innermost: the pages' files and the puzzles, gzipped (compress.py)
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(settings.allowed_hosts))
    app.add_middleware(BodyLimit, max_bytes=settings.max_body)
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

    @app.get("/", include_in_schema=False)
    async def index() -> HTMLResponse:
        return page("index.html")

    @app.get("/static/board.json", include_in_schema=False)
    async def board_style() -> FileResponse:
        return FileResponse(str(BOARD_STYLE), media_type="application/json")

    app.include_router(game_router)  # games, the library, analysis (kalah.web.routes)
    app.include_router(lab_router)  # the /lab page and its API (kalah.web.lab)
    app.include_router(review_router)  # reviews of games (kalah.web.review)
    app.include_router(puzzles_router)  # the puzzle trainer's list (kalah.web.puzzles)
    app.include_router(engine_data_router)  # the opening books of the engine in the page (kalah.web.enginedata)
    live.install(app, settings.live_limits)  # games between people, the lobby (kalah.web.live)
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    _document_push_messages(app)
    return app


def _document_push_messages(app: FastAPI) -> None:
    """Put the WebSockets' messages (``ServerMessage``, ``ClientMessage``) among the schemas of
    ``/openapi.json``, which knows no WebSockets, and the lab tree's body, which its route reads itself."""
    plain = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = plain()
            components = schema.setdefault("components", {}).setdefault("schemas", {})
            template = "#/components/schemas/{model}"
            # unions and a model together: Any, since no one type form covers both
            models: tuple[tuple[str, Any], ...] = (
                ("ServerMessage", ServerMessage),
                ("ClientMessage", ClientMessage),
                ("TreeIn", TreeIn),
            )
            for name, kind in models:
                found = TypeAdapter(kind).json_schema(ref_template=template)
                components.update(found.pop("$defs", {}))
                components[name] = found
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def _version() -> str:
    from kalah.version import __version__

    return __version__
