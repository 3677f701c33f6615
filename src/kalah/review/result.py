"""What a review answers: every move judged, the evaluation graph, each player's accuracy."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kalah.rules import KalahError, Move

from .classes import CLASSES

__all__ = ["FORMAT", "GameReview", "ReviewError", "ReviewedMove"]

FORMAT = "kalah-review"


class ReviewError(KalahError, ValueError):
    """A review that cannot be made (not a record, a bad time) or read back (a damaged stored review)."""


@dataclass(frozen=True)
class ReviewedMove:
    """One move of the game as the review judged it; values in seeds from the mover's point of view."""

    number: int
    """The move's number in the game, from 1 (every sowing counts, extra turns too)."""
    pair: int
    """The number of the move pair (player 0's decision and player 1's reply share one), from 1. Kept
    for readers of the JSON; the command line and the pages number every move (``number``)."""
    player: int
    """Who played it: 0 or 1."""
    move: Move
    """The pit played (``0..pits-1``) or ``"swap"``."""
    name: str
    """The move in pit letters: ``A``-``F`` for player 0, ``a``-``f`` for player 1."""
    board: list[list[int]]
    """The board before the move: each player's pits, then store."""
    value_before: float | int | None
    """The value of the position before the move (what the best move keeps)."""
    value_after: float | int | None
    """The value of the move played."""
    best_moves: list[Move]
    """The best moves of the position (every one when exact)."""
    loss: float | int
    """Seeds the move lost against the best: ``value_before - value_after``, never below 0."""
    klass: str
    """``best``, ``good``, ``inaccuracy``, ``mistake`` or ``blunder`` (``class`` in JSON)."""
    exact: bool
    """True when both values are proven and so are every other move's, so ``loss`` and ``best_moves`` are exact."""
    forced: bool
    """True when it was the only legal move (no decision: not counted in accuracy)."""
    move_values: list[dict[str, Any]] = field(default_factory=list)
    """Every legal move's value for the mover, as ``{"move", "value", "exact"}`` (value None where the analysis
    had none): a better move than the one played is one of higher value, best or not."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of one entry of ``moves`` in ``kalah review --json``."""
        return {
            "number": self.number,
            "pair": self.pair,
            "player": self.player,
            "move": self.move,
            "name": self.name,
            "board": self.board,
            "value_before": self.value_before,
            "value_after": self.value_after,
            "best_moves": list(self.best_moves),
            "loss": self.loss,
            "class": self.klass,
            "exact": self.exact,
            "forced": self.forced,
            "move_values": [dict(entry) for entry in self.move_values],
        }


@dataclass(frozen=True)
class GameReview:
    """The review of a whole game (:func:`review`)."""

    variant: dict[str, Any]
    """The game's variant, as in its record."""
    players: list[str]
    """The two players' names."""
    moves: list[ReviewedMove]
    """Every move of the game, in order."""
    evaluation: list[float | int | None]
    """The value before each move and at the end, from player 0's point of view (the graph)."""
    exact: list[bool]
    """For each point of ``evaluation``: whether it is proven."""
    accuracy: list[float | None]
    """Per player: the percentage of their decisions classed best or good (None: no decision)."""
    average_loss: list[float | None]
    """Per player: the seeds lost per decision, on average (None: no decision)."""
    turning_points: list[int]
    """Numbers of the moves that turned the expected result against their player (see the module's docstring)."""
    seconds_per_position: float
    """The time each position was analysed for."""
    final: dict[str, Any] = field(default_factory=dict)
    """The position after the last move: ``{"board": ..., "to_move": ..., "over": ...}``."""
    seconds: float = 0.0
    """Wall-clock time of the review."""
    extra: dict[str, Any] = field(default_factory=dict)
    """What the review was made from: ``{"moves": N}`` (the game's length when it was reviewed)."""

    def counts(self, player: int) -> dict[str, int]:
        """How many of ``player``'s moves fell in each class."""
        found = {name: 0 for name, _ in CLASSES}
        for entry in self.moves:
            if entry.player == player:
                found[entry.klass] += 1
        return found

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of ``kalah review --json`` (and of the stored review)."""
        return {
            "format": FORMAT,
            "version": 1,
            "variant": self.variant,
            "players": self.players,
            "moves": [entry.to_dict() for entry in self.moves],
            "evaluation": self.evaluation,
            "exact": self.exact,
            "accuracy": self.accuracy,
            "average_loss": self.average_loss,
            "turning_points": self.turning_points,
            "classes": {name: (None if most == float("inf") else most) for name, most in CLASSES},
            "counts": [self.counts(0), self.counts(1)],
            "seconds_per_position": self.seconds_per_position,
            "seconds": round(self.seconds, 3),
            "game_moves": len(self.moves),
            "final": self.final,
        }
