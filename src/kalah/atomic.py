"""Atomic file writes: a reader sees the old file or the new one, never half of one.

Below every layer (like ``kalah.version``): game records, arena results and
opening books are all written with it."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomic(path: str | os.PathLike[str], data: str | bytes, mode: int | None = None) -> None:
    """Write ``data`` to ``path`` through a temporary file and an atomic rename.

    The file gets permission bits ``mode`` if given, else those of the file it replaces, else those a
    plain ``open`` would give it (0666 less the umask): the temporary file's own are 0600, which made
    exported games and results unreadable to anyone else."""
    path = Path(path)
    if mode is None:
        mode = _mode_of(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.chmod(temporary, mode)
        with os.fdopen(descriptor, "wb") as file:
            file.write(payload)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except FileNotFoundError:
            pass
        raise


def _mode_of(path: Path) -> int:
    """The permission bits for a new version of ``path``: the old file's, or 0666 less the umask."""
    try:
        return path.stat().st_mode & 0o7777
    except OSError:
        return 0o666 & ~_umask()


def _umask() -> int:
    """The process's umask, read without changing it where Linux tells it (os.umask can only set it, and
    setting it to read it would race with other threads creating files)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    old = os.umask(0o022)
    os.umask(old)
    return old
