"""The proof of a puzzle: the solver's exact value of the position and of every move, the themes and
the difficulty."""

from __future__ import annotations

from kalah.rules import SWAP, Move, Position, PovValue
from kalah.search import search
from kalah.solve import solve

from .puzzle import Puzzle, PuzzleError, move_names, puzzle_id

__all__ = ["DEFAULT_MARGIN", "ENDGAME_SEEDS", "MAX_SEEDS", "PROOF_SECONDS", "examine", "prove", "themes_of"]

#: Seeds by which the solution must beat every other move, by default.
DEFAULT_MARGIN = 4
#: Positions with at most this many seeds in the pits are ``endgame`` puzzles.
ENDGAME_SEEDS = 12
#: Positions with more seeds in the pits than this are not tried: their proofs take too long to re-check.
MAX_SEEDS = 36
#: Seconds the solver may spend on one position or move before the candidate is given up.
PROOF_SECONDS = 2.0


def _move_value(position: Position, move: Move, seconds: float) -> int | None:
    """The exact value of playing ``move`` for the mover, or None when not proven in ``seconds``."""
    child = position.play(move)
    if child.is_over:
        margin = child.mover_margin
        assert margin is not None
        value = margin
    else:
        found = solve(child, seconds, threads=1, best_moves=False, pv=False)
        if found.value is None:
            return None
        value = found.value
    return int(PovValue(value, child.to_move).pov(position.to_move))


def _chain(position: Position, line: list[Move]) -> int:
    """How many moves the mover makes in a row along ``line`` from ``position``."""
    mover, count = position.to_move, 0
    for move in line:
        if position.is_over or position.to_move != mover:
            break
        position = position.play(move)
        count += 1
    return count


def themes_of(position: Position, solution: Move, line: list[Move]) -> list[str]:
    """The theme tags of a puzzle (see the module's docstring); ``line`` is perfect play from the position."""
    after, effect = position.play_explained(solution)
    tags = []
    if effect.captured:
        tags.append("capture")
    if effect.extra_turn and _chain(position, line if line[:1] == [solution] else [solution]) >= 3:
        tags.append("extra-turns")
    if after.is_over:
        tags.append("sweep")
    if position.seeds_in_pits <= ENDGAME_SEEDS:
        tags.append("endgame")
    if SWAP in position.legal_moves():
        tags.append("swap")
    return tags or ["quiet"]


def _difficulty(position: Position, solution: Move, margin: int) -> int:
    after, effect = position.play_explained(solution)
    level = 1
    level += search(position, depth=1, threads=1, move_values=False).best_move != solution
    level += search(position, depth=4, threads=1, move_values=False).best_move != solution
    level += not effect.captured and not effect.extra_turn and not after.is_over
    level += len(position.legal_moves()) >= 5
    level += margin < 6
    return min(level, 5)


def examine(
    position: Position, margin: int = DEFAULT_MARGIN, seconds: float = PROOF_SECONDS, source: str = ""
) -> Puzzle | None:
    """The puzzle of ``position`` if its best move is unique and beats every other by ``margin`` (proven), else None."""
    if position.is_over or len(position.legal_moves()) < 2 or position.seeds_in_pits > MAX_SEEDS:
        return None
    found = solve(position, seconds, threads=1)
    if found.value is None or len(found.best_moves) != 1:
        return None
    solution = found.best_moves[0]
    second: int | None = None
    for move in position.legal_moves():
        if move == solution:
            continue
        value = _move_value(position, move, seconds)
        if value is None or value > found.value - margin:
            return None
        second = value if second is None else max(second, value)
    assert second is not None
    proven = found.value - second
    return Puzzle(
        puzzle_id(position),
        position,
        solution,
        found.value,
        proven,
        themes_of(position, solution, found.pv),
        _difficulty(position, solution, proven),
        source,
    )


def prove(puzzle: Puzzle, seconds: float | None = None) -> None:
    """Check a puzzle's proof again with the solver: PuzzleError if its value, its unique solution or its
    margin does not hold. ``seconds`` bounds each solve (None: unlimited)."""
    position = puzzle.position
    found = solve(position, seconds, threads=1)
    if found.value != puzzle.value:
        raise PuzzleError(f"puzzle {puzzle.id}: the value is {found.value}, not {puzzle.value}")
    if found.best_moves != [puzzle.solution]:
        raise PuzzleError(
            f"puzzle {puzzle.id}: the best moves are {move_names(position, found.best_moves)},"
            f" not only {move_names(position, [puzzle.solution])}"
        )
    for move in position.legal_moves():
        if move == puzzle.solution:
            continue
        value = _move_value(position, move, seconds or 3600.0)
        if value is None or value > puzzle.value - puzzle.margin:
            raise PuzzleError(
                f"puzzle {puzzle.id}: {move_names(position, [move])} is worth {'?' if value is None else value},"
                f" within {puzzle.margin} of {puzzle.value}"
            )
