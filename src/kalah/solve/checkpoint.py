"""The SQLite checkpoint of a distributed solve: the bounds proven on each leaf's value.

A leaf is a position of the split tree's frontier, kept as its pits seen
from the mover (its *pits value* does not depend on the stores, so one row
serves every leaf with the same pits). Rows are keyed by the rules that
decide the value (pit count and capture rule), so one file can serve several
solves of a variant, and several variants. Every answer is written in its own
transaction: a solve stopped at any moment leaves every bound it had received.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from kalah.rules import KalahError

__all__ = ["FORMAT", "Checkpoint", "CheckpointError", "rules_key"]

#: What the ``meta`` table of a checkpoint file says it is.
FORMAT = "kalah-solve-checkpoint/1"

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE bounds (
    rules TEXT NOT NULL,
    pits TEXT NOT NULL,
    lower INTEGER NOT NULL,
    upper INTEGER NOT NULL,
    PRIMARY KEY (rules, pits)
);
"""

Pits = tuple[int, ...]


class CheckpointError(KalahError, ValueError):
    """A checkpoint file that cannot be used: not a kalah solve checkpoint, or inconsistent."""


def rules_key(pits: int, empty_capture: bool) -> str:
    """The rules a pits value depends on, as the checkpoint writes them: ``m6-std``, ``m6-empty``."""
    return f"m{pits}-{'empty' if empty_capture else 'std'}"


class Checkpoint:
    """An open checkpoint file (created when missing or empty)."""

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)
        try:
            fresh = not self.path.exists() or self.path.stat().st_size == 0
            self.connection = sqlite3.connect(str(self.path), timeout=10)
        except (OSError, sqlite3.Error) as error:
            raise CheckpointError(f"cannot open the checkpoint {self.path}: {error}") from None
        try:
            if fresh:
                self.connection.executescript(
                    f"BEGIN; {_SCHEMA} INSERT INTO meta VALUES ('format', '{FORMAT}'); COMMIT;"
                )
            row = self.connection.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
        except sqlite3.Error as error:
            self.connection.close()
            raise CheckpointError(f"{self.path} is not a kalah solve checkpoint ({error})") from None
        if row is None or row[0] != FORMAT:
            self.connection.close()
            found = "no format" if row is None else f"format {row[0]!r}"
            raise CheckpointError(f"{self.path} is not a kalah solve checkpoint ({found}, expected {FORMAT!r})")

    def load(self, rules: str) -> dict[Pits, tuple[int, int]]:
        """Every bound proven under ``rules``; a row that cannot be a pits value's bounds is refused.

        Raises:
            CheckpointError: the file is not a checkpoint, or holds a damaged leaf or bounds.
        """
        found: dict[Pits, tuple[int, int]] = {}
        try:
            rows = self.connection.execute("SELECT pits, lower, upper FROM bounds WHERE rules = ?", (rules,)).fetchall()
        except sqlite3.Error as error:
            raise CheckpointError(f"{self.path} is not a kalah solve checkpoint ({error})") from None
        for text, lower, upper in rows:
            try:
                pits = tuple(int(seeds) for seeds in str(text).split(","))
            except ValueError:
                raise CheckpointError(f"{self.path} is corrupt: a leaf written as {text!r}") from None
            seeds = sum(pits)
            if (
                min(pits) < 0
                or not isinstance(lower, int)
                or not isinstance(upper, int)
                or not -seeds <= lower <= upper <= seeds
            ):
                raise CheckpointError(f"{self.path} is corrupt: bounds {lower}..{upper} for the leaf {text}")
            found[pits] = (lower, upper)
        return found

    def record(self, rules: str, pits: Pits, lower: int, upper: int) -> None:
        """Keep the bounds of one leaf (in their own transaction).

        Raises:
            CheckpointError: the bounds cannot be written.
        """
        try:
            with self.connection:
                self.connection.execute(
                    # two solves sharing the file keep the better bound of each side
                    "INSERT INTO bounds VALUES (?, ?, ?, ?) ON CONFLICT (rules, pits) DO UPDATE SET "
                    "lower = max(lower, excluded.lower), upper = min(upper, excluded.upper)",
                    (rules, ",".join(map(str, pits)), lower, upper),
                )
        except sqlite3.Error as error:
            raise CheckpointError(f"cannot write the checkpoint {self.path}: {error}") from None

    def close(self) -> None:
        """Close the file."""
        self.connection.close()
