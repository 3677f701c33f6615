"""Games between two people: seats, moves by token, clocks, resign, take-back requests and rematches.

Every action is one transaction on the library's database (in a thread): the
game's live row is locked, the seat's token checked, a flag that fell is let
fall first, then the move (through the library, checked and stored as every
move of the server) and the clock's change are written together. No seat,
clock, request or result lives only in this process's memory, so any number
of server processes can serve one PostgreSQL library: each change tells
every process (:mod:`kalah.records.feed`), and each pushes it to the pages it
holds (:mod:`.hub`). A clock's flag falls in the transaction that reads the
clock fresh under the row's lock, so it falls once, and never while the
player moves in time through another process. The lobby is
:mod:`.lobby`'s; what a process does every few seconds (its heartbeat, the
flags' safety net, closing games nobody joined) is :mod:`.upkeep`'s.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from kalah.records import PlayerInfo
from kalah.records.feed import ChangeFeed
from kalah.records.store import new_token
from kalah.rules import IllegalMoveError, Outcome, Position, Variant

from ..errors import ApiError, in_thread, invalid, too_many
from ..gamestate import state_after, stored_state
from ..models import GameState
from ..service import GameService
from .clock import Clock
from .flags import FlagTimers
from .hub import Hub
from .limits import LiveLimits
from .models import ClaimIn, ClockIn, HelloMessage, LiveOut, SeatOut, VariantIn
from .presence import PresenceNews
from .rereads import Rereads
from .store import CHANNEL, LiveResult, LiveRow, LiveStore
from .view import View, live_out, state_messages, states_between

log = logging.getLogger(__name__)

NAMES = ("Player 1", "Player 2")
#: Seconds after its last heartbeat a server process counts as gone (its presence and authors with it).
STALE_SECONDS = 20.0
#: Versions of games this process remembers having pushed (the oldest are forgotten first).
REMEMBERED = 10_000


class LiveService:
    """The games between people of one server process, over the app's :class:`GameService`."""

    def __init__(self, games: Callable[[], GameService], store: LiveStore, limits: LiveLimits) -> None:
        self._games = games
        self.store = store
        self.database = store.database
        self.limits = limits
        self.hub = Hub()
        #: this process, as the other processes of the library know it (presence, challenges' authors)
        self.server = new_token()[:16]
        #: the wall clock the game clocks read (seconds); tests put a clock of their own here
        self.now: Callable[[], float] = time.time
        self.feed = ChangeFeed(self.database, on_resync=self._resync)
        self.feed.subscribe(CHANNEL, self._on_note)
        self.flags = FlagTimers(lambda: self.now(), self._fall)
        self._pushed: OrderedDict[int, int] = OrderedDict()
        self.rereads = Rereads(self._reread)
        self.presence = PresenceNews(self.hub, store, self.server, lambda: self.alive_since)
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._note_handlers: list[Callable[[str, str], bool]] = []

    @property
    def games(self) -> GameService:
        """The app's game service (made when the server starts)."""
        return self._games()

    @property
    def alive_since(self) -> float:
        """A heartbeat older than this is of a server process that is gone (the real wall clock's time)."""
        return time.time() - STALE_SECONDS

    async def start(self) -> None:
        """Before the first request: the library's salt read (seat digests are made on the event loop) and the
        change feed listening."""
        await in_thread(self.database.digest, "")
        await self.feed.start()

    def on_note(self, handler: Callable[[str, str], bool]) -> None:
        """Give ``handler(kind, rest)`` the notifications this service does not know (the lobby's)."""
        self._note_handlers.append(handler)

    def _lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    # --- reading ---------------------------------------------------------------------

    def _row(self, db: Any, game_id: int, lock: bool = False) -> LiveRow:
        row = self.store.row(db, game_id, lock)
        if row is None:
            raise ApiError(404, f"no game between people with id {game_id}")
        return row

    def _view(self, db: Any, row: LiveRow, state: GameState | None = None) -> View:
        state = state if state is not None else self.games.state_sync(row.game_id)
        return View(row, state, self.store.presence(db, row.game_id, self.server, self.alive_since))

    def _read_sync(self, game_id: int, since_moves: int | None = None) -> View:
        """The game as it is; with ``since_moves``, the states after each move from there to the last too."""
        with self.database.read() as db:
            row = self._row(db, game_id)
            stored = self.games.library.game(game_id)
            state = stored_state(stored)
            between = states_between(game_id, stored.record, since_moves, state.moves)
            return View(row, state, self.store.presence(db, game_id, self.server, self.alive_since), between)

    async def view(self, game_id: int) -> View:
        """The game as it is now (404 when it is not a game between people); a flag that fell while nobody
        looked falls now."""
        view = await in_thread(self._read_sync, game_id)
        if view.row.result is None and view.row.clock.expired(self.now()) is not None:
            view = await self._flag(game_id) or view
        self._arm(view.row)
        return view

    def out(self, view: View) -> LiveOut:
        """The game as the API answers it (``LiveOut``), with this process's connections counted in."""
        return live_out(view, self.hub.presence(f"game:{view.row.game_id}"), self.now())

    async def snapshot(self, game_id: int) -> LiveOut:
        """The game as a watcher sees it."""
        return self.out(await self.view(game_id))

    def seat_of(self, row: LiveRow, token: str | None) -> int | None:
        """The seat ``token`` holds, or None."""
        return self.store.seat_of(row, token)

    # --- news -------------------------------------------------------------------------

    def publish(self, view: View) -> None:
        """Push the game to the pages this process holds that have not seen this version (each move they
        missed as a state of its own); arm its flag."""
        row = view.row
        self._arm(row)
        if row.version > self._pushed.get(row.game_id, -1):
            self._pushed[row.game_id] = row.version
            self._pushed.move_to_end(row.game_id)
            while len(self._pushed) > REMEMBERED:
                self._pushed.popitem(last=False)
        topic = f"game:{row.game_id}"
        if not self.hub.members(topic):
            return
        self.hub.send_states(topic, row.version, state_messages(view, self.out(view)))

    def hello(self, connection: Any, view: View) -> None:
        """Greet a page that joined: the game as it is, after which it hears of every change."""
        out = self.out(view)
        connection.put(HelloMessage(seat=connection.seat, **dict(out)).model_dump(mode="json"))
        connection.version, connection.moves = view.row.version, view.state.moves
        if self._pushed.get(view.row.game_id, -1) > view.row.version:
            # a change was pushed while this greeting was read, to the pages greeted by then: not to this one
            self.rereads.ask(view.row.game_id)

    def _on_note(self, payload: str) -> None:
        kind, _, rest = payload.partition(":")
        if kind == "game":
            game_text, _, version_text = rest.partition(":")
            game_id, version = int(game_text), int(version_text)
            if version > self._pushed.get(game_id, -1) and (
                self.hub.members(f"game:{game_id}") or game_id in self.flags
            ):
                self.rereads.ask(game_id)
        elif kind == "presence":
            game_id = int(rest)
            if self.hub.members(f"game:{game_id}"):
                asyncio.get_running_loop().create_task(self.presence.tell(game_id))
        else:
            for handler in self._note_handlers:
                if handler(kind, rest):
                    break

    async def _reread(self, game_id: int) -> None:
        """Read the game again, with every move the slowest page of it here missed, and push it."""
        since = self.hub.oldest_moves(f"game:{game_id}")
        try:
            self.publish(await in_thread(self._read_sync, game_id, since))
        except ApiError:  # gone (deleted), or the library busy: the next change reads again
            self.flags.disarm(game_id)

    def _resync(self) -> None:
        """The feed missed notifications: read again every game this process shows or times."""
        for game_id in {int(topic[5:]) for topic in self.hub.topics if topic.startswith("game:")} | self.flags.games():
            self.rereads.ask(game_id)
        for handler in self._note_handlers:
            handler("lobby", "")

    def connections_changed(self, game_id: int) -> None:
        """A page of this process joined or left the game: every page of it hears soon (:mod:`.presence`)."""
        self.presence.changed(game_id)

    def read(self, work: Callable[[Any], Any]) -> Any:
        """``work(session)`` in a session that reads (in the calling thread: run it off the event loop)."""
        with self.database.read() as db:
            return work(db)

    def write(self, work: Callable[[Any], Any]) -> Any:
        """``work(session)`` in a transaction (in the calling thread: run it off the event loop)."""
        with self.database.write() as db:
            return work(db)

    # --- flags --------------------------------------------------------------------------

    def _arm(self, row: LiveRow) -> None:
        """Let the running player's flag fall in this process when its time is out (every process that shows
        or acted on the game keeps a timer; the transaction decides once)."""
        deadline = None if row.result is not None else row.clock.deadline()
        if deadline is None:
            self.flags.disarm(row.game_id)
        else:
            self.flags.arm(row.game_id, deadline, replace_timer=True)

    def arm_at(self, game_id: int, deadline: float) -> None:
        """Let the flag of ``game_id`` be looked at ``deadline`` (the sweep's safety net), unless a timer is set."""
        self.flags.arm(game_id, deadline, replace_timer=False)

    def disarm_all(self) -> None:
        """Cancel every timer (the server stops)."""
        self.flags.disarm_all()

    async def _fall(self, game_id: int) -> None:
        view = await self._flag(game_id)
        if view is not None:
            self.publish(view)

    async def _flag(self, game_id: int) -> View | None:
        async with self._lock(game_id):
            try:
                return await in_thread(self._flag_sync, game_id)
            except ApiError as error:
                log.warning("game %d: its flag could not be looked at (%s)", game_id, error.message)
                return None

    def _flag_sync(self, game_id: int) -> View | None:
        with self.database.write() as db:
            row = self.store.row(db, game_id, lock=True)
            if row is None:
                return None
            return self._view(db, self._flag_in(db, row, self.now()) or row)

    def _flag_in(self, db: Any, row: LiveRow, now: float) -> LiveRow | None:
        """In a transaction that holds the row: end the game if the running player's time is out (the other
        wins); the row as ended, or None when the time is not out."""
        loser = row.clock.expired(now) if row.result is None else None
        if loser is None:
            return None
        self.games.library.decide(row.game_id, loser, "time")
        result = LiveResult.decided(Outcome.decided(loser, "time"))
        return self.store.update(db, replace(row, clock=row.clock.stop(now), result=result, takeback_from=None))

    # --- making games -------------------------------------------------------------------

    def new_game_in(
        self,
        db: Any,
        variant: Variant,
        clock: Clock,
        seats: tuple[str | None, str | None],
        invite: str | None,
        address: str,
        scheme: str = "salted",
        names: tuple[str, str] = ("", ""),
    ) -> int:
        """In a transaction: store a game between two people made by ``address`` (429 past its share of new
        games; 422 for a variant the rules refuse); ``names``: the players' names ('': the seat's own)."""
        now = self.now()
        made, oldest = self.store.created_since(db, address, now - self.limits.window)
        if made >= self.limits.games:
            raise too_many("new games", int((oldest or now) + self.limits.window - now) + 1)
        players = [PlayerInfo(names[p] or NAMES[p], "human") for p in (0, 1)]
        game_id = self.games.library.create_game(
            Position.start(variant), players, tags={"source": "live", "clock": clock.describe()}
        )
        self.store.insert(db, game_id, seats, invite, clock, address, now, scheme)
        return game_id

    async def create(
        self, variant_in: VariantIn, clock_in: ClockIn, seat: int, address: str, name: str = ""
    ) -> SeatOut:
        """A new game with the caller in ``seat`` (named ``name``, if given) and an invitation to the other
        (``SeatOut``)."""
        variant = variant_in.to_variant()
        clock = Clock.new(clock_in.minutes, clock_in.increment, clock_in.days)
        token, invite = new_token(), new_token()

        def work() -> int:
            self.games.check_room()
            with self.database.write() as db:
                mine = self.store.digest(token)
                seats, names = ((mine, None), (name, "")) if seat == 0 else ((None, mine), ("", name))
                return self.new_game_in(db, variant, clock, seats, self.store.digest(invite), address, names=names)

        game_id = await in_thread(work)
        return SeatOut(game_id=game_id, seat=seat, token=token, invite=invite)

    async def claim(self, game_id: int, body: ClaimIn) -> SeatOut:
        """Take the empty seat with its invitation (409 when it is taken)."""
        token = new_token()

        def work() -> tuple[View, int]:
            with self.database.write() as db:
                row = self._row(db, game_id, lock=True)
                if row.invite is None or not self.store.holds(row, row.invite, body.invite):
                    raise ApiError(
                        409, "this invitation is not valid any more: the seat is taken (you may watch the game)"
                    )
                seat = 0 if row.seats[0] is None else 1
                seats = list(row.seats)
                seats[seat] = self.store.digest_for(row, token)
                if body.name:
                    self.games.library.name_player(game_id, seat, body.name)
                row = self.store.update(db, replace(row, seats=(seats[0], seats[1]), invite=None))
                return self._view(db, row), seat

        async with self._lock(game_id):
            view, seat = await in_thread(work)
        self.publish(view)
        return SeatOut(game_id=game_id, seat=seat, token=token, invite=None)

    # --- acting on a game -------------------------------------------------------------

    async def _act(self, game_id: int, token: str | None, work: Callable[..., View]) -> LiveOut:
        """Run ``work(db, row, seat, now)`` in one transaction for the seat of ``token`` (403 for anyone
        else), after letting a flag that fell fall (then 409: the game ended by time)."""

        def transaction() -> tuple[View, ApiError | None]:
            with self.database.write() as db:
                row = self._row(db, game_id, lock=True)
                seat = self.store.seat_of(row, token)
                if seat is None:
                    raise ApiError(403, f"only the players of game {game_id} may do this, each with their seat's token")
                now = self.now()
                flagged = self._flag_in(db, row, now)
                if flagged is not None:
                    mine = flagged.result is not None and flagged.result.winner != seat
                    why = "your time ran out" if mine else "your opponent's time ran out"
                    return self._view(db, flagged), ApiError(409, f"{why}: the game is over")
                return work(db, row, seat, now), None

        async with self._lock(game_id):
            view, refusal = await in_thread(transaction)
        self.publish(view)
        if refusal is not None:
            raise refusal
        return self.out(view)

    @staticmethod
    def _check_playing(row: LiveRow, state: GameState) -> None:
        if row.result is not None or state.over or state.status != "playing":
            raise ApiError(409, f"game {row.game_id} is over")

    async def move(self, game_id: int, token: str | None, raw: int | str, moves: int) -> LiveOut:
        """Play ``raw`` for the seat of ``token``; stored, with the clock, before the answer."""

        def work(db: Any, row: LiveRow, seat: int, now: float) -> View:
            stored = self.games.library.game(game_id)
            state = stored_state(stored)
            # before the turn and the move: a move sent twice would otherwise be "illegal" or "not your turn"
            GameService.check_current(game_id, state.moves, moves)
            self._check_playing(row, state)
            if state.to_move != seat:
                raise ApiError(409, f"it is not your turn in game {game_id}")
            if row.seats[1 - seat] is None:
                raise ApiError(409, "wait for your opponent to take their seat")
            position = stored.record.final
            move = GameService.parse_move(raw, position)
            try:
                after = self.games.library.add_move(game_id, move, 0.0, {}, moves)
            except IllegalMoveError as error:
                raise invalid(f"illegal move: {error}") from None
            clock = row.clock.moved(seat, after.to_move, after.is_over, now)
            row = self.store.update(
                db, replace(row, clock=clock.stop(now) if after.is_over else clock, takeback_from=None)
            )
            return self._view(db, row, state_after(state, position, move, after))

        return await self._act(game_id, token, work)

    async def name(self, game_id: int, token: str | None, name: str) -> LiveOut:
        """The seat of ``token`` gives its player's name (any time before the game ends: a player who came by
        a link before they had given one)."""

        def work(db: Any, row: LiveRow, seat: int, now: float) -> View:
            state = self.games.state_sync(game_id)
            self._check_playing(row, state)
            self.games.library.name_player(game_id, seat, name)
            return self._view(db, self.store.update(db, row))

        return await self._act(game_id, token, work)

    async def resign(self, game_id: int, token: str | None) -> LiveOut:
        """The seat of ``token`` gives the game up: stored finished, the other the winner."""

        def work(db: Any, row: LiveRow, seat: int, now: float) -> View:
            self._check_playing(row, self.games.state_sync(game_id))
            self.games.library.decide(game_id, seat, "resignation")
            result = LiveResult.decided(Outcome.decided(seat, "resignation"))
            row = self.store.update(db, replace(row, clock=row.clock.stop(now), result=result, takeback_from=None))
            return self._view(db, row)

        return await self._act(game_id, token, work)

    async def take_back(self, game_id: int, token: str | None, action: str, moves: int) -> LiveOut:
        """Ask for a take-back of one's last move, or accept or decline the opponent's request."""

        def work(db: Any, row: LiveRow, seat: int, now: float) -> View:
            stored = self.games.library.game(game_id)
            state = stored_state(stored)
            self._check_playing(row, state)
            GameService.check_current(game_id, state.moves, moves)
            record = stored.record
            if action == "request":
                if not any(m.player == seat for m in record.moves):
                    raise ApiError(409, "you have no move to take back")
                return self._view(db, self.store.update(db, replace(row, takeback_from=seat)), state)
            asker = row.takeback_from
            if asker is None or asker == seat:
                raise ApiError(409, "there is no take-back request of your opponent to answer")
            if action == "decline":
                return self._view(db, self.store.update(db, replace(row, takeback_from=None)), state)
            count = next(n for n, m in enumerate(reversed(record.moves), 1) if m.player == asker)
            self.games.library.take_back(game_id, count, moves)
            after = self.games.state_sync(game_id)
            clock = row.clock.start(after.to_move, now) if row.clock.running is not None else row.clock
            return self._view(db, self.store.update(db, replace(row, clock=clock, takeback_from=None)), after)

        return await self._act(game_id, token, work)

    async def rematch(self, game_id: int, token: str | None, address: str) -> LiveOut:
        """Ask for a rematch; when both have asked, a new game with the seats swapped (the same tokens), made
        by (and counted for) the one who asked last."""

        def work(db: Any, row: LiveRow, seat: int, now: float) -> View:
            state = self.games.state_sync(game_id)
            if row.result is None and not state.over and state.status == "playing":
                raise ApiError(409, "a rematch comes after the game")
            asked = row.rematch_from | {seat}
            rematch_game = row.rematch_game
            if asked == {0, 1} and rematch_game is None:
                self.games.check_room()
                variant = Variant.from_dict(state.variant.model_dump())
                clock = Clock.new(row.clock.minutes, row.clock.increment_ms / 1000, row.clock.days)
                swapped = (row.seats[1], row.seats[0])
                names = (state.players[1].name, state.players[0].name)  # each keeps their name in the other seat
                rematch_game = self.new_game_in(db, variant, clock, swapped, None, address, row.scheme, names)
            row = self.store.update(db, replace(row, rematch_from=frozenset(asked), rematch_game=rematch_game))
            return self._view(db, row, state)

        return await self._act(game_id, token, work)

    # --- after a restart, and upkeep ------------------------------------------------------

    async def restore(self) -> int:
        """Arm the flag of every live game whose clock runs (as the server starts): a player whose time ran out
        while the server was down loses at once, the others when their time runs out, whether or not anyone
        opens the game. A clock that missed a stored move is set right first. Returns how many it armed."""
        due = await in_thread(self.read, lambda db: self.store.due(db, float("inf")))
        for game_id, _ in due:
            try:
                async with self._lock(game_id):
                    view = await in_thread(self._mend_sync, game_id)
                self.publish(view)
            except ApiError as error:
                # one damaged game (a clock written by hand, a game gone) keeps no other from its flag
                log.warning("live game %d: its clock was not restored (%s)", game_id, error.message)
        return len(due)

    def _mend_sync(self, game_id: int) -> View:
        """Set the clock right when the library holds a move the clock missed (a row written by an older
        server, which stored the two apart): that move's time is not known, so the mover is charged nothing
        for it and the opponent's time runs from now."""
        with self.database.write() as db:
            row = self._row(db, game_id, lock=True)
            state = self.games.state_sync(game_id)
            over = state.over or state.status != "playing"
            if over or state.to_move != row.clock.running:
                now = self.now()
                clock = replace(row.clock, since=now)
                clock = clock.stop(now) if over else clock.moved(row.clock.running or 0, state.to_move, False, now)
                row = self.store.update(db, replace(row, clock=clock))
            return self._view(db, row, state)
