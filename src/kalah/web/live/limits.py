"""What one address may do with games between people, and how long the server keeps what nobody uses."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LiveLimits"]


@dataclass
class LiveLimits:
    """What one address may hold at once, and how many games it may start in a window."""

    connections: int = 40  #: open push connections (games and lobby), to one server process
    games: int = 30  #: games between people created (rematches and accepted challenges too) in ``window``
    challenges: int = 3  #: open challenges in the lobby
    window: float = 600.0
    lobby_grace: float = 5.0  #: seconds a challenge outlives its author's connection
    unjoined_hours: float = 24.0  #: a game nobody joined, or nobody began, is closed after this long
