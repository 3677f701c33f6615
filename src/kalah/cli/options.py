"""Options shared by several commands: variant flags, positions given as JSON or a file."""

from __future__ import annotations

from pathlib import Path

import typer

from kalah.rules import InvalidPositionError, KalahError, Position, Variant

PITS = typer.Option(6, "--pits", help="Pits per side (1-8).")
SEEDS = typer.Option(4, "--seeds", help="Seeds per pit at the start (1-15).")
EMPTY_CAPTURE = typer.Option(False, "--empty-capture", help="Capture even when the opposite pit is empty.")
PIE_RULE = typer.Option(False, "--pie-rule", help="Player 1 may swap sides after the first move.")


def make_variant(pits: int, seeds: int, empty_capture: bool, pie_rule: bool) -> Variant:
    """The variant of the flags; a bad value raises InvalidVariantError (exit 2 via main)."""
    return Variant(pits=pits, seeds=seeds, empty_capture=empty_capture, pie_rule=pie_rule)


def read_position(text: str) -> Position:
    """A position given on the command line: inline JSON, or the path of a JSON file."""
    stripped = text.strip()
    if not stripped.startswith("{"):
        path = Path(text)
        if not path.is_file():
            raise InvalidPositionError(f"{text!r} is neither position JSON nor a readable file")
        try:
            stripped = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise InvalidPositionError(f"cannot read {path}: {error}") from None
        try:
            return Position.from_json(stripped)
        except KalahError as error:
            raise InvalidPositionError(f"{path}: {error}") from None
    return Position.from_json(stripped)
