"""Building a database: its layers in order on several threads, each saved to a partial file as it
completes, so that an interrupted build resumes."""

from __future__ import annotations

import mmap
import os
import queue
import struct
import threading
from collections.abc import Callable
from pathlib import Path

from kalah.core import solver as core
from kalah.rules import Variant

from .database import (
    FORMAT_VERSION,
    HEADER,
    MAGIC,
    EndgameDatabase,
    EndgameDatabaseError,
    check_request,
    database_path,
    rule_key,
)
from .loading import LOADED
from .memory import anonymous

__all__ = ["CHUNK", "Progress", "build", "build_in_memory"]

CHUNK = 1 << 21  # positions per compiled call: the pace of progress reports and interrupts

#: ``progress(done, total)``: positions computed so far, of all.
Progress = Callable[[int, int], None]


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
    pits, empty_capture = rule_key(variant)
    check_request(pits, max_seeds)
    buffer = anonymous(core.table_bytes(pits, max_seeds))
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
    pits, empty_capture = rule_key(variant)
    check_request(pits, max_seeds)
    threads = _threads(threads)
    target = Path(path) if path is not None else database_path((pits, empty_capture), max_seeds, directory)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise EndgameDatabaseError(f"cannot create the folder {target.parent}: {error.strerror or error}") from None
    partial = target.with_name(target.name + ".partial")
    size = core.table_bytes(pits, max_seeds)
    buffer = anonymous(size)
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
    LOADED[resolved] = database
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
