"""Game results the database refused, kept on disk beside it until it takes them.

The class server keeps such a result in memory and stores it as soon as the
database takes writes again (:class:`kalah.classroom.agents.AgentBook`); a
crash or a kill meanwhile lost it. The journal is a file of JSON lines next
to the database (``class.sqlite`` keeps ``class.sqlite.unsaved-results``),
one line a result, appended and flushed to the disk before the game is
reported over. An append only adds bytes, so a crash leaves every earlier
line whole; at worst the last line is cut: :meth:`ResultJournal.read` skips
it (that result was never reported kept) and the next append starts a line
of its own. A rewrite (to catch up after appends failed) goes through a
temporary file and a rename. The file is removed once the database holds
everything in it. One server a database: two would remove each other's.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

from kalah.atomic import write_atomic

#: A result as ``kgp_results`` stores it: game id, south's agent, north's agent, south's score, reason,
#: event, variant.
Row = tuple[int, int, int, float, str, str, str]
#: The keys of a journal line, in the order of a Row.
KEYS = ("game_id", "south", "north", "score", "reason", "event", "variant")
log = logging.getLogger(__name__)


def journal_path(database: str | os.PathLike[str]) -> Path:
    """Where the journal of the database at ``database`` is: the same name with ``.unsaved-results``."""
    return Path(f"{os.fspath(database)}.unsaved-results")


class ResultJournal:
    """The journal file at ``path`` (not thread-safe: its owner serialises the calls)."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)

    def exists(self) -> bool:
        """Whether the file is there (it is removed once empty)."""
        return self.path.exists()

    def read(self) -> dict[int, Row]:
        """The results in the file by game id (a later line of a game wins); lines that are not a result
        (cut by a crash, or written by hand) are skipped with a warning."""
        try:
            text = self.path.read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            return {}
        rows: dict[int, Row] = {}
        bad = 0
        for line in text.splitlines():
            if not line.strip():
                continue
            row = _row(line)
            if row is None:
                bad += 1
            else:
                rows[row[0]] = row
        if bad:
            log.warning("skipped %d lines of %s that are not game results", bad, self.path)
        return rows

    def add(self, row: Row) -> None:
        """Append ``row`` and have it on the disk before returning (raises OSError when it cannot)."""
        created = not self.path.exists()
        with open(self.path, "ab+") as file:  # appended at the end whatever the reads below
            size = file.seek(0, os.SEEK_END)
            if size:
                file.seek(size - 1)
                if file.read(1) != b"\n":  # a crash cut the last append: this line must not continue it
                    file.write(b"\n")
            file.write(_line(row).encode("utf-8"))
            file.flush()
            os.fsync(file.fileno())
        if created:  # the file's name must outlive a crash too, not only its bytes
            _sync_directory(self.path.parent)

    def rewrite(self, rows: list[Row]) -> None:
        """Replace the file with ``rows`` at once (raises OSError when it cannot)."""
        write_atomic(self.path, "".join(_line(row) for row in rows))
        _sync_directory(self.path.parent)

    def remove(self) -> None:
        """Remove the file (the database holds everything in it)."""
        try:
            self.path.unlink()
        except FileNotFoundError:
            pass


def _line(row: Row) -> str:
    return json.dumps(dict(zip(KEYS, row, strict=True)), ensure_ascii=False, separators=(",", ":")) + "\n"


def _row(line: str) -> Row | None:
    try:
        data = json.loads(line)
        values = [data[key] for key in KEYS]
    except (ValueError, TypeError, KeyError):
        return None
    ids, score, texts = values[:3], values[3], values[4:]
    if not all(type(value) is int for value in ids) or type(score) not in (int, float):
        return None
    if not all(isinstance(text, str) for text in texts):
        return None
    return (ids[0], ids[1], ids[2], float(score), texts[0], texts[1], texts[2])


def _sync_directory(directory: Path) -> None:
    descriptor = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
