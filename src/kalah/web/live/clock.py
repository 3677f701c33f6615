"""Game clocks kept by the server: a :class:`Clock` is a value; each event makes the next one.

Two kinds: a chess clock (``base_ms`` each, ``increment_ms`` added after each
of one's moves) and correspondence (``base_ms`` a day count for each move:
the time left is set back to it after every move, so nothing ticks between
one's turns). Times are wall-clock seconds (``time.time()``), so a clock
read back after a restart of the server, or by another server process, is
still right. The server, not a page, decides when a flag falls
(:meth:`Clock.expired`, checked in the transaction that ends the game); a
page only shows :meth:`Clock.left`.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, replace
from typing import Any, Literal

from kalah.rules import KalahError

DAY_MS = 86_400_000

ClockKind = Literal["none", "clock", "days"]


class DamagedClockError(KalahError):
    """A stored clock that does not read as one (a row written by hand, a damaged file)."""


@dataclass(frozen=True)
class Clock:
    """Both players' time: what each has left (as of ``since`` for the one whose time runs)."""

    kind: ClockKind = "none"
    base_ms: int = 0
    increment_ms: int = 0
    ms: tuple[int, int] = (0, 0)
    running: int | None = None
    since: float | None = None  # wall-clock seconds when the running time was last counted

    @classmethod
    def new(cls, minutes: float | None = None, increment_seconds: float = 0.0, days: int | None = None) -> Clock:
        """A clock of ``minutes`` + ``increment_seconds`` a move, or of ``days`` a move, or none (both None)."""
        if days:
            return cls("days", days * DAY_MS, 0, (days * DAY_MS, days * DAY_MS))
        if minutes:
            base = int(round(minutes * 60_000))
            return cls("clock", base, int(round(increment_seconds * 1000)), (base, base))
        return cls()

    @property
    def ticking(self) -> bool:
        """The clock has time limits."""
        return self.kind != "none"

    @property
    def minutes(self) -> float | None:
        """A chess clock's minutes each (None for the other kinds)."""
        return self.base_ms / 60_000 if self.kind == "clock" else None

    @property
    def days(self) -> int | None:
        """A correspondence clock's days a move (None for the other kinds)."""
        return self.base_ms // DAY_MS if self.kind == "days" else None

    def left(self, now: float) -> tuple[int, int]:
        """Milliseconds left for each player at ``now`` (never below zero)."""
        if self.running is None or self.since is None:
            return self.ms
        ms = list(self.ms)
        ms[self.running] = max(0, ms[self.running] - int((now - self.since) * 1000))
        return (ms[0], ms[1])

    def start(self, to_move: int, now: float) -> Clock:
        """``to_move``'s time runs from ``now`` (the time left as it is now)."""
        if not self.ticking:
            return self
        return replace(self, ms=self.left(now), running=to_move, since=now)

    def stop(self, now: float) -> Clock:
        """Both times stopped (the game ended), keeping what was left."""
        return replace(self, ms=self.left(now), running=None, since=None)

    def expired(self, now: float) -> int | None:
        """The player whose time has run out at ``now``, or None."""
        if self.running is None or not self.ticking:
            return None
        return self.running if self.left(now)[self.running] <= 0 else None

    def moved(self, mover: int, to_move: int, over: bool, now: float) -> Clock:
        """``mover`` has moved (check :meth:`expired` first): the time charged, the increment added (or the
        correspondence time set back to a full day count), and ``to_move``'s time running unless it is over."""
        if not self.ticking:
            return self
        ms = list(self.left(now))
        if self.kind == "days":
            ms[mover] = self.base_ms
        elif self.running == mover:
            ms[mover] += self.increment_ms
        running, since = (None, None) if over else (to_move, now)
        return replace(self, ms=(ms[0], ms[1]), running=running, since=since)

    def deadline(self) -> float | None:
        """When the running time runs out (wall-clock seconds), or None."""
        if self.running is None or not self.ticking or self.since is None:
            return None
        return self.since + self.ms[self.running] / 1000

    def describe(self) -> str:
        """'3 min + 2 s', '2 days a move' or 'no clock'."""
        if self.kind == "days":
            days = self.base_ms // DAY_MS
            return f"{days} day{'s' if days != 1 else ''} a move"
        if self.kind == "clock":
            return f"{self.base_ms / 60_000:g} min + {self.increment_ms / 1000:g} s"
        return "no clock"

    def to_json(self) -> str:
        """The clock as the library keeps it."""
        return json.dumps(
            {
                "kind": self.kind,
                "base_ms": self.base_ms,
                "increment_ms": self.increment_ms,
                "ms": list(self.ms),
                "running": self.running,
                "since": self.since,
            }
        )

    @classmethod
    def from_json(cls, text: str) -> Clock:
        """The clock the library kept (``{}``: no clock).

        Raises:
            DamagedClockError: the text is not a clock.
        """
        try:
            data: Any = json.loads(text)
            if not isinstance(data, dict):
                raise TypeError("not an object")
            if not data:
                return cls()
            kind = data["kind"]
            if kind not in ("none", "clock", "days"):
                raise ValueError(f"unknown kind {kind!r}")
            ms = data["ms"]
            if not (isinstance(ms, list) and len(ms) == 2 and all(_whole(x) for x in ms)):
                raise ValueError("ms is not two whole numbers")
            running = data.get("running")
            if running not in (None, 0, 1) or isinstance(running, bool):
                raise ValueError(f"running is {running!r}, not 0, 1 or null")
            since = data.get("since")
            if since is not None and (
                isinstance(since, bool) or not isinstance(since, int | float) or not math.isfinite(since)
            ):
                raise ValueError("since is not a time")
            if not (_whole(data["base_ms"]) and _whole(data.get("increment_ms", 0))):
                raise ValueError("base_ms and increment_ms are not whole numbers")
            return cls(
                kind, int(data["base_ms"]), int(data.get("increment_ms", 0)), (int(ms[0]), int(ms[1])), running, since
            )
        except KeyError as error:
            raise DamagedClockError(f"it has no {error.args[0]!r}") from None
        except (ValueError, TypeError, RecursionError) as error:
            raise DamagedClockError(f"{error}"[:200]) from None


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0
