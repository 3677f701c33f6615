"""The JSON API of games against the computer, the library and analysis: which URL does what.

The work behind each route is :class:`~kalah.web.service.GameService`'s; a
route here names its request and response models (they document the API at
``/docs``) and takes what it needs as dependencies: the service, the
server's settings, the client's key (:mod:`kalah.web.clients`).
"""

from __future__ import annotations

import json
import math
from typing import Annotated, Any

from fastapi import APIRouter, Body, Query, Request
from fastapi.responses import Response

from kalah.rules import KalahError, Position
from kalah.rules.svg import board_svg as draw_board

from .clients import client_of
from .dependencies import Client, Service, server_settings
from .errors import ApiError, in_thread, invalid
from .guard import from_this_machine
from .limits import RateLimit
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
)
from .service import GameService

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


def may_delete(request: Request) -> bool:
    """Whether the client of ``request`` may delete games (the page shows a Delete button to those only)."""
    return server_settings(request).allow_delete or from_this_machine(
        request.client.host if request.client else None, request.headers
    )


async def _may_grow(request: Request, service: GameService, rate: RateLimit, what: str) -> None:
    """Refuse a new game or import when the client is too quick (429) or the library full (507)."""
    wait = rate.take(client_of(request))
    if wait > 0:
        seconds = max(1, math.ceil(wait))
        raise ApiError(
            429,
            f"too many {what} from this address (at most {rate.capacity:g} a minute); try again in {seconds} s",
            {"Retry-After": str(seconds)},
        )
    await in_thread(service.check_room)


async def new_games_allowed(request: Request, service: Service) -> None:
    """A client may store a new game now (429, 507)."""
    await _may_grow(request, service, request.app.state.games_rate, "new games")


async def imports_allowed(request: Request, service: Service) -> None:
    """A client may import a record now (429, 507)."""
    await _may_grow(request, service, request.app.state.imports_rate, "imported records")


router = APIRouter()


@router.get("/api/info", response_model=InfoOut, summary="Levels, player types and whether analysis is available")
async def info(request: Request, service: Service) -> InfoOut:
    """The levels, player types, and whether this client may delete games."""
    return service.info(can_delete=may_delete(request))


@router.get(
    "/api/games",
    response_model=list[GameSummaryOut],
    summary="The game library, newest first, a page at a time (the next page: the Link header)",
)
async def list_games(
    response: Response,
    service: Service,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE, description="games per page")] = PAGE,
    before: Annotated[
        int | None,
        Query(ge=1, le=MAX_ID, description="only games with smaller ids: the last id of the previous page"),
    ] = None,
) -> list[GameSummaryOut]:
    """A page of the library, newest first."""
    games = await service.games(limit, before)
    if len(games) == limit:
        response.headers["Link"] = f'</api/games?limit={limit}&before={games[-1].id}>; rel="next"'
    return games


@router.post(
    "/api/games",
    response_model=NewGameOut,
    status_code=201,
    summary="Start (and store) a new game",
    responses={
        429: {"description": "this address started too many games this minute: see Retry-After"},
        507: {"description": "the game library is full"},
    },
)
async def new_game(body: NewGame, request: Request, service: Service) -> NewGameOut:
    """A new game (stored unless ``preview``), with the secret that lets its page delete it by leaving it."""
    if not body.preview:
        await new_games_allowed(request, service)
    return await service.create(body)


@router.get("/api/games/{game_id}", response_model=GameState, summary="A game's current state")
async def get_game(game_id: GameId, service: Service) -> GameState:
    """The game as the page shows it."""
    return await service.state(game_id)


@router.post(
    "/api/games/{game_id}/moves",
    response_model=GameState,
    summary="Play a human move, or the computer's as the page's engine chose it (stored before the answer)",
    responses={
        403: {"description": "a game between people (its players move at /api/live/games/ID/moves)"},
        409: {"description": "not a human's turn (a computer's, with computer), or the game is over"},
        422: {"description": "illegal move"},
        404: {"description": "no such game"},
    },
)
async def play_move(game_id: GameId, body: MoveIn, service: Service) -> GameState:
    """A person's move, or with ``computer`` the computer's as the engine in the page chose it, checked against
    the move count the page saw."""
    return await service.human_move(game_id, body.move, body.moves, body.computer)


@router.post(
    "/api/games/{game_id}/computer-move",
    response_model=GameState,
    summary="Let the computer player to move choose and play its move",
    responses={
        409: {"description": "not a computer's turn, the game is over or moved on"},
        **ENGINE_REFUSALS,
    },
)
async def computer_move(game_id: GameId, body: Expected, service: Service, client: Client) -> GameState:
    """The computer to move chooses in an engine worker, at its turn among the clients."""
    return await service.computer_move(game_id, body.moves, client)


@router.post(
    "/api/games/{game_id}/takeback",
    response_model=GameState,
    summary="Take back the last human move (and the computer's answers to it)",
)
async def take_back(game_id: GameId, body: Expected, service: Service) -> GameState:
    """Back to before the last person's move; the moves go on the game's redo stack."""
    return await service.take_back(game_id, body.moves)


@router.post("/api/games/{game_id}/redo", response_model=GameState, summary="Replay what the last take-back removed")
async def redo(game_id: GameId, body: Expected, service: Service) -> GameState:
    """The moves the last take-back removed, played again."""
    return await service.redo(game_id, body.moves)


@router.post(
    "/api/games/{game_id}/leave",
    response_model=GameState,
    summary="The page leaves the game: deleted if its creator leaves before the first move,"
    " marked unfinished if computers play it",
)
async def leave(game_id: GameId, service: Service, body: Annotated[LeaveIn | None, Body()] = None) -> GameState:
    """The page left the game (deleted when its creator leaves it unstarted, with the secret)."""
    return await service.leave(game_id, body.token if body else None)


@router.delete(
    "/api/games/{game_id}",
    status_code=204,
    summary="Delete a game and its moves from the library (from the server's own machine)",
    responses={403: {"description": "a client of another machine (kalah serve --allow-delete allows it)"}},
)
async def delete_game(game_id: GameId, request: Request, service: Service) -> Response:
    """Delete the game, from the server's own machine (or any, with --allow-delete)."""
    if not may_delete(request):
        raise ApiError(403, DELETE_REFUSED)
    await service.delete(game_id)
    request.app.state.reviews.cancel(game_id)  # a review of a deleted game would use engines for nobody
    return Response(status_code=204)


@router.get("/api/games/{game_id}/record", summary="The game as a JSON game record")
async def record(game_id: GameId, service: Service, download: bool = False) -> Response:
    """The game's JSON record (``download``: as a file)."""
    data = await service.record(game_id)
    headers = {"Content-Disposition": f'attachment; filename="kalah-game-{game_id}.json"'} if download else {}
    return Response(data, media_type="application/json", headers=headers)


@router.get(
    "/api/games/{game_id}/replay",
    response_model=ReplayOut,
    summary="Every position of a game with what each move did, for replaying",
)
async def replay(game_id: GameId, service: Service) -> ReplayOut:
    """Every position of the game and what each move did."""
    return await service.replay(game_id)


# Analyses answer with the fields that are set: best_moves only when the solver found them (AnalysisOut).
@router.post(
    "/api/games/{game_id}/analysis",
    response_model=AnalysisOut,
    response_model_exclude_unset=True,
    summary="Values of the legal moves and the best line in a game's position",
    responses={409: {"description": "a game between people still being played: analysed once it is over"}},
)
async def game_analysis(game_id: GameId, body: GameAnalysisIn, service: Service, client: Client) -> AnalysisOut:
    """The values of the legal moves in the game's position (not while people play it)."""
    return await service.analyse_game(game_id, body.seconds, client)


@router.post(
    "/api/records",
    response_model=GameState,
    status_code=201,
    summary="Import a JSON game record",
    responses={
        422: {"description": "not JSON, or not a valid game record"},
        429: {"description": "this address imported too many records this minute: see Retry-After"},
        507: {"description": "the game library is full"},
    },
    openapi_extra={
        "requestBody": {
            "required": True,
            "description": "a kalah-game record, version 1",
            "content": {"application/json": {"schema": {"type": "object"}}},
        }
    },
)
async def import_record(request: Request, service: Service) -> GameState:
    """A JSON game record stored as a new game."""
    await imports_allowed(request, service)
    # read here, parsed and checked off the event loop: a record of a megabyte holds the loop for a while
    return await service.import_record(await request.body())


@router.post(
    "/api/analyse",
    response_model=AnalysisOut,
    response_model_exclude_unset=True,
    summary="Values of the legal moves and the best line in any position",
)
async def analyse_position(body: AnalyseIn, service: Service, client: Client) -> AnalysisOut:
    """The values of the legal moves in any position."""
    try:
        position = Position.from_dict(body.position)
    except KalahError as error:
        raise invalid(str(error)) from None
    return await service.analyse(position, body.seconds, client)


@router.post(
    "/api/trace",
    summary="Every node of a search, in visiting order (kalah.trace; format kalah-trace/1)",
    responses={
        422: {"description": "a bad position, algorithm, option or depth, or too many nodes"},
        **ENGINE_REFUSALS,
    },
)
async def trace(body: TraceIn, service: Service, client: Client) -> Response:
    """A traced search (kalah-trace/1), encoded in the worker that made it."""
    return Response(await service.trace(body, client), media_type="application/json")


@router.post(
    "/api/trace/mcts",
    summary="UCT iteration by iteration (format kalah-mcts-trace/1) beside alpha-beta",
    responses={
        422: {"description": "a bad position, playouts, seed or depth"},
        **ENGINE_REFUSALS,
    },
)
async def trace_mcts(body: MctsTraceIn, service: Service, client: Client) -> Response:
    """Traced UCT beside alpha-beta (kalah-mcts-trace/1)."""
    return Response(await service.mcts_trace(body, client), media_type="application/json")


@router.get("/api/board.svg", summary="A position drawn as SVG (the notebook's board, kalah.rules.svg)")
async def board_svg(
    board: Annotated[str, Query(max_length=2000)], to_move: Annotated[int, Query(ge=0, le=1)] = 0
) -> Response:
    """A position drawn as SVG."""
    try:
        position = Position.from_dict({"board": json.loads(board), "to_move": to_move})  # pits by its rows
    except (ValueError, TypeError, RecursionError, KalahError) as error:
        raise invalid(f"bad board: {error}") from None
    return Response(draw_board(position), media_type="image/svg+xml")
