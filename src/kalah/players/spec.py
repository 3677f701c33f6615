"""Player specs: ``NAME[:key=value,...]``, e.g. ``random:seed=3`` or ``pvs:time=1.5``.

Each player module registers the names it provides; the command line, the
web server and the arena all make players here, so a new engine plugs in by
registering itself once.
"""

from __future__ import annotations

import difflib
import inspect
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import overload

from kalah.rules import KalahError

from .base import Player


class PlayerSpecError(KalahError, ValueError):
    """A player spec that cannot be parsed or names no known player."""


class ExternalPlayerRefusedError(PlayerSpecError):
    """A spec whose player would run a program or read a file, where only self-contained players are allowed.

    The web server refuses such specs from its clients unless it was started
    with ``--allow-exec``: a spec is text from the network, and ``exec:``
    runs it as a command.
    """


@dataclass(frozen=True)
class PlayerType:
    """A registered kind of player: how to make it from a spec and what it needs."""

    name: str
    factory: Callable[..., Player]  # called with the spec's options as keyword strings
    summary: str
    options: str = ""  # e.g. "depth=N, eval=seed|store|strong"
    #: What the player reaches outside the process ("runs a program on this machine"),
    #: or None for players that only compute. Servers refuse such players from strangers.
    external: str | None = None


_TYPES: dict[str, PlayerType] = {}


def register_player(
    name: str, factory: Callable[..., Player], summary: str, options: str = "", external: str | None = None
) -> None:
    """Make ``name`` a player spec. ``external`` says what the player reaches outside the
    process (a program it runs, a file it reads); such players can be refused."""
    _TYPES[name] = PlayerType(name, factory, summary, options, external)


def player_types(include_external: bool = True) -> dict[str, PlayerType]:
    """The registered player types by name; without ``include_external``, only those that just compute."""
    _load_builtin_players()
    return {name: kind for name, kind in sorted(_TYPES.items()) if include_external or kind.external is None}


def external_access(spec: str) -> str | None:
    """What the spec's player would do outside the process (e.g. "runs a program on this machine"), or None.

    An unparsable spec or an unknown name reaches nothing (making it fails anyway).
    """
    try:
        name, _ = parse_spec(spec)
    except PlayerSpecError:
        return None
    kind = player_types().get(name)
    return kind.external if kind is not None else None


def check_self_contained(spec: str) -> None:
    """Raise :class:`ExternalPlayerRefusedError` if the spec's player runs a program or reads a file."""
    reach = external_access(spec)
    if reach is not None:
        name = parse_spec(spec)[0]
        raise ExternalPlayerRefusedError(
            f"player {name!r} is refused here: it {reach}; only players that compute are allowed"
        )


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
        if key.strip() in options:  # the last would win unseen, and the user may have meant the first
            raise PlayerSpecError(f"option {key.strip()!r} is given twice in player spec {spec!r}")
        options[key.strip()] = value.strip()
    return options


# Players that come through entry points: when one is missing, the installed metadata is older
# than the source (an editable install made before the entry point existed).
_ENTRY_POINT_PLAYERS = ("replay", "exec")
_STALE_METADATA_HINT = " (the installed package lists no such entry point: reinstall it with pip install -e .)"


def make_player(spec: str, *, allow_external: bool = True) -> Player:
    """Make the player a spec describes, or raise :class:`PlayerSpecError` naming the problem.

    With ``allow_external=False``, players that run programs or read files
    (``exec:``, ``replay:file=``) are refused with :class:`ExternalPlayerRefusedError`.
    """
    if not allow_external:
        check_self_contained(spec)
    name, options = parse_spec(spec)
    types = player_types()
    if name not in types:
        raise PlayerSpecError(
            f"unknown player {name!r} in spec {spec!r}; known players: {', '.join(types)}"
            + _STALE_METADATA_HINT * (name in _ENTRY_POINT_PLAYERS)
        )
    allowed = _option_names(types[name].factory)
    unknown = [key for key in options if allowed is not None and key not in allowed]
    if unknown:
        close = difflib.get_close_matches(unknown[0], sorted(allowed or ()), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        takes = f"its options: {', '.join(sorted(allowed or ()))}" if allowed else "it takes no options"
        raise PlayerSpecError(f"unknown option {unknown[0]!r} for player {name!r}{hint}; {takes}")
    try:
        player = types[name].factory(**options)
    except TypeError as error:
        hint = f" (options: {types[name].options})" if types[name].options else " (it takes no options)"
        raise PlayerSpecError(f"bad options for player {name!r}: {error}{hint}") from None
    if not getattr(player, "pins_spec", False):  # a policy's spec names its file's content, which the text may not
        player.spec = spec.strip()
    return player


def _option_names(factory: Callable[..., Player]) -> set[str] | None:
    """The keyword options a player factory takes, or None when it takes any: its ``option_names`` where
    it says (one factory may serve several players that take different options), else its signature's."""
    declared = getattr(factory, "option_names", None)
    if declared is not None:
        return set(declared)
    try:
        parameters = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(parameter.kind is parameter.VAR_KEYWORD for parameter in parameters):
        return None
    return {parameter.name for parameter in parameters}


#: The largest integer option a spec may give (a seed, a thread count): it fits a signed 64-bit integer.
MAX_INT_OPTION = 2**63 - 1
#: The longest time a spec may give, in seconds (a day): a number past it is a typo or an attack.
MAX_SECONDS_OPTION = 86_400.0


@overload
def int_option(
    name: str, value: str | int | None, default: int, minimum: int | None = None, maximum: int = MAX_INT_OPTION
) -> int: ...
@overload
def int_option(
    name: str, value: str | int | None, default: None = None, minimum: int | None = None, maximum: int = MAX_INT_OPTION
) -> int | None: ...
def int_option(
    name: str,
    value: str | int | None,
    default: int | None = None,
    minimum: int | None = None,
    maximum: int = MAX_INT_OPTION,
) -> int | None:
    """Read an integer option of a spec (at most ``maximum``), with an error that names it."""
    if value is None:
        return default
    if isinstance(value, bool):
        raise PlayerSpecError(f"option {name} must be an integer, got {value!r}")
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise PlayerSpecError(f"option {name} must be an integer, got {value!r}") from None
    if minimum is not None and number < minimum:
        raise PlayerSpecError(f"option {name} must be at least {minimum}, got {number}")
    if number > maximum:
        raise PlayerSpecError(f"option {name} must be at most {maximum}, got {number}")
    return number


@overload
def float_option(
    name: str, value: str | float | None, default: float, positive: bool = True, maximum: float = MAX_SECONDS_OPTION
) -> float: ...
@overload
def float_option(
    name: str,
    value: str | float | None,
    default: None = None,
    positive: bool = True,
    maximum: float = MAX_SECONDS_OPTION,
) -> float | None: ...
def float_option(
    name: str,
    value: str | float | None,
    default: float | None = None,
    positive: bool = True,
    maximum: float = MAX_SECONDS_OPTION,
) -> float | None:
    """Read a finite number option of a spec (at most ``maximum``), with an error that names it."""
    if value is None:
        return default
    if isinstance(value, bool):
        raise PlayerSpecError(f"option {name} must be a number, got {value!r}")
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        raise PlayerSpecError(f"option {name} must be a number, got {value!r}") from None
    if not math.isfinite(number):
        raise PlayerSpecError(f"option {name} must be a finite number, got {value}")
    if (positive and number <= 0) or number < 0:
        raise PlayerSpecError(
            f"option {name} must be a {'positive' if positive else 'non-negative'} number, got {value}"
        )
    if number > maximum:
        raise PlayerSpecError(f"option {name} must be at most {maximum:g}, got {value}")
    return number


# Modules of this package whose import registers players.
BUILTIN_PLAYER_MODULES = [
    "kalah.players.human",
    "kalah.players.random",
    "kalah.players.greedy",  # greedy: one move ahead, what kalah.rl's batched games train against
    "kalah.players.engines",  # minimax, alphabeta, scout, pvs, mtdf, mcts
    "kalah.players.perfect",  # perfect: the exact solver
    "kalah.players.policy",  # policy: a trained network (docs/rl.md)
]

#: Players of higher layers and of other packages register through entry points
#: of this group (``replay`` from kalah.records, ``exec`` from kalah.mankalah):
#: each entry point names a module whose import registers its players.
PLAYER_ENTRY_POINTS = "kalah.players"


_loaded = False


def _load_builtin_players() -> None:
    """Import the modules that register players, once (reading the entry points takes milliseconds)."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    import importlib
    from importlib.metadata import entry_points

    for module in BUILTIN_PLAYER_MODULES:
        importlib.import_module(module)
    for entry_point in entry_points(group=PLAYER_ENTRY_POINTS):
        try:
            entry_point.load()
        except Exception as error:  # a broken plugin must not take the other players down
            import warnings

            warnings.warn(
                f"the player plugin {entry_point.name!r} ({entry_point.value}) failed to load: {error}",
                RuntimeWarning,
                stacklevel=2,
            )
