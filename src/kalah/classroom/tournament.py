"""Tournament mode: a fixed field of agents plays stages, as FAU's course does.

The field is the first ``field`` agents that connect with a token (or those
connected ``wait`` seconds after the first one, at least two). Stage 0 is the
qualification: each agent plays the random bot twice (once a side) on the
first stage's board and goes on only if it scores more than half. Then each
stage (a variant, e.g. 6x6 then 8x8) is a round robin (every pair plays
``games_per_pairing`` games, sides alternating) or, with ``swiss_rounds``, a
Swiss system (each round pairs agents of near equal points who have not met).
An agent plays one game at a time; games of a round run together.

Standings: points (a win 1, a draw half) over all stages, then the Elo rating
fitted from the tournament's games; written as CSV and JSON at the end (and
shown at ``/tournament`` and ``/api/tournament`` all along).
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kalah.atomic import write_atomic
from kalah.rules import KalahError, Variant

from .games import AgentSeat, Seat

if TYPE_CHECKING:
    from .server import ClassServer
    from .session import AgentSession


class TournamentError(KalahError, ValueError):
    """A tournament that cannot be set up (e.g. a stage that is not PITSxSEEDS)."""


def parse_stage(text: str) -> Variant:
    """``6x6`` (pits x seeds) as a variant, 1 to 12 pits (the ranges of ``Variant``)."""
    match = re.fullmatch(r"\s*(\d{1,3})\s*[xX,:]\s*(\d{1,3})\s*", text)
    if match is None:
        raise TournamentError(f"a stage is PITSxSEEDS such as 6x6, got {text!r}")
    return Variant(pits=int(match.group(1)), seeds=int(match.group(2)))


def _id(session: AgentSession) -> int:
    assert session.agent is not None
    return session.agent.id


def swiss_pairs(order: list[int], met: set[frozenset[int]], budget: int = 100_000) -> list[tuple[int, int]]:
    """Pairs of ``order`` (best first, an even count): each with the best-placed agent it has not met yet,
    backtracking when the rest cannot all be paired so; rematches only when no such pairing exists.

    >>> swiss_pairs([1, 2, 3, 4], {frozenset((1, 2)), frozenset((3, 4))})
    [(1, 3), (2, 4)]
    """
    steps = [budget]

    def pair(rest: list[int]) -> list[tuple[int, int]] | None:
        if not rest:
            return []
        steps[0] -= 1
        if steps[0] < 0:
            return None
        first = rest[0]
        for partner in rest[1:]:
            if frozenset((first, partner)) in met:
                continue
            tail = pair([agent for agent in rest[1:] if agent != partner])
            if tail is not None:
                return [(first, partner), *tail]
        return None

    found = pair(order)
    if found is not None:
        return found
    return [(order[i], order[i + 1]) for i in range(0, len(order) - 1, 2)]  # everyone has met: by standing


class Tournament:
    """A fixed field, a qualification against the random bot, then stages."""

    def __init__(
        self,
        field: int,
        stages: list[Variant],
        games_per_pairing: int = 2,
        wait: float = 60.0,
        swiss_rounds: int = 0,
        standings: Path | None = None,
    ) -> None:
        self.field_size, self.stages, self.games_per_pairing = field, stages, games_per_pairing
        self.wait, self.swiss_rounds, self.standings_path = wait, swiss_rounds, standings
        self.event = "tournament-" + time.strftime("%Y%m%d-%H%M%S")
        self.status = "waiting for the field"
        self.field: list[AgentSession] = []
        self.qualified: set[int] = set()
        self.points: dict[int, float] = {}
        self.finished = asyncio.Event()
        self._server: ClassServer | None = None

    async def run(self, server: ClassServer) -> None:
        """Gather the field, play the stages, write the standings."""
        self._server = server
        await self._gather(server)
        ids = [session.agent.id for session in self.field if session.agent is not None]
        self.points = {agent_id: 0.0 for agent_id in ids}
        self.status = "stage 0: each agent must beat the random bot"
        await self._qualify(server)
        players = [s for s in self.field if s.agent is not None and s.agent.id in self.qualified]
        for number, variant in enumerate(self.stages, 1):
            self.status = f"stage {number} of {len(self.stages)}: {variant.name}"
            if self.swiss_rounds:
                await self._swiss(server, players, variant)
            else:
                await self._round_robin(server, players, variant)
        self.status = "finished"
        if self.standings_path is not None:
            await asyncio.to_thread(self.write_standings, self.standings_path)
        self.finished.set()

    async def _gather(self, server: ClassServer) -> None:
        first_seen: float | None = None
        while True:
            ready = [s for s in server.waiting if s.token is not None and not s.closed.is_set()]
            if ready and first_seen is None:
                first_seen = time.monotonic()
            if len(ready) >= self.field_size or (
                first_seen is not None and len(ready) >= 2 and time.monotonic() - first_seen >= self.wait
            ):
                self.field = ready[: self.field_size]
                for session in self.field:
                    server.waiting.remove(session)
                return
            await asyncio.sleep(0.2)

    async def _game(
        self, server: ClassServer, seats: tuple[Seat, Seat], sessions: list[AgentSession], variant: Variant
    ) -> float | None:
        score = await self._played(server, seats, sessions, self.event, variant)
        if score is None:
            return None
        for side, seat in enumerate(seats):
            if seat.agent.id in self.points:
                self.points[seat.agent.id] += score if side == 0 else 1 - score
        return score

    @staticmethod
    async def _played(
        server: ClassServer, seats: tuple[Seat, Seat], sessions: list[AgentSession], event: str, variant: Variant
    ) -> float | None:
        """South's score; a game the library refused (abandoned) is played again, a few times at most."""
        for attempt in range(3):
            if attempt:
                await asyncio.sleep(1.0)
            score = await server.start_game(seats, sessions, event, variant)
            if score is not None:
                return score
        return None

    async def _qualify(self, server: ClassServer) -> None:
        async def qualify(session: AgentSession) -> None:
            assert session.agent is not None
            total = 0.0
            for side in (0, 1):
                bot = server.bot_seat(0)
                seats: tuple[Seat, Seat] = (AgentSeat(session), bot) if side == 0 else (bot, AgentSeat(session))
                score = await self._played(server, seats, [session], self.event + "-qualification", self.stages[0])
                if score is not None:
                    total += score if side == 0 else 1 - score
            if total > 1:
                self.qualified.add(session.agent.id)

        await asyncio.gather(*(qualify(session) for session in self.field))

    async def _pair_games(
        self, server: ClassServer, first: AgentSession, second: AgentSession, variant: Variant
    ) -> None:
        for game in range(self.games_per_pairing):
            pair = (first, second) if game % 2 == 0 else (second, first)
            await self._game(server, (AgentSeat(pair[0]), AgentSeat(pair[1])), list(pair), variant)

    async def _round_robin(self, server: ClassServer, players: list[AgentSession], variant: Variant) -> None:
        # The circle method: n - 1 rounds (n even; a bye when odd), every pair once, nobody twice in a round.
        seats: list[AgentSession | None] = list(players) + ([None] if len(players) % 2 else [])
        for _ in range(len(seats) - 1):
            half = len(seats) // 2
            pairs = [(seats[i], seats[-1 - i]) for i in range(half)]
            await asyncio.gather(*(self._pair_games(server, a, b, variant) for a, b in pairs if a and b))
            seats = [seats[0], seats[-1], *seats[1:-1]]

    async def _swiss(self, server: ClassServer, players: list[AgentSession], variant: Variant) -> None:
        met: set[frozenset[int]] = set()
        for _ in range(self.swiss_rounds):
            order = sorted(players, key=lambda s: -self.points.get(_id(s), 0.0))
            bye = order.pop() if len(order) % 2 else None  # the last of the standings sits out, for a win
            pairs = swiss_pairs([_id(s) for s in order], met)
            by_id = {_id(s): s for s in order}
            for first, second in pairs:
                met.add(frozenset((first, second)))
            if bye is not None:
                self.points[_id(bye)] += 1.0
            await asyncio.gather(*(self._pair_games(server, by_id[a], by_id[b], variant) for a, b in pairs))

    # --- standings ----------------------------------------------------------------------

    def standings(self) -> list[dict[str, Any]]:
        """The field, best first: points, then rating."""
        if self._server is None:
            return []
        ratings = {line.agent.id: line.to_dict() for line in self._server.book.standings(self.event)}
        rows = []
        for session in self.field:
            if session.agent is None:
                continue
            row = ratings.get(session.agent.id) or {
                **session.agent.to_dict(),
                "games": 0,
                "wins": 0,
                "draws": 0,
                "losses": 0,
                "score": None,
                "elo": 0.0,
                "elo_low": None,
                "elo_high": None,
            }
            rows.append(
                {
                    **row,
                    "points": self.points.get(session.agent.id, 0.0),
                    "qualified": session.agent.id in self.qualified,
                }
            )
        return sorted(rows, key=lambda row: (-row["points"], -row["elo"], row["id"]))

    def to_dict(self) -> dict[str, Any]:
        """The tournament as JSON: status, stages, standings."""
        return {
            "event": self.event,
            "status": self.status,
            "stages": [variant.to_dict() for variant in self.stages],
            "standings": self.standings(),
        }

    def write_standings(self, path: Path) -> None:
        """``PATH.csv`` and ``PATH.json`` (written atomically)."""
        rows = self.standings()
        write_atomic(path.with_suffix(".json"), json.dumps(self.to_dict(), indent=2) + "\n")
        text = io.StringIO()
        writer = csv.writer(text)
        columns = [
            "rank",
            "name",
            "points",
            "qualified",
            "games",
            "wins",
            "draws",
            "losses",
            "elo",
            "elo_low",
            "elo_high",
        ]
        writer.writerow(columns)
        for rank, row in enumerate(rows, 1):
            writer.writerow([rank, *(row[column] for column in columns[1:])])
        write_atomic(path.with_suffix(".csv"), text.getvalue())
