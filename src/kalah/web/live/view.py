"""What one transaction read of a live game, and the game as the API answers it."""

from __future__ import annotations

from dataclasses import dataclass

from ..models import GameState
from .models import ClockOut, LiveInfoOut, LiveOut, ResultOut
from .store import LiveRow, Presence

__all__ = ["View", "live_out"]


@dataclass(frozen=True)
class View:
    """What one transaction read of a game: its live row, its state, and the connections other server
    processes hold to it."""

    row: LiveRow
    state: GameState
    others: Presence


def live_out(view: View, here: tuple[list[bool], int], now: float) -> LiveOut:
    """``view`` as the API answers it, with ``here`` (this process's connections to the game: the seats
    connected, the watchers) counted in beside the other processes'."""
    row = view.row
    seats, watchers = here
    return LiveOut(
        state=view.state,
        live=LiveInfoOut(
            seats_taken=[held is not None for held in row.seats],
            connected=[seats[0] or view.others.connected[0], seats[1] or view.others.connected[1]],
            watchers=watchers + view.others.watchers,
            clock=ClockOut(
                kind=row.clock.kind,
                text=row.clock.describe(),
                ms=list(row.clock.left(now)),
                running=row.clock.running,
            ),
            result=ResultOut(**row.result.to_dict()) if row.result else None,
            takeback_from=row.takeback_from,
            rematch_from=sorted(row.rematch_from),
            rematch_game=row.rematch_game,
        ),
    )
