"""The player protocol: anything that chooses a move for a position."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from kalah.rules import Move, Position, Variant


class GameStopped(EOFError):
    """Raised by a player to stop the game on purpose (a person typing ``q``); ``reason`` becomes the
    game's stop reason. An EOFError, so that a loop that knows only the end of input still stops."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@runtime_checkable
class Player(Protocol):
    """Chooses moves. ``name`` is shown to people; ``spec`` recreates the player."""

    name: str
    spec: str

    def choose_move(self, position: Position) -> Move:
        """The move to play in ``position`` (it is this player's turn and the game is not over)."""


class ComputerPlayer:
    """Base for players that need no person: records can re-run them (``replay --recompute``).

    ``last_info`` holds what the player may want to say about its last
    decision (e.g. a search's value), for displays and records; it is empty by
    default.
    """

    is_computer = True
    name = "computer"
    spec = "computer"
    #: Attributes that hold a compiled engine, its table or a thread: caches that a copy (``copy.deepcopy``,
    #: ``pickle``) starts without, as after ``reset``.
    transient: tuple[str, ...] = ()

    def __init__(self) -> None:
        self.last_info: dict[str, object] = {}

    def __getstate__(self) -> dict[str, object]:
        """The player's state for a copy, without its :attr:`transient` caches."""
        state = dict(self.__dict__)
        for name in self.transient:
            if name in state:
                state[name] = None
        return state

    def check_variant(self, variant: Variant) -> None:
        """Raise a ``PlayerSpecError`` if the player cannot play ``variant`` (a policy network trained on
        another board); every game loop asks before the first move. Any variant does by default."""

    def choose_move(self, position: Position) -> Move:  # pragma: no cover - abstract
        """The move to play in ``position``; ``last_info`` then tells what the player found."""
        raise NotImplementedError

    def stop_thinking(self) -> None:
        """Stop any thinking on the opponent's time (the game loop calls it when a game ends)."""

    def reset(self) -> None:
        """Forget anything learned in a previous game (tables, caches)."""
