"""Start positions for arena games.

Every opening is played twice per pairing, once with each player moving
first from it, so an advantage of the side to move cancels out.

Built-in openings (``builtin_openings``), deterministic for each variant:

- With the pie rule, the start position itself: the swap already balances
  the first move, and programs that speak the ManKalah protocol can only
  start from the start.
- Without it, every position after exactly 2 plies from the start (3, 4, ...
  if 2 give too few), ranked by balance: the absolute value of a depth-4
  alpha-beta on the store difference (``kalah.search``), ties broken by
  the board. The most balanced ones come first; a match takes as many as it
  needs and cycles through them if it needs more than exist.

``random_openings`` plays K random plies (never a swap) from the start with
a fixed seed per opening; ``load_openings`` reads a JSON file.
"""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path
from typing import Any

from kalah.rules import SWAP, KalahError, Position, Variant
from kalah.search import search

BALANCE_DEPTH = 4
MAX_PLIES = 6


class OpeningsError(KalahError):
    """An openings file that cannot be read, or openings that do not fit the variant."""


@functools.lru_cache(maxsize=32)
def _ranked(variant: Variant, plies: int) -> tuple[Position, ...]:
    layer = {Position.start(variant)}
    for _ in range(plies):
        layer = {p.play(m) for p in layer for m in p.legal_moves() if m != SWAP}
    candidates = [p for p in layer if not p.is_over]
    scored = sorted(
        candidates,
        key=lambda p: (
            abs(search(p, algorithm="alphabeta", depth=BALANCE_DEPTH, evaluation="store").value or 0),
            p.cells,
            p.to_move,
        ),
    )
    return tuple(scored)


def builtin_openings(variant: Variant, count: int) -> list[Position]:
    """``count`` start positions for ``variant`` (see the module docstring)."""
    if count < 1:
        return []
    if variant.pie_rule:
        return [Position.start(variant)] * count
    plies = 2
    ranked = _ranked(variant, plies)
    while len(ranked) < count and plies < MAX_PLIES:
        plies += 1
        ranked = _ranked(variant, plies)
    if not ranked:
        return [Position.start(variant)] * count
    return [ranked[i % len(ranked)] for i in range(count)]


def random_openings(variant: Variant, count: int, plies: int, seed: int = 0) -> list[Position]:
    """``count`` positions after ``plies`` random plies each (no swaps), reproducibly."""
    if plies < 0:
        raise OpeningsError(f"--random-plies must be 0 or more, got {plies}")
    openings = []
    for index in range(count):
        rng = random.Random(f"kalah-arena-{seed}-{index}")
        for _attempt in range(100):
            position = Position.start(variant)
            for _ in range(plies):
                moves = [m for m in position.legal_moves() if m != SWAP]
                if not moves:
                    break
                position = position.play(rng.choice(moves))
            if not position.is_over:
                break
        else:
            raise OpeningsError(f"{plies} random plies end the game every time in {variant.name}; use fewer")
        openings.append(position)
    return openings


#: The largest openings file read (a list of a few thousand openings is far smaller).
MAX_OPENINGS_BYTES = 20_000_000


def load_openings(path: str | Path, variant: Variant) -> list[Position]:
    """Read a JSON list whose items are positions (``{"board": ..., "to_move": ...}``)
    or move lists from the start (``[2, 5]`` or ``{"moves": [2, 5]}``; pit indices
    of the mover, or ``"swap"``)."""
    path = Path(path)
    if path.exists() and not path.is_file():  # a FIFO or a device would block or never end
        raise OpeningsError(f"openings file {path} is not a regular file")
    try:
        if path.stat().st_size > MAX_OPENINGS_BYTES:
            raise OpeningsError(f"openings file {path} is larger than {MAX_OPENINGS_BYTES} bytes")
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise OpeningsError(f"cannot read openings file {path}: {error.strerror or error}") from None
    except (ValueError, RecursionError) as error:
        raise OpeningsError(f"openings file {path} is not valid JSON: {error}") from None
    if not isinstance(data, list) or not data:
        raise OpeningsError(f"openings file {path} must hold a non-empty JSON list")
    return [_opening(item, index, variant, path) for index, item in enumerate(data)]


def _opening(item: Any, index: int, variant: Variant, path: Path) -> Position:
    where = f"{path}: opening {index}"
    try:
        if isinstance(item, dict) and "moves" not in item:
            fields = dict(item)
            fields.setdefault("variant", variant.to_dict())
            position = Position.from_dict(fields)
            if position.variant != variant:
                raise OpeningsError(f"{where} is for {position.variant.name}, the match plays {variant.name}")
        else:
            moves = item["moves"] if isinstance(item, dict) else item
            if not isinstance(moves, list):
                raise OpeningsError(f"{where} must be a position object or a list of moves")
            position = Position.start(variant)
            for move in moves:
                position = position.play(move)
    except OpeningsError:
        raise
    except KalahError as error:
        raise OpeningsError(f"{where}: {error}") from None
    if position.is_over:
        raise OpeningsError(f"{where} is a finished game")
    return position
