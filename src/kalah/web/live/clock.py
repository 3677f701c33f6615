"""Game clocks kept by the server: a clock is a small JSON-able dict changed by the functions here.

Two kinds: a chess clock (``base_ms`` each, ``increment_ms`` added after each
of one's moves) and correspondence (``base_ms`` a day count for each move:
the time left is set back to it after every move, so nothing ticks between
one's turns). Times are wall-clock seconds (``time.time()``), so a clock
read back after a restart of the server is still right. The server, not a
page, decides when a flag falls (``expired``); a page only shows ``left``.
"""

from __future__ import annotations

from typing import Any

DAY_MS = 86_400_000


def new_clock(minutes: float | None = None, increment_seconds: float = 0.0, days: int | None = None) -> dict[str, Any]:
    """A clock of ``minutes`` + ``increment_seconds`` a move, or of ``days`` a move, or none (both None)."""
    if days:
        return {
            "kind": "days",
            "base_ms": days * DAY_MS,
            "increment_ms": 0,
            "ms": [days * DAY_MS] * 2,
            "running": None,
            "since": None,
        }
    if minutes:
        base = int(round(minutes * 60_000))
        return {
            "kind": "clock",
            "base_ms": base,
            "increment_ms": int(round(increment_seconds * 1000)),
            "ms": [base, base],
            "running": None,
            "since": None,
        }
    return {"kind": "none", "base_ms": 0, "increment_ms": 0, "ms": [0, 0], "running": None, "since": None}


def ticking(clock: dict[str, Any]) -> bool:
    """The clock has time limits."""
    return clock.get("kind", "none") != "none"


def left(clock: dict[str, Any], now: float) -> list[int]:
    """Milliseconds left for each player at ``now`` (never below zero)."""
    ms = list(clock["ms"])
    running = clock.get("running")
    if running is not None and clock.get("since") is not None:
        ms[running] = max(0, ms[running] - int((now - clock["since"]) * 1000))
    return ms


def start(clock: dict[str, Any], to_move: int, now: float) -> None:
    """Run ``to_move``'s time from ``now``."""
    if ticking(clock):
        clock["running"], clock["since"] = to_move, now


def stop(clock: dict[str, Any], now: float) -> None:
    """Stop both times (the game ended), keeping what was left."""
    clock["ms"] = left(clock, now)
    clock["running"] = clock["since"] = None


def expired(clock: dict[str, Any], now: float) -> int | None:
    """The player whose time has run out at ``now``, or None."""
    running = clock.get("running")
    if running is None or not ticking(clock):
        return None
    return running if left(clock, now)[running] <= 0 else None


def moved(clock: dict[str, Any], mover: int, to_move: int, over: bool, now: float) -> None:
    """``mover`` has moved (check ``expired`` first): charge the time, add the increment (or set the
    correspondence time back to a full day count), and run ``to_move``'s time unless the game is over."""
    if not ticking(clock):
        return
    ms = left(clock, now)
    if clock["kind"] == "days":
        ms[mover] = clock["base_ms"]
    elif clock.get("running") == mover:
        ms[mover] += clock["increment_ms"]
    clock["ms"] = ms
    clock["running"], clock["since"] = (None, None) if over else (to_move, now)


def deadline(clock: dict[str, Any]) -> float | None:
    """When the running time runs out (wall-clock seconds), or None."""
    running = clock.get("running")
    if running is None or not ticking(clock) or clock.get("since") is None:
        return None
    return float(clock["since"]) + clock["ms"][running] / 1000


def describe(clock: dict[str, Any]) -> str:
    """'3 min + 2 s', '2 days a move' or 'no clock'."""
    if clock.get("kind") == "days":
        days = clock["base_ms"] // DAY_MS
        return f"{days} day{'s' if days != 1 else ''} a move"
    if clock.get("kind") == "clock":
        return f"{clock['base_ms'] / 60_000:g} min + {clock['increment_ms'] / 1000:g} s"
    return "no clock"
