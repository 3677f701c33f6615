"""Puzzle files: gzip-compressed JSON, read with limits; the set that ships in the package."""

from __future__ import annotations

import gzip
import io
import json
import os
from functools import lru_cache
from pathlib import Path

from kalah.atomic import write_atomic

from .puzzle import Puzzle, PuzzleError

__all__ = ["FORMAT", "MAX_FILE_BYTES", "data_path", "load", "save", "shipped"]

FORMAT = "kalah-puzzles"
#: A puzzle file larger than this is refused before it is decompressed.
MAX_FILE_BYTES = 32 << 20


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
