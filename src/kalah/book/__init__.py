"""Opening books: the perfect player's solved moves along its own lines, looked up instead of solved.

A book of a variant holds, for each seat the perfect player can take, every
position where that player is to move during its first N decisions of a game
that it plays by the solver's choice while the opponent may play anything: at
the player's own positions only its chosen move is followed, at the
opponent's every legal move (extra turns keep the mover; a forced move is no
decision and is not stored). A book may also stop at a number of plies from
the start (``plies``: every position within that many moves of the start,
each move one ply, extra turns and forced moves included, as CMancala's book
counts), whichever limit comes first. Each entry is the move the perfect player
chooses, the exact value of the position and all its best moves, found by
:func:`kalah.solve` with the endgame database as the solver normally uses it.

The choice among equally good moves is the perfect player's rule, which lives
here (:func:`fastest_move`, used by the player too): the shortest principal
variation when winning, the longest when drawing or losing, the first in pit
order among equals. (A principal variation is one line of perfect play, not
the shortest one: which line the solver reports may depend on what its table
held, so two solves may break a tie differently. The value and the set of
best moves are exact.)

Books ship in the package (``kalah/book/data/``) as gzip-compressed JSON::

    {"format": "kalah-book", "version": 1, "variant": {...}, "moves": N, ["plies": P,]
     "built": {...build statistics...},
     "entries": {"<cells separated by dots>/<to move>": [move, value, [best moves]], ...}}

:func:`lookup` finds the shipped book of a position's variant (loaded once,
lazily) and its entry. A damaged, foreign or mismatched file raises
:class:`BookError` naming it.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from kalah.atomic import write_atomic
from kalah.rules import SWAP, KalahError, Move, Position, Variant
from kalah.solve import solve
from kalah.version import __version__

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "Book",
    "BookEntry",
    "BookError",
    "book_filename",
    "build_book",
    "choose",
    "data_directory",
    "fastest_move",
    "lines",
    "load",
    "lookup",
    "position_key",
    "shipped",
]

FORMAT = "kalah-book"
FORMAT_VERSION = 1
#: A book file larger than this is refused before it is decompressed, and its JSON past this when unpacking.
MAX_FILE_BYTES = 64 << 20

#: ``progress(done, total, level)``: positions settled so far, positions known so far (it grows as the
#: lines are followed), the decision number being worked on (1 = the first move of each seat).
Progress = Callable[[int, int, int], None]


class BookError(KalahError):
    """An opening book that cannot be used (damaged, foreign, another variant) or built as asked."""


@dataclass(frozen=True)
class BookEntry:
    """What the book says about one position, from the side to move's point of view."""

    move: Move
    """The perfect player's move: a best move, by its rule among equals (see :func:`fastest_move`)."""
    value: int
    """The exact final margin (the mover's total minus the opponent's) under perfect play."""
    best_moves: tuple[Move, ...]
    """Every move that keeps the value, in pit order (then the swap)."""


def position_key(position: Position) -> str:
    """The book's key of a position: its cells separated by dots, a slash, the player to move.

    >>> position_key(kalah.Position.start(kalah.Variant(3, 2)))
    '2.2.2.0.2.2.2.0/0'
    """
    return ".".join(map(str, position.cells)) + f"/{position.to_move}"


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


# --- the shipped books ----------------------------------------------------------------


def data_directory() -> Path:
    """Where the package keeps its books."""
    return Path(__file__).resolve().parent / "data"


def book_filename(variant: Variant) -> str:
    """The file name of a variant's book, e.g. ``kalah-6-4-ec.book.json.gz`` for Kalah(6,4) empty-capture."""
    flags = ("-ec" if variant.empty_capture else "") + ("-pie" if variant.pie_rule else "")
    return f"kalah-{variant.pits}-{variant.seeds}{flags}.book.json.gz"


@cache
def shipped(variant: Variant) -> Book | None:
    """The book of ``variant`` that ships in the package (loaded once), or None when there is none."""
    path = data_directory() / book_filename(variant)
    if not path.is_file():
        return None
    return load(path, variant, check=False)


def lookup(position: Position) -> BookEntry | None:
    """The shipped book's entry for ``position``, or None (no book for its variant, or not in it)."""
    book = shipped(position.variant)
    return book.get(position) if book is not None else None


# --- the perfect player's choice -----------------------------------------------------------


def fastest_move(
    position: Position, value: int, best: list[Move], *, deadline: float | None = None, threads: int | None = None
) -> Move:
    """Among equally good moves: the shortest line to the end when winning, the longest otherwise.

    ``value`` is the position's exact value and ``best`` its best moves. The
    line of a move is the solver's principal variation after it; among lines of
    equal length the first move in ``best`` wins. With ``deadline`` (on
    ``time.monotonic``) only the moves measured by then are candidates, and a
    line not proven in time stops the measuring with ``best[0]``.
    """
    if len(best) == 1:
        return best[0]
    lengths: dict[Move, int] = {}
    for move in best:
        child = position.play(move)
        if child.is_over:
            lengths[move] = 0
            continue
        left = None
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0.01:
                break
        line = solve(child, left, threads=threads, best_moves=False)
        if not line.exact:
            return best[0]
        lengths[move] = len(line.pv)
    measured = [move for move in best if move in lengths] or best[:1]
    if value > 0:
        return min(measured, key=lambda move: lengths.get(move, 0))
    return max(measured, key=lambda move: lengths.get(move, 0))


def choose(position: Position, *, threads: int | None = None) -> BookEntry:
    """The perfect player's move in ``position`` with unlimited time: an exact solve and :func:`fastest_move`.

    Raises:
        BookError: the game is over, or the solver proved no value in its time.
    """
    if position.is_over:
        raise BookError("the game is over: there is no move to choose")
    result = solve(position, threads=threads, pv=False)
    if result.value is None or not result.best_moves:  # pragma: no cover - an unlimited solve is exact
        raise BookError(f"the solver proved no value for {position_key(position)}")
    move = fastest_move(position, result.value, result.best_moves, threads=threads)
    return BookEntry(move, result.value, tuple(result.best_moves))


# --- building ----------------------------------------------------------------------------------


def _decisions(
    position: Position, seat: int, out: dict[str, tuple[Position, int]], ply: int = 0, plies: int | None = None
) -> None:
    """The positions where ``seat`` next decides, from ``position`` (``ply`` moves from the start) on, with
    their plies: the opponent's every move followed, the seat's forced moves played (they are no
    decision); none ``plies`` or more moves from the start."""
    if position.is_over or (plies is not None and ply >= plies):
        return
    moves = position.legal_moves()
    if position.to_move == seat and len(moves) > 1:
        out.setdefault(position_key(position), (position, ply))
        return
    for move in moves:
        _decisions(position.play(move), seat, out, ply + 1, plies)


def lines(book: Book, moves: int | None = None) -> tuple[list[Position], list[Position]]:
    """Walk the book's lines: the positions it must hold for ``moves`` decisions per seat (default: the
    book's own count), and those of them it is missing (an empty list for a complete book)."""
    wanted = book.moves if moves is None else moves
    start = Position.start(book.variant)
    frontier: dict[str, tuple[Position, int]] = {}
    for seat in (0, 1):
        _decisions(start, seat, frontier, 0, book.plies)
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
            _decisions(position.play(entry.move), position.to_move, following, ply + 1, book.plies)
        frontier = following
    return needed, missing


def build_book(
    variant: Variant,
    moves: int | None,
    *,
    plies: int | None = None,
    book: Book | None = None,
    threads: int | None = 1,
    progress: Progress | None = None,
    checkpoint: Callable[[Book], None] | None = None,
    checkpoint_seconds: float = 60.0,
) -> Book:
    """Build the book of ``variant`` for the perfect player's first ``moves`` decisions of each seat.

    ``plies`` also stops the lines that many moves from the start (``moves`` None: as many decisions
    as plies, so the plies alone limit the book).

    Every position is solved exactly (:func:`choose`); the solver keeps its
    table between positions. ``book`` extends an earlier book of the variant
    (its entries are reused, not solved again). ``checkpoint(book)`` is called
    after each decision number is complete and at least every
    ``checkpoint_seconds`` of solving (to save the book so far: ``book.moves``
    counts the complete decision numbers, an extension reuses the rest).
    Returns the book.

    Raises:
        BookError: ``moves`` or ``plies`` is negative or not an integer (or both are None), the
            variant is too large to solve, or ``book`` is of another variant.
        kalah.solve.SolveError: the solver refuses the options.
    """
    if plies is not None and (isinstance(plies, bool) or not isinstance(plies, int) or plies < 0):
        raise BookError(f"plies must be a non-negative integer, got {plies!r}")
    if moves is None and plies is not None:
        moves = plies  # a decision takes at least one ply
    if isinstance(moves, bool) or not isinstance(moves, int) or moves < 0:
        raise BookError(f"moves must be a non-negative integer, got {moves!r}")
    if variant.seeds * variant.pits * 2 > 60:
        raise BookError(f"{variant.name} is too large for a book here: the solver proves at most 60 seeds")
    if book is not None and book.variant != variant:
        raise BookError(f"the book to extend is of {book.variant.name}, not of {variant.name}")
    entries = dict(book.entries) if book is not None else {}
    built = dict(book.built) if book is not None else {}
    levels: list[dict[str, Any]] = list(built.get("levels", []))
    result = Book(variant, 0, entries, built, plies=plies)
    start = Position.start(variant)
    frontier: dict[str, tuple[Position, int]] = {}
    for seat in (0, 1):
        _decisions(start, seat, frontier, 0, plies)
    seen: set[str] = set()
    done = 0
    total = len(frontier)
    saved = time.perf_counter()
    for level in range(1, moves + 1):
        todo = [(key, position) for key, position in frontier.items() if key not in seen]
        total = done + len(todo)  # the estimate of the level before counted its transpositions twice
        level_started = time.perf_counter()
        solved = 0
        following: dict[str, tuple[Position, int]] = {}
        for key, (position, ply) in todo:
            seen.add(key)
            entry = entries.get(key)
            if entry is None:
                entry = entries[key] = choose(position, threads=threads)
                solved += 1
                if checkpoint is not None and time.perf_counter() - saved >= checkpoint_seconds:
                    checkpoint(result)
                    saved = time.perf_counter()
            done += 1
            if progress is not None:
                progress(done, total, level)
            if level < moves:
                before = len(following)
                _decisions(position.play(entry.move), position.to_move, following, ply + 1, plies)
                total += len(following) - before
        frontier = following
        result.moves = level
        seconds = time.perf_counter() - level_started
        if level > len(levels):
            levels.append({"positions": len(todo), "seconds": round(seconds, 1)})
        elif solved:
            levels[level - 1]["seconds"] = round(levels[level - 1].get("seconds", 0) + seconds, 1)
        built["levels"] = levels
        built["seconds"] = round(sum(item.get("seconds", 0) for item in levels), 1)
        built["entries"] = len(entries)
        built["kalah"] = __version__
        built["threads"] = threads
        if checkpoint is not None and solved:
            checkpoint(result)
            saved = time.perf_counter()
    if book is not None and book.moves > moves and book.plies == plies:
        result.moves = book.moves
    return result
