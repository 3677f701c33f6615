"""Games between two people: seats, moves by token, clocks, resign, take-back requests, rematches.

The moves themselves go through :class:`kalah.web.service.GameService`
(checked and committed to the library before any answer, as every move of
the server); this adds who may make them (the holder of a seat's token),
the clock the server keeps, and the news pushed to every page that shows
the game (:mod:`.hub`). One lock per game keeps a move, a flag and a
take-back from interleaving.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections import defaultdict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kalah.records import PlayerInfo
from kalah.rules import IllegalMoveError, KalahError, Position, Variant

from ..models import GameState
from ..service import ApiError, GameService, invalid
from . import clock as clocks
from .hub import Hub
from .models import ClockIn, VariantIn
from .seats import SeatError, SeatStore, digest, new_token, seat_of

log = logging.getLogger(__name__)

NAMES = ("Player 1", "Player 2")
#: Seconds news of arrivals and departures waits, so that many go out as one message.
PRESENCE_DELAY = 0.25


@dataclass
class LiveLimits:
    """What one address may hold at once, and how many games it may start in a window."""

    connections: int = 40  #: open push connections (games and lobby)
    games: int = 30  #: live games created in ``window`` seconds
    challenges: int = 3  #: open challenges in the lobby
    window: float = 600.0
    lobby_grace: float = 5.0  #: seconds a challenge outlives its author's connection


def too_many(what: str, retry_after: int = 60) -> ApiError:
    """429: the address has too many of ``what``."""
    return ApiError(429, f"too many {what} from this address; try again later", {"Retry-After": str(retry_after)})


@dataclass
class LiveGame:
    """What the server keeps in memory of a live game: its row (seats, clock, result) and open requests."""

    game_id: int
    row: dict[str, Any]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    takeback_from: int | None = None
    rematch_from: set[int] = field(default_factory=set)
    rematch_game: int | None = None
    timer: asyncio.TimerHandle | None = None
    #: the game's last state (``GameState``): every change of a live game passes through this service,
    #: under ``lock``, so it stays true; None when it must be read again
    state: dict[str, Any] | None = None


class LiveService:
    """The live games of one server over ``service`` (its library and locks) and ``seats``."""

    def __init__(self, service: Callable[[], GameService], seats: SeatStore, limits: LiveLimits) -> None:
        self._service = service
        self.seats = seats
        self.limits = limits
        self.hub = Hub()
        self.games: dict[int, LiveGame] = {}
        self.ids = seats.live_ids()
        self._created: dict[str, deque[float]] = defaultdict(deque)
        self._presence_due: set[int] = set()
        #: the wall clock the game clocks read (seconds); tests put a clock of their own here
        self.now: Callable[[], float] = time.time

    @property
    def service(self) -> GameService:
        """The app's game service (made when the server starts)."""
        return self._service()

    # --- loading and news ---------------------------------------------------------

    async def game(self, game_id: int) -> LiveGame:
        """The live game ``game_id`` (404 when there is none); a flag that fell while nobody looked falls now."""
        live = self.games.get(game_id)
        if live is None:
            row = await asyncio.to_thread(self.seats.row, game_id) if game_id in self.ids else None
            if row is None:
                raise ApiError(404, f"no game between people with id {game_id}")
            live = self.games.setdefault(game_id, LiveGame(game_id, row))
            self._arm(live)
        return live

    def _arm(self, live: LiveGame) -> None:
        """Set the timer that lets the running player's flag fall on the server."""
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        due = clocks.deadline(live.row["clock"])
        if due is None or live.row["result"] is not None:
            return
        loop = asyncio.get_running_loop()
        live.timer = loop.call_later(
            max(0.0, due - self.now()) + 0.005, lambda: loop.create_task(self._flag(live.game_id))
        )

    async def _flag(self, game_id: int) -> None:
        live = await self.game(game_id)
        async with live.lock:
            if await self._flag_if_due(live):
                await self.push(live)
            else:  # early (the wall clock was set back) or stale: wait for the deadline as it is now
                self._arm(live)

    async def _flag_if_due(self, live: LiveGame) -> bool:
        """End the game if the running player's time is out (the other wins); True if it did."""
        now = self.now()
        loser = clocks.expired(live.row["clock"], now)
        if loser is None or live.row["result"] is not None:
            return False
        await self._end(live, {"winner": 1 - loser, "reason": "time"}, f"{NAMES[loser]} ran out of time", now)
        return True

    async def _end(self, live: LiveGame, result: dict[str, Any], reason: str, now: float) -> None:
        clocks.stop(live.row["clock"], now)
        live.row["result"] = result
        live.takeback_from = None
        live.state = None
        await asyncio.to_thread(self.seats.save, live.game_id, live.row["clock"], result)
        await self.service._db(self.service.library.mark_stopped, live.game_id, reason)
        self._arm(live)

    async def snapshot(self, live: LiveGame, state: dict[str, Any] | None = None) -> dict[str, Any]:
        """The game as ``LiveOut``: its state and its live part."""
        if state is None:
            state = live.state or (await self.service.state(live.game_id)).model_dump(mode="json")
        connected, watchers = self.hub.presence(f"game:{live.game_id}")
        clock = live.row["clock"]
        return {
            "state": state,
            "live": {
                "seats_taken": [held is not None for held in live.row["seats"]],
                "connected": connected,
                "watchers": watchers,
                "clock": {
                    "kind": clock.get("kind", "none"),
                    "text": clocks.describe(clock),
                    "ms": clocks.left(clock, self.now()),
                    "running": clock.get("running"),
                },
                "result": live.row["result"],
                "takeback_from": live.takeback_from,
                "rematch_from": sorted(live.rematch_from),
                "rematch_game": live.rematch_game,
            },
        }

    async def push(self, live: LiveGame, state: dict[str, Any] | None = None) -> dict[str, Any]:
        """Send the game's snapshot to every page that shows it; returns the snapshot."""
        snap = await self.snapshot(live, state)
        self.hub.send(f"game:{live.game_id}", {"type": "state", **snap})
        return snap

    def push_presence(self, game_id: int) -> None:
        """Tell the game's pages who is connected, soon: news of many arrivals goes out as one message
        (a thousand watchers arriving would otherwise be a million messages)."""
        if game_id in self._presence_due:
            return
        self._presence_due.add(game_id)
        asyncio.get_running_loop().call_later(PRESENCE_DELAY, self._send_presence, game_id)

    def _send_presence(self, game_id: int) -> None:
        self._presence_due.discard(game_id)
        connected, watchers = self.hub.presence(f"game:{game_id}")
        self.hub.send(f"game:{game_id}", {"type": "presence", "connected": connected, "watchers": watchers})

    # --- after a restart -------------------------------------------------------------

    async def restore(self) -> int:
        """Arm the flag of every live game whose clock runs (the server does this as it starts): a player
        whose time ran out while the server was down loses at once, the others when their time runs out,
        whether or not anyone opens the game. Returns how many games it armed."""
        rows = await asyncio.to_thread(self.seats.running)
        for game_id, row in rows.items():
            live = self.games.setdefault(game_id, LiveGame(game_id, row))
            try:
                async with live.lock:
                    await self._mend_clock(live)
                    self._arm(live)
            except (ApiError, KalahError, OSError, sqlite3.Error, LookupError, TypeError, ValueError) as error:
                # one damaged game (a clock written by hand, a game gone) keeps no other from its flag
                log.warning("live game %d: its clock was not restored (%s)", game_id, error)
        return len(rows)

    async def _mend_clock(self, live: LiveGame) -> None:
        """Set the clock right when the library holds a move the clock missed (the server stopped after
        storing the move and before saving the clock): that move's time is not known, so the mover is
        charged nothing for it and the opponent's time runs from now."""
        state = (await self.service.state(live.game_id)).model_dump(mode="json")
        clock = live.row["clock"]
        over = state["over"] or state["status"] != "playing"
        if not over and state["to_move"] == clock["running"]:
            return
        now = self.now()
        clock["since"] = now
        if over:
            clocks.stop(clock, now)
        else:
            clocks.moved(clock, clock["running"], state["to_move"], False, now)
        live.state = state
        await asyncio.to_thread(self.seats.save, live.game_id, clock, live.row["result"])

    # --- making games ---------------------------------------------------------------

    def count_creation(self, address: str) -> None:
        """429 when ``address`` started ``limits.games`` games in the last window; else count one more."""
        now = time.monotonic()
        made = self._created[address]
        while made and made[0] < now - self.limits.window:
            made.popleft()
        if len(made) >= self.limits.games:
            raise too_many("new games", int(made[0] + self.limits.window - now) + 1)
        made.append(now)

    async def new_game(
        self, variant_in: VariantIn, clock_in: ClockIn, seats: list[str | None], invite: str | None
    ) -> int:
        """Store a game between two people (both seats' token digests, or None for the invited one)."""
        try:
            variant = Variant(**variant_in.model_dump())
        except KalahError as error:
            raise invalid(str(error)) from None
        clock = clocks.new_clock(clock_in.minutes, clock_in.increment, clock_in.days)
        players = [PlayerInfo(NAMES[0], "human"), PlayerInfo(NAMES[1], "human")]
        service = self.service
        game_id = await service._db(
            service.library.create_game,
            Position.start(variant),
            players,
            tags={"source": "live", "clock": clocks.describe(clock)},
        )
        await asyncio.to_thread(self.seats.add, game_id, seats, invite, clock)
        self.ids.add(game_id)
        return game_id

    async def create(self, variant: VariantIn, clock: ClockIn, seat: int, address: str) -> dict[str, Any]:
        """A new game with the caller in ``seat`` and an invitation to the other (``SeatOut``)."""
        self.count_creation(address)
        token, invite = new_token(), new_token()
        seats: list[str | None] = [None, None]
        seats[seat] = digest(token)
        game_id = await self.new_game(variant, clock, seats, invite)
        return {"game_id": game_id, "seat": seat, "token": token, "invite": invite}

    async def claim(self, game_id: int, invite: str) -> dict[str, Any]:
        """Take the empty seat with its invitation (409 when it is taken)."""
        live = await self.game(game_id)
        async with live.lock:
            try:
                seat, token = await asyncio.to_thread(self.seats.claim, game_id, invite)
            except SeatError as error:
                raise ApiError(409, str(error)) from None
            row = await asyncio.to_thread(self.seats.row, game_id)
            live.row = row if row is not None else live.row
            await self.push(live)
        return {"game_id": game_id, "seat": seat, "token": token, "invite": None}

    # --- acting on a game -------------------------------------------------------------

    def _seat(self, live: LiveGame, token: str | None) -> int:
        seat = seat_of(live.row, token)
        if seat is None:
            raise ApiError(403, f"only the players of game {live.game_id} may do this, each with their seat's token")
        return seat

    @staticmethod
    def _check_playing(live: LiveGame, state: dict[str, Any]) -> None:
        if live.row["result"] is not None or state["over"] or state["status"] != "playing":
            raise ApiError(409, f"game {live.game_id} is over")

    async def move(self, game_id: int, token: str | None, move: int | str, moves: int) -> dict[str, Any]:
        """Play ``move`` for the seat of ``token`` (403 for anyone else); stored before the answer."""
        live = await self.game(game_id)
        async with live.lock:
            seat = self._seat(live, token)
            if await self._flag_if_due(live):
                await self.push(live)
                raise ApiError(409, "your time ran out: the game is over")
            state = live.state or (await self.service.state(game_id)).model_dump(mode="json")
            # before the turn and the move: a move sent twice would otherwise be "illegal" or "not your turn"
            GameService.check_current(game_id, state["moves"], moves)
            self._check_playing(live, state)
            if state["to_move"] != seat:
                raise ApiError(409, f"it is not your turn in game {game_id}")
            if live.row["seats"][1 - seat] is None:
                raise ApiError(409, "wait for your opponent to take their seat")
            now = self.now()
            live.state = None  # until the move is stored (or refused)
            async with self.service.lock(game_id):
                after = await self.service._db(self._move_sync, game_id, move, moves, state)
            live.state = after
            clocks.moved(live.row["clock"], seat, after["to_move"], after["over"], now)
            if after["over"]:
                clocks.stop(live.row["clock"], now)
            live.takeback_from = None
            if clocks.ticking(live.row["clock"]):  # an untimed game's row does not change with a move
                await asyncio.to_thread(self.seats.save, game_id, live.row["clock"], live.row["result"])
                self._arm(live)
            return await self.push(live, after)

    def _move_sync(self, game_id: int, raw: int | str, expected: int, state: dict[str, Any]) -> dict[str, Any]:
        """One trip to a database thread: store the move (the library checks it and the move count in its
        transaction) and make the new state from the one before (the game is not read back)."""
        position = Position(state["board"], state["to_move"], Variant.from_dict(state["variant"]))
        move = GameService._parse(raw, position)
        try:
            after = self.service.library.add_move(game_id, move, 0.0, {}, expected)
        except IllegalMoveError as error:
            raise invalid(f"illegal move: {error}") from None
        before = GameState.model_validate(state)
        return GameService._state_after(before, position, move, after).model_dump(mode="json")

    async def resign(self, game_id: int, token: str | None) -> dict[str, Any]:
        """The seat of ``token`` gives the game up."""
        live = await self.game(game_id)
        async with live.lock:
            seat = self._seat(live, token)
            self._check_playing(live, (await self.service.state(game_id)).model_dump(mode="json"))
            await self._end(live, {"winner": 1 - seat, "reason": "resign"}, f"{NAMES[seat]} resigned", self.now())
            return await self.push(live)

    async def take_back(self, game_id: int, token: str | None, action: str, moves: int) -> dict[str, Any]:
        """Ask for a take-back of one's last move, or accept or decline the opponent's request."""
        live = await self.game(game_id)
        async with live.lock:
            seat = self._seat(live, token)
            state = (await self.service.state(game_id)).model_dump(mode="json")
            self._check_playing(live, state)
            GameService.check_current(game_id, state["moves"], moves)
            record = await self.service._db(self.service.library.record, game_id)
            if action == "request":
                if not any(m.player == seat for m in record.moves):
                    raise ApiError(409, "you have no move to take back")
                live.takeback_from = seat
                return await self.push(live, state)
            asker = live.takeback_from
            if asker is None or asker == seat:
                raise ApiError(409, "there is no take-back request of your opponent to answer")
            live.takeback_from = None
            if action == "decline":
                return await self.push(live, state)
            count = next(n for n, m in enumerate(reversed(record.moves), 1) if m.player == asker)
            now = self.now()
            live.state = None
            async with self.service.lock(game_id):
                await self.service._db(self.service.library.take_back, game_id, count, moves)
            after = live.state = (await self.service.state(game_id)).model_dump(mode="json")
            clock = live.row["clock"]
            if clock.get("running") is not None:
                clock["ms"] = clocks.left(clock, now)
                clocks.start(clock, after["to_move"], now)
            await asyncio.to_thread(self.seats.save, game_id, clock, None)
            self._arm(live)
            return await self.push(live, after)

    async def rematch(self, game_id: int, token: str | None) -> dict[str, Any]:
        """Ask for a rematch; when both have asked, a new game with the seats swapped (the same tokens)."""
        live = await self.game(game_id)
        async with live.lock:
            seat = self._seat(live, token)
            state = (await self.service.state(game_id)).model_dump(mode="json")
            if live.row["result"] is None and not state["over"]:
                raise ApiError(409, "a rematch comes after the game")
            live.rematch_from.add(seat)
            if live.rematch_from == {0, 1} and live.rematch_game is None:
                base = live.row["clock"]
                clock_in = ClockIn(
                    days=base["base_ms"] // clocks.DAY_MS if base.get("kind") == "days" else None,
                    minutes=base["base_ms"] / 60_000 if base.get("kind") == "clock" else None,
                    increment=base.get("increment_ms", 0) / 1000,
                )
                variant = VariantIn(**state["variant"])
                swapped = [live.row["seats"][1], live.row["seats"][0]]
                live.rematch_game = await self.new_game(variant, clock_in, swapped, None)
            return await self.push(live, state)
