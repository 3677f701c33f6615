"""Registers the ``replay:file=PATH`` player, which needs both a player and a game record.

It lives here, above :mod:`kalah.players`, so that players never import records; the
player registry finds it through the ``kalah.players`` entry point (see pyproject.toml).
"""

from __future__ import annotations

from pathlib import Path

from kalah.players.replay import ReplayPlayer
from kalah.players.spec import PlayerSpecError, register_player

from .record import load_record


def replay_player(file: str | None = None) -> ReplayPlayer:
    """The player that plays the moves of the game record at ``file`` again."""
    if not file:
        raise PlayerSpecError("replay needs file=PATH of a game record")
    record = load_record(Path(file))
    player = ReplayPlayer(record.start, [recorded.move for recorded in record.moves])
    player.spec = f"replay:file={file}"
    return player


register_player("replay", replay_player, "the moves of a recorded game", "file=PATH",
                external="reads a file on this machine")
