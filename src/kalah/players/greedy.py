"""The ``greedy`` player: one move ahead, the most seeds in its own store.

It plays the move that leaves the most seeds in its store right after it, a
move that ends in the store (an extra turn) counting half a seed more, so that
of two equal moves it keeps the move; ties go to a random one of them (from its
own generator: the same seed gives the same game). Much stronger than random
play, far weaker than any search. The batched games of ``kalah.rl`` play the same
rule in compiled code (``csrc/opponents.c``), where learning agents train
against it; this is the player that rates them against it afterwards.
"""

from __future__ import annotations

import random as _random

from kalah.rules import Move, Position

from .base import ComputerPlayer
from .spec import int_option, register_player


def greedy_moves(position: Position) -> list[Move]:
    """The moves the greedy rule allows in ``position`` (all of them tied), in the order of ``legal_moves``."""
    me = position.to_move
    scores = {}
    for move in position.legal_moves():
        after, effect = position.play_explained(move)
        scores[move] = 2 * after.store(me) + effect.extra_turn
    best = max(scores.values())
    return [move for move, score in scores.items() if score == best]


class GreedyPlayer(ComputerPlayer):
    """Fills its store most with every move (an extra turn preferred), ties at random."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__()
        self.seed = seed
        self.name = "greedy" if seed is None else f"greedy (seed {seed})"
        self.spec = "greedy" if seed is None else f"greedy:seed={seed}"
        self.reset()

    def reset(self) -> None:
        """Start the tie-breaking sequence again from the seed."""
        self._rng = _random.Random(self.seed)

    def choose_move(self, position: Position) -> Move:
        """One of the greedy moves, drawn at random."""
        return self._rng.choice(greedy_moves(position))


def _greedy_player(seed: str | None = None) -> GreedyPlayer:
    return GreedyPlayer(int_option("seed", seed))


register_player("greedy", _greedy_player, "the move that fills its store most, one move ahead", "seed=N")
