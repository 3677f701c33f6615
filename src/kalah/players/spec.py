"""Player specs: ``NAME[:key=value,...]``, e.g. ``random:seed=3`` or ``pvs:time=1.5``.

Each player module registers the names it provides; the command line, the
web server and the arena all make players here, so a new engine plugs in by
registering itself once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from kalah.rules import KalahError

from .base import Player


class PlayerSpecError(KalahError, ValueError):
    """A player spec that cannot be parsed or names no known player."""


@dataclass(frozen=True)
class PlayerType:
    name: str
    factory: Callable[..., Player]  # called with the spec's options as keyword strings
    summary: str
    options: str = ""  # e.g. "depth=N, eval=seed|store|strong"


_TYPES: dict[str, PlayerType] = {}


def register_player(name: str, factory: Callable[..., Player], summary: str, options: str = "") -> None:
    _TYPES[name] = PlayerType(name, factory, summary, options)


def player_types() -> dict[str, PlayerType]:
    _load_builtin_players()
    return dict(sorted(_TYPES.items()))


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``name:key=value,...`` into the name and its options (values stay strings)."""
    if not isinstance(spec, str) or not spec.strip():
        raise PlayerSpecError("a player spec must be a non-empty string such as 'random:seed=3'")
    name, _, rest = spec.strip().partition(":")
    if name == "exec" or name.startswith("exec["):
        # exec[key=value,...]:COMMAND: the options come first, since the command
        # line runs to the end of the spec, commas and all.
        if name != "exec" and not name.endswith("]"):
            raise PlayerSpecError(f"bad player spec {spec!r}: expected exec[key=value,...]:COMMAND")
        options = _options(name[5:-1], spec) if name != "exec" else {}
        if rest:
            options["command"] = rest
        return "exec", options
    return name.strip().lower(), _options(rest, spec)


def _options(text: str, spec: str) -> dict[str, str]:
    options: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        key, equals, value = item.partition("=")
        if not equals or not key.strip():
            raise PlayerSpecError(f"bad option {item!r} in player spec {spec!r}: expected key=value")
        options[key.strip()] = value.strip()
    return options


def make_player(spec: str) -> Player:
    """Make the player a spec describes, or raise :class:`PlayerSpecError` naming the problem."""
    name, options = parse_spec(spec)
    types = player_types()
    if name not in types:
        raise PlayerSpecError(f"unknown player {name!r} in spec {spec!r}; known players: {', '.join(types)}")
    try:
        player = types[name].factory(**options)
    except TypeError as error:
        hint = f" (options: {types[name].options})" if types[name].options else " (it takes no options)"
        raise PlayerSpecError(f"bad options for player {name!r}: {error}{hint}") from None
    player.spec = spec.strip()
    return player


def int_option(name: str, value: str | int | None, default: int | None = None, minimum: int | None = None) -> int | None:
    """Read an integer option of a spec, with an error that names it."""
    if value is None:
        return default
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise PlayerSpecError(f"option {name} must be an integer, got {value!r}") from None
    if minimum is not None and number < minimum:
        raise PlayerSpecError(f"option {name} must be at least {minimum}, got {number}")
    return number


def float_option(name: str, value: str | float | None, default: float | None = None, positive: bool = True) -> float | None:
    if value is None:
        return default
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise PlayerSpecError(f"option {name} must be a number, got {value!r}") from None
    if number != number or (positive and number <= 0) or number < 0:
        raise PlayerSpecError(f"option {name} must be a {'positive' if positive else 'non-negative'} number, got {value}")
    return number


# Modules whose import registers players. Engines add themselves here.
BUILTIN_PLAYER_MODULES = [
    "kalah.players.human",
    "kalah.players.random",
    "kalah.players.replay",
    "kalah.players.engines",  # minimax, alphabeta, scout, pvs, mtdf, mcts
    "kalah.players.perfect",  # perfect: the exact solver
    "kalah.mankalah.external",  # exec:COMMAND, another program over the ManKalah protocol
]


def _load_builtin_players() -> None:
    import importlib

    for module in BUILTIN_PLAYER_MODULES:
        importlib.import_module(module)
