"""The books that ship in the package, loaded once each."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from kalah.rules import Position, Variant

from .entry import BookEntry
from .file import Book, load

__all__ = ["book_filename", "data_directory", "lookup", "shipped"]


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
