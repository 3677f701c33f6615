"""Types of the traced search engine (trace.pyx); ``kalah.trace`` is its Python face."""

from typing import Any

from kalah.rules import Position

FLAGS: dict[int, str]
KINDS: tuple[str, ...]

def trace_search(
    position: Position,
    algorithm: int,
    evaluation: int,
    first: int,
    last: int,
    all_values: bool = True,
    memo: bool = True,
    ordering: bool = True,
    table_bits: int = 20,
    max_nodes: int = 20000,
) -> dict[str, Any]: ...
def trace_mcts(
    position: Position, playouts: int, exploration: float = 1.4142135623730951, seed: int = 0
) -> dict[str, Any]: ...
