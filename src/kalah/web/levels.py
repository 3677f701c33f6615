"""Named strength levels for computer players: a table of player specs.

Only levels whose player type is registered are offered, so the server works
with the players that exist today and gains levels as engines land.
"""

from __future__ import annotations

from dataclasses import dataclass

from kalah.players import parse_spec, player_types


@dataclass(frozen=True)
class Level:
    """A named strength of computer player: the player spec it stands for."""

    name: str
    spec: str
    summary: str


LEVELS: tuple[Level, ...] = (
    Level("beginner", "random", "plays random legal moves"),
    Level("easy", "alphabeta:depth=2", "looks two moves ahead"),
    Level("medium", "pvs:depth=6", "a six-move search"),
    Level("hard", "pvs:time=1", "searches one second a move"),
    Level("expert", "pvs:time=3", "searches three seconds a move"),
    Level("perfect", "perfect", "plays perfectly where it can solve the game"),
)

DEFAULT_LEVEL = "medium"


def available_levels() -> list[Level]:
    """The levels whose engine is registered, weakest first."""
    types = player_types()
    return [level for level in LEVELS if parse_spec(level.spec)[0] in types]


def level_named(name: str) -> Level | None:
    """The level of that name, or None."""
    for level in available_levels():
        if level.name == name:
            return level
    return None


def default_level() -> Level:
    """``medium`` when it exists, else the nearest available level (preferring the weaker one)."""
    levels = available_levels()
    names = [level.name for level in LEVELS]
    wanted = names.index(DEFAULT_LEVEL)
    return min(levels, key=lambda level: (abs(names.index(level.name) - wanted), names.index(level.name)))


def level_of_spec(spec: str) -> str | None:
    """The name of the level that plays ``spec``, or None."""
    for level in LEVELS:
        if level.spec == spec:
            return level.name
    return None
