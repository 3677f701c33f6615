"""Loading databases: a file memory-mapped and verified, the largest one of a variant found on disk and
kept open for every later caller."""

from __future__ import annotations

import mmap
import os
from pathlib import Path

from kalah.core import solver as core
from kalah.rules import Variant

from .database import FORMAT_VERSION, HEADER, MAGIC, EndgameDatabase, EndgameDatabaseError, default_directory, rule_key
from .memory import identity_of

__all__ = ["LOADED", "load", "locate", "oracle_for"]

#: The databases loaded (or built) by this process, by their resolved path: opened once, shared.
LOADED: dict[Path, EndgameDatabase] = {}


def load(path: str | os.PathLike[str], verify: bool = True) -> EndgameDatabase:
    """Memory-map a database file, checking its header (and, with ``verify``, its checksum).

    Raises:
        EndgameDatabaseError: ``path`` is not a regular file, cannot be opened, is not a
            complete database of this format, or its values fail the checksum (``verify``).
    """
    path = Path(path)
    if path.exists() and not path.is_file():  # a FIFO or a device would block or never end
        raise EndgameDatabaseError(f"{path} is not a regular file")
    try:
        file = open(path, "rb")
    except OSError as error:
        raise EndgameDatabaseError(f"cannot open endgame database {path}: {error.strerror or error}") from None
    with file:
        head = file.read(HEADER.size)
        if len(head) < HEADER.size or not head.startswith(MAGIC):
            raise EndgameDatabaseError(f"{path} is not a kalah endgame database (bad magic or too short)")
        magic, version, header_size, pits, empty_capture, max_seeds, layers, size, checksum, complete = HEADER.unpack(
            head
        )
        if version == 1:
            raise EndgameDatabaseError(
                f"{path} has format version 1 (one byte a value); this kalah reads the packed version {FORMAT_VERSION}:"
                " delete it and build it again (kalah endgame build)"
            )
        if version != FORMAT_VERSION or header_size != HEADER.size:
            raise EndgameDatabaseError(
                f"{path} has format version {version}; this kalah reads version {FORMAT_VERSION}"
            )
        if not complete or layers != max_seeds + 1:
            raise EndgameDatabaseError(f"{path} is an incomplete endgame database (an interrupted build?)")
        if not 1 <= pits <= 8 or not 0 <= max_seeds <= core.MAX_SEEDS or size != core.table_bytes(pits, max_seeds):
            raise EndgameDatabaseError(f"{path} has an inconsistent header (pits {pits}, K {max_seeds}, size {size})")
        actual = os.fstat(file.fileno()).st_size
        if actual != HEADER.size + size:
            raise EndgameDatabaseError(
                f"{path} holds {actual} bytes; its header promises {HEADER.size + size} (truncated or padded)"
            )
        buffer = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
        identity = identity_of(file)
    if verify:
        matches = core.checksum(buffer, HEADER.size, size) == checksum
        if hasattr(mmap, "MADV_DONTNEED"):  # the check read every page: unmap them (the page cache keeps them)
            buffer.madvise(mmap.MADV_DONTNEED)
        if not matches:
            buffer.close()
            raise EndgameDatabaseError(f"{path} is corrupt: the checksum of its values does not match its header")
    table = core.EndgameTable(pits, bool(empty_capture), max_seeds, buffer, HEADER.size)
    return EndgameDatabase(pits, bool(empty_capture), max_seeds, path, table, buffer, _identity=identity)


def locate(
    variant: Variant | tuple[int, bool], directory: str | os.PathLike[str] | None = None, max_seeds: int | None = None
) -> EndgameDatabase | None:
    """The database with the largest K (at most ``max_seeds``) for ``variant`` in ``directory``, or None.

    Loaded databases are kept open and shared. Files with the standard name that
    cannot be used raise :class:`EndgameDatabaseError`.

    Raises:
        EndgameDatabaseError: a file of the variant is there but cannot be used.
    """
    pits, empty_capture = rule_key(variant)
    folder = Path(directory or default_directory())
    rule = "empty" if empty_capture else "std"
    prefix = f"kalah-m{pits}-{rule}-k"
    best: tuple[int, Path] | None = None
    try:
        names = os.listdir(folder)
    except OSError:
        return None
    for name in names:
        if not (name.startswith(prefix) and name.endswith(".egdb")):
            continue
        digits = name[len(prefix) : -len(".egdb")]
        if not digits.isdigit():
            continue
        k = int(digits)
        if max_seeds is not None and k > max_seeds:
            continue
        if best is None or k > best[0]:
            best = (k, folder / name)
    if best is None:
        return None
    path = best[1].resolve()
    if path not in LOADED:
        database = load(path)
        if (database.pits, database.empty_capture) != (pits, empty_capture):
            raise EndgameDatabaseError(f"{path} is named for {pits} pits but holds a database for {database.pits} pits")
        LOADED[path] = database
    return LOADED[path]


def oracle_for(variant: Variant, directory: str | os.PathLike[str] | None = None) -> object | None:
    """The oracle capsule of the largest database of ``variant`` on disk, or None (for search players)."""
    try:
        database = locate(variant, directory)
    except EndgameDatabaseError:
        return None
    return database.oracle() if database is not None else None
