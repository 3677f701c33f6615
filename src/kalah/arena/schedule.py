"""Which games a round robin plays, which of them the library already holds,
and the results of those it holds.

A match is identified by its key: a hash of the sorted player specs, the
variant, the games per pairing and the openings. A player's spec is the one it
gives itself (``check_players``): a policy file's names the file's content, so
that an arena run again after the file was trained again is a new match. Every game is stored in the
game library, once, when it is over, with tags::

    {"arena": KEY, "pairing": "0-2", "opening": 7, "colour": 1,
     "seats": [2, 0], "forfeit": 1}          # forfeit only if a player failed

``pairing`` names two players by their index in the sorted spec list,
``colour`` 0 means the first of them sits at seat 0 (moves first from the
opening), 1 the other way round, and ``seats`` lists who sat at seat 0 and 1.
A slot ``(pairing, opening, colour)`` is done when the library holds a
finished (or forfeited) game for it; running the match again plays only the
slots that are not done, and the results read one game per slot.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from kalah.players import make_player
from kalah.records import GameLibrary, GameSummary
from kalah.rules import KalahError, Outcome, Position, Variant
from kalah.rules.outcome import WORDS
from kalah.rules.wording import plural

from .elo import Rating, fit_ratings


class ArenaError(KalahError):
    """A match that cannot be set up as asked."""


@dataclass(frozen=True)
class GameTask:
    """One game to play: everything a worker process needs, and nothing else."""

    key: str
    pairing: tuple[int, int]
    opening: int
    colour: int
    seats: tuple[int, int]  # player indices at seat 0 and seat 1
    specs: tuple[str, str]  # their specs
    start: str  # position JSON

    @property
    def slot(self) -> tuple[str, int, int]:
        """The game's place in the schedule: (pairing, opening, colour)."""
        return (f"{self.pairing[0]}-{self.pairing[1]}", self.opening, self.colour)

    @property
    def tags(self) -> dict[str, Any]:
        """The library tags that identify this game of the arena, so that a resumed arena skips it."""
        return {
            "arena": self.key,
            "pairing": f"{self.pairing[0]}-{self.pairing[1]}",
            "opening": self.opening,
            "colour": self.colour,
            "seats": list(self.seats),
        }


#: Games per pairing at most: each is a task, a record and a row of the library; beyond this a match
#: would fill memory with its schedule before it played a game.
MAX_GAMES = 100_000


def check_players(players: list[str], variant: Variant | None = None) -> list[str]:
    """The specs of an arena's players as their players name themselves, sorted, each a computer player
    named once. A player's own spec can say more than the text given: a policy file's names its content
    (``policy:file=agent.npz,digest=...``), so that an arena of a file trained again is a new arena.

    Raises:
        ArenaError: fewer than two players, one listed twice, or one that needs a person.
        PlayerSpecError: a spec that makes no player, or (with ``variant``) a player that cannot play it
            (a policy trained on another variant).
    """
    if len(players) < 2:
        raise ArenaError(f"an arena needs at least two players, got {len(players)}")
    specs = []
    for given in players:
        player = make_player(given)  # fails early, with the spec module's message, on unknown players
        if not getattr(player, "is_computer", False):
            raise ArenaError(
                f"player {given.strip()!r} needs a person at a board; the arena plays computer players only"
            )
        check = getattr(player, "check_variant", None)
        if variant is not None and check is not None:
            check(variant)
        specs.append(player.spec if getattr(player, "pins_spec", False) else given.strip())
    duplicates = sorted({spec for spec in specs if specs.count(spec) > 1})
    if duplicates:
        raise ArenaError(
            f"player {duplicates[0]!r} is listed twice; give each player once "
            "(to rate two copies, tell them apart by an option such as seed=)"
        )
    return sorted(specs)


def check_games(games: int) -> int:
    """Games per pairing: a positive even number up to MAX_GAMES.

    Raises:
        ArenaError: ``games`` is odd, below 2 or above ``MAX_GAMES``.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 2 or games % 2 or games > MAX_GAMES:
        raise ArenaError(
            f"games per pairing must be an even number from 2 to {MAX_GAMES:,} (each opening is played "
            f"from both sides), got {games!r}"
        )
    return games


@dataclass
class Arena:
    """A round robin: every pair of players plays ``games`` games, each opening twice."""

    players: list[str]
    variant: Variant
    games: int
    openings: list[Position]
    key: str = field(init=False)

    def __post_init__(self) -> None:
        self.players = check_players(self.players, self.variant)
        check_games(self.games)
        if len(self.openings) < self.games // 2:
            raise ArenaError(
                f"{self.games} games per pairing need {plural(self.games // 2, 'opening')}, got {len(self.openings)}"
            )
        self.openings = list(self.openings[: self.games // 2])
        for index, opening in enumerate(self.openings):
            if opening.variant != self.variant:
                raise ArenaError(f"opening {index} is for {opening.variant.name}, the match plays {self.variant.name}")
        identity = {
            "players": self.players,
            "variant": self.variant.to_dict(),
            "games": self.games,
            "openings": [opening.to_dict() for opening in self.openings],
        }
        self.key = hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()[:16]

    @property
    def pairings(self) -> list[tuple[int, int]]:
        """Every pair of players that meets, each pair once."""
        return list(combinations(range(len(self.players)), 2))

    @property
    def total_games(self) -> int:
        """Games in the whole arena: the pairings times the games of each."""
        return len(self.pairings) * self.games

    def tasks(self) -> Iterator[GameTask]:
        """Every game of the match, made as they are asked for (``total_games`` counts them: a round
        robin of many players holds millions, too many to keep before the first is played), interleaved
        so that an interrupted match has played all pairings about equally."""
        pairings = self.pairings
        for opening_index, opening in enumerate(self.openings):
            start = opening.to_json()
            for colour in (0, 1):
                for a, b in pairings:
                    seats = (a, b) if colour == 0 else (b, a)
                    yield GameTask(
                        self.key,
                        (a, b),
                        opening_index,
                        colour,
                        seats,
                        (self.players[seats[0]], self.players[seats[1]]),
                        start,
                    )

    # --- what the library holds ---------------------------------------------------

    def stored_games(self, library: GameLibrary) -> dict[tuple[Any, Any, Any], GameSummary]:
        """One completed game per done slot (the first stored), keyed by slot."""
        done: dict[tuple[Any, Any, Any], GameSummary] = {}
        for game in sorted(library.list_games(tags={"arena": self.key}), key=lambda g: g.id):
            tags = game.tags
            completed = game.status == "finished" or "forfeit" in tags
            slot = (tags.get("pairing"), tags.get("opening"), tags.get("colour"))
            if completed and slot not in done:
                done[slot] = game
        return done

    def missing(self, library: GameLibrary) -> tuple[int, Iterator[GameTask]]:
        """The games of the schedule that the library does not hold finished yet: how many (counted
        without making them), and the games themselves in the schedule's order, made as they are asked
        for. One read of the library for both. A slot the schedule has not (a damaged tag) is not counted."""
        done = self.stored_games(library)
        count = self.total_games - sum(1 for slot in done if self._in_schedule(slot))
        return count, (task for task in self.tasks() if task.slot not in done)

    def missing_tasks(self, library: GameLibrary) -> Iterator[GameTask]:
        """The games ``missing`` gives, without their count."""
        return self.missing(library)[1]

    def missing_count(self, library: GameLibrary) -> int:
        """How many games ``missing`` gives, without making them."""
        return self.missing(library)[0]

    def _in_schedule(self, slot: tuple[Any, Any, Any]) -> bool:
        pairing, opening, colour = slot
        first, dash, second = str(pairing).partition("-")
        if not (dash and first.isdigit() and second.isdigit()):
            return False
        a, b = int(first), int(second)
        return (
            0 <= a < b < len(self.players)
            and f"{a}-{b}" == pairing
            and type(opening) is int
            and 0 <= opening < len(self.openings)
            and colour in (0, 1)
            and type(colour) is int
        )

    def results(self, library: GameLibrary) -> ArenaResults:
        """Standings and ratings from the arena's finished games in the library."""
        outcomes: list[tuple[int, int, Outcome]] = []
        forfeits = []
        for game in self.stored_games(library).values():
            seats = game.tags["seats"]
            if "forfeit" in game.tags:
                loser = int(game.tags["forfeit"])
                outcome = Outcome.decided(loser, "forfeit")
                forfeits.append((int(seats[loser]), str(game.tags.get("forfeit_reason") or "reason not recorded")))
            else:
                outcome = game.outcome or Outcome(game.winner)
            outcomes.append((int(seats[0]), int(seats[1]), outcome))
        return ArenaResults.from_outcomes(self.players, outcomes, self.games, forfeits)


@dataclass(frozen=True)
class PlayerRow:
    """One player's line of the standings: games, wins, draws, losses and rating."""

    spec: str
    games: int
    wins: int
    draws: int
    losses: int
    rating: Rating
    forfeits: int = 0
    """Of the losses, those by forfeit: the player broke the rules, failed or ran out of time."""

    @property
    def score(self) -> float:
        """Points (a win 1, a draw 1/2) per game."""
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0


@dataclass(frozen=True)
class PairRow:
    """The score of one pairing, from the first player's point of view."""

    first: str
    second: str
    games: int
    wins: int  # of ``first``
    draws: int
    losses: int

    @property
    def score(self) -> float:
        """Points (a win 1, a draw 1/2) per game for the first player."""
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0


@dataclass(frozen=True)
class ArenaResults:
    """The tables of a match, as data: one row per player (best first) and per pairing."""

    players: list[PlayerRow]
    pairs: list[PairRow]
    games_played: int
    games_planned: int
    forfeits: list[tuple[str, str, int]] = field(default_factory=list)
    """Why players forfeited: (spec, reason, games), most frequent first."""

    @classmethod
    def from_outcomes(
        cls,
        specs: Sequence[str],
        outcomes: Sequence[tuple[int, int, Outcome]],
        games_per_pairing: int,
        forfeits: Sequence[tuple[int, str]] = (),
    ) -> ArenaResults:
        """Standings and Bradley-Terry ratings from (player 0, player 1, outcome) triples: the players of
        the game's two seats by their number in ``specs``; ``forfeits`` gives (player, reason) for each game
        lost by forfeit."""
        count = len(specs)
        tally = [[0, 0, 0] for _ in range(count)]  # won, drew, lost
        pair: dict[tuple[int, int], list[int]] = {}
        for i, j, outcome in outcomes:
            a, b = min(i, j), max(i, j)
            column = WORDS.index(outcome.word(0 if i == a else 1))  # what the first of the pairing did
            entry = pair.setdefault((a, b), [0, 0, 0])
            entry[column] += 1
            tally[a][column] += 1
            tally[b][2 - column] += 1
        ratings = fit_ratings(count, [(i, j, outcome.score(0)) for i, j, outcome in outcomes])
        lost = Counter(player for player, _ in forfeits)
        rows = [
            PlayerRow(specs[i], sum(tally[i]), tally[i][0], tally[i][1], tally[i][2], ratings[i], lost[i])
            for i in range(count)
        ]
        rows.sort(key=lambda row: (-row.rating.elo, row.spec))
        pairs = [PairRow(specs[a], specs[b], sum(v), *v) for (a, b), v in sorted(pair.items())]
        pairings = count * (count - 1) // 2
        reasons = Counter((specs[player], reason) for player, reason in forfeits)
        why = [
            (spec, reason, games)
            for (spec, reason), games in sorted(reasons.items(), key=lambda item: (-item[1], item[0]))
        ]
        return cls(rows, pairs, len(outcomes), pairings * games_per_pairing, why)

    def to_dict(self) -> dict[str, Any]:
        """The standings and pairings as a JSON-ready dict."""
        return {
            "games_played": self.games_played,
            "games_planned": self.games_planned,
            "players": [
                {
                    "spec": r.spec,
                    "games": r.games,
                    "wins": r.wins,
                    "draws": r.draws,
                    "losses": r.losses,
                    "forfeits": r.forfeits,
                    "score": round(r.score, 4),
                    "elo": round(r.rating.elo, 1),
                    "elo_low": round(r.rating.low, 1),
                    "elo_high": round(r.rating.high, 1),
                }
                for r in self.players
            ],
            "pairs": [
                {
                    "first": p.first,
                    "second": p.second,
                    "games": p.games,
                    "wins": p.wins,
                    "draws": p.draws,
                    "losses": p.losses,
                    "score": round(p.score, 4),
                }
                for p in self.pairs
            ],
            "forfeits": [{"spec": spec, "reason": reason, "games": games} for spec, reason, games in self.forfeits],
        }

    def markdown(self) -> str:
        """The two tables in Markdown (the CLI draws its own; benchmarks write this)."""
        lines = [
            "| player | games | wins | draws | losses | forfeits | score | Elo | 95% interval |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---|",
        ]
        for r in self.players:
            lines.append(
                f"| `{r.spec}` | {r.games} | {r.wins} | {r.draws} | {r.losses} | {r.forfeits} | {100 * r.score:.1f}% "
                f"| {r.rating.elo:+.0f} | {r.rating.low:+.0f} .. {r.rating.high:+.0f} |"
            )
        lines += ["", "| pairing | games | wins | draws | losses | score of first |", "|---|---:|---:|---:|---:|---:|"]
        for p in self.pairs:
            lines.append(
                f"| `{p.first}` vs `{p.second}` | {p.games} | {p.wins} | {p.draws} | {p.losses} "
                f"| {100 * p.score:.1f}% |"
            )
        if self.forfeits:
            lines += ["", "Forfeits:", ""]
            lines += [f"- `{spec}`, {plural(games, 'game')}: {reason}" for spec, reason, games in self.forfeits]
        return "\n".join(lines) + "\n"
