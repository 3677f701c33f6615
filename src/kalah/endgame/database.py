"""One endgame database: its file's header, its name and size, and the values it answers."""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kalah.core import solver as core
from kalah.rules import KalahError, Position, Variant
from kalah.rules.wording import plural

from .memory import anonymous, read_in_parts

__all__ = [
    "FORMAT_VERSION",
    "HEADER",
    "MAGIC",
    "EndgameDatabase",
    "EndgameDatabaseError",
    "build_memory",
    "check_request",
    "database_path",
    "default_directory",
    "rule_key",
    "table_bytes",
    "table_positions",
]

MAGIC = b"KALAHEDB"
FORMAT_VERSION = 2
HEADER = struct.Struct("<8sIIIIIIQQI12x")  # 64 bytes
assert HEADER.size == 64


class EndgameDatabaseError(KalahError):
    """An endgame database file that cannot be used (corrupt, foreign, another variant)."""


def default_directory() -> Path:
    """Where databases live unless told otherwise: ``$KALAH_ENDGAME_DIR`` or the user data directory."""
    override = os.environ.get("KALAH_ENDGAME_DIR")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir("kalah")) / "endgame"


def rule_key(variant: Variant | tuple[int, bool]) -> tuple[int, bool]:
    """What a database belongs to: the pit count and the capture rule of ``variant`` (or the pair itself)."""
    if isinstance(variant, Variant):
        return variant.pits, variant.empty_capture
    pits, empty_capture = variant
    return int(pits), bool(empty_capture)


def database_path(
    variant: Variant | tuple[int, bool], max_seeds: int, directory: str | os.PathLike[str] | None = None
) -> Path:
    """Where the database of ``variant``'s pit count and capture rule with K = ``max_seeds`` lives."""
    pits, empty_capture = rule_key(variant)
    rule = "empty" if empty_capture else "std"
    return Path(directory or default_directory()) / f"kalah-m{pits}-{rule}-k{max_seeds}.egdb"


def table_positions(pits: int, max_seeds: int) -> int:
    """Positions of a database of ``pits`` pits per side and K = ``max_seeds``.

    Raises:
        EndgameDatabaseError: ``pits`` or ``max_seeds`` is beyond the databases' range.
    """
    check_request(pits, max_seeds)
    return core.table_size(pits, max_seeds)


def table_bytes(pits: int, max_seeds: int) -> int:
    """Bytes of the packed values of a database of ``pits`` pits per side and K = ``max_seeds`` (its file: 64 more).

    Raises:
        EndgameDatabaseError: ``pits`` or ``max_seeds`` is beyond the databases' range.
    """
    check_request(pits, max_seeds)
    return core.table_bytes(pits, max_seeds)


def build_memory(pits: int, max_seeds: int) -> int:
    """Bytes of memory a build needs: the packed values (each layer is packed in place as it is computed).

    Raises:
        EndgameDatabaseError: ``pits`` or ``max_seeds`` is beyond the databases' range.
    """
    check_request(pits, max_seeds)
    return core.table_bytes(pits, max_seeds)


def check_request(pits: int, max_seeds: int) -> None:
    """Nothing if a database of ``pits`` pits a side and K = ``max_seeds`` can exist, else an error naming why.

    Raises:
        EndgameDatabaseError: ``pits`` or ``max_seeds`` is beyond the databases' range.
    """
    limit = core.MAX_SEEDS
    if isinstance(max_seeds, bool) or not isinstance(max_seeds, int) or not 0 <= max_seeds <= limit:
        raise EndgameDatabaseError(f"max_seeds must be an integer from 0 to {limit}, got {max_seeds!r}")
    if not 1 <= pits <= 8:
        raise EndgameDatabaseError(f"endgame databases hold boards of 1 to 8 pits a side, got {pits}")


@dataclass(eq=False)
class EndgameDatabase:
    """The values of one database, memory-mapped from its file (or built in memory)."""

    pits: int
    empty_capture: bool
    max_seeds: int
    path: Path | None
    table: core.EndgameTable
    _buffer: Any = None
    _copied: bool = False
    _identity: tuple[int, int] | None = None  # the loaded file's device and inode, which load verified

    @property
    def positions(self) -> int:
        """Positions the database values."""
        return self.table.size

    @property
    def nbytes(self) -> int:
        """Bytes of the database: the packed values, and the header of its file."""
        return self.table.nbytes + (HEADER.size if self.path else 0)

    def covers(self, variant: Variant) -> bool:
        """Whether the database holds values for ``variant`` (same pit count and capture rule)."""
        return (variant.pits, variant.empty_capture) == (self.pits, self.empty_capture)

    def _check(self, position: Position) -> None:
        if not self.covers(position.variant):
            raise EndgameDatabaseError(f"the database {self.describe()} does not cover {position.variant.name}")

    def probe(self, position: Position) -> int | None:
        """The best margin the mover can still get from the seeds in the pits, or None above K."""
        self._check(position)
        me = position.to_move
        if position.is_over:
            return 0
        return self.table.value(list(position.pits(me)) + list(position.pits(1 - me)))

    def value(self, position: Position) -> int | None:
        """The final margin (mover's total minus the opponent's) under perfect play, or None above K."""
        pits_value = self.probe(position)
        if pits_value is None:
            return None
        if position.is_over:
            return position.mover_margin
        me = position.to_move
        return position.store(me) - position.store(1 - me) + pits_value

    def oracle(self) -> object:
        """A PyCapsule named ``"kalah.oracle"`` for ``kalah.search(..., oracle=...)``; it keeps the values alive."""
        return self.table.oracle_capsule()

    @property
    def resident(self) -> bool:
        """Whether the values live in private memory (built in memory, or copied by :meth:`in_memory`)."""
        return self.path is None or self._copied

    def in_memory(self) -> EndgameDatabase:
        """This database with its values copied into private memory on huge pages.

        A file's mapping sits on the page cache's 4 KiB pages, so the random
        probes of a long solve mostly miss the TLB; a private copy on huge pages
        (where the kernel allows them) probes faster at the cost of its size in
        memory. Returns self when the values are private already.
        """
        if self.resident:
            return self
        size = self.table.nbytes
        buffer = anonymous(size)
        assert self.path is not None  # not resident: it has a file
        try:  # from the file, not through the mapping: mapped pages would count twice in the resident memory
            read_in_parts(self.path, HEADER.size, memoryview(buffer)[:size], self._identity)
        except OSError:  # also a file replaced since it was verified: the mapping still holds the verified one
            memoryview(buffer)[:size] = memoryview(self._buffer)[HEADER.size : HEADER.size + size]
        table = core.EndgameTable(self.pits, self.empty_capture, self.max_seeds, buffer)
        return EndgameDatabase(self.pits, self.empty_capture, self.max_seeds, self.path, table, buffer, _copied=True)

    def describe(self) -> str:
        """Where the database is and what it covers, for messages."""
        where = str(self.path) if self.path else "in memory"
        rule = ", empty capture" if self.empty_capture else ""
        return f"{where} ({plural(self.pits, 'pit')}{rule}, K={self.max_seeds})"

    def close(self) -> None:
        """Release the mapping (the object is unusable afterwards)."""
        buffer, self._buffer = self._buffer, None
        vars(self).pop("table", None)  # the table reads the buffer: it goes first
        if buffer is not None:
            try:
                buffer.close()
            except BufferError:  # still referenced by a solver; it goes with it
                pass
