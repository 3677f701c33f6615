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

from .building import CHUNK, Progress, build, build_in_memory
from .database import (
    FORMAT_VERSION,
    HEADER,
    MAGIC,
    EndgameDatabase,
    EndgameDatabaseError,
    build_memory,
    database_path,
    default_directory,
    table_bytes,
    table_positions,
)
from .loading import load, locate, oracle_for
from .memory import available_memory

__all__ = [
    "CHUNK",
    "FORMAT_VERSION",
    "HEADER",
    "MAGIC",
    "Progress",
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
