"""What a client names as a player of a new game: 'human', a level's name, or a player spec; and which
players the server refuses to run for its clients (those that run programs or read files)."""

from __future__ import annotations

from kalah.players import ExternalPlayerRefusedError, check_self_contained, make_player
from kalah.records import PlayerInfo
from kalah.rules import KalahError

from .errors import ApiError, invalid
from .gamestate import is_human
from .levels import LEVELS, available_levels, level_named, level_of_spec

_EXEC_HINT = "this server runs no programs and reads no files for its clients (kalah serve --allow-exec allows it)"


def refused(error: ExternalPlayerRefusedError) -> ApiError:
    """403: a player that would run a program or read a file, on a server that allows none."""
    return ApiError(403, f"{error}: {_EXEC_HINT}")


def check_runnable(spec: str, allow_exec: bool) -> None:
    """Refuse (403) a player that would run a program or read a file, unless allowed."""
    if not allow_exec:
        try:
            check_self_contained(spec)
        except ExternalPlayerRefusedError as error:
            raise refused(error) from None


def resolve_player(entry: str, name: str | None, allow_external: bool) -> tuple[PlayerInfo, str | None]:
    """A player of a new game from 'human', a level name or a spec."""
    text = entry.strip() if isinstance(entry, str) else ""
    if not text:
        raise invalid("a player must be 'human', a level name or a player spec")
    if text.lower() == "human" or text.lower().startswith("human:"):
        return PlayerInfo(name or "Human", "human"), None
    known = {level.name: level for level in LEVELS}
    if text.lower() in known:
        level = level_named(text.lower())
        if level is None:
            raise invalid(
                f"level {text.lower()!r} is not available here: its engine ({known[text.lower()].spec}) is not"
                f" installed; available levels: {', '.join(known.name for known in available_levels())}"
            )
        return PlayerInfo(name or f"Computer ({level.name})", level.spec), level.name
    try:
        player = make_player(text, allow_external=allow_external)
    except ExternalPlayerRefusedError as error:
        raise refused(error) from None
    except KalahError as error:
        raise invalid(str(error)) from None
    if getattr(player, "is_computer", None) is not True and not is_human(text):
        raise invalid(f"{text!r} is not a computer player the server can run")
    return PlayerInfo(name or f"Computer ({text})", player.spec), level_of_spec(player.spec)
