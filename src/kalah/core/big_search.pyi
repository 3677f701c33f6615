"""Types of the big build of the compiled search (big_search.pyx: search.pyx with 16-bit cells)."""

from typing import Any

from kalah.rules import Position

UNIT: int
INF: int
MAX_DEPTH: int
MAX_THREADS: int
NO_MOVE: int
ALGORITHMS: dict[str, int]
EVALUATIONS: dict[str, int]
FLAGS: dict[int, str]

class Engine:
    """A search context with its own transposition table (``2**table_bits`` entries of 16 bytes)."""

    def __init__(self, table_bits: int = 20) -> None: ...
    def set_oracle(self, capsule: object | None) -> None: ...
    def warm(self) -> None: ...
    def stop(self) -> None: ...
    def search(
        self,
        position: Position,
        algorithm: int,
        evaluation: int,
        first: int,
        last: int,
        seconds: float = 0.0,
        all_values: bool = False,
        memo: bool = True,
        ordering: bool = True,
        clear: bool = True,
        threads: int = 1,
        soft_seconds: float = 0.0,
        deeper_entries: bool = False,
    ) -> dict[str, Any]: ...

def mcts(
    position: Position,
    playouts: int = 0,
    seconds: float = 0.0,
    exploration: float = ...,
    seed: int = 0,
    max_nodes: int = 2000000,
) -> dict[str, Any]: ...
def reference_alphabeta(position: Position, depth: int) -> tuple[int, int, float]: ...
