"""Types of the batched games (batch.pyx)."""

from typing import Any

from kalah.rules import Position, Variant

OPPONENTS: dict[str, int]

class BatchGames:
    """``n`` games of ``variant``, each a learning agent at a seat against a built-in opponent."""

    n: int
    variant: Variant
    def __init__(
        self, n: int, variant: Variant, opponent: str = "random", seat: int | str = 0, margin_reward: bool = False
    ) -> None: ...
    def seed(self, seed: int) -> None: ...
    def reset(self, obs: Any, mask: Any) -> None: ...
    def step(
        self, actions: Any, obs: Any, mask: Any, reward: Any, terminated: Any, final_obs: Any, margin: Any, illegal: Any
    ) -> int: ...
    def random_actions(self, actions: Any) -> None: ...
    def seats(self) -> bytes: ...
    def position(self, i: int) -> Position: ...
