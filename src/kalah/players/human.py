"""A person at some face (terminal, browser): the face supplies how to ask."""

from __future__ import annotations

from collections.abc import Callable

from kalah.rules import KalahError, Move, Position

from .spec import register_player


class NoInputError(KalahError):
    """A human player was asked for a move but no face gave it a way to ask."""


class HumanPlayer:
    """Asks a person for each move through ``ask``, which a face provides.

    The face (e.g. the terminal) owns the dialogue, re-asking on bad input;
    the player itself never prints. ``ask`` may raise ``EOFError`` or
    ``KeyboardInterrupt`` to stop the game.
    """

    is_computer = False

    def __init__(self, name: str = "human", ask: Callable[[Position], Move] | None = None) -> None:
        self.name = name
        self.spec = "human"
        self.ask = ask

    def choose_move(self, position: Position) -> Move:
        """Ask the person for a move until it is legal."""
        if self.ask is None:
            raise NoInputError(f"{self.name} is a human player, and nothing was given to ask them for moves")
        return self.ask(position)


def _human(name: str = "human") -> HumanPlayer:
    return HumanPlayer(name=name)


register_player("human", _human, "a person, asked for every move", "name=TEXT")
