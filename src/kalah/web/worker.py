"""What runs in the engine workers: a computer player's move (held to the server's time), and the memory
given back afterwards. Plain functions of plain arguments, so that they cross a process boundary."""

from __future__ import annotations

import ctypes
import ctypes.util
import json
import os
import time
from typing import Any

from kalah.players import PlayerSpecError, make_player, parse_spec
from kalah.rules import Position
from kalah.search import ALGORITHMS as SEARCH_ALGORITHMS
from kalah.solve import clear_cache as clear_solver_cache


def capped_spec(spec: str, seconds: float) -> str:
    """``spec`` with its thinking time held to ``seconds``: the server's cap on engine time per move.

    Search players (depth or time) get ``time`` at most ``seconds`` (a depth
    limit stays, and the search stops at whichever comes first); ``perfect``
    shares ``seconds`` between its solve and its fallback search. ``ponder``
    is dropped: the server makes a fresh player for every move, so thinking
    on the opponent's time could not help the next move, and would go on in
    the worker after the answer. Players that do not think (human, random) are
    unchanged; so is a spec that does not parse, which making the player then
    refuses.
    """
    try:
        name, options = parse_spec(spec)
        options.pop("ponder", None)
        if name == "perfect":
            total = min(float(options.get("time", 10.0)) + float(options.get("fallback", 2.0)), seconds)
            options["time"], options["fallback"] = f"{0.65 * total:.4g}", f"{0.3 * total:.4g}"
        elif name in SEARCH_ALGORITHMS:
            options["time"] = f"{min(float(options.get('time', seconds)), seconds):.4g}"
        else:
            return spec
    except (PlayerSpecError, ValueError):
        return spec
    return f"{name}:" + ",".join(f"{key}={value}" for key, value in options.items())


def choose_move(spec: str, position_json: str, allow_external: bool) -> tuple[Any, float, dict[str, Any]]:
    """Run in a worker: make the player and let it choose (players are made fresh for every move)."""
    player = make_player(spec, allow_external=allow_external)
    position = Position.from_json(position_json)
    began = time.perf_counter()
    try:
        move = player.choose_move(position)
    finally:
        stop_thinking = getattr(player, "stop_thinking", None)
        if callable(stop_thinking):  # nothing may go on thinking in the worker once the move is answered
            stop_thinking()
        release_memory()
    seconds = time.perf_counter() - began
    info = getattr(player, "last_info", {}) or {}
    try:
        info = json.loads(json.dumps(info, default=str))
    except (TypeError, ValueError):
        info = {}
    return move, seconds, info if isinstance(info, dict) else {}


#: A worker that holds more than this after a job gives its caches back (a big solve can take gigabytes).
KEEP_BYTES = 1 << 30


def release_memory() -> None:
    """In a worker: drop the solver's tables and return freed memory to the system when the worker grew big."""
    try:
        with open("/proc/self/statm") as statm:
            resident = int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        resident = KEEP_BYTES + 1  # cannot tell: assume big
    if resident <= KEEP_BYTES:
        return
    clear_solver_cache()
    try:
        ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc: the allocator keeps what it keeps
        pass
