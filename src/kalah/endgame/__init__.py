"""Endgame databases: the exact value of every position with at most K seeds in the pits.

A database belongs to a pit count and a capture rule (the seeds per pit at
the start and the pie rule do not matter: the swap exists only at the first
move). Its value for a position is the best final margin the side to move can
still get from the seeds in the pits; the stores only add their difference.

The values are computed by compiled code on several threads
(``kalah.core.solver``, csrc/endgame.c) and kept in files::

    header (64 bytes, little-endian)
        magic b"KALAHEDB", format version, header size, pits, empty capture,
        K, complete layers, payload size, checksum of the payload, complete flag
    payload: layers 0..K one after another, each 8-byte aligned, then 8 bytes
        of padding; a position of layer S holds a = (v + S) / 2 (the seeds the
        mover ends with: v = 2a - S has the parity of S) in w(S) bits, the bit
        length of S (5 bits for S = 16..31, 6 bits for 32..63), see csrc/endgame.h

Format 1 (one signed byte per value) is refused with a message that says to
rebuild.

Files are memory-mapped on load and their checksum verified; a file that is
corrupt, foreign or for another variant is refused with
:class:`EndgameDatabaseError` naming it. A build writes ``NAME.partial``
(resumable layer by layer) and renames it to ``NAME`` only when complete, so
an interrupted build never leaves a broken database behind.
"""

from __future__ import annotations

import mmap
import os
import queue
import struct
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kalah.core import solver as core
from kalah.rules import KalahError, Position, Variant
from kalah.rules.wording import plural

__all__ = [
    "FORMAT_VERSION",
    "available_memory",
    "EndgameDatabase",
    "EndgameDatabaseError",
    "build",
    "build_in_memory",
    "build_memory",
    "database_path",
    "default_directory",
    "load",
    "locate",
    "oracle_for",
    "table_bytes",
    "table_positions",
]

MAGIC = b"KALAHEDB"
FORMAT_VERSION = 2
HEADER = struct.Struct("<8sIIIIIIQQI12x")  # 64 bytes
assert HEADER.size == 64
CHUNK = 1 << 21  # positions per compiled call: the pace of progress reports and interrupts

Progress = Callable[[int, int], None]


class EndgameDatabaseError(KalahError):
    """An endgame database file that cannot be used (corrupt, foreign, another variant)."""


def available_memory() -> int | None:
    """Bytes of memory a new allocation can have now (Linux's MemAvailable), or None when unknown."""
    try:
        with open("/proc/meminfo") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def default_directory() -> Path:
    """Where databases live unless told otherwise: ``$KALAH_ENDGAME_DIR`` or the user data directory."""
    override = os.environ.get("KALAH_ENDGAME_DIR")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir("kalah")) / "endgame"


def _rule_key(variant: Variant | tuple[int, bool]) -> tuple[int, bool]:
    if isinstance(variant, Variant):
        return variant.pits, variant.empty_capture
    pits, empty_capture = variant
    return int(pits), bool(empty_capture)


def database_path(
    variant: Variant | tuple[int, bool], max_seeds: int, directory: str | os.PathLike[str] | None = None
) -> Path:
    """Where the database of ``variant``'s pit count and capture rule with K = ``max_seeds`` lives."""
    pits, empty_capture = _rule_key(variant)
    rule = "empty" if empty_capture else "std"
    return Path(directory or default_directory()) / f"kalah-m{pits}-{rule}-k{max_seeds}.egdb"


def table_positions(pits: int, max_seeds: int) -> int:
    """Positions of a database of ``pits`` pits per side and K = ``max_seeds``.

    Raises:
        EndgameDatabaseError: ``pits`` or ``max_seeds`` is beyond the databases' range.
    """
    _check_request(pits, max_seeds)
    return core.table_size(pits, max_seeds)


def table_bytes(pits: int, max_seeds: int) -> int:
    """Bytes of the packed values of a database of ``pits`` pits per side and K = ``max_seeds`` (its file: 64 more).

    Raises:
        EndgameDatabaseError: ``pits`` or ``max_seeds`` is beyond the databases' range.
    """
    _check_request(pits, max_seeds)
    return core.table_bytes(pits, max_seeds)


def build_memory(pits: int, max_seeds: int) -> int:
    """Bytes of memory a build needs: the packed values (each layer is packed in place as it is computed).

    Raises:
        EndgameDatabaseError: ``pits`` or ``max_seeds`` is beyond the databases' range.
    """
    _check_request(pits, max_seeds)
    return core.table_bytes(pits, max_seeds)


def _check_request(pits: int, max_seeds: int) -> None:
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
        buffer = _anonymous(size)
        assert self.path is not None  # not resident: it has a file
        try:  # from the file, not through the mapping: mapped pages would count twice in the resident memory
            _read_in_parts(self.path, HEADER.size, memoryview(buffer)[:size], self._identity)
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


# --- building -------------------------------------------------------------------


def _anonymous(size: int) -> mmap.mmap:
    """Zeroed private memory on transparent huge pages where the kernel allows.

    Private, not the default shared mapping: shared anonymous memory is shmem,
    which the kernel does not back with huge pages, and the probes of a build or
    a solve are random, so with 4 KiB pages nearly every one misses the TLB.
    """
    flags = getattr(mmap, "MAP_PRIVATE", None)
    buffer = mmap.mmap(-1, max(size, 1), flags=flags) if flags is not None else mmap.mmap(-1, max(size, 1))
    if hasattr(mmap, "MADV_HUGEPAGE"):
        try:
            buffer.madvise(mmap.MADV_HUGEPAGE)
        except OSError:
            pass
    return buffer


class _InOrder:
    """Calls ``work(item)`` for each item put, in order, in a thread of its own; leaving the ``with`` block waits
    for every item put and raises the first error of ``work`` (which also stops the items after it)."""

    def __init__(self, work: Callable[[int], None]):
        self._work = work
        self._items: queue.Queue[int | None] = queue.Queue()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="kalah-layer-writer")

    def _run(self) -> None:
        while (item := self._items.get()) is not None:
            if self._error is None:
                try:
                    self._work(item)
                except BaseException as error:  # re-raised by the thread that put the items
                    self._error = error

    def put(self, item: int) -> None:
        if self._error is not None:
            raise self._error
        self._items.put(item)

    def __enter__(self) -> _InOrder:
        self._thread.start()
        return self

    def __exit__(self, error_type: object, *rest: object) -> None:
        self._items.put(None)
        self._thread.join()
        if self._error is not None and error_type is None:
            raise self._error


def _read_in_parts(
    path: Path, offset: int, target: memoryview, identity: tuple[int, int] | None = None, parts: int = 2
) -> None:
    """Read ``len(target)`` bytes of ``path`` from ``offset`` into fresh memory, in ``parts`` threads at once;
    OSError when the file is not the one of ``identity`` (device, inode).

    The time goes into the kernel zeroing the fresh huge pages as the read
    first touches them (on this project's virtual machine up to 7 s for a
    K=28 database, 0.3 s once its pages are backed), and each thread zeroes
    its own part.
    """
    size = len(target)
    cuts = [size * i // parts // mmap.PAGESIZE * mmap.PAGESIZE for i in range(parts)] + [size]
    errors: list[BaseException] = []

    def read(lo: int, hi: int) -> None:
        try:
            with open(path, "rb") as file:  # each thread its own file position
                if identity is not None and _identity_of(file) != identity:
                    raise OSError(f"{path} was replaced since it was loaded")
                file.seek(offset + lo)
                while lo < hi:
                    got = file.readinto(target[lo : min(hi, lo + (1 << 26))])
                    if not got:
                        raise OSError(f"{path} ended early")
                    lo += got
        except BaseException as error:  # re-raised in the calling thread
            errors.append(error)

    threads = [threading.Thread(target=read, args=(cuts[i], cuts[i + 1])) for i in range(1, parts)]
    for thread in threads:
        thread.start()
    read(cuts[0], cuts[1])
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]


def _identity_of(file: Any) -> tuple[int, int]:
    status = os.fstat(file.fileno())
    return status.st_dev, status.st_ino


def _build_layers(
    table: core.EndgameTable,
    first: int,
    threads: int,
    progress: Progress | None,
    after_layer: Callable[[int], None] | None = None,
) -> None:
    """Build layers ``first``..K in order (those below are complete), each packed in place as it is computed."""
    total = table.size
    done = table.layer_offset(first)
    try:
        for seeds in range(first, table.max_seeds + 1):
            table.begin_layer(seeds)
            size = table.layer_size(seeds)
            for lo in range(0, size, CHUNK):
                hi = min(size, lo + CHUNK)
                if not table.build_range(seeds, lo, hi, threads):
                    raise EndgameDatabaseError("the build was stopped")
                done += hi - lo
                if progress is not None:
                    progress(done, total)
            table.end_layer()
            if after_layer is not None:
                after_layer(seeds)
    finally:
        table.end_layer()  # after an interruption: forget the layer in progress (saved files hold only whole layers)


def _threads(threads: int | None) -> int:
    if threads is None:
        return max(1, min(os.cpu_count() or 1, 16))
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise EndgameDatabaseError(f"threads must be a positive integer, got {threads!r}")
    return min(threads, 64)


def build_in_memory(
    variant: Variant | tuple[int, bool], max_seeds: int, threads: int | None = None, progress: Progress | None = None
) -> EndgameDatabase:
    """Compute a database in memory (nothing is written)."""
    pits, empty_capture = _rule_key(variant)
    _check_request(pits, max_seeds)
    buffer = _anonymous(core.table_bytes(pits, max_seeds))
    table = core.EndgameTable(pits, empty_capture, max_seeds, buffer)
    if progress is not None:
        progress(0, table.size)
    _build_layers(table, 0, _threads(threads), progress)
    return EndgameDatabase(pits, empty_capture, max_seeds, None, table, buffer)


def _header(
    pits: int, empty_capture: bool, max_seeds: int, layers: int, size: int, checksum: int, complete: bool
) -> bytes:
    return HEADER.pack(
        MAGIC, FORMAT_VERSION, HEADER.size, pits, int(empty_capture), max_seeds, layers, size, checksum, int(complete)
    )


def build(
    variant: Variant | tuple[int, bool],
    max_seeds: int,
    directory: str | os.PathLike[str] | None = None,
    *,
    path: str | os.PathLike[str] | None = None,
    threads: int | None = None,
    progress: Progress | None = None,
    resume: bool = True,
) -> EndgameDatabase:
    """Build the database of ``variant``'s pits and capture rule up to ``max_seeds`` seeds and write it.

    The file goes to ``path``, or to its standard name in ``directory`` (default:
    :func:`default_directory`). Layers are saved to ``NAME.partial`` as they
    complete; with ``resume`` a partial file left by an interrupted build of the
    same database is continued. ``progress(done, total)`` is called as positions
    are computed. Returns the database, its values kept in the private memory they were built in
    (:meth:`EndgameDatabase.in_memory` need not copy them); :func:`locate` returns the same object.

    Raises:
        EndgameDatabaseError: ``max_seeds`` or the variant's pits are out of range, or the
            file cannot be written.
    """
    pits, empty_capture = _rule_key(variant)
    _check_request(pits, max_seeds)
    threads = _threads(threads)
    target = Path(path) if path is not None else database_path((pits, empty_capture), max_seeds, directory)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise EndgameDatabaseError(f"cannot create the folder {target.parent}: {error.strerror or error}") from None
    partial = target.with_name(target.name + ".partial")
    size = core.table_bytes(pits, max_seeds)
    buffer = _anonymous(size)
    table = core.EndgameTable(pits, empty_capture, max_seeds, buffer)

    first = 0
    if resume and partial.exists():
        first = _read_partial(partial, pits, empty_capture, max_seeds, size, buffer, table)
    if first == 0:
        with open(partial, "wb") as file:
            file.write(_header(pits, empty_capture, max_seeds, 0, size, 0, False))
    if progress is not None:
        progress(table.layer_offset(first), table.size)

    with open(partial, "r+b") as layer_file:

        def save_layer(seeds: int) -> None:
            start = table.layer_byte_offset(seeds)
            end = table.layer_byte_offset(seeds + 1) if seeds < max_seeds else size  # the last layer: with the padding
            layer_file.seek(HEADER.size + start)
            layer_file.write(memoryview(buffer)[start:end])
            layer_file.flush()
            os.fsync(layer_file.fileno())
            layer_file.seek(0)
            layer_file.write(_header(pits, empty_capture, max_seeds, seeds + 1, size, 0, False))
            layer_file.flush()

        with _InOrder(save_layer) as saver:  # a layer is written while the next one builds (it only reads it)
            _build_layers(table, first, threads, progress, saver.put)
        checksum = core.checksum(buffer, 0, size)
        layer_file.truncate(HEADER.size + size)
        layer_file.seek(0)
        layer_file.write(_header(pits, empty_capture, max_seeds, max_seeds + 1, size, checksum, True))
        layer_file.flush()
        os.fsync(layer_file.fileno())
    os.replace(partial, target)
    # The values stay where they were built, private memory on huge pages as in_memory() would copy them,
    # and locate() finds them there: a solve right after its build reads the file not once.
    resolved = target.resolve()
    database = EndgameDatabase(pits, empty_capture, max_seeds, resolved, table, buffer, _copied=True)
    _LOADED[resolved] = database
    return database


def _read_partial(
    partial: Path,
    pits: int,
    empty_capture: bool,
    max_seeds: int,
    size: int,
    buffer: mmap.mmap,
    table: core.EndgameTable,
) -> int:
    """Load the complete layers of a partial file; returns the first layer still to build (0: start over)."""
    try:
        with open(partial, "rb") as file:
            fields = HEADER.unpack(file.read(HEADER.size))
            magic, version, header_size, f_pits, f_ec, f_k, layers, f_size, _, _ = fields
            if (magic, version, header_size, f_pits, bool(f_ec), f_k, f_size) != (
                MAGIC,
                FORMAT_VERSION,
                HEADER.size,
                pits,
                empty_capture,
                max_seeds,
                size,
            ) or not 0 <= layers <= max_seeds + 1:
                return 0
            end = table.layer_byte_offset(layers) if layers <= max_seeds else size
            data = file.read(end)
            if len(data) != end:
                return 0
            buffer[:end] = data
            return int(layers)
    except (OSError, struct.error):
        return 0


# --- loading --------------------------------------------------------------------


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
        identity = _identity_of(file)
    if verify:
        matches = core.checksum(buffer, HEADER.size, size) == checksum
        if hasattr(mmap, "MADV_DONTNEED"):  # the check read every page: unmap them (the page cache keeps them)
            buffer.madvise(mmap.MADV_DONTNEED)
        if not matches:
            buffer.close()
            raise EndgameDatabaseError(f"{path} is corrupt: the checksum of its values does not match its header")
    table = core.EndgameTable(pits, bool(empty_capture), max_seeds, buffer, HEADER.size)
    return EndgameDatabase(pits, bool(empty_capture), max_seeds, path, table, buffer, _identity=identity)


_LOADED: dict[Path, EndgameDatabase] = {}


def locate(
    variant: Variant | tuple[int, bool], directory: str | os.PathLike[str] | None = None, max_seeds: int | None = None
) -> EndgameDatabase | None:
    """The database with the largest K (at most ``max_seeds``) for ``variant`` in ``directory``, or None.

    Loaded databases are kept open and shared. Files with the standard name that
    cannot be used raise :class:`EndgameDatabaseError`.

    Raises:
        EndgameDatabaseError: a file of the variant is there but cannot be used.
    """
    pits, empty_capture = _rule_key(variant)
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
    if path not in _LOADED:
        database = load(path)
        if (database.pits, database.empty_capture) != (pits, empty_capture):
            raise EndgameDatabaseError(f"{path} is named for {pits} pits but holds a database for {database.pits} pits")
        _LOADED[path] = database
    return _LOADED[path]


def oracle_for(variant: Variant, directory: str | os.PathLike[str] | None = None) -> object | None:
    """The oracle capsule of the largest database of ``variant`` on disk, or None (for search players)."""
    try:
        database = locate(variant, directory)
    except EndgameDatabaseError:
        return None
    return database.oracle() if database is not None else None
