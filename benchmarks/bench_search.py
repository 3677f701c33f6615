"""The search engine: nodes and time of every algorithm against depth, raw speed, depth in one second.

    python benchmarks/bench_search.py [--max-depth 14] [--minimax-max-depth 11] [--repeats 5]
    python benchmarks/bench_search.py --anchor [--cmancala PATH] [--depths 16,20,24] [--middle 20] [--repeat 5]
    python benchmarks/bench_search.py --overrun 200

1. Nodes and seconds of minimax, alphabeta, scout, pvs and mtdf at depths 1 to
   14 from the start of Kalah(6,4) (evaluation strong; the seeds' versions:
   memoized minimax, the others with table, progressive deepening and move
   ordering). Minimax stops at --minimax-max-depth (it grows about 5x a move).
2. Nodes per second of plain fixed-depth alpha-beta (no table, pits in
   order, evaluation store) at depth 12: the best of --repeats runs.
   Target: at least 35 million nodes per second on one core.
3. How deep pvs gets from the start in 1 second (and mtdf, alphabeta).
Results go to results/search.md.

--anchor measures pvs cold, a fresh process per measurement: nodes and
seconds to --depths from the start of Kalah(6,4) in both modes (best move
only, and the exact value of every root move), the same at depth --middle-depth
on --middle reproducible middle-game positions (totals), and the depth reached
in 1 s. With --cmancala PATH, CMancala's best-move search (one thread, table
2^24, its local solver) runs to the same depths in the same run, with the
ratios. The searches from the start are each run --repeat times, in turn,
and the median run is reported. Results go to results/anchor.md.

--overrun N runs N timed pvs searches (budgets 0.02 to 0.5 s, start and
middle-game positions) and reports by how much the wall-clock time of the
call exceeded the budget (max, p99, median). Results go to results/overrun.md.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

import anchor
from common import figure, markdown_table, report
from kalah import Position, search
from kalah.core.search import Engine, reference_alphabeta
from kalah.search import EXACT_ALGORITHMS, default_threads


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--max-depth", type=int, default=14)
    parser.add_argument("--minimax-max-depth", type=int, default=11)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--anchor", action="store_true", help="cold pvs figures (and CMancala's with --cmancala)")
    parser.add_argument("--cmancala", metavar="PATH", help="a CMancala binary (github.com/LifesLight/CMancala)")
    parser.add_argument("--depths", default="16,20,24", help="depths from the start for --anchor")
    parser.add_argument("--middle", type=int, default=20, help="middle-game positions for --anchor")
    parser.add_argument(
        "--repeat",
        type=int,
        default=5,
        help="--anchor: cold runs of each search from the start; the median is reported",
    )
    parser.add_argument("--middle-depth", type=int, default=16)
    parser.add_argument("--overrun", type=int, metavar="N", help="N timed searches: how far past the budget")
    args = parser.parse_args()
    if args.anchor:
        anchored(args)
        return
    if args.overrun:
        overrun(args)
        return

    start = Position.start()
    sections = []

    # 1. nodes and time against depth
    rows = []
    agree = True
    for depth in range(1, args.max_depth + 1):
        row = [depth]
        answers = set()
        for algorithm in EXACT_ALGORITHMS:
            if algorithm == "minimax" and depth > args.minimax_max_depth:
                row.append("-")
                continue
            result = search(start, algorithm, depth=depth, evaluation="strong", move_values=False)
            answers.add((result.value, result.best_move))
            row.append(f"{result.stats.nodes:,} / {result.stats.seconds:.4f}s")
        agree &= len(answers) == 1
        rows.append(row)
    sections.append(
        "## Nodes / seconds from the start of Kalah(6,4), evaluation strong\n\n"
        + markdown_table(["depth", *EXACT_ALGORITHMS], rows)
        + f"\n\nAll algorithms returned the same value and best move at every depth: {'yes' if agree else 'NO'}."
    )

    # 2. raw speed of plain alpha-beta
    engine = Engine(0)
    best = None
    for _ in range(args.repeats):
        result = search(
            start,
            "alphabeta",
            depth=12,
            evaluation="store",
            move_values=False,
            memo=False,
            ordering=False,
            iterative=False,
            engine=engine,
        )
        if best is None or result.stats.seconds < best.stats.seconds:
            best = result
    rate = best.stats.nodes / best.stats.seconds
    reference = min((reference_alphabeta(start, 12) for _ in range(args.repeats)), key=lambda run: run[2])
    sections.append(
        "## Plain fixed-depth alpha-beta (no table, pits in order), depth 12, evaluation store\n\n"
        + markdown_table(
            ["search", "nodes", f"seconds (best of {args.repeats})", "nodes per second"],
            [
                [
                    "kalah.search alphabeta (memo, ordering, iterative off)",
                    f"{best.stats.nodes:,}",
                    f"{best.stats.seconds:.4f}",
                    f"{rate / 1e6:.1f} M",
                ],
                [
                    "the plainest C alpha-beta (yardstick, same machine, same moment)",
                    f"{reference[1]:,}",
                    f"{reference[2]:.4f}",
                    f"{reference[1] / reference[2] / 1e6:.1f} M",
                ],
            ],
        )
        + "\n\nTarget: at least 35 M nodes per second on one core of the development machine "
        "(where a plain C version reaches about 50 M)."
    )

    # 3. depth in one second, cold: each search in a fresh process, as a user's first search
    rows = []
    for algorithm in ("pvs", "mtdf", "alphabeta"):
        for move_values in (False, True):
            result = _cold_search(algorithm, move_values)
            rows.append(
                [
                    algorithm,
                    "every root move" if move_values else "best move only",
                    result["depth"],
                    f"{result['nodes']:,}",
                    f"{result['seconds']:.3f}",
                    result["best_move"],
                    result["value"],
                ]
            )
    sections.append(
        "## Depth reached from the start in 1 second, cold (evaluation strong, a fresh process each)\n\n"
        "`kalah.search(Position.start(), ALGORITHM, time=1.0, move_values=...)`: players and"
        " `kalah compare` ask for the best move only; `kalah analyse` and the default for every root"
        " move's exact value.\n\n"
        + markdown_table(["algorithm", "values", "depth", "nodes", "seconds", "best move", "value"], rows)
    )

    report("Search engine", "\n\n".join(sections), None if args.no_write else "search.md")
    if not args.no_write:
        figure(
            "alphabeta-rate",
            "plain alpha-beta, depth 12 (no table, pits in order)",
            f"{rate / 1e6:.1f} M nodes/s (a bare C alpha-beta: {reference[1] / reference[2] / 1e6:.1f} M in the same run)",
            "search.md",
        )


def _cold_search(algorithm: str, move_values: bool) -> dict:
    code = (
        f"import json, kalah; r = kalah.search(kalah.Position.start(), {algorithm!r}, time=1.0, evaluation='strong',"
        f" move_values={move_values!r}); print(json.dumps({{'depth': r.stats.depth, 'nodes': r.stats.nodes,"
        " 'seconds': r.stats.seconds, 'best_move': r.best_move, 'value': r.value}))"
    )
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return json.loads(output)


def _median_run(runs: list[dict]) -> dict:
    """The run of median seconds (its nodes with it: on several threads they vary from run to run)."""
    return sorted(runs, key=lambda run: run["seconds"])[len(runs) // 2]


def _ratio(ours: float, theirs: float) -> str:
    return f"{ours / theirs:.2f}" if theirs else "-"


def anchored(args: argparse.Namespace) -> None:
    start = Position.start()
    depths = [int(depth) for depth in args.depths.split(",")]
    sections = []

    cores = default_threads()
    rows = []
    ratios: dict[str, list[str]] = {
        "nodes": [],
        "seconds": [],
        "store nodes": [],
        "store seconds": [],
        "threads seconds": [],
        "cpu seconds": [],
    }
    for depth in depths:
        # Each figure is the median of --repeat cold runs, taken in turn so that a change of load
        # falls on every engine alike: a search of a few tenths of a second varies by a third.
        runs: dict[str, list[dict]] = {"best": [], "both": [], "store": [], "theirs": []}
        for _ in range(args.repeat):
            runs["best"].append(anchor.ours(start, depth=depth, move_values=False))
            runs["both"].append(anchor.ours(start, depth=depth, move_values=False, threads=cores))
            runs["store"].append(anchor.ours(start, depth=depth, move_values=False, evaluation="store"))
            if args.cmancala:
                runs["theirs"].append(anchor.cmancala(args.cmancala, depth))
        best, both, store = _median_run(runs["best"]), _median_run(runs["both"]), _median_run(runs["store"])
        every = anchor.ours(start, depth=depth, move_values=True)
        row = [
            depth,
            f"{best['nodes']:,} / {best['seconds']:.3f}",
            f"{both['nodes']:,} / {both['seconds']:.3f}",
            f"{every['nodes']:,} / {every['seconds']:.3f}",
            f"{store['nodes']:,} / {store['seconds']:.3f}",
        ]
        if args.cmancala:
            theirs = _median_run(runs["theirs"])
            ratios["nodes"].append(_ratio(best["nodes"], theirs["nodes"]))
            ratios["seconds"].append(_ratio(best["seconds"], theirs["seconds"]))
            ratios["threads seconds"].append(_ratio(both["seconds"], theirs["seconds"]))
            ratios["store nodes"].append(_ratio(store["nodes"], theirs["nodes"]))
            ratios["store seconds"].append(_ratio(store["seconds"], theirs["seconds"]))
            # CMancala's time is CPU time (clock()): our CPU seconds are the like-for-like figure on a busy machine.
            cpu = statistics.median(run["cpu"] for run in runs["best"])
            ratios["cpu seconds"].append(_ratio(cpu, theirs["seconds"]))
            row += [
                f"{theirs['nodes']:,} / {theirs['seconds']:.3f}",
                f"{ratios['nodes'][-1]} / {ratios['seconds'][-1]}",
                f"{cpu:.3f} / {ratios['cpu seconds'][-1]}",
                ratios["threads seconds"][-1],
                f"{ratios['store nodes'][-1]} / {ratios['store seconds'][-1]}",
            ]
        rows.append(row)
    headers = [
        "depth",
        "pvs strong, 1 thread: nodes / s",
        f"pvs strong, {cores} threads: nodes / s",
        "pvs strong, every root value, 1 thread: nodes / s",
        "pvs store, 1 thread: nodes / s",
    ]
    if args.cmancala:
        headers += [
            "CMancala step: nodes / s",
            "strong 1 thread / CMancala: nodes / s",
            "strong 1 thread: CPU s / ratio to CMancala",
            f"strong {cores} threads / CMancala: s",
            "store 1 thread / CMancala: nodes / s",
        ]
    sections.append(
        "## From the start of Kalah(6,4), cold, one process each\n\n"
        + markdown_table(headers, rows)
        + f"\n\nMedian of {args.repeat} cold runs each, taken in turn (every root value: one run). Best move only "
        "unless said (CMancala's `step` finds the best move only). Its "
        "evaluation is the store difference, our `store`: the store column compares the searches "
        "like for like; `strong` is our default evaluation (finer values, larger trees). Fixed-depth "
        "values are the same on any number of threads. CMancala's nodes are printed in millions "
        "with three decimals, and count every position but finished games (ours count those too). "
        "CMancala's seconds are CPU time (C's `clock()`), ours wall-clock time of the search, except the "
        "CPU column (the process's CPU seconds during the search, the median of the runs): on a busy machine "
        "that column is the like-for-like comparison."
    )

    positions = anchor.middle_game_positions(args.middle)
    totals = {False: [0, 0.0], True: [0, 0.0], "store": [0, 0.0], "cmancala": [0, 0.0]}
    for position in positions:
        if args.cmancala:
            theirs = anchor.cmancala(args.cmancala, args.middle_depth, position)
            totals["cmancala"][0] += theirs["nodes"]
            totals["cmancala"][1] += theirs["seconds"]
        for move_values in (False, True):
            result = anchor.ours(position, depth=args.middle_depth, move_values=move_values)
            totals[move_values][0] += result["nodes"]
            totals[move_values][1] += result["seconds"]
        result = anchor.ours(position, depth=args.middle_depth, evaluation="store")
        totals["store"][0] += result["nodes"]
        totals["store"][1] += result["seconds"]
    rows = [
        ["pvs best move only", f"{totals[False][0]:,}", f"{totals[False][1]:.3f}"],
        ["pvs every root value", f"{totals[True][0]:,}", f"{totals[True][1]:.3f}"],
        ["pvs store, best move only", f"{totals['store'][0]:,}", f"{totals['store'][1]:.3f}"],
    ]
    if args.cmancala:
        rows.append(["CMancala step (best move only)", f"{totals['cmancala'][0]:,}", f"{totals['cmancala'][1]:.3f}"])
        rows.append(
            [
                "ratio ours best move only / CMancala",
                _ratio(totals[False][0], totals["cmancala"][0]),
                _ratio(totals[False][1], totals["cmancala"][1]),
            ]
        )
        rows.append(
            [
                "ratio ours store / CMancala",
                _ratio(totals["store"][0], totals["cmancala"][0]),
                _ratio(totals["store"][1], totals["cmancala"][1]),
            ]
        )
    sections.append(
        f"## {len(positions)} middle-game positions (10-20 random moves from the start, seed 2026), "
        f"depth {args.middle_depth}, totals\n\n" + markdown_table(["search", "nodes", "seconds"], rows)
    )

    rows = []
    reached = {}
    for threads in sorted({1, cores}):
        env = dict(os.environ, KALAH_THREADS=str(threads))
        for seconds in (1.0, 5.0):
            for move_values in (False, True) if seconds == 1.0 else (False,):
                result = anchor.ours(start, seconds=seconds, move_values=move_values, env=env)
                reached[threads, seconds, move_values] = result["depth"]
                rows.append(
                    [
                        threads,
                        f"{seconds:g}",
                        "every root value" if move_values else "best move only",
                        result["depth"],
                        f"{result['nodes']:,}",
                        f"{result['wall']:.3f}",
                    ]
                )
    sections.append(
        "## pvs from the start in 1 s and 5 s (time=...), cold, on 1 thread and on every core\n\n"
        + markdown_table(
            ["threads", "seconds", "mode", "depth completed", "nodes (all threads)", "wall seconds of the call"], rows
        )
    )
    report("Search engine against the anchor", "\n\n".join(sections), None if args.no_write else "anchor.md")
    if args.no_write:
        return
    figure(
        "pvs-1s",
        f"pvs from the start of Kalah(6,4) in 1 s, cold, {cores} threads (1 thread)",
        f"depth {reached[cores, 1.0, False]} ({reached[1, 1.0, False]}) best move only, as a player searches; "
        f"{reached[cores, 1.0, True]} ({reached[1, 1.0, True]}) with every root move's value; "
        f"in 5 s: {reached[cores, 5.0, False]} ({reached[1, 5.0, False]})",
        "anchor.md",
    )
    if args.cmancala:
        figure(
            "pvs-cmancala",
            f"pvs / CMancala, best move only, from the start at depth {' / '.join(map(str, depths))}",
            f"strong, 1 thread: nodes {' / '.join(ratios['nodes'])}, seconds {' / '.join(ratios['seconds'])}, "
            f"CPU seconds {' / '.join(ratios['cpu seconds'])}; "
            f"strong, {cores} threads: seconds {' / '.join(ratios['threads seconds'])}; "
            f"store (CMancala's evaluation), 1 thread: nodes {' / '.join(ratios['store nodes'])}, "
            f"seconds {' / '.join(ratios['store seconds'])}",
            "anchor.md",
        )


def overrun(args: argparse.Namespace) -> None:
    import random
    import time

    rng = random.Random(7)
    positions = [Position.start(), *anchor.middle_game_positions(9)]
    from kalah.players.engines import time_budget

    # managed: the soft limit of a player's first move (time_budget with nothing saved yet), the budget as hard limit
    modes = {
        "time only": lambda budget: {},
        "managed (the players' soft limit)": lambda budget: {"soft_time": time_budget(budget, 0.0)[1]},
    }
    rows, worst_rows = [], []
    for mode, extra in modes.items():
        overs = []
        for index in range(args.overrun):
            budget = rng.choice((0.02, 0.05, 0.1, 0.2, 0.5))
            position = positions[index % len(positions)]
            started, cpu = time.perf_counter(), time.thread_time()
            result = search(position, "pvs", time=budget, evaluation="strong", move_values=False, **extra(budget))
            overs.append(
                (
                    (time.perf_counter() - started - budget) * 1000,
                    budget,
                    index % len(positions),
                    result.stats.depth,
                    (result.stats.seconds - budget) * 1000,
                    (time.perf_counter() - started - (time.thread_time() - cpu)) * 1000,
                )
            )
        worst_rows += [
            [mode, f"{over:.1f}", budget, index, depth, f"{inner:.1f}", f"{waiting:.1f}"]
            for over, budget, index, depth, inner, waiting in sorted(overs, reverse=True)[:3]
        ]
        ranked = sorted(over for over, *_ in overs)
        p99 = ranked[min(len(ranked) - 1, int(0.99 * len(ranked)))]
        rows.append(
            [
                mode,
                len(ranked),
                f"{ranked[-1]:.1f}",
                f"{p99:.1f}",
                f"{ranked[len(ranked) // 2]:.1f}",
                f"{sum(1 for over in ranked if over > 10)}",
            ]
        )
        if mode.startswith("managed") and not args.no_write:
            figure(
                "overrun",
                "timed pvs searches past their budget, managed as the players (max / p99 ms)",
                f"{ranked[-1]:.1f} / {p99:.1f} ms over {len(ranked)} searches",
                "overrun.md",
            )
    body = markdown_table(["mode", "searches", "max overrun ms", "p99 ms", "median ms", "over 10 ms"], rows)
    body += "\n\nThe worst three of each mode:\n\n" + markdown_table(
        [
            "mode",
            "overrun ms (call)",
            "budget s",
            "position (0 = start)",
            "depth",
            "overrun ms (engine's clock)",
            "ms not on a CPU (wall - thread CPU time)",
        ],
        worst_rows,
    )
    body += (
        "\n\nA large last column means the process was descheduled (a busy machine), not that the "
        "search failed to look at its clock. Searches use the default threads (every core)."
    )
    report(
        "Timed pvs searches: time past the budget (wall clock of the call, warm process)",
        body + "\n\nNegative: the search returned before its budget (a proven value, a settled best move "
        "past the soft limit, or a predicted iteration that could not finish).",
        None if args.no_write else "overrun.md",
    )


if __name__ == "__main__":
    main()
