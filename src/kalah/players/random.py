"""Uniformly random legal moves from the player's own generator."""

from __future__ import annotations

import random as _random

from kalah.rules import Move, Position

from .base import ComputerPlayer
from .spec import int_option, register_player


class RandomPlayer(ComputerPlayer):
    """Plays a uniformly random legal move. The same seed gives the same choices;
    the global ``random`` state is never touched."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__()
        self.seed = seed
        self.name = "random" if seed is None else f"random (seed {seed})"
        self.spec = "random" if seed is None else f"random:seed={seed}"
        self.reset()

    def reset(self) -> None:
        """Start the random sequence again from the seed."""
        self._rng = _random.Random(self.seed)

    def choose_move(self, position: Position) -> Move:
        """A legal move drawn at random."""
        return self._rng.choice(position.legal_moves())


def _random_player(seed: str | None = None) -> RandomPlayer:
    return RandomPlayer(int_option("seed", seed))


register_player("random", _random_player, "uniformly random legal moves", "seed=N")
