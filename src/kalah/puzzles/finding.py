"""Finding puzzles in games: the positions of records (self-play, the library, an arena) examined one
by one."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator

from kalah.core.builds import needs_big
from kalah.match import play_game
from kalah.players import make_player
from kalah.records import GameRecord, RecordBuilder
from kalah.rules import Position, Variant

from .proof import DEFAULT_MARGIN, PROOF_SECONDS, examine
from .puzzle import Puzzle, PuzzleError, puzzle_id

__all__ = ["Progress", "check_variant", "find_puzzles", "self_play_records"]

#: ``progress(done, total, found)``: records searched, records in all, puzzles found so far.
Progress = Callable[[int, int, int], None]


def self_play_records(variant: Variant, games: int, seed: int = 0) -> Iterator[GameRecord]:
    """Games of engines of several strengths (and random players) against each other: fixed seeds, so a
    build is reproducible; strong and weak moves both, so that the positions vary."""
    rng = random.Random(seed)
    pool = ["random", "pvs:depth=1", "pvs:depth=2", "pvs:depth=4", "pvs:depth=6"]
    for _number in range(games):
        specs = [rng.choice(pool), rng.choice(pool)]
        players = [make_player(f"random:seed={rng.randrange(10**6)}" if spec == "random" else spec) for spec in specs]
        builder = RecordBuilder()
        play_game(players, Position.start(variant), [builder])
        assert builder.record is not None
        yield builder.record


def check_variant(variant: Variant) -> None:
    """Raise PuzzleError when no position of ``variant`` can be a puzzle: the solver that proves puzzles
    holds boards of at most 8 pits a side (and 255 seeds), so finding them there would look in vain."""
    if needs_big(Position.start(variant)):
        raise PuzzleError(
            f"puzzles are proven by the solver, which holds at most 8 pits a side and 255 seeds; {variant.name}"
            " is beyond it"
        )


def find_puzzles(
    records: Iterable[GameRecord],
    margin: int = DEFAULT_MARGIN,
    *,
    seconds: float = PROOF_SECONDS,
    source: str = "",
    limit: int | None = None,
    total: int = 0,
    progress: Progress | None = None,
    known: set[str] | None = None,
) -> list[Puzzle]:
    """The puzzles in the positions of ``records`` (each position once; ``known`` ids are skipped)."""
    if isinstance(margin, bool) or not isinstance(margin, int) or margin < 1:
        raise PuzzleError(f"the margin must be a whole number of seeds, 1 or more; got {margin!r}")
    seen = set(known or ())
    found: list[Puzzle] = []
    for done, record in enumerate(records, 1):
        for position in record.positions():
            key = puzzle_id(position)
            if key in seen:
                continue
            seen.add(key)
            puzzle = examine(position, margin, seconds, source)
            if puzzle is not None:
                found.append(puzzle)
                if limit is not None and len(found) >= limit:
                    return found
        if progress is not None:
            progress(done, total, len(found))
    return found
