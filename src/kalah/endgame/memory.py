"""Memory for the databases' values: private anonymous mappings on huge pages, and reading a file into
them in parallel."""

from __future__ import annotations

import mmap
import os
import threading
from pathlib import Path
from typing import Any

__all__ = ["anonymous", "available_memory", "identity_of", "read_in_parts"]


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


def anonymous(size: int) -> mmap.mmap:
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


def read_in_parts(
    path: Path, offset: int, target: memoryview, identity: tuple[int, int] | None = None, parts: int = 2
) -> None:
    """Read ``len(target)`` bytes of ``path`` from ``offset`` into fresh memory, in ``parts`` threads at once;
    OSError when the file is not the one of ``identity`` (device, inode).

    The time goes into the kernel zeroing the fresh huge pages as the read
    first touches them (on this project's virtual machine up to 7 s for a
    K=28 database, 0.3 s once its pages are backed), and each thread zeroes
    its own part.

    Raises:
        OSError: the file cannot be read, ends early, or is no longer the one of ``identity``.
    """
    size = len(target)
    cuts = [size * i // parts // mmap.PAGESIZE * mmap.PAGESIZE for i in range(parts)] + [size]
    errors: list[BaseException] = []

    def read(lo: int, hi: int) -> None:
        try:
            with open(path, "rb") as file:  # each thread its own file position
                if identity is not None and identity_of(file) != identity:
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


def identity_of(file: Any) -> tuple[int, int]:
    """The device and inode of an open file: which file it is, whatever its name is now."""
    status = os.fstat(file.fileno())
    return status.st_dev, status.st_ino
