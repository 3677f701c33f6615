"""The arithmetic of MTD(f)'s bounds: which bars to test, what an answer proves, and the tests' shape."""

from __future__ import annotations

from collections.abc import Collection
from typing import NamedTuple

from kalah.rules import Position

__all__ = [
    "BELOW_EVERY_VALUE",
    "ABOVE_EVERY_VALUE",
    "Answer",
    "NullWindowTest",
    "mtdf_bars",
    "narrowed",
    "outside_in_steps",
    "swap_open",
]

#: Lower than any final margin (no game has a million seeds): the start of a maximum over moves, and the
#: lower bound of a move nothing is proven about yet.
BELOW_EVERY_VALUE = -(10**6)
#: Higher than any final margin.
ABOVE_EVERY_VALUE = 10**6


class NullWindowTest(NamedTuple):
    """A null-window test to run: "is the value of these pits at least ``beta``?"."""

    pits: list[int]
    """The pits seen from the mover (its own row first); the stores are left out."""
    beta: int
    """The bar, on the pits' value (the store difference taken off)."""
    negated: bool
    """True when the question asked is about the opponent: the answer is then the opposite of the test's."""


#: The answer of a test: True (at least the bar), False (below it), or None when the deadline stopped it.
Answer = bool | None


def outside_in_steps(seeds: int) -> list[int]:
    """The distances from the guess at which a timed solve tests the value first, outside in: half the
    seeds in play, then halving (Kalah(6,4): 24, 12, 6, 3)."""
    steps, step = [], seeds // 2
    while step >= 2:
        steps.append(step)
        step //= 2
    return steps


def mtdf_bars(lower: int, upper: int, e: int, slots: int, running: Collection[int]) -> list[int]:
    """The bars of MTD(f)'s next tests ("is the value at least bar?") around the estimate ``e``, to start now.

    The value is ``e`` when it is at least ``e`` and not at least ``e + 2``:
    one test at a time, the first of these not yet known is MTD(f)'s own.
    With two side by side, a fresh pair spans a gap, ``e`` and ``e + 4``, so that
    one pair settles a guess short by one step too; the bar between comes
    next, on the table of proofs on both sides of it (proofs on one side of the
    value at nearby bars share much of their tree: on Kalah(6,5), with the
    table of the proof that the value is at least +8, the test at +10 took half
    a second).
    """
    needed = [bar for bar in (e, e + 2) if lower < bar <= upper]
    if slots == 1:
        return needed[:1]
    if len(needed) == 2 and not running and e + 4 <= upper:
        needed[1] = e + 4
    return [bar for bar in needed if bar not in running]


def narrowed(lower: int, upper: int, value: int, bar: int, seeds: int) -> tuple[int, int]:
    """The bounds after a null-window test at ``bar`` answered ``value`` (fail-soft), with the parity
    of the seeds in the pits (every value has it)."""
    if value >= bar:
        lower = max(lower, value)
    else:
        upper = min(upper, value)
    if (lower - seeds) % 2:
        lower += 1
    if (upper - seeds) % 2:
        upper -= 1
    return lower, upper


def swap_open(position: Position) -> bool:
    """Whether the pie rule's swap is still to be decided: the value then depends on flags a search ignores."""
    return position.variant.pie_rule and (position.is_first_move or position.swap_available)
