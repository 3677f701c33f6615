"""The WebAssembly engine against the native one: pvs nodes a second, one thread each, in the same run.

    python benchmarks/bench_wasm.py [--depth 20] [--middle 10] [--middle-depth 18] [--rounds 3]

The same pvs searches (best move only, as the players search; a table of 2^20 entries cleared by each)
run natively (kalah.search, one thread) and in the browser's engine under Node
(src/kalah/web/static/engine/, kalah.wasm, one thread), each side in a fresh process after one
warm-up search (Node compiles WebAssembly in two tiers; the first search runs partly on the first); the
sides take turns for --rounds rounds and each search's best time on each side counts, so that a load
that comes and goes on the machine weighs on both alike.
Positions: the start of Kalah(6,4) to --depth, and --middle reproducible middle-game positions to
--middle-depth. Both sides must count the same nodes (the same search, node for node), or the run
stops. Target: the WebAssembly engine searches at least 0.6 times the native nodes a second.
Results go to results/wasm.md.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from common import figure, markdown_table, report
from kalah import Position, search
from kalah.core.builds import Engine

ROOT = Path(__file__).resolve().parents[1]
RUNNER = ROOT / "tests" / "wasm" / "run_cases.mjs"
WARM_UP = (Position.start(), 12)


def middle_positions(count: int) -> list[Position]:
    """Reproducible middle-game positions of Kalah(6,4): 8 to 16 random moves from the start."""
    rng = random.Random(2024)
    found: list[Position] = []
    while len(found) < count:
        position = Position.start()
        for _ in range(rng.randint(8, 16)):
            if position.is_over:
                break
            position = position.play(rng.choice(position.legal_moves()))
        if not position.is_over and position.seeds_in_pits >= 30:
            found.append(position)
    return found


def native(work: list[tuple[Position, int]]) -> list[tuple[int, float]]:
    """Nodes and seconds of each search, natively, in this process: one engine, its table cleared by each
    search, as the WebAssembly side keeps one (the same table generations, so the same nodes)."""
    engine = Engine(20)
    search(WARM_UP[0], "pvs", depth=WARM_UP[1], move_values=False, engine=engine, threads=1)
    measured = []
    for position, depth in work:
        result = search(position, "pvs", depth=depth, move_values=False, engine=engine, threads=1)
        measured.append((result.stats.nodes, result.stats.seconds))
    return measured


def wasm(node: str, work: list[tuple[Position, int]]) -> list[tuple[int, float]]:
    """Nodes and seconds of each search in the WebAssembly engine under Node (a fresh process)."""
    cases = [
        {
            "kind": "search",
            "position": position.to_dict(),
            "options": {"algorithm": "pvs", "depth": depth, "move_values": False},
        }
        for position, depth in [WARM_UP, *work]
    ]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "cases.json"
        path.write_text(json.dumps(cases))
        done = subprocess.run([node, str(RUNNER), str(path)], capture_output=True, text=True, check=True, cwd=ROOT)
    answers = json.loads(done.stdout)[1:]
    return [(answer["stats"]["nodes"], answer["stats"]["seconds"]) for answer in answers]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--depth", type=int, default=20, help="pvs depth from the start of Kalah(6,4)")
    parser.add_argument("--middle", type=int, default=10, help="middle-game positions")
    parser.add_argument("--middle-depth", type=int, default=18)
    parser.add_argument("--rounds", type=int, default=3, help="rounds of both sides in turn (the best time counts)")
    parser.add_argument("--no-write", action="store_true", help="print only; keep no results")
    args = parser.parse_args()
    node = shutil.which("node")
    if node is None:
        sys.exit("bench_wasm.py: error: node is not installed (the WebAssembly engine runs under Node)")
    work = [(Position.start(), args.depth)] + [(p, args.middle_depth) for p in middle_positions(args.middle)]
    ours, theirs = native(work), wasm(node, work)
    for _ in range(args.rounds - 1):
        ours = [min(best, again, key=lambda run: run[1]) for best, again in zip(ours, native(work), strict=True)]
        theirs = [
            min(best, again, key=lambda run: run[1]) for best, again in zip(theirs, wasm(node, work), strict=True)
        ]
    rows, totals = [], [0, 0.0, 0.0]
    for index, ((nodes, seconds), (wasm_nodes, wasm_seconds)) in enumerate(zip(ours, theirs, strict=True)):
        if nodes != wasm_nodes:
            sys.exit(
                f"bench_wasm.py: error: search {index} counted {nodes} nodes natively, {wasm_nodes} in WebAssembly"
            )
        name = f"start, depth {args.depth}" if index == 0 else f"middle game {index}, depth {args.middle_depth}"
        rate, wasm_rate = nodes / seconds, nodes / wasm_seconds
        rows.append([name, f"{nodes:,}", f"{rate / 1e6:.2f}", f"{wasm_rate / 1e6:.2f}", f"{wasm_rate / rate:.2f}"])
        totals[0] += nodes
        totals[1] += seconds
        totals[2] += wasm_seconds
    ratio = totals[1] / totals[2]
    rows.append(
        [
            "**all**",
            f"{totals[0]:,}",
            f"{totals[0] / totals[1] / 1e6:.2f}",
            f"{totals[0] / totals[2] / 1e6:.2f}",
            f"**{ratio:.2f}**",
        ]
    )
    headers = ["search (pvs, best move only)", "nodes (both)", "native M nodes/s", "WebAssembly M nodes/s", "ratio"]
    body = (
        f"{markdown_table(headers, rows)}\n\nOne thread each, a table of 2^20 entries cleared by each search, the best "
        f"time of {args.rounds} rounds, the sides in turn; Node "
        f"{subprocess.run([node, '--version'], capture_output=True, text=True).stdout.strip()}. "
        f"Target: a ratio of at least 0.6."
    )
    report("The WebAssembly engine against the native one", body, None if args.no_write else "wasm.md")
    if not args.no_write:
        figure(
            "wasm-speed",
            "WebAssembly pvs against native (nodes a second, one thread each)",
            f"{ratio:.2f}",
            "wasm.md",
        )


if __name__ == "__main__":
    main()
