"""Finding games in the library: by player, variant, result and date.

One filter for ``kalah games list`` and whatever else lists games, applied to
the summaries the library lists (the web page's search box follows the same
rules in ``library.js``)."""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from kalah.rules import KalahError, Variant

from .summary import GameSummary

#: The results a filter can ask for: a status, or how a finished game ended.
RESULTS = ("finished", "unfinished", "playing", "stopped", "draw", "decisive")


class GameFilterError(KalahError):
    """A filter of games that cannot be applied: an unknown result, a date that is not YYYY-MM-DD."""


def parse_day(text: str, option: str) -> datetime.date:
    """A day written ``YYYY-MM-DD``.

    Raises:
        GameFilterError: ``text`` is not a day written YYYY-MM-DD (the message names ``option``).
    """
    try:
        return datetime.date.fromisoformat(text.strip())
    except ValueError:
        raise GameFilterError(f"{option} must be a day written YYYY-MM-DD, got {text!r}") from None


def variant_name(data: dict[str, Any]) -> str:
    """The name of a stored variant (``Kalah(6,4)``), or '' when the library holds something odd."""
    try:
        return Variant.from_dict(data).name
    except (KalahError, TypeError, ValueError, AttributeError):
        return ""


@dataclass(frozen=True)
class GameFilter:
    """Which games to keep; a field left None keeps every game."""

    player: str | None = None
    """Text found in either player's name or spec, ignoring case (``pvs``, ``human``)."""
    variant: str | None = None
    """Text found in the variant's name, ignoring case and spaces (``Kalah(6,4)``, ``(4,3)``)."""
    result: str | None = None
    """One of :data:`RESULTS`."""
    since: datetime.date | None = None
    """The first day (UTC) of the games' start, included."""
    until: datetime.date | None = None
    """The last day (UTC) of the games' start, included."""

    def __post_init__(self) -> None:
        if self.result is not None and self.result not in RESULTS:
            raise GameFilterError(f"unknown result {self.result!r}; accepted: {', '.join(RESULTS)}")
        if self.since is not None and self.until is not None and self.since > self.until:
            raise GameFilterError(f"the first day {self.since} comes after the last day {self.until}")

    def keeps(self, game: GameSummary) -> bool:
        """Whether ``game`` passes every part of the filter."""
        if self.player is not None:
            wanted = self.player.strip().lower()
            if not any(wanted in f"{p.name}\n{p.spec}".lower() for p in game.players):
                return False
        if self.variant is not None:
            wanted = "".join(self.variant.split()).lower()
            if wanted not in variant_name(game.variant).lower():
                return False
        if self.result is not None and not _result_is(game, self.result):
            return False
        if self.since is not None or self.until is not None:
            day = _start_day(game)
            if (
                day is None
                or (self.since is not None and day < self.since)
                or (self.until is not None and day > self.until)
            ):
                return False
        return True

    def apply(self, games: Iterable[GameSummary]) -> Iterator[GameSummary]:
        """The games that the filter keeps, in their order."""
        return (game for game in games if self.keeps(game))


def _result_is(game: GameSummary, result: str) -> bool:
    finished = game.status == "finished"
    if result == "finished":
        return finished
    if result == "unfinished":
        return not finished
    if result in ("playing", "stopped"):
        return game.status == result
    if not finished or (game.scores is None and game.outcome is None):
        return False
    return (game.winner is None) == (result == "draw")  # a game decided off the board has its winner


def _start_day(game: GameSummary) -> datetime.date | None:
    try:
        moment = datetime.datetime.fromisoformat(game.started_at.replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is not None:
        moment = moment.astimezone(datetime.UTC)
    return moment.date()
