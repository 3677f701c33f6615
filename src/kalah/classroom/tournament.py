"""Tournament mode: a fixed field of agents plays stages, as FAU's course does.

The field is the first ``field`` agents that connect with a token (or those
connected ``wait`` seconds after the first one, at least two); with submitted
agents (:mod:`.submissions`), every submission that built and signed in. Stage 0 is the
qualification: each agent plays the random bot twice (once a side) on the
first stage's board and goes on only if it scores more than half. Then each
stage (a variant, e.g. 6x6 then 8x8) is a round robin (every pair plays
``games_per_pairing`` games, sides alternating) or, with ``swiss_rounds``, a
Swiss system (each round pairs agents of near equal points who have not met).
An agent plays one game at a time; games of a round run together.

Standings: points (a win 1, a draw half) over all stages, then the Elo rating
fitted from the tournament's games; written as CSV and JSON at the end (and
shown at ``/tournament`` and ``/api/tournament`` all along).

A tournament is resumable: its field and every result are in the database
under its event name, and a server started again on the same database with
the same event plays only what is missing (the schedule is a function of the
field and the results, so it comes out the same).
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import logging
import re
import time
from collections import defaultdict, deque
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from kalah.atomic import write_atomic
from kalah.rules import KalahError, Outcome, Variant

from .agents import outcome_of
from .games import AbsentSeat, AgentSeat, Seat

if TYPE_CHECKING:
    from .server import ClassServer

log = logging.getLogger(__name__)


class TournamentError(KalahError, ValueError):
    """A tournament that cannot be set up (e.g. a stage that is not PITSxSEEDS)."""


def parse_stage(text: str) -> Variant:
    """``6x6`` (pits x seeds) as a variant, 1 to 12 pits (the ranges of ``Variant``)."""
    match = re.fullmatch(r"\s*(\d{1,3})\s*[xX,:]\s*(\d{1,3})\s*", text)
    if match is None:
        raise TournamentError(f"a stage is PITSxSEEDS such as 6x6, got {text!r}")
    return Variant(pits=int(match.group(1)), seeds=int(match.group(2)))


class FieldSource(Protocol):
    """Who the field is when it is not whoever connects first (the submitted agents)."""

    def field(self) -> list[int] | None:
        """The agents' ids once every one has signed in or is out (None: still waiting)."""

    def waiting_for(self) -> str:
        """What the field still waits for, in words."""


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
        event: str | None = None,
    ) -> None:
        self.field_size, self.stages, self.games_per_pairing = field, stages, games_per_pairing
        self.wait, self.swiss_rounds, self.standings_path = wait, swiss_rounds, standings
        self.event = event or "tournament-" + time.strftime("%Y%m%d-%H%M%S")
        self.status = "waiting for the field"
        self.field: list[int] = []
        self.qualified: set[int] = set()
        self.points: dict[int, float] = {}
        self.stage_status: list[str] = ["waiting"] * len(stages)
        self.games_played = 0
        self.finished = asyncio.Event()
        self.source: FieldSource | None = None  # the submitted agents, when the server runs them
        self._server: ClassServer | None = None
        self._stored: dict[tuple[str, str, int, int], deque[Outcome]] = defaultdict(deque)

    async def run(self, server: ClassServer) -> None:
        """Gather the field (or read it back), play the stages (what is not played yet), write the standings."""
        self._server = server
        stored = await asyncio.to_thread(self._read_back, server)
        if stored:
            self.field = stored
            played = sum(len(outcomes) for outcomes in self._stored.values())
            log.info("tournament %s: resuming with %d agents, %d games played", self.event, len(stored), played)
            await self._reassemble(server)
        else:
            await self._gather(server)
            await asyncio.to_thread(self._keep_field, server)
            log.info("tournament %s: the field is %s", self.event, ", ".join(self._name(i) for i in self.field))
        self.points = {agent_id: 0.0 for agent_id in self.field}
        self.status = "stage 0: each agent must beat the random bot"
        log.info("tournament %s: %s", self.event, self.status)
        await self._qualify(server)
        players = [agent_id for agent_id in self.field if agent_id in self.qualified]
        log.info("tournament %s: %d of %d qualified", self.event, len(players), len(self.field))
        for number, variant in enumerate(self.stages, 1):
            self.status = f"stage {number} of {len(self.stages)}: {variant.name}"
            self.stage_status[number - 1] = "playing"
            log.info("tournament %s: %s", self.event, self.status)
            if self.swiss_rounds:
                await self._swiss(server, players, variant)
            else:
                await self._round_robin(server, players, variant)
            self.stage_status[number - 1] = "finished"
        self.status = "finished"
        if self.standings_path is not None:
            await asyncio.to_thread(self.write_standings, self.standings_path)
            log.info(
                "tournament %s: standings written to %s and %s",
                self.event,
                self.standings_path.with_suffix(".csv"),
                self.standings_path.with_suffix(".json"),
            )
        log.info("tournament %s: finished", self.event)
        self.finished.set()

    def _name(self, agent_id: int) -> str:
        agent = self._server.book.agent(agent_id) if self._server else None
        return f"{agent.name if agent else '?'} (#{agent_id})"

    def _read_back(self, server: ClassServer) -> list[int]:
        """The field and the results a stopped run of this tournament left in the database."""
        with server.book.transaction() as db:
            rows = db.execute(
                "SELECT agent_id FROM kgp_tournament_field WHERE event = ? ORDER BY seat", (self.event,)
            ).fetchall()
        for event in (self.event, self.event + "-qualification"):
            for result in reversed(server.book.results(event)):  # oldest first
                self._stored[(event, result["variant"], result["south"], result["north"])].append(outcome_of(result))
        return [int(row[0]) for row in rows]

    def _keep_field(self, server: ClassServer) -> None:
        with server.book.transaction() as db:
            db.executemany(
                "INSERT INTO kgp_tournament_field (event, agent_id, seat) VALUES (?, ?, ?)",
                [(self.event, agent_id, seat) for seat, agent_id in enumerate(self.field)],
            )

    async def _gather(self, server: ClassServer) -> None:
        """Wait for the field: woken by each agent that begins to wait (never polling the queue)."""
        first_seen: float | None = None
        while True:
            if self.source is not None:
                field = self.source.field()
                if field is not None:
                    self.field = field
                    server.take_waiting([s for s in server.waiting if s.agent and s.agent.id in field])
                    return
                self.status = "waiting for " + self.source.waiting_for()
                await server.next_change(None)
                continue
            ready = [s for s in server.waiting if s.token is not None and not s.closed.is_set()]
            if ready and first_seen is None:
                first_seen = time.monotonic()
            left = None if first_seen is None else self.wait - (time.monotonic() - first_seen)
            if len(ready) >= self.field_size or (left is not None and left <= 0 and len(ready) >= 2):
                chosen = ready[: self.field_size]
                server.take_waiting(chosen)
                self.field = [s.agent.id for s in chosen if s.agent is not None]
                return
            self.status = f"waiting for the field: {len(ready)} of {self.field_size} agents with tokens"
            if left is not None and left > 0:
                self.status += f", starting in {left:.0f} s with those present (at least 2)"
            await server.next_change(None if left is None else max(left, 0.05))

    async def _reassemble(self, server: ClassServer) -> None:
        """A resumed tournament waits for its field to come back: the submitted agents to sign in (or be
        out), agents online for ``wait`` seconds at most (an agent not back by then forfeits its games)."""
        deadline = time.monotonic() + self.wait
        while True:
            if self.source is not None:
                if self.source.field() is not None:
                    return
                self.status = "resuming: waiting for " + self.source.waiting_for()
                await server.next_change(None)
                continue
            missing = [agent_id for agent_id in self.field if server.session_of(agent_id) is None]
            left = deadline - time.monotonic()
            if not missing or left <= 0:
                return
            self.status = f"resuming: waiting {left:.0f} s more for {len(missing)} agents of the field"
            await server.next_change(left)

    def _seat(self, server: ClassServer, agent_id: int) -> Seat:
        session = server.session_of(agent_id)
        if session is not None and session.mode is not None:
            return AgentSeat(session)
        agent = server.book.agent(agent_id)
        assert agent is not None
        return AbsentSeat(agent)

    async def _game(
        self, server: ClassServer, seats: tuple[Seat, Seat], variant: Variant, event: str
    ) -> Outcome | None:
        """How the game ended (south is player 0): stored by a stopped run, or played now (a game the
        library refused, the abandoned, is played again a few times at most)."""
        kept = self._stored.get((event, variant.name, seats[0].agent.id, seats[1].agent.id))
        outcome: Outcome | None = kept.popleft() if kept else None
        for attempt in range(3 if outcome is None else 0):
            if attempt:
                await asyncio.sleep(1.0)
            sessions = [seat.session for seat in seats if isinstance(seat, AgentSeat)]
            outcome = await server.start_game(seats, sessions, event, variant)
            if outcome is not None:
                break
        if outcome is None:
            return None
        self.games_played += 1
        if event == self.event:
            for side, seat in enumerate(seats):
                if seat.agent.id in self.points:
                    self.points[seat.agent.id] += outcome.score(side)
        return outcome

    async def _qualify(self, server: ClassServer) -> None:
        async def qualify(agent_id: int) -> None:
            total = 0.0
            for side in (0, 1):
                bot = server.bot_seat(0)
                me = self._seat(server, agent_id)
                seats: tuple[Seat, Seat] = (me, bot) if side == 0 else (bot, me)
                outcome = await self._game(server, seats, self.stages[0], self.event + "-qualification")
                if outcome is not None:
                    total += outcome.score(side)
            if total > 1:
                self.qualified.add(agent_id)

        await asyncio.gather(*(qualify(agent_id) for agent_id in self.field))

    async def _pair_games(self, server: ClassServer, first: int, second: int, variant: Variant) -> None:
        for game in range(self.games_per_pairing):
            south, north = (first, second) if game % 2 == 0 else (second, first)
            await self._game(server, (self._seat(server, south), self._seat(server, north)), variant, self.event)

    async def _round_robin(self, server: ClassServer, players: list[int], variant: Variant) -> None:
        # The circle method: n - 1 rounds (n even; a bye when odd), every pair once, nobody twice in a round.
        seats: list[int | None] = list(players) + ([None] if len(players) % 2 else [])
        for _ in range(len(seats) - 1):
            half = len(seats) // 2
            pairs = [(seats[i], seats[-1 - i]) for i in range(half)]
            await asyncio.gather(*(self._pair_games(server, a, b, variant) for a, b in pairs if a and b))
            seats = [seats[0], seats[-1], *seats[1:-1]]

    async def _swiss(self, server: ClassServer, players: list[int], variant: Variant) -> None:
        met: set[frozenset[int]] = set()
        for _ in range(self.swiss_rounds):
            order = sorted(players, key=lambda agent_id: -self.points.get(agent_id, 0.0))
            bye = order.pop() if len(order) % 2 else None  # the last of the standings sits out, for a win
            pairs = swiss_pairs(order, met)
            for first, second in pairs:
                met.add(frozenset((first, second)))
            if bye is not None:
                self.points[bye] += 1.0
            await asyncio.gather(*(self._pair_games(server, a, b, variant) for a, b in pairs))

    # --- standings ----------------------------------------------------------------------

    def standings(self) -> list[dict[str, Any]]:
        """The field, best first: points, then rating."""
        if self._server is None:
            return []
        book = self._server.book
        ratings = {line.agent.id: line.to_dict() for line in book.standings(self.event, anonymous=True)}
        rows = []
        for agent_id in self.field:
            agent = book.agent(agent_id)
            if agent is None:
                continue
            row = ratings.get(agent_id) or {
                **agent.to_dict(),
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
                    "points": self.points.get(agent_id, 0.0),
                    "qualified": agent_id in self.qualified,
                }
            )
        return sorted(rows, key=lambda row: (-row["points"], -row["elo"], row["id"]))

    def to_dict(self) -> dict[str, Any]:
        """The tournament as JSON: status, stages, standings."""
        return {
            "event": self.event,
            "status": self.status,
            "stages": [
                {**variant.to_dict(), "name": variant.name, "status": status}
                for variant, status in zip(self.stages, self.stage_status, strict=True)
            ],
            "kind": f"Swiss, {self.swiss_rounds} rounds" if self.swiss_rounds else "round robin",
            "games_played": self.games_played,
            "standings_files": (
                [str(self.standings_path.with_suffix(suffix)) for suffix in (".csv", ".json")]
                if self.standings_path is not None and self.status == "finished"
                else []
            ),
            "standings": self.standings(),
        }

    def standings_csv(self) -> str:
        """The standings as CSV: rank, name, points, qualified, games, wins, draws, losses, Elo and interval."""
        text = io.StringIO()
        writer = csv.writer(text)
        writer.writerow(CSV_COLUMNS)
        for rank, row in enumerate(self.standings(), 1):
            writer.writerow([rank, *(row[column] for column in CSV_COLUMNS[1:])])
        return text.getvalue()

    def write_standings(self, path: Path) -> None:
        """``PATH.csv`` and ``PATH.json`` (written atomically)."""
        write_atomic(path.with_suffix(".json"), json.dumps(self.to_dict(), indent=2) + "\n")
        write_atomic(path.with_suffix(".csv"), self.standings_csv())


CSV_COLUMNS = ("rank", "name", "points", "qualified", "games", "wins", "draws", "losses", "elo", "elo_low", "elo_high")
