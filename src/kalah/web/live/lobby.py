"""The lobby: open challenges (a variant and a clock) that anyone on any server process can accept.

A challenge is a row of the library's database, open while its author is
connected to a live server process, and for a grace after the author's
connection closes, so that a reload (which shows the challenge's key, told
only to the author's page) takes it back, on whichever process the page
reaches (these times are the real wall clock's, not the game clocks' ``LiveService.now``). Accepting starts a
game between the two. The author's seat token is
made when the challenge is offered and given to the author's page then (the
library keeps its digest), so that the author's process, told of the match
by the database, needs nothing another process knows.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Awaitable
from typing import Any, TypeVar

from kalah.records.store import new_token
from kalah.rules import Variant

from ..errors import ApiError, in_thread, too_many
from .clock import Clock
from .hub import PushConnection
from .models import ChallengeIn, ChallengeOut, ChallengesMessage, MatchedMessage, OfferedMessage, SeatOut
from .service import LiveService
from .store import CHANNEL, Challenge

T = TypeVar("T")


class Lobby:
    """The open challenges, as this server process serves them."""

    def __init__(self, live: LiveService) -> None:
        self.live = live
        self.store = live.store
        self.database = live.database
        #: challenges whose authors are connected to this process, and the seat tokens this process gave them
        self._authors: dict[str, PushConnection] = {}
        self._tokens: dict[str, str] = {}
        self._telling = False
        #: offers and resumptions still being stored: an author's leaving waits for them
        self._unsettled: set[asyncio.Future[Any]] = set()
        live.on_note(self._on_note)

    async def _settle(self, work: Awaitable[T]) -> T:
        """Run ``work`` to its end even when the connection that asked for it closes meanwhile (its reading
        task is cancelled): a challenge stored for an author this process no longer knows would stay open
        for as long as the process lives."""
        task: asyncio.Future[T] = asyncio.ensure_future(work)
        self._unsettled.add(task)
        task.add_done_callback(self._unsettled.discard)
        return await asyncio.shield(task)

    def _out(self, challenge: Challenge) -> ChallengeOut:
        return ChallengeOut(
            id=challenge.id,
            variant=challenge.variant,
            variant_name=Variant.from_dict(challenge.variant).name,
            clock=challenge.clock.describe(),
            author=challenge.author_name,
            seat=challenge.author_seat,
        )

    async def listing(self) -> list[ChallengeOut]:
        """The open challenges, oldest first."""
        now, alive = time.time(), self.live.alive_since
        found = await in_thread(self.live.read, lambda db: self.store.challenges(db, now, alive))
        return [self._out(challenge) for challenge in found]

    async def offer(self, author: PushConnection, offer: ChallengeIn) -> OfferedMessage:
        """A new challenge of ``author`` (429 past the address's limit, 422 for a variant the rules refuse)."""
        variant = offer.variant.to_variant()
        clock = Clock.new(offer.clock.minutes, offer.clock.increment, offer.clock.days)
        challenge_id, key, token = secrets.token_urlsafe(9), new_token(), new_token()

        def work() -> None:
            now = time.time()
            with self.database.write() as db:
                if (
                    self.store.challenges_of(db, author.address, now, self.live.alive_since)
                    >= self.live.limits.challenges
                ):
                    raise too_many("open challenges")
                challenge = Challenge(
                    challenge_id,
                    variant.to_dict(),
                    clock,
                    author.address,
                    self.live.server,
                    self.store.digest(token),
                    offer.name,
                    offer.seat,
                )
                self.store.add_challenge(db, challenge, self.store.digest(key), now)

        async def store() -> OfferedMessage:
            await in_thread(work)
            self._authors[challenge_id], self._tokens[challenge_id] = author, token
            return OfferedMessage(id=challenge_id, key=key, token=token)

        return await self._settle(store())

    async def cancel(self, author: PushConnection, challenge_id: str) -> None:
        """The author withdraws a challenge (anyone else's request changes nothing)."""
        if self._authors.get(challenge_id) is not author:
            return
        await in_thread(self.live.write, lambda db: self.store.withdraw_challenge(db, challenge_id, self.live.server))
        self._forget(challenge_id)

    async def resume(self, author: PushConnection, key: str) -> OfferedMessage | None:
        """The author is back (a new connection showing the key): the challenge stays; None when it is gone."""
        digest = self.store.digest(key)

        async def take_back() -> OfferedMessage | None:
            found = await in_thread(
                self.live.write, lambda db: self.store.resume_challenge(db, digest, self.live.server)
            )
            if found is None:
                return None
            self._authors[found.id] = author
            return OfferedMessage(id=found.id, key=key, token=self._tokens.get(found.id))

        return await self._settle(take_back())

    async def author_left(self, author: PushConnection) -> None:
        """The author's connection closed: its challenges go after the grace, unless it comes back. Stored
        even when the caller is cancelled meanwhile (the server stops, or a test client ends so)."""
        await self._settle(self._leave(author))

    async def _leave(self, author: PushConnection) -> None:
        pending = self._unsettled - {asyncio.current_task()}
        if pending:  # an offer still being stored is one of the author's
            await asyncio.wait(pending)
        mine = [challenge_id for challenge_id, held in self._authors.items() if held is author]
        if not mine:
            return
        for challenge_id in mine:
            del self._authors[challenge_id]
        until = time.time() + self.live.limits.lobby_grace
        await in_thread(self.live.write, lambda db: self.store.author_left(db, mine, until))

    def _forget(self, challenge_id: str) -> None:
        self._authors.pop(challenge_id, None)
        self._tokens.pop(challenge_id, None)

    async def accept(self, challenge_id: str, address: str, name: str = "") -> SeatOut:
        """Start the game of the challenge, the acceptor named ``name`` (if given): the acceptor's seat
        (``SeatOut``); the author hears by push."""
        if len(challenge_id) > 40:
            raise ApiError(404, "no such challenge")
        token = new_token()
        drawn = secrets.randbelow(2)

        def work() -> tuple[int, int]:
            self.live.games.check_room()
            with self.database.write() as db:
                challenge = self.store.take_challenge(db, challenge_id, self.live.alive_since)
                if challenge is None:
                    raise ApiError(404, "this challenge is gone (taken, withdrawn, or its author left)")
                author_seat = drawn if challenge.author_seat is None else challenge.author_seat
                seats: list[str | None] = [None, None]
                seats[author_seat], seats[1 - author_seat] = challenge.author_digest, self.store.digest(token)
                names = ["", ""]
                names[author_seat], names[1 - author_seat] = challenge.author_name, name
                game_id = self.live.new_game_in(
                    db,
                    Variant.from_dict(challenge.variant),
                    challenge.clock,
                    (seats[0], seats[1]),
                    None,
                    address,
                    names=(names[0], names[1]),
                )
                db.notify(CHANNEL, f"matched:{challenge_id}:{game_id}:{author_seat}")
                return game_id, author_seat

        game_id, author_seat = await in_thread(work)
        return SeatOut(game_id=game_id, seat=1 - author_seat, token=token, invite=None)

    # --- news ----------------------------------------------------------------------------

    def _on_note(self, kind: str, rest: str) -> bool:
        if kind == "lobby":
            if self.live.hub.members("lobby") and not self._telling:
                self._telling = True
                asyncio.get_running_loop().create_task(self._tell())
            return True
        if kind == "matched":
            challenge_id, game_text, seat_text = rest.split(":")
            author = self._authors.get(challenge_id)
            if author is not None:
                token = self._tokens.get(challenge_id)
                self._forget(challenge_id)
                author.put(MatchedMessage(game_id=int(game_text), seat=int(seat_text), token=token).model_dump())
            return True
        return False

    async def _tell(self) -> None:
        """Send the listing to every lobby page of this process (one read for a burst of changes)."""
        await asyncio.sleep(0)  # the notes of one transaction come together: one listing for all
        self._telling = False
        try:
            listing = await self.listing()
        except ApiError:
            return
        self.live.hub.send("lobby", ChallengesMessage(challenges=listing).model_dump(mode="json"))

    async def expire(self) -> None:
        """Remove the challenges whose authors are gone for good (this process's upkeep), telling the lobby."""
        now, alive = time.time(), self.live.alive_since
        if await in_thread(self.live.read, lambda db: self.store.expired_challenges(db, now, alive)):
            await in_thread(self.live.write, lambda db: self.store.expire_challenges(db, now, alive))
