"""Options shared by several commands: variant flags, positions given as JSON or a file."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import typer

from kalah.records import MAX_GAME_ID
from kalah.rules import InvalidPositionError, KalahError, Position, Variant

PITS = typer.Option(6, "--pits", metavar="N", help="Pits per side (1-12).")
SEEDS = typer.Option(4, "--seeds", metavar="N", help="Seeds per pit at the start (1-15).")
EMPTY_CAPTURE = typer.Option(False, "--empty-capture", help="Capture even when the opposite pit is empty.")
PIE_RULE = typer.Option(False, "--pie-rule", help="Player 1 may swap sides after the first move.")
TO_MOVE = typer.Option(
    None, "--to-move", min=0, max=1, metavar="0|1", help="Who moves in a board given with -p (default 0)."
)


#: The largest game id: SQLite's integers are 64-bit, and a larger number cannot even be asked for.
def parse_game_id(text: str) -> int:
    """A game id as typed: digits only, 1 to MAX_GAME_ID (``+1``, ``1.0``, ``1e3`` are refused)."""
    if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= MAX_GAME_ID:
        raise typer.BadParameter(f"a game id is a whole number from 1 to {MAX_GAME_ID} in digits only, got {text!r}")
    return int(text)


#: The variant flags, by the name of the Variant field (and of the command's parameter) they set.
VARIANT_FLAGS = {"pits": "--pits", "seeds": "--seeds", "empty_capture": "--empty-capture", "pie_rule": "--pie-rule"}


def make_variant(pits: int, seeds: int, empty_capture: bool, pie_rule: bool) -> Variant:
    """The variant of the flags; a bad value raises InvalidVariantError (exit 2 via main)."""
    return Variant(pits=pits, seeds=seeds, empty_capture=empty_capture, pie_rule=pie_rule)


def given_variant_flags(context: typer.Context) -> dict[str, Any]:
    """The variant flags typed on the command line (not left at their defaults), by Variant field name:
    only those can say something about a position that carries a variant of its own."""
    # The source is compared by its name: typer carries a click of its own (typer._click), whose
    # ParameterSource is not the installed click's.
    return {
        name: context.params[name]
        for name in VARIANT_FLAGS
        if name in context.params and getattr(context.get_parameter_source(name), "name", "DEFAULT") != "DEFAULT"
    }


def check_to_move(to_move: int | None, position_text: str | None) -> None:
    """Refuse ``--to-move`` without a board to apply it to, rather than ignore it."""
    from .exit import fail

    if to_move is not None and position_text is None:
        fail("--to-move says who moves in a board given with --position (-p)")


def _flag_text(name: str, value: Any) -> str:
    return VARIANT_FLAGS[name] if isinstance(value, bool) else f"{VARIANT_FLAGS[name]} {value}"


def read_position(text: str, to_move: int | None = None, flags: dict[str, Any] | None = None) -> Position:
    """A position given on the command line, inline or in a file: position JSON
    (``{"board": ..., "to_move": ...}``) or a bare board in the notation of the
    README (``[[0,0,1,2,0,3,20],[1,0,0,2,1,0,18]]``: player 0's pits and store,
    then player 1's), whose player to move is ``to_move`` (default 0).

    ``flags`` are the variant flags given (see :func:`given_variant_flags`): a bare board, or JSON
    without a variant, is played by them; JSON whose variant they contradict is refused."""
    stripped = text.strip()
    source = "the position"
    if not stripped.startswith(("{", "[")):
        path = Path(text)
        if not path.is_file():
            raise InvalidPositionError(f"{text!r} is neither a position (JSON or a board) nor a readable file")
        if path.stat().st_size > 1_000_000:
            raise InvalidPositionError(f"{path} is too large for a position")
        try:
            stripped = path.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as error:
            raise InvalidPositionError(f"cannot read {path}: {error}") from None
        source = str(path)
    try:
        data = json.loads(stripped)
    except (ValueError, RecursionError) as error:
        raise InvalidPositionError(f"{source} is not valid JSON: {error}") from None
    flags = flags or {}
    try:
        if isinstance(data, list):
            variant = None
            if flags:
                pits = len(data[0]) - 1 if data and isinstance(data[0], list) else None
                if "pits" in flags and flags["pits"] != pits:
                    raise InvalidPositionError(f"--pits {flags['pits']} contradicts the board's {pits} pits a side")
                variant = Variant(**{"pits": pits, **flags})
            return Position(data, 0 if to_move is None else to_move, variant)
        carried = isinstance(data, dict) and data.get("variant") is not None
        if flags and isinstance(data, dict) and not carried:
            data = {**data, "variant": flags}  # the board's pit count is added by from_dict
        position = Position.from_dict(data)
    except (KalahError, TypeError, ValueError) as error:
        raise InvalidPositionError(f"{source}: {error}") from None
    if carried:
        for name, value in flags.items():
            if getattr(position.variant, name) != value:
                raise InvalidPositionError(
                    f"{_flag_text(name, value)} contradicts the variant of the position, {position.variant.name}"
                    " (leave the flag out, or give a bare board)"
                )
    if to_move is not None and to_move != position.to_move:
        raise InvalidPositionError(f"--to-move {to_move} contradicts the position's to_move {position.to_move}")
    return position


def read_record_position(path: Path, move: int | None) -> Position:
    """The position of a game record after ``move`` moves (default: its last position)."""
    from kalah.records import load_record

    positions = list(load_record(path).positions())
    if move is None:
        return positions[-1]
    if not 0 <= move < len(positions):
        raise InvalidPositionError(f"--move must be from 0 to {len(positions) - 1} for {path}, got {move}")
    return positions[move]


def check_output_path(path: Path | None, option: str) -> None:
    """Refuse, before any computing, an output file that cannot be written: a missing folder, a folder
    given as the file, a FIFO or device, a folder this user cannot write."""
    if path is None:
        return
    from .exit import fail

    if path.exists() and not path.is_file():
        fail(f"{option} {path}: not a regular file")
    folder = path.parent if str(path.parent) else Path(".")
    if folder.exists() and not folder.is_dir():
        fail(f"{option} {path}: {folder} is not a folder")
    if not folder.is_dir():
        fail(f"{option} {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        fail(f"{option} {path}: the folder {folder} is not writable")
    # Files are written through a temporary file beside them (kalah.atomic): make one, as the write will.
    # Some folders refuse though the permission bits allow (/proc, a read-only mount, root's view of them).
    import tempfile

    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=f".{path.name}.", suffix=".check"):
            pass
    except OSError as error:
        fail(f"{option} {path}: cannot write in the folder {folder}: {error.strerror or error}")


MAX_DELAY = 60.0


def check_delay(delay: float) -> None:
    """Refuse a ``--delay`` that is negative, not a number, or longer than a minute between moves."""
    from .exit import fail

    if not 0 <= delay <= MAX_DELAY:
        fail(f"--delay must be from 0 to {MAX_DELAY:g} seconds, got {delay}")
