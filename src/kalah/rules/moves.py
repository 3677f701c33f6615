"""What a move is, what it did, and its name in the notation.

Below both the position (``position.py``) and its drawing (``svg.py``), so
that the drawing needs nothing of the position but what it reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

SWAP: Literal["swap"] = "swap"
Move = int | Literal["swap"]


@dataclass(frozen=True, slots=True)
class MoveEffect:
    """What a move did, for displays and animations (never needed to play)."""

    player: int
    move: Move
    sown: tuple[int, ...]  # flat cell indices that received a seed, in order
    extra_turn: bool
    captured: int  # seeds moved to the store by a capture, the capturing seed included
    capture_pit: int | None  # flat index of the pit whose opposite was captured
    game_over: bool


def pit_letter(player: int, pit: int) -> str:
    """The letter of a pit in the notation: ``A..F`` for player 0, ``a..f`` for player 1."""
    return chr((ord("A") if player == 0 else ord("a")) + pit)


def store_letter(player: int) -> str:
    """The letter of a player's store in the notation: ``O`` for player 0, ``o`` for player 1."""
    return "O" if player == 0 else "o"


def move_name(player: int, move: Move) -> str:
    """``C`` for player 0's pit 2, ``c`` for player 1's, ``swap`` for the swap."""
    return "swap" if move == SWAP else pit_letter(player, move)
