"""Cold measurements of our pvs and of CMancala, each in a fresh process (used by bench_search.py --anchor).

CMancala (github.com/LifesLight/CMancala, built by the user) is driven through
its text interface: ``step`` runs its best-move search (iterative deepening
with aspiration windows, local solver) and ``last`` prints "Total nodes" (in
millions, three decimals) and "Total time". Its node counts therefore have a
resolution of 1,000 nodes.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import time

from kalah import Position, Variant

# One measurement in a fresh interpreter: nothing is warm (tables, imports, caches).
_CHILD = """
import json, sys, time
from kalah import Position, search
args = json.loads(sys.argv[1])
position = Position.from_json(args["position"])
started, cpu = time.perf_counter(), time.process_time()
result = search(position, "pvs", depth=args["depth"], time=args["time"], evaluation=args["evaluation"],
                move_values=args["move_values"], threads=args["threads"])
wall, cpu = time.perf_counter() - started, time.process_time() - cpu
print(json.dumps({"nodes": result.stats.nodes, "seconds": result.stats.seconds, "wall": wall, "cpu": cpu,
                  "depth": result.stats.depth, "value": result.value, "best_move": result.best_move}))
"""


def ours(
    position: Position,
    *,
    depth: int | None = None,
    seconds: float | None = None,
    evaluation: str = "strong",
    move_values: bool = False,
    python: str = sys.executable,
    env: dict[str, str] | None = None,
    threads: int | None = None,
) -> dict:
    """pvs on ``position`` in a fresh process: nodes, seconds (the search's own clock), cpu (the process's CPU
    seconds during the search: all its threads), depth, value.
    ``threads`` None: the default (one for a fixed depth, every core for a timed search)."""
    args = {
        "position": position.to_json(),
        "depth": depth,
        "time": seconds,
        "evaluation": evaluation,
        "move_values": move_values,
        "threads": threads,
    }
    out = subprocess.run([python, "-c", _CHILD, json.dumps(args)], capture_output=True, text=True, check=True, env=env)
    return json.loads(out.stdout)


def cmancala(binary: str, depth: int, position: Position | None = None, cache_bits: int = 24) -> dict:
    """CMancala's best-move search of ``position`` (default: the start of Kalah(6,4)) to ``depth``, one thread,
    in a fresh process. Its "Total time" is CPU time (C's ``clock()``), not wall-clock time: on a busy machine
    compare it with our ``cpu``."""
    from cmancala import encode

    load = f"load {encode(position)}\n" if position is not None else ""
    script = (
        f"stones 4\ndepth {depth}\ntime 0\nbook false\ncache {cache_bits}\nplayer 1 ai\n"
        f"player 2 ai\nprogress false\nautoplay false\nstart\n{load}step\nlast\nquit\n"
    )
    started = time.perf_counter()
    out = subprocess.run([binary], input=script, capture_output=True, text=True, timeout=3600).stdout
    wall = time.perf_counter() - started
    nodes = re.search(r"Total nodes:\s*([\d.]+) million", out)
    seconds = re.search(r"Total time:\s*([\d.]+) seconds", out)
    value = re.search(r"Evaluation:\s*(-?\d+)", out)
    if not (nodes and seconds):
        raise RuntimeError(f"CMancala printed no node count; its output ends with:\n{out[-800:]}")
    return {
        "nodes": round(float(nodes.group(1)) * 1e6),
        "seconds": float(seconds.group(1)),
        "wall": wall,
        "value": int(value.group(1)) if value else None,
    }


def middle_game_positions(count: int, seed: int = 2026, variant: Variant | None = None) -> list[Position]:
    """``count`` reproducible middle-game positions of ``variant`` (Kalah(6,4) by default): 10 to 20 random
    moves from the start, keeping only positions with at least half the seeds still in the pits (so a
    deep search is not trivial)."""
    start = Position.start() if variant is None else Position.start(variant)
    rng = random.Random(seed)
    positions: list[Position] = []
    while len(positions) < count:
        position = start
        for _ in range(rng.randint(10, 20)):
            if position.is_over:
                break
            position = position.play(rng.choice(position.legal_moves()))
        if not position.is_over and position.seeds_in_pits >= start.seeds_in_pits // 2:
            positions.append(position)
    return positions
