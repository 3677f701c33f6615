"""The live routes: games between people (HTTP for acting, a WebSocket for news) and the lobby.

Tokens travel in the ``X-Seat-Token`` header, request bodies and the first
message of a push connection, never in a URL, so the server's access log
and the links shown to spectators hold none. A push connection is accepted
only from a page of this server (its Origin names the Host it asked), and
one address holds at most ``LiveLimits.connections`` of them. Every message
either way is a model of :mod:`.models` (``ServerMessage``,
``ClientMessage``, in ``/openapi.json``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Awaitable, Callable
from typing import Annotated

from fastapi import APIRouter, Depends, Header, WebSocket
from fastapi.responses import HTMLResponse
from pydantic import ValidationError
from starlette.requests import HTTPConnection
from starlette.websockets import WebSocketDisconnect

from kalah.rules import KalahError

from ..clients import client_of
from ..errors import ApiError, too_many
from ..guard import deny_socket, socket_same_origin
from ..models import GameId, MoveIn
from ..pages import page
from .hub import PushConnection
from .lobby import Lobby
from .models import (
    CLIENT_MESSAGE,
    AcceptIn,
    CancelMessage,
    ChallengeMessage,
    ChallengeOut,
    ChallengesMessage,
    ClaimIn,
    ErrorMessage,
    HelloIn,
    LiveOut,
    NameIn,
    NewLiveGame,
    ResumeMessage,
    SeatOut,
    TakeBackIn,
)
from .service import LiveService

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


def live_service(connection: HTTPConnection) -> LiveService:
    """The app's live games (made with the app, started with the server)."""
    live: LiveService = connection.app.state.live
    return live


def lobby_of(connection: HTTPConnection) -> Lobby:
    """The app's lobby."""
    lobby: Lobby = connection.app.state.lobby
    return lobby


Live = Annotated[LiveService, Depends(live_service)]
TheLobby = Annotated[Lobby, Depends(lobby_of)]
Client = Annotated[str, Depends(client_of)]


@router.get("/live", include_in_schema=False)
async def live_page() -> HTMLResponse:
    """The live page (live.html)."""
    return page("live.html")


@router.post(
    "/api/live/games",
    response_model=SeatOut,
    status_code=201,
    summary="Start a game between two people: your seat's token and the invitation to the other",
    responses={
        429: {"description": "this address started too many games lately"},
        507: {"description": "the game library is full"},
    },
)
async def create_live_game(body: NewLiveGame, live: Live, client: Client) -> SeatOut:
    """Store a new game between two people; the answer holds the creator's seat token and the invitation."""
    return await live.create(body.variant, body.clock, body.seat, client, body.name)


@router.post(
    "/api/live/games/{game_id}/claim",
    response_model=SeatOut,
    summary="Take a game's empty seat with its invitation",
    responses={409: {"description": "the seat is taken (the invitation is spent)"}},
)
async def claim_seat(game_id: GameId, body: ClaimIn, live: Live) -> SeatOut:
    """Spend the invitation: the empty seat and a token of its own."""
    return await live.claim(game_id, body)


@router.get("/api/live/games/{game_id}", response_model=LiveOut, summary="A game between people, as a watcher sees it")
async def live_game(game_id: GameId, live: Live) -> LiveOut:
    """The game and its live part: seats, presence, clock, result, requests."""
    return await live.snapshot(game_id)


@router.post(
    "/api/live/games/{game_id}/moves",
    response_model=LiveOut,
    summary="Play your seat's move (X-Seat-Token); stored before the answer",
    responses={
        403: {"description": "not the token of a seat of this game"},
        409: {"description": "not your turn, the game is over or moved on"},
    },
)
async def live_move(game_id: GameId, body: MoveIn, live: Live, token: SeatToken = None) -> LiveOut:
    """Play the move of the seat whose token is in X-Seat-Token."""
    return await live.move(game_id, token, body.move, body.moves)


@router.post(
    "/api/live/games/{game_id}/name",
    response_model=LiveOut,
    summary="Give your name (X-Seat-Token), before the game ends",
    responses={403: {"description": "not the token of a seat of this game"}, 409: {"description": "the game is over"}},
)
async def give_name(game_id: GameId, body: NameIn, live: Live, token: SeatToken = None) -> LiveOut:
    """The seat of X-Seat-Token is named ``name`` (shown on both screens, to watchers and in the library)."""
    return await live.name(game_id, token, body.name)


@router.post("/api/live/games/{game_id}/resign", response_model=LiveOut, summary="Give the game up (X-Seat-Token)")
async def resign(game_id: GameId, live: Live, token: SeatToken = None) -> LiveOut:
    """The seat of X-Seat-Token resigns; the other wins."""
    return await live.resign(game_id, token)


@router.post(
    "/api/live/games/{game_id}/takeback",
    response_model=LiveOut,
    summary="Ask the opponent to take back your last move, or accept or decline their request",
)
async def take_back(game_id: GameId, body: TakeBackIn, live: Live, token: SeatToken = None) -> LiveOut:
    """Request, accept or decline a take-back."""
    return await live.take_back(game_id, token, body.action, body.moves)


@router.post(
    "/api/live/games/{game_id}/rematch",
    response_model=LiveOut,
    summary="Ask for a rematch; when both have, it starts with the seats swapped",
    responses={429: {"description": "the one who asked last started too many games lately"}},
)
async def rematch(game_id: GameId, live: Live, client: Client, token: SeatToken = None) -> LiveOut:
    """Ask for a rematch (after the game)."""
    return await live.rematch(game_id, token, client)


@router.get("/api/live/challenges", response_model=list[ChallengeOut], summary="The lobby's open challenges")
async def challenges(lobby: TheLobby) -> list[ChallengeOut]:
    """The open challenges."""
    return await lobby.listing()


@router.post(
    "/api/live/challenges/{challenge_id}/accept",
    response_model=SeatOut,
    summary="Accept an open challenge: the game starts; your seat's token",
)
async def accept(challenge_id: str, lobby: TheLobby, client: Client, body: AcceptIn | None = None) -> SeatOut:
    """Accept a challenge (with the acceptor's name, if given): the game starts, with the acceptor's seat
    token in the answer."""
    return await lobby.accept(challenge_id, client, body.name if body is not None else "")


# --- push connections ----------------------------------------------------------------------


async def _admit(websocket: WebSocket, live: LiveService) -> bool:
    if not socket_same_origin(websocket.headers):
        await deny_socket(websocket, 403, "a push connection is accepted only from this server's own pages")
        return False
    if live.hub.count(client_of(websocket)) >= live.limits.connections:
        await deny_socket(websocket, 429, str(too_many("push connections")))
        return False
    return True


async def _serve(connection: PushConnection, on_message: Callable[[str], Awaitable[None]]) -> None:
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
    who this is (``HelloIn``): ``{"token": "..."}`` for a seat, ``{}`` for a watcher."""
    live = live_service(websocket)
    if not await _admit(websocket, live):
        return
    try:
        view = await live.view(game_id)
    except ApiError as error:
        await deny_socket(websocket, error.status, error.message)
        return
    await websocket.accept()
    connection = PushConnection(websocket, client_of(websocket), f"game:{game_id}")
    live.hub.join(connection)  # counted from now on, before it says who it is
    try:
        try:
            text = await asyncio.wait_for(websocket.receive_text(), HELLO_SECONDS)
            if len(text) > MAX_MESSAGE:  # measured before it is parsed: a large JSON costs memory and time
                return
            hello = HelloIn.model_validate_json(text)
        except (TimeoutError, WebSocketDisconnect, ValueError, RuntimeError):
            return
        connection.seat = live.seat_of(view.row, hello.token)
        # read again now that the page is joined: a change between the first read and the join reaches it
        # either in this greeting or by push, never in neither
        try:
            view = await live.view(game_id)
        except ApiError:
            return
        live.hello(connection, view)
        live.connections_changed(game_id)

        async def ignore(text: str) -> None:
            return None

        await _serve(connection, ignore)
    finally:
        live.hub.leave(connection)
        live.connections_changed(game_id)


@router.websocket("/api/lobby/live")
async def lobby_push(websocket: WebSocket) -> None:
    """The lobby's open challenges as they change. A page sends ``ClientMessage``s: ``challenge`` (a
    variant and a clock) to offer one, ``cancel`` with its id, or ``resume`` with its key after a reload; it
    hears ``challenges``, ``offered`` (its challenge's id, key and seat token), ``matched`` (its challenge
    was accepted: the game and its seat) and ``error``."""
    live, lobby = live_service(websocket), lobby_of(websocket)
    if not await _admit(websocket, live):
        return
    await websocket.accept()
    connection = PushConnection(websocket, client_of(websocket), "lobby")
    live.hub.join(connection)

    async def on_message(text: str) -> None:
        try:
            message = CLIENT_MESSAGE.validate_json(text)
            if isinstance(message, ChallengeMessage):
                connection.put((await lobby.offer(connection, message)).model_dump())
            elif isinstance(message, CancelMessage):
                await lobby.cancel(connection, message.id)
            elif isinstance(message, ResumeMessage):
                resumed = await lobby.resume(connection, message.key)
                if resumed is not None:
                    connection.put(resumed.model_dump())
        except ApiError as error:
            connection.put(ErrorMessage(status=error.status, detail=error.message).model_dump())
        except ValidationError as error:
            unknown = _message_type(text) not in ("challenge", "cancel", "resume")
            detail = "unknown message" if unknown else str(error).splitlines()[0][:300]
            connection.put(ErrorMessage(status=422, detail=detail).model_dump())
        except (ValueError, KalahError) as error:
            connection.put(ErrorMessage(status=422, detail=str(error)[:300]).model_dump())

    try:
        connection.put(ChallengesMessage(challenges=await lobby.listing()).model_dump(mode="json"))
        await _serve(connection, on_message)
    finally:
        live.hub.leave(connection)
        await lobby.author_left(connection)


def _message_type(text: str) -> object:
    try:
        data = json.loads(text)
    except ValueError:
        return None
    return data.get("type") if isinstance(data, dict) else None
