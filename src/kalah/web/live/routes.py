"""The live routes: games between people (HTTP for acting, a WebSocket for news) and the lobby.

Tokens travel in the ``X-Seat-Token`` header, request bodies and the first
message of a push connection, never in a URL, so the server's access log
and the links shown to spectators hold none. A push connection is accepted
only from a page of this server (its Origin names the Host it asked), and
one address holds at most ``LiveLimits.connections`` of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from importlib.resources import files
from typing import Annotated, Any

from fastapi import APIRouter, Header, Request, WebSocket
from fastapi.responses import FileResponse, JSONResponse
from pydantic import ValidationError
from starlette.websockets import WebSocketDisconnect

from kalah.rules import KalahError

from ..guard import deny_socket, socket_same_origin
from ..models import GAME_ID_DIGITS, GameId, MoveIn
from ..service import ApiError
from .hub import Connection
from .lobby import Lobby
from .models import ChallengeIn, ChallengeOut, ClaimIn, LiveOut, NewLiveGame, SeatOut, TakeBackIn
from .seats import seat_of
from .service import LiveService, too_many

router = APIRouter()

#: The header that carries a seat's token.
SeatToken = Annotated[str | None, Header(alias="X-Seat-Token", max_length=100, include_in_schema=True)]
#: Seconds a new push connection has to say who it is.
HELLO_SECONDS = 10.0
#: The largest message a page sends on a push connection (a challenge is a few hundred bytes).
MAX_MESSAGE = 4096
#: Messages a page may send on a push connection: a burst, then so many a second (a page sends a handful in
#: all); a connection that floods the server is closed.
MESSAGE_BURST, MESSAGE_RATE = 20, 2.0

STATIC = files("kalah.web") / "static"


def _live(app: Any) -> LiveService:
    live: LiveService = app.state.live
    return live


def _lobby(app: Any) -> Lobby:
    lobby: Lobby = app.state.lobby
    return lobby


def _address(connection: Request | WebSocket) -> str:
    return connection.client.host if connection.client else "?"


@router.get("/live", include_in_schema=False)
async def live_page() -> FileResponse:
    """The live page (live.html)."""
    return FileResponse(str(STATIC / "live.html"), media_type="text/html")


@router.post(
    "/api/live/games",
    response_model=SeatOut,
    status_code=201,
    summary="Start a game between two people: your seat's token and the invitation to the other",
    responses={429: {"description": "this address started too many games lately"}},
)
async def create_live_game(body: NewLiveGame, request: Request) -> dict[str, Any]:
    """Store a new game between two people; the answer holds the creator's seat token and the invitation."""
    return await _live(request.app).create(body.variant, body.clock, body.seat, _address(request))


@router.post(
    "/api/live/games/{game_id}/claim",
    response_model=SeatOut,
    summary="Take a game's empty seat with its invitation",
    responses={409: {"description": "the seat is taken (the invitation is spent)"}},
)
async def claim_seat(game_id: GameId, body: ClaimIn, request: Request) -> dict[str, Any]:
    """Spend the invitation: the empty seat and a token of its own."""
    return await _live(request.app).claim(game_id, body.invite)


@router.get("/api/live/games/{game_id}", response_model=LiveOut, summary="A game between people, as a watcher sees it")
async def live_game(game_id: GameId, request: Request) -> dict[str, Any]:
    """The game and its live part: seats, presence, clock, result, requests."""
    live = _live(request.app)
    return await live.snapshot(await live.game(game_id))


@router.post(
    "/api/live/games/{game_id}/moves",
    response_model=LiveOut,
    summary="Play your seat's move (X-Seat-Token); stored before the answer",
    responses={
        403: {"description": "not the token of a seat of this game"},
        409: {"description": "not your turn, the game is over or moved on"},
    },
)
async def live_move(game_id: GameId, body: MoveIn, request: Request, token: SeatToken = None) -> dict[str, Any]:
    """Play the move of the seat whose token is in X-Seat-Token."""
    return await _live(request.app).move(game_id, token, body.move, body.moves)


@router.post("/api/live/games/{game_id}/resign", response_model=LiveOut, summary="Give the game up (X-Seat-Token)")
async def resign(game_id: GameId, request: Request, token: SeatToken = None) -> dict[str, Any]:
    """The seat of X-Seat-Token resigns; the other wins."""
    return await _live(request.app).resign(game_id, token)


@router.post(
    "/api/live/games/{game_id}/takeback",
    response_model=LiveOut,
    summary="Ask the opponent to take back your last move, or accept or decline their request",
)
async def take_back(game_id: GameId, body: TakeBackIn, request: Request, token: SeatToken = None) -> dict[str, Any]:
    """Request, accept or decline a take-back."""
    return await _live(request.app).take_back(game_id, token, body.action, body.moves)


@router.post(
    "/api/live/games/{game_id}/rematch",
    response_model=LiveOut,
    summary="Ask for a rematch; when both have, it starts with the seats swapped",
)
async def rematch(game_id: GameId, request: Request, token: SeatToken = None) -> dict[str, Any]:
    """Ask for a rematch (after the game)."""
    return await _live(request.app).rematch(game_id, token)


@router.get("/api/live/challenges", response_model=list[ChallengeOut], summary="The lobby's open challenges")
async def challenges(request: Request) -> list[dict[str, Any]]:
    """The open challenges."""
    return _lobby(request.app).listing()


@router.post(
    "/api/live/challenges/{challenge_id}/accept",
    response_model=SeatOut,
    summary="Accept an open challenge: the game starts; your seat's token",
)
async def accept(challenge_id: str, request: Request) -> dict[str, Any]:
    """Accept a challenge: the game starts, with the acceptor's seat token in the answer."""
    if len(challenge_id) > 40:
        raise ApiError(404, "no such challenge")
    return await _lobby(request.app).accept(challenge_id, _address(request))


# --- push connections ----------------------------------------------------------------------


async def _admit(websocket: WebSocket, live: LiveService) -> bool:
    if not socket_same_origin(websocket.headers):
        await deny_socket(websocket, 403, "a push connection is accepted only from this server's own pages")
        return False
    if live.hub.count(_address(websocket)) >= live.limits.connections:
        await deny_socket(websocket, 429, str(too_many("push connections")))
        return False
    return True


async def _serve(connection: Connection, on_message: Any) -> None:
    """Run a joined connection: write its queue, read its messages, until either side stops."""

    async def read() -> None:
        allowance, last = float(MESSAGE_BURST), time.monotonic()
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):
            while True:
                text = await connection.socket.receive_text()
                now = time.monotonic()
                allowance = min(MESSAGE_BURST, allowance + (now - last) * MESSAGE_RATE) - 1
                last = now
                if len(text) > MAX_MESSAGE or allowance < 0:
                    return
                await on_message(text)

    tasks = [
        asyncio.ensure_future(read()),
        asyncio.ensure_future(connection.write()),
        asyncio.ensure_future(connection.gone.wait()),
    ]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        with contextlib.suppress(Exception):
            await connection.socket.close()


@router.websocket("/api/games/{game_id}/live")
async def game_push(websocket: WebSocket, game_id: GameId) -> None:
    """News of one game: its state after every change, and who is connected. The first message says
    who this is: ``{"token": "..."}`` for a seat, ``{}`` for a watcher."""
    live = _live(websocket.app)
    if not await _admit(websocket, live):
        return
    try:
        game = await live.game(game_id)
    except ApiError as error:
        await deny_socket(websocket, error.status, error.message)
        return
    await websocket.accept()
    connection = Connection(websocket, _address(websocket), f"game:{game_id}")
    live.hub.join(connection)  # counted from now on, before it says who it is
    try:
        try:
            text = await asyncio.wait_for(websocket.receive_text(), HELLO_SECONDS)
            if len(text) > MAX_MESSAGE:  # measured before it is parsed: a large JSON costs memory and time
                return
            hello = json.loads(text)
        except (TimeoutError, WebSocketDisconnect, ValueError, RuntimeError, KeyError):
            return
        token = hello.get("token") if isinstance(hello, dict) else None
        connection.seat = seat_of(game.row, token if isinstance(token, str) else None)
        connection.put({"type": "hello", "seat": connection.seat, **await live.snapshot(game)})
        live.push_presence(game_id)

        async def ignore(text: str) -> None:
            return None

        await _serve(connection, ignore)
    finally:
        live.hub.leave(connection)
        live.push_presence(game_id)


@router.websocket("/api/lobby/live")
async def lobby_push(websocket: WebSocket) -> None:
    """The lobby's open challenges as they change. A page sends ``{"type": "challenge", "variant": ...,
    "clock": ...}`` to offer one, ``{"type": "cancel", "id": ...}``, or ``{"type": "resume", "key": ...}``
    after a reload; it hears ``challenges``, ``offered`` (its challenge's id and key), ``matched`` (its
    challenge was accepted: the game and its seat's token) and ``error``."""
    live = _live(websocket.app)
    lobby = _lobby(websocket.app)
    if not await _admit(websocket, live):
        return
    await websocket.accept()
    connection = Connection(websocket, _address(websocket), "lobby")
    live.hub.join(connection)
    connection.put({"type": "challenges", "challenges": lobby.listing()})

    async def on_message(text: str) -> None:
        try:
            message = json.loads(text)
            kind = message.get("type") if isinstance(message, dict) else None
            if kind == "challenge":
                offer = ChallengeIn.model_validate({k: v for k, v in message.items() if k != "type"})
                challenge = lobby.offer(connection, offer)
                connection.put({"type": "offered", "id": challenge.id, "key": challenge.key})
            elif kind == "cancel" and isinstance(message.get("id"), str):
                lobby.cancel(connection, message["id"])
            elif kind == "resume" and isinstance(message.get("key"), str):
                resumed = lobby.resume(connection, message["key"])
                if resumed is not None:
                    connection.put({"type": "offered", "id": resumed.id, "key": resumed.key})
            else:
                connection.put({"type": "error", "detail": "unknown message"})
        except ApiError as error:
            connection.put({"type": "error", "status": error.status, "detail": error.message})
        except (ValueError, ValidationError, KalahError) as error:
            connection.put({"type": "error", "status": 422, "detail": str(error)[:300]})

    try:
        await _serve(connection, on_message)
    finally:
        live.hub.leave(connection)
        lobby.author_left(connection)


# --- the old routes keep off live games ------------------------------------------------------

_GAME_ACTION = re.compile(rf"^/api/games/({GAME_ID_DIGITS})(?:/(moves|computer-move|takeback|redo|leave))?/?$")


class LiveGuard:
    """ASGI middleware: the routes of games against the computer (moves, take-back, redo, leave,
    delete) refuse a live game with 403, as they know no seats; deleting one is allowed once it ended."""

    def __init__(self, app: Any, live: LiveService) -> None:
        self.app = app
        self.live = live

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["method"] not in ("GET", "HEAD", "OPTIONS"):
            match = _GAME_ACTION.match(scope["path"])
            if match and int(match.group(1)) in self.live.ids and not await self._deletable(scope, match):
                response = JSONResponse(
                    {
                        "detail": f"game {match.group(1)} is played between people: its players"
                        f" move with their seats' tokens (/api/live/games/{match.group(1)}/...)"
                    },
                    status_code=403,
                )
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)

    async def _deletable(self, scope: Any, match: re.Match[str]) -> bool:
        if scope["method"] != "DELETE" or match.group(2):
            return False
        game_id = int(match.group(1))
        with contextlib.suppress(Exception):
            summary = await asyncio.to_thread(self.live.service.library.summary, game_id)
            return summary.status != "playing"
        return False  # not known to have ended (the library busy, say): keep it
