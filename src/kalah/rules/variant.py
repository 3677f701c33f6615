"""Variants of Kalah: the board size, the seeds per pit and the optional rules."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import InvalidVariantError
from .wording import kind, shown

MIN_PITS, MAX_PITS = 1, 12
MIN_SEEDS, MAX_SEEDS = 1, 15
#: Seeds on one board at most. The compiled core keeps boards of up to 8 pits and 255 seeds in bytes
#: (its fast build) and bigger ones in 16-bit cells (Kalah(12,15) holds 360); 1,000 keeps every value
#: the search computes (100 units a seed) far inside its range.
MAX_TOTAL_SEEDS = 1000


@dataclass(frozen=True, slots=True)
class Variant:
    """``Kalah(pits, seeds)`` with the optional empty-capture and pie rules.

    Raises:
        InvalidVariantError: (when made) the pits or seeds are out of range, or a rule flag is not a bool.
    """

    pits: int = 6
    seeds: int = 4
    empty_capture: bool = False
    pie_rule: bool = False

    def __post_init__(self) -> None:
        for name, value, low, high in (
            ("pits", self.pits, MIN_PITS, MAX_PITS),
            ("seeds", self.seeds, MIN_SEEDS, MAX_SEEDS),
        ):
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidVariantError(f"{name} must be an integer, got {shown(value)}")
            if not low <= value <= high:
                raise InvalidVariantError(f"{name} must be between {low} and {high}, got {value}")
        for name in ("empty_capture", "pie_rule"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidVariantError(f"{name} must be true or false, got {shown(getattr(self, name))}")

    @property
    def total_seeds(self) -> int:
        """Seeds on the board: 2 x pits x seeds."""
        return 2 * self.pits * self.seeds

    @property
    def name(self) -> str:
        """A short human name, e.g. ``Kalah(6,4)`` or ``Kalah(7,7) pie``."""
        extras = [flag for flag, on in (("empty-capture", self.empty_capture), ("pie", self.pie_rule)) if on]
        return " ".join([f"Kalah({self.pits},{self.seeds})", *extras])

    def __str__(self) -> str:
        return self.name

    def to_dict(self) -> dict[str, Any]:
        """The variant as a JSON-ready dict."""
        return {
            "pits": self.pits,
            "seeds": self.seeds,
            "empty_capture": self.empty_capture,
            "pie_rule": self.pie_rule,
        }

    @classmethod
    def from_dict(cls, data: Any) -> Variant:
        """A variant from the dict of ``to_dict`` (InvalidVariantError naming what is wrong).

        Raises:
            InvalidVariantError: ``data`` is not an object, has unknown fields, or describes no
                valid variant.
        """
        if not isinstance(data, dict):
            raise InvalidVariantError(f"a variant must be a JSON object, got {kind(data)}")
        unknown = set(data) - {"pits", "seeds", "empty_capture", "pie_rule"}
        if unknown:
            raise InvalidVariantError(f"unknown variant field(s): {', '.join(sorted(unknown))}")
        return cls(**data)


STANDARD = Variant()
