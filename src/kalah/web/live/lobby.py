"""The lobby: open challenges (a variant and a clock) that anyone on the server can accept.

A challenge belongs to its author's lobby connection: when that closes, the
challenge goes after a short grace, unless the author comes back (a reload)
and shows the challenge's key, which only the author's page was told.
Accepting starts a game between the two; the author hears of it, with its
seat token, on its lobby connection alone.
"""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass
from typing import Any

from kalah.rules import Variant

from ..service import ApiError
from . import clock as clocks
from .hub import Connection
from .models import ChallengeIn
from .seats import digest, new_token
from .service import LiveService, too_many


@dataclass(eq=False)
class Challenge:
    """An open challenge: what it offers, who made it, and the key that lets the author claim it back."""

    id: str
    key: str
    offer: ChallengeIn
    author: Connection | None
    address: str
    expiry: asyncio.TimerHandle | None = None

    def out(self) -> dict[str, Any]:
        """The challenge as ``ChallengeOut`` (no key, no author)."""
        clock = clocks.new_clock(self.offer.clock.minutes, self.offer.clock.increment, self.offer.clock.days)
        return {
            "id": self.id,
            "variant": self.offer.variant.model_dump(),
            "variant_name": Variant(**self.offer.variant.model_dump()).name,
            "clock": clocks.describe(clock),
        }


class Lobby:
    """The open challenges of a server."""

    def __init__(self, live: LiveService) -> None:
        self.live = live
        self.challenges: dict[str, Challenge] = {}

    def listing(self) -> list[dict[str, Any]]:
        """The open challenges, oldest first."""
        return [challenge.out() for challenge in self.challenges.values()]

    def _announce(self) -> None:
        self.live.hub.send("lobby", {"type": "challenges", "challenges": self.listing()})

    def offer(self, author: Connection, offer: ChallengeIn) -> Challenge:
        """A new challenge of ``author`` (429 past the address's limit)."""
        mine = sum(1 for c in self.challenges.values() if c.address == author.address)
        if mine >= self.live.limits.challenges:
            raise too_many("open challenges")
        Variant(**offer.variant.model_dump())  # a bad variant is refused now, not at acceptance
        challenge = Challenge(secrets.token_urlsafe(9), new_token(), offer, author, author.address)
        self.challenges[challenge.id] = challenge
        self._announce()
        return challenge

    def cancel(self, author: Connection, challenge_id: str) -> None:
        """The author withdraws a challenge (anyone else's request changes nothing)."""
        challenge = self.challenges.get(challenge_id)
        if challenge is not None and challenge.author is author:
            self._drop(challenge)

    def resume(self, author: Connection, key: str) -> Challenge | None:
        """The author is back (a new connection showing the key): the challenge stays."""
        for challenge in self.challenges.values():
            # As bytes: compare_digest refuses str holding anything but ASCII, and a client chooses the key.
            if secrets.compare_digest(challenge.key.encode(), key.encode("utf-8", "surrogatepass")):
                if challenge.expiry is not None:
                    challenge.expiry.cancel()
                    challenge.expiry = None
                challenge.author = author
                return challenge
        return None

    def author_left(self, author: Connection) -> None:
        """The author's connection closed: its challenges go after the grace."""
        loop = asyncio.get_running_loop()
        for challenge in list(self.challenges.values()):
            if challenge.author is author:
                challenge.author = None
                challenge.expiry = loop.call_later(self.live.limits.lobby_grace, self._expire, challenge)

    def _expire(self, challenge: Challenge) -> None:
        if challenge.author is None:
            self._drop(challenge)

    def _drop(self, challenge: Challenge) -> None:
        if self.challenges.pop(challenge.id, None) is not None:
            if challenge.expiry is not None:
                challenge.expiry.cancel()
            self._announce()

    async def accept(self, challenge_id: str, address: str) -> dict[str, Any]:
        """Start the game of the challenge: the acceptor's seat (``SeatOut``); the author hears by push."""
        challenge = self.challenges.get(challenge_id)
        if challenge is None or challenge.author is None:
            raise ApiError(404, "this challenge is gone (taken, withdrawn, or its author left)")
        self.live.count_creation(address)
        self._drop(challenge)
        author_seat = secrets.randbelow(2)
        author_token, token = new_token(), new_token()
        seats: list[str | None] = [None, None]
        seats[author_seat], seats[1 - author_seat] = digest(author_token), digest(token)
        game_id = await self.live.new_game(challenge.offer.variant, challenge.offer.clock, seats, None)
        challenge.author.put({"type": "matched", "game_id": game_id, "seat": author_seat, "token": author_token})
        return {"game_id": game_id, "seat": 1 - author_seat, "token": token, "invite": None}
