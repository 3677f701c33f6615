"""The search on several threads: time to a fixed depth on 1, 2 and 4 threads, and a match of 2 threads
against 1 at equal time a move.

    python benchmarks/bench_threads.py [--depth 20] [--middle 10] [--threads 1,2,4] [--repeat 3]
    python benchmarks/bench_threads.py --match 100 [--time 0.1] [--pits 6 --seeds 4] [--double-time]

1. Time to depth: pvs, best move only (``move_values=False``), evaluation
   strong, to --depth from the start of Kalah(6,4) and from --middle
   middle-game positions (benchmarks/anchor.py's, seed 2026), cold (a fresh
   process each), on each number of --threads; --repeat runs taken in turn,
   the median kept. For each position the ratio of N threads' seconds to one
   thread's, and the median ratio over the positions. Also the ratio of the
   busiest thread's nodes to one thread's nodes: the share of the work on the
   critical path, which is the time ratio on free cores and which a busy
   machine does not disturb (the seconds are only as good as the machine is
   quiet). The values and best moves must be those of one thread (checked).
   Results go to results/threads.md.
2. --match N: N games (the built-in openings, each played from both sides) of
   ``pvs:time=T,threads=2`` against ``pvs:time=T,threads=1``, one game at a
   time (the two-thread side needs both cores): the two-thread side's score
   with its 95% interval and the Elo difference. Results go to
   results/threads-match.md. With --double-time the first side is
   ``pvs:time=2T,threads=1`` instead: one thread with twice the time, what a
   second core would give with perfect scaling (and no more), the bound of
   the two-thread match. Results go to results/threads-match-double.md.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import subprocess
import sys
import time

import anchor
from common import figure, markdown_table, report
from kalah import Position, Variant
from kalah.arena import builtin_openings
from kalah.match import MoveEvent, Observer, play_game
from kalah.players import make_player

# One cold search in a fresh interpreter, through the compiled engine (it also says how many nodes the busiest thread
# searched, which kalah.search does not).
_CHILD = """
import json, sys, time
from kalah import Position
from kalah.core.search import ALGORITHMS, EVALUATIONS, Engine
args = json.loads(sys.argv[1])
position = Position.from_json(args["position"])
engine = Engine(20)
started = time.perf_counter()
raw = engine.search(position, ALGORITHMS["pvs"], EVALUATIONS["strong"], 1, args["depth"], threads=args["threads"])
wall = time.perf_counter() - started
print(json.dumps({"nodes": raw["nodes"], "busiest": raw["busiest_thread_nodes"], "seconds": raw["seconds"],
                  "wall": wall, "value": raw["value"], "best_move": raw["best_move"]}))
"""


def cold(position: Position, depth: int, threads: int) -> dict:
    """pvs to ``depth`` on ``threads`` threads in a fresh process."""
    args = json.dumps({"position": position.to_json(), "depth": depth, "threads": threads})
    out = subprocess.run([sys.executable, "-c", _CHILD, args], capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def time_to_depth(args: argparse.Namespace) -> None:
    counts = sorted({int(t) for t in args.threads.split(",")} | {1})
    positions = [Position.start(), *anchor.middle_game_positions(args.middle)]
    rows = []
    ratios: dict[int, list[float]] = {t: [] for t in counts if t > 1}
    busiest: dict[int, list[float]] = {t: [] for t in counts if t > 1}
    agree = True
    for index, position in enumerate(positions):
        runs: dict[int, list[dict]] = {t: [] for t in counts}
        for _ in range(args.repeat):
            for threads in counts:  # in turn, so that a change of load falls on every count alike
                runs[threads].append(cold(position, args.depth, threads))
        median = {t: statistics.median(run["seconds"] for run in runs[t]) for t in counts}
        one = runs[1][0]
        row = [index if index else "start", f"{one['nodes']:,}", f"{median[1]:.3f}"]
        for threads in counts[1:]:
            ratios[threads].append(median[threads] / median[1])
            share = statistics.median(run["busiest"] for run in runs[threads]) / one["nodes"]
            busiest[threads].append(share)
            row += [f"{median[threads]:.3f}", f"{ratios[threads][-1]:.2f}", f"{share:.2f}"]
            agree &= all((run["value"], run["best_move"]) == (one["value"], one["best_move"]) for run in runs[threads])
        rows.append(row)
        print(f"\rposition {index + 1}/{len(positions)}", end="", file=sys.stderr)
    print(file=sys.stderr)
    headers = ["position", "nodes, 1 thread", "seconds, 1 thread"]
    for threads in counts[1:]:
        headers += [f"seconds, {threads} threads", f"{threads} / 1: seconds", f"{threads} / 1: busiest thread's nodes"]
    summary = [
        [
            threads,
            f"{statistics.median(ratios[threads]):.2f}",
            f"{statistics.median(busiest[threads]):.2f}",
        ]
        for threads in counts[1:]
    ]
    body = (
        f"pvs to depth {args.depth}, best move only, evaluation strong, cold (a fresh process each), from the start "
        f"of Kalah(6,4) and {args.middle} middle-game positions (10-20 random moves, seed 2026); median of "
        f"{args.repeat} runs each, taken in turn.\n\n"
        + markdown_table(
            ["threads", "median seconds ratio to 1 thread", "median busiest thread's nodes ratio"], summary
        )
        + "\n\n"
        + markdown_table(headers, rows)
        + f"\n\nValues and best moves the same as one thread's in every run: {'yes' if agree else 'NO'}.\n\n"
        "The busiest thread's nodes over one thread's nodes is the share of the work on the critical path: on free "
        "cores the threads search at the same rate, so it is the ratio of the seconds, and a busy machine does not "
        "change it. The machine has 2 cores: 4 threads time-share them (two threads a core), so their seconds "
        "show what oversubscription costs, and their busiest-thread ratio what 4 free cores would give."
    )
    report("Search on several threads: time to depth", body, None if args.no_write else "threads.md")
    if not args.no_write and 2 in ratios:
        figure(
            "threads-time-to-depth",
            f"pvs to depth {args.depth} on 2 threads / 1 thread, median over the start and {args.middle} "
            "middle-game positions",
            f"seconds {statistics.median(ratios[2]):.2f}, busiest thread's nodes {statistics.median(busiest[2]):.2f}",
            "threads.md",
        )


def score_interval(scores: list[float]) -> tuple[float, float, float]:
    """The mean score and its 95% interval (normal approximation over the games' scores of 1, 1/2 and 0)."""
    mean = statistics.fmean(scores)
    spread = 1.96 * statistics.stdev(scores) / math.sqrt(len(scores)) if len(scores) > 1 else 1.0
    return mean, max(0.0, mean - spread), min(1.0, mean + spread)


def elo(score: float) -> float:
    """The Elo difference of a score (clamped away from 0 and 1)."""
    score = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / score - 1)


def match(args: argparse.Namespace) -> None:
    variant = Variant(args.pits, args.seeds)
    one_spec = f"pvs:time={args.time:g},threads=1"
    two_spec = f"pvs:time={2 * args.time:g},threads=1" if args.double_time else f"pvs:time={args.time:g},threads=2"
    first_side = "twice the time" if args.double_time else "2 threads"
    scores: list[float] = []
    depths: dict[int, list[int]] = {2: [], 1: []}
    began = time.perf_counter()
    for opening in builtin_openings(variant, args.match // 2):
        for side in (0, 1):
            two, one = make_player(two_spec), make_player(one_spec)
            players = [two, one] if side == 0 else [one, two]
            result = play_game(players, opening, observers=[_Depths(side, depths)])
            margin = result.margin if side == 0 else -result.margin
            scores.append(1.0 if margin > 0 else 0.5 if margin == 0 else 0.0)
            print(f"\rgame {len(scores)}: score {sum(scores):g}", end="", file=sys.stderr)
    print(file=sys.stderr)
    mean, low, high = score_interval(scores)
    wins, draws = scores.count(1.0), scores.count(0.5)
    body = (
        f"{variant.name}: `{two_spec}` against `{one_spec}`, {len(scores)} games (the built-in openings, each "
        f"from both sides), one game at a time, in {time.perf_counter() - began:.0f} s.\n\n"
        + markdown_table(
            ["games", f"{first_side}: wins / draws / losses", "score", "95% interval", "Elo difference (interval)"],
            [
                [
                    len(scores),
                    f"{wins} / {draws} / {len(scores) - wins - draws}",
                    f"{100 * mean:.1f}%",
                    f"{100 * low:.1f}% - {100 * high:.1f}%",
                    f"{elo(mean):+.0f} ({elo(low):+.0f} to {elo(high):+.0f})",
                ]
            ],
        )
        + f"\n\nMean depth completed a move: {first_side} {statistics.fmean(depths[2] or [0]):.1f}, 1 thread "
        f"{statistics.fmean(depths[1] or [0]):.1f}. Both sides manage their time as players do (the "
        + ("first side twice the budget a move); " if args.double_time else "same budget a move); ")
        + "on a busy machine the first side loses the most, as its thread waits for a core."
    )
    name = "threads-match-double" if args.double_time else "threads-match"
    title = "one thread at twice the time against one" if args.double_time else "2 threads against 1 at equal time"
    report(f"Search on several threads: {title}", body, None if args.no_write else f"{name}.md")
    if not args.no_write:
        what = (
            f"pvs on 1 thread at {2 * args.time:g} s a move against 1 thread at {args.time:g} s (the bound of 2 threads)"
            if args.double_time
            else f"pvs on 2 threads against 1 thread, {args.time:g} s a move"
        )
        figure(
            name,
            f"{what}, {variant.name}",
            f"{100 * mean:.0f}% ({100 * low:.0f}-{100 * high:.0f}%) over {len(scores)} games",
            f"{name}.md",
        )


class _Depths(Observer):
    """Collects the depth each side completed a move (the players' ``last_info``)."""

    def __init__(self, two_side: int, depths: dict[int, list[int]]) -> None:
        self.two_side, self.depths = two_side, depths

    def move_played(self, event: MoveEvent) -> None:
        depth = event.info.get("depth")
        if isinstance(depth, int):
            self.depths[2 if event.player == self.two_side else 1].append(depth)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--depth", type=int, default=20)
    parser.add_argument("--middle", type=int, default=10, help="middle-game positions besides the start")
    parser.add_argument("--threads", default="1,2,4")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--match", type=int, metavar="GAMES", help="2 threads against 1: GAMES games (even)")
    parser.add_argument("--time", type=float, default=0.1, help="seconds a move in the match")
    parser.add_argument("--pits", type=int, default=6)
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--double-time", action="store_true", help="the match's first side: 1 thread, twice the time")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    if args.match:
        match(args)
    else:
        time_to_depth(args)


if __name__ == "__main__":
    main()
