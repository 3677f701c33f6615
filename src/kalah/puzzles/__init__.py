"""Puzzles proven by the solver: positions from real games whose best move is unique and clearly best.

A puzzle is a position (the player to move must find the move), its
``solution`` (the only move that keeps the exact value), the exact ``value``
and the ``margin``: every other move is worth at least that many seeds less
(all values proven by :func:`kalah.solve`, the endgame databases included).
Each has ``theme`` tags and a ``difficulty`` from 1 to 5:

- themes: ``capture`` (the solution captures), ``extra-turns`` (it starts a
  chain of at least two extra turns on the line of perfect play), ``sweep``
  (it ends the game: a side empties and the rest is swept into its owner's
  store), ``endgame`` (at most :data:`ENDGAME_SEEDS` seeds left in the pits),
  ``swap`` (the pie rule's swap is a legal answer); a puzzle with none of them
  is ``quiet``;
- difficulty: 1, plus one for each of: a one-move search does not choose the
  solution; a four-move search does not; it is a quiet move (no capture, no
  extra turn); five or more legal moves; a margin under 6 seeds.

:func:`find_puzzles` looks for them in game records (the library, arena games
or self-play, :func:`self_play_records`); :func:`prove` checks one again.
The package ships a set (``kalah/puzzles/data/puzzles.json.gz``; :func:`shipped`).
"""

from __future__ import annotations

import gzip
import io
import json
import os
import random
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from kalah.atomic import write_atomic
from kalah.core.builds import needs_big
from kalah.match import play_game
from kalah.players import make_player
from kalah.records import GameRecord, RecordBuilder
from kalah.rules import SWAP, KalahError, Move, Position, Variant, move_name
from kalah.rules.wording import shown
from kalah.search import search
from kalah.solve import solve

__all__ = [
    "DEFAULT_MARGIN",
    "ENDGAME_SEEDS",
    "FORMAT",
    "Puzzle",
    "PuzzleError",
    "THEMES",
    "find_puzzles",
    "load",
    "prove",
    "save",
    "self_play_records",
    "shipped",
    "themes_of",
]

FORMAT = "kalah-puzzles"
#: Seeds by which the solution must beat every other move, by default.
DEFAULT_MARGIN = 4
#: Positions with at most this many seeds in the pits are ``endgame`` puzzles.
ENDGAME_SEEDS = 12
#: Positions with more seeds in the pits than this are not tried: their proofs take too long to re-check.
MAX_SEEDS = 36
#: Seconds the solver may spend on one position or move before the candidate is given up.
PROOF_SECONDS = 2.0
THEMES = ("capture", "extra-turns", "sweep", "endgame", "swap", "quiet")
#: A puzzle file larger than this is refused before it is decompressed.
MAX_FILE_BYTES = 32 << 20
#: ``progress(done, total, found)``: records searched, records in all, puzzles found so far.
Progress = Callable[[int, int, int], None]


class PuzzleError(KalahError, ValueError):
    """A puzzle file that cannot be read, a puzzle whose proof fails, or a bad request."""


@dataclass(frozen=True)
class Puzzle:
    """A position whose one best move beats every other by ``margin`` seeds, proven by the solver."""

    id: str
    """A short stable name: a checksum of the position."""
    position: Position
    """The position; the player to move is to find the move."""
    solution: Move
    """The only move that keeps the exact value."""
    value: int
    """The exact value (final margin under perfect play, for the player to move)."""
    margin: int
    """Every other move is worth at least this many seeds less than ``value``."""
    theme: list[str] = field(default_factory=list)
    """Theme tags (see :data:`THEMES`)."""
    difficulty: int = 1
    """From 1 (easy) to 5 (hard)."""
    source: str = ""
    """Where the position was found (``self-play``, ``library``, ...)."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of ``kalah puzzles list --json`` and of the puzzle file."""
        return {
            "id": self.id,
            "variant": self.position.variant.to_dict(),
            "variant_name": self.position.variant.name,
            "position": {"board": [list(row) for row in self.position.board], "to_move": self.position.to_move},
            "legal_moves": self.position.legal_moves(),
            "solution": self.solution,
            "value": self.value,
            "margin": self.margin,
            "theme": list(self.theme),
            "difficulty": self.difficulty,
            "source": self.source,
        }

    @classmethod
    def from_dict(cls, data: Any) -> Puzzle:
        """A puzzle from its JSON shape; PuzzleError names what is wrong."""
        try:
            variant = Variant.from_dict(data["variant"])
            position = Position.from_dict({**data["position"], "variant": variant.to_dict()})
            solution = data["solution"]
            if solution not in position.legal_moves():
                raise PuzzleError(f"puzzle {shown(data.get('id'))}: {shown(solution)} is not a legal move")
            theme = [str(tag) for tag in data.get("theme", [])]
            return cls(
                str(data["id"]),
                position,
                solution,
                int(data["value"]),
                int(data["margin"]),
                theme,
                int(data.get("difficulty", 1)),
                str(data.get("source", "")),
            )
        except (KeyError, TypeError, ValueError) as error:
            if isinstance(error, PuzzleError):
                raise
            raise PuzzleError(f"a puzzle cannot be read: {_problem(error)}") from None


def _names(position: Position, moves: Iterable[Move]) -> str:
    """Moves of the player to move in pit letters, joined with commas (``B, D``)."""
    return ", ".join(move_name(position.to_move, move) for move in moves)


def _problem(error: Exception) -> str:
    """What is wrong with a puzzle's fields, from the error reading them raised."""
    if isinstance(error, KeyError):
        return f"it has no {error.args[0]!r}"
    return str(error)


def puzzle_id(position: Position) -> str:
    """A short stable name of a position: eight hex digits of a CRC-32 of its cells, mover and variant."""
    text = json.dumps([position.variant.to_dict(), list(position.cells), position.to_move])
    return f"{zlib.crc32(text.encode()):08x}"


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
    return value if child.to_move == position.to_move else -value


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
            f"puzzle {puzzle.id}: the best moves are {_names(position, found.best_moves)},"
            f" not only {_names(position, [puzzle.solution])}"
        )
    for move in position.legal_moves():
        if move == puzzle.solution:
            continue
        value = _move_value(position, move, seconds or 3600.0)
        if value is None or value > puzzle.value - puzzle.margin:
            raise PuzzleError(
                f"puzzle {puzzle.id}: {_names(position, [move])} is worth {'?' if value is None else value},"
                f" within {puzzle.margin} of {puzzle.value}"
            )


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


# --- files ------------------------------------------------------------------------------------


def data_path() -> Path:
    """The package's puzzle file."""
    return Path(__file__).resolve().parent / "data" / "puzzles.json.gz"


def save(puzzles: list[Puzzle], path: str | os.PathLike[str]) -> None:
    """Write puzzles as gzip-compressed JSON, atomically (reproducible: no time stamp in the gzip header)."""
    document = {"format": FORMAT, "version": 1, "puzzles": [puzzle.to_dict() for puzzle in puzzles]}
    data = gzip.compress(json.dumps(document, separators=(",", ":")).encode(), mtime=0)
    write_atomic(Path(path), data, mode=0o644)


def load(path: str | os.PathLike[str]) -> list[Puzzle]:
    """The puzzles of a file written by :func:`save`; PuzzleError names what is wrong."""
    path = Path(path)
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise PuzzleError(f"{path} is too large for a puzzle file")
        raw = path.read_bytes()
        if raw[:2] == b"\x1f\x8b":  # read at most the limit: a small file may unpack to gigabytes
            with gzip.GzipFile(fileobj=io.BytesIO(raw)) as unpacked:
                text = unpacked.read(8 * MAX_FILE_BYTES + 1)
        else:
            text = raw
        if len(text) > 8 * MAX_FILE_BYTES:
            raise PuzzleError(f"{path} is too large for a puzzle file")
        document = json.loads(text)
    except OSError as error:
        raise PuzzleError(f"cannot read {path}: {error.strerror or error}") from None
    except (ValueError, EOFError, gzip.BadGzipFile) as error:
        raise PuzzleError(f"{path} is not a puzzle file: {error}") from None
    if (
        not isinstance(document, dict)
        or document.get("format") != FORMAT
        or not isinstance(document.get("puzzles"), list)
    ):
        raise PuzzleError(f"{path} is not a puzzle file (format {FORMAT})")
    return [Puzzle.from_dict(item) for item in document["puzzles"]]


@lru_cache(maxsize=1)
def shipped() -> tuple[Puzzle, ...]:
    """The puzzles that ship in the package (loaded once); empty when the file is missing."""
    path = data_path()
    return tuple(load(path)) if path.is_file() else ()
