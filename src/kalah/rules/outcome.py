"""How a game ended: who won, and what ended it.

Most games end on the board (a side runs out of seeds; the stores decide).
Some are decided off it: a player resigns, runs out of time, or forfeits
(an agent that breaks the protocol). One type says both, so that every
part of the program (the library, the web, the class server) words and
scores a result the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from .errors import KalahError
from .position import Position
from .pov import PovValue

#: What ended a game: the board (the rules' end), or a decision off it.
Termination = Literal["board", "resignation", "time", "forfeit"]
TERMINATIONS: tuple[Termination, ...] = ("board", "resignation", "time", "forfeit")
#: The terminations that decide a game before its board is over.
DECISIONS: tuple[Termination, ...] = ("resignation", "time", "forfeit")
#: What a player did in a game (:meth:`Outcome.word`), the best first: the columns of every standings table.
ResultWord = Literal["won", "drew", "lost"]
WORDS: tuple[ResultWord, ...] = ("won", "drew", "lost")


@dataclass(frozen=True)
class Outcome:
    """The end of a game: the winner (0 or 1; None for a draw) and what ended it."""

    winner: int | None
    """Player 0 or 1, or None for a draw."""
    termination: Termination = "board"
    """What ended the game."""

    def __post_init__(self) -> None:
        if self.winner not in (0, 1, None):
            raise KalahError(f"a winner is player 0 or 1 (or none, a draw), not {self.winner!r}")
        if self.termination not in TERMINATIONS:
            raise KalahError(f"a game ends by {', '.join(TERMINATIONS)}, not {self.termination!r}")
        if self.termination != "board" and self.winner is None:
            raise KalahError(f"a game decided by {self.termination} has a winner")

    @classmethod
    def of(cls, position: Position) -> Outcome | None:
        """The outcome of a position whose game is over on the board, or None while it goes on."""
        return cls(position.winner, "board") if position.is_over else None

    @classmethod
    def decided(cls, loser: int, termination: Termination) -> Outcome:
        """A game ``loser`` lost off the board (resigned, ran out of time, forfeited)."""
        return cls(1 - loser, termination)

    @classmethod
    def expected(cls, value: PovValue, draw_below: float = 0.0) -> Outcome:
        """The result ``value`` promises: the player it favours wins, a value of 0 is a draw, and so is one
        whose size is under ``draw_below`` seeds (an estimate that close to 0 says nothing of the winner).

        >>> Outcome.expected(PovValue(4, 1)).winner, Outcome.expected(PovValue(-0.5, 0), draw_below=1).winner
        (1, None)
        """
        if value.value == 0 or abs(value.value) < draw_below:
            return cls(None)
        return cls(value.player if value.value > 0 else 1 - value.player)

    def score(self, player: int) -> float:
        """``player``'s score: 1 for a win, 0.5 for a draw, 0 for a loss."""
        return 0.5 if self.winner is None else float(self.winner == player)

    def word(self, player: int) -> ResultWord:
        """What ``player`` did: won, drew or lost."""
        return "drew" if self.winner is None else "won" if self.winner == player else "lost"

    def describe(self, names: tuple[str, str] = ("Player 1", "Player 2")) -> str:
        """How it ended in words, naming the players (a board's end names no cause: its scores say it)."""
        if self.winner is None:
            return "a draw"
        loser = names[1 - self.winner]
        return {
            "board": f"{names[self.winner]} won",
            "resignation": f"{loser} resigned",
            "time": f"{loser} ran out of time",
            "forfeit": f"{loser} forfeited",
        }[self.termination]
