"""The ``replay:file=PATH`` player: the moves of a game record read from a file.

It registers here, in the layer that reads records, rather than in
``kalah.players``: the players do not know about files of games. The spec
registry finds it through the ``kalah.players`` entry point of pyproject.toml.
"""

from __future__ import annotations

from pathlib import Path

from kalah.players import ReplayPlayer
from kalah.players.spec import PlayerSpecError, register_player

from .record import load_record


def replay_player(file: str | None = None) -> ReplayPlayer:
    """The player that plays the moves of the record in ``file``, position by position.

    Raises:
        PlayerSpecError: no ``file`` was given.
    """
    if not file:
        raise PlayerSpecError("replay needs file=PATH of a game record")
    record = load_record(Path(file))
    player = ReplayPlayer(record.start, [recorded.move for recorded in record.moves])
    player.spec = f"replay:file={file}"
    return player


register_player(
    "replay", replay_player, "the moves of a recorded game", "file=PATH", external="reads a file on this machine"
)
