"""Types of the batched games (batch.pyx)."""

from typing import Any

from kalah.rules import Move, Position, Variant

OPPONENTS: tuple[str, ...]
EVALUATIONS: dict[str, int]

class BatchGames:
    """``n`` games of ``variant``, each a learning agent at a seat against an opponent."""

    n: int
    variant: Variant
    opponent: str
    seat_option: int | str
    settings: dict[str, Any]
    def __init__(
        self,
        n: int,
        variant: Variant,
        opponent: str = "random",
        seat: int | str = 0,
        margin_reward: bool = False,
        same_step: bool = True,
        depth: int = 1,
        evaluation: str = "strong",
        playouts: int = 1000,
    ) -> None: ...
    def bind(
        self,
        obs: Any,
        mask: Any,
        seat: Any,
        reward: Any,
        terminated: Any,
        final_obs: Any,
        final_seat: Any,
        margin: Any,
        illegal: Any,
    ) -> None: ...
    def seed(self, seeds: Any, which: Any = None) -> None: ...
    def seed_sampler(self, seed: int) -> None: ...
    def reset(self, which: Any = None) -> None: ...
    def step(self, actions: Any) -> int: ...
    def waiting(self, index: Any, obs: Any, mask: Any) -> int: ...
    def answer(self, index: Any, actions: Any) -> int: ...
    def random_actions(self, actions: Any) -> None: ...
    def seats(self) -> bytes: ...
    def position(self, i: int) -> Position: ...
    def opponent_move(self, position: Position, seed: int = 0) -> Move: ...
