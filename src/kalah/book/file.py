"""A book and its file: gzip-compressed JSON, read with limits and checked entry by entry; the lines a
book must hold."""

from __future__ import annotations

import gzip
import io
import json
import os
import zlib
from pathlib import Path
from typing import Any

from kalah.atomic import write_atomic
from kalah.rules import SWAP, KalahError, Position, Variant

from .entry import BookEntry, BookError, position_key

__all__ = ["FORMAT", "FORMAT_VERSION", "MAX_FILE_BYTES", "Book", "decisions", "lines", "load"]

FORMAT = "kalah-book"
FORMAT_VERSION = 1
#: A book file larger than this is refused before it is decompressed, and its JSON past this when unpacking.
MAX_FILE_BYTES = 64 << 20


class Book:
    """The entries of one variant's book, by :func:`position_key`.

    A book read with ``check=False`` keeps its entries as they were read and
    checks each one when it is first looked up (loading stays cheap).
    """

    def __init__(
        self,
        variant: Variant,
        moves: int,
        entries: dict[str, BookEntry] | None = None,
        built: dict[str, Any] | None = None,
        *,
        raw: dict[str, Any] | None = None,
        source: str = "the book",
        plies: int | None = None,
    ) -> None:
        self.variant = variant
        #: The perfect player's decisions per seat the book covers completely.
        self.moves = moves
        #: The book holds only positions fewer than this many plies from the start (None: no such limit).
        self.plies = plies
        #: How the book was built: seconds, positions per decision, solver threads, version.
        self.built: dict[str, Any] = built if built is not None else {}
        self._entries: dict[str, BookEntry] = entries if entries is not None else {}
        self._raw: dict[str, Any] = raw if raw is not None else {}
        self._source = source

    @property
    def entries(self) -> dict[str, BookEntry]:
        """Every entry by key (the entries not checked yet are checked now)."""
        if self._raw:
            for key in list(self._raw):
                self._checked(key)
        return self._entries

    def _checked(self, key: str) -> BookEntry | None:
        """Check a raw entry and keep it (idempotent: threads may race here, each finds the same entry)."""
        item = self._raw.get(key)
        if item is None:
            return self._entries.get(key)
        try:
            entry = _entry(key, item, self.variant)
        except (TypeError, ValueError) as error:
            raise BookError(f"{self._source} is damaged ({error})") from None
        self._entries[key] = entry
        self._raw.pop(key, None)
        return entry

    def __len__(self) -> int:
        return len(self._entries) + len(self._raw)

    def get(self, position: Position) -> BookEntry | None:
        """The entry of ``position``, or None when the book does not hold it (or it is of another variant)."""
        if position.variant != self.variant:
            return None
        key = position_key(position)
        entry = self._entries.get(key)
        if entry is None and key in self._raw:
            entry = self._checked(key)
        return entry

    def to_bytes(self) -> bytes:
        """The file's bytes: gzip-compressed JSON (reproducible: no time stamp in the gzip header)."""
        document = {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "variant": self.variant.to_dict(),
            "moves": self.moves,
            **({"plies": self.plies} if self.plies is not None else {}),
            "built": self.built,
            "entries": {
                key: [entry.move, entry.value, list(entry.best_moves)] for key, entry in sorted(self.entries.items())
            },
        }
        text = json.dumps(document, separators=(",", ":"))
        return gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)

    @classmethod
    def from_bytes(cls, data: bytes, source: str = "the book", check: bool = True) -> Book:
        """A book from the bytes of its file; :class:`BookError` naming ``source`` if they are not one.

        With ``check=False`` the entries are checked one by one as they are looked up.

        Raises:
            BookError: ``data`` is not an opening book (not gzip, not JSON, no header, another
                format version, too large) or is damaged.
        """
        try:
            # At most one byte past the limit is unpacked: a small file can unpack to gigabytes.
            with gzip.GzipFile(fileobj=io.BytesIO(data)) as unpacked:
                text = unpacked.read(MAX_FILE_BYTES + 1)
        except (OSError, EOFError, zlib.error) as error:
            raise BookError(f"{source} is not an opening book (not gzip data: {error})") from None
        if len(text) > MAX_FILE_BYTES:
            raise BookError(f"{source} is too large for an opening book (over {MAX_FILE_BYTES >> 20} MiB unpacked)")
        try:
            document = json.loads(text)
        except (ValueError, RecursionError) as error:
            raise BookError(f"{source} is damaged (not JSON: {error})") from None
        if not isinstance(document, dict) or document.get("format") != FORMAT:
            raise BookError(f"{source} is not an opening book (no {FORMAT!r} header)")
        if document.get("version") != FORMAT_VERSION:
            raise BookError(
                f"{source} has book format version {document.get('version')!r}; "
                f"this kalah reads version {FORMAT_VERSION}"
            )
        try:
            variant = Variant.from_dict(document["variant"])
            moves = document["moves"]
            plies = document.get("plies")
            built = document.get("built", {})
            raw = document["entries"]
            if (
                isinstance(moves, bool)
                or not isinstance(moves, int)
                or moves < 0
                or (plies is not None and (isinstance(plies, bool) or not isinstance(plies, int) or plies < 0))
                or not isinstance(raw, dict)
                or not isinstance(built, dict)
            ):
                raise ValueError("bad header")
        except (KeyError, TypeError, ValueError, KalahError) as error:
            raise BookError(f"{source} is damaged ({error})") from None
        book = cls(variant, moves, None, built, raw=raw, source=source, plies=plies)
        if check:
            book.entries  # noqa: B018 - checks every entry
        return book

    def trimmed(self) -> Book:
        """The book without the entries beyond its complete moves (those a build stopped during a move left)."""
        needed, _ = lines(self)
        keys = {position_key(position) for position in needed}
        entries = {key: entry for key, entry in self.entries.items() if key in keys}
        return Book(self.variant, self.moves, entries, dict(self.built), source=self._source, plies=self.plies)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the book to ``path`` atomically (a reader sees the old file or the new one).

        Raises:
            BookError: the file cannot be written.
        """
        try:
            write_atomic(path, self.to_bytes(), mode=0o644)  # a data file of the package: readable by everyone
        except OSError as error:
            raise BookError(f"cannot write the opening book {path}: {error.strerror or error}") from None


def _entry(key: str, item: Any, variant: Variant) -> BookEntry:
    """One entry of a file, checked cheaply (no position is built): a board of the variant, moves in range."""
    cells, slash, mover = key.partition("/")
    counts = [int(cell) for cell in cells.split(".")]
    if (
        not slash
        or mover not in ("0", "1")
        or len(counts) != 2 * variant.pits + 2
        or min(counts) < 0
        or sum(counts) != variant.total_seeds
    ):
        raise ValueError(f"bad key {key!r}")
    if not isinstance(item, list) or len(item) != 3 or not isinstance(item[2], list):
        raise ValueError(f"bad entry for {key!r}")
    move, value, best = item
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or move not in best
        or not all(_is_move(other, variant) for other in best)
    ):
        raise ValueError(f"bad entry for {key!r}")
    return BookEntry(move, value, tuple(best))


def _is_move(move: Any, variant: Variant) -> bool:
    if move == SWAP:
        return variant.pie_rule
    return not isinstance(move, bool) and isinstance(move, int) and 0 <= move < variant.pits


def load(path: str | os.PathLike[str], variant: Variant | None = None, *, check: bool = True) -> Book:
    """Read a book file; with ``variant``, also check that it is that variant's book. With ``check=False``
    its entries are checked as they are looked up (:class:`BookError` then).

    Raises:
        BookError: the file cannot be read, is too large, is not a (valid) book, or is the
            book of another variant than ``variant``.
    """
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise BookError(f"{path} is too large for an opening book ({size:,} bytes)")
        data = path.read_bytes()
    except OSError as error:
        raise BookError(f"cannot read the opening book {path}: {error.strerror or error}") from None
    book = Book.from_bytes(data, str(path), check)
    if variant is not None and book.variant != variant:
        raise BookError(f"{path} is the book of {book.variant.name}, not of {variant.name}")
    return book


def decisions(
    position: Position, seat: int, out: dict[str, tuple[Position, int]], ply: int = 0, plies: int | None = None
) -> None:
    """The positions where ``seat`` next decides, from ``position`` (``ply`` moves from the start) on, with
    their plies, added to ``out`` by key: the opponent's every move followed, the seat's forced moves
    played (they are no decision); none ``plies`` or more moves from the start."""
    if position.is_over or (plies is not None and ply >= plies):
        return
    moves = position.legal_moves()
    if position.to_move == seat and len(moves) > 1:
        out.setdefault(position_key(position), (position, ply))
        return
    for move in moves:
        decisions(position.play(move), seat, out, ply + 1, plies)


def lines(book: Book, moves: int | None = None) -> tuple[list[Position], list[Position]]:
    """Walk the book's lines: the positions it must hold for ``moves`` decisions per seat (default: the
    book's own count), and those of them it is missing (an empty list for a complete book)."""
    wanted = book.moves if moves is None else moves
    start = Position.start(book.variant)
    frontier: dict[str, tuple[Position, int]] = {}
    for seat in (0, 1):
        decisions(start, seat, frontier, 0, book.plies)
    needed: list[Position] = []
    missing: list[Position] = []
    seen: set[str] = set()
    for _ in range(wanted):
        following: dict[str, tuple[Position, int]] = {}
        for key, (position, ply) in frontier.items():
            if key in seen:
                continue
            seen.add(key)
            needed.append(position)
            entry = book.entries.get(key)
            if entry is None:
                missing.append(position)
                continue
            decisions(position.play(entry.move), position.to_move, following, ply + 1, book.plies)
        frontier = following
    return needed, missing
