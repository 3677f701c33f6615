"""What one transaction read of a live game, and the game as the API answers it."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from kalah.records import GameRecord

from ..gamestate import state_of
from ..models import GameState
from .models import ClockOut, LiveInfoOut, LiveOut, ResultOut, StateMessage
from .store import LiveRow, Presence

__all__ = ["View", "live_out", "state_messages", "states_between"]


@dataclass(frozen=True)
class View:
    """What one transaction read of a game: its live row, its state, and the connections other server
    processes hold to it."""

    row: LiveRow
    state: GameState
    others: Presence
    #: the states after the moves before the last that pages of this process have not seen (their pushes
    #: coalesced), oldest first: each is drawn as a move of its own
    between: tuple[GameState, ...] = ()


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


def states_between(game_id: int, record: GameRecord, since_moves: int | None, moves: int) -> tuple[GameState, ...]:
    """The states after each move from ``since_moves`` (what a page last saw) to the one before the last
    (``moves`` in all); none without ``since_moves``."""
    if since_moves is None or not 0 <= since_moves < moves - 1:
        return ()
    return tuple(
        state_of(game_id, replace(record, moves=record.moves[:count], decision=None), "playing", False)
        for count in range(since_moves + 1, moves)
    )


def state_messages(view: View, out: LiveOut) -> list[tuple[int, dict[str, Any]]]:
    """The push messages of ``view`` (``out``, as the API answers it): a state for each move in
    ``view.between``, then the game as it is; each with its count of moves."""
    states = [(state.moves, StateMessage(state=state, live=out.live).model_dump(mode="json")) for state in view.between]
    states.append((view.state.moves, StateMessage(**dict(out)).model_dump(mode="json")))
    return states
