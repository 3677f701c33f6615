"""The search on several threads: time to a fixed depth on 1, 2 and 4 threads, and matches of 2 threads
against 1 at equal time a move.

    python benchmarks/bench_threads.py [--depth 20] [--middle 10] [--threads 1,2,4] [--repeat 3]
    python benchmarks/bench_threads.py --match 300 [--time 0.1 ...] [--pits 6 --seeds 4] [--endgame on off] [--no-bound]
    python benchmarks/bench_threads.py --report
    python benchmarks/bench_threads.py --scaling 9 11 13 15 17 [--middle 100] [--pits 6 --seeds 6]

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
2. --match N: for each --endgame setting (``on``: both players use the
   variant's database in the default directory; ``off``: neither, as on a
   fresh install) and each --time T, N games (the built-in openings, each
   played from both sides) of ``pvs:time=T,threads=2`` against
   ``pvs:time=T,threads=1``, one game at a time (the two-thread side needs
   both cores); then, unless --no-bound, N games of ``pvs:time=2T,threads=1``
   against the same one thread: what a second core would give at perfect
   scaling, and no more. Each condition's result is kept in
   results/threads-match.json as soon as it is measured: a later run of the
   same condition adds its games when the engine's sources are the same
   (``common.commit_of``) and replaces them when they changed.
   results/threads-match.md shows every condition kept: the scores with
   their 95% intervals, Elo, the mean depth each side completed, and every
   run. --report only redraws that table.
3. --scaling D...: how the second thread's gain depends on the size of the
   search, as a player searches (deeper entries answer, one ply an iteration,
   no time limit reached): for each depth D, pvs to D on 1 and 2 threads from
   --middle middle-game positions of Kalah(--pits,--seeds) (anchor.py's, seed
   2026), one engine a thread count kept warm in this process (each search
   clears its table), in turn. The medians over the positions of one
   thread's milliseconds and of the two ratios: seconds, and busiest thread's
   nodes (see 1.); and of all threads' nodes over one thread's (the work
   searched twice). A time ratio r is log2(1/r) of a doubling of the search.
   Results go to results/threads-scaling.md.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime

import anchor
from common import RESULTS, command, commit_of, figure, markdown_table, report
from kalah import Position, Variant
from kalah.arena import builtin_openings
from kalah.atomic import write_atomic
from kalah.core.search import ALGORITHMS, EVALUATIONS, Engine
from kalah.endgame import default_directory, locate
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


def scaling(args: argparse.Namespace) -> None:
    variant = Variant(args.pits, args.seeds)
    positions = anchor.middle_game_positions(args.middle, variant=variant)
    engines = {threads: Engine(20) for threads in (1, 2)}
    for threads, engine in engines.items():  # the tables' pages faulted in before anything is timed
        engine.search(positions[0], ALGORITHMS["pvs"], EVALUATIONS["strong"], 1, 10, threads=threads)
    rows, load_before = [], os.getloadavg()[0]
    for depth in args.scaling:
        one_ms, ratios, busiest, work = [], [], [], []
        for index, position in enumerate(positions):
            raw = {
                threads: engine.search(
                    position,
                    ALGORITHMS["pvs"],
                    EVALUATIONS["strong"],
                    1,
                    depth,
                    seconds=600.0,
                    threads=threads,
                    deeper_entries=True,
                )
                for threads, engine in engines.items()
            }
            one, two = raw[1], raw[2]
            one_ms.append(1000 * one["seconds"])
            ratios.append(two["seconds"] / one["seconds"])
            busiest.append(two["busiest_thread_nodes"] / one["nodes"])
            work.append(two["nodes"] / one["nodes"])
            print(f"\rdepth {depth}: position {index + 1}/{len(positions)}", end="", file=sys.stderr)
        ratio = statistics.median(ratios)
        rows.append(
            [
                depth,
                f"{statistics.median(one_ms):.1f}",
                f"{ratio:.2f}",
                f"{math.log2(1 / ratio):.2f}",
                f"{statistics.median(busiest):.2f}",
                f"{statistics.median(work):.2f}",
            ]
        )
    print(file=sys.stderr)
    body = (
        f"pvs on 1 and 2 threads as a player searches (deeper entries, one ply an iteration), evaluation strong, "
        f"from {args.middle} middle-game positions of {variant.name} (10-20 random moves, seed 2026), one warm "
        "engine a thread count, in turn; medians over the positions.\n\n"
        + markdown_table(
            [
                "depth",
                "ms, 1 thread",
                "2 / 1: seconds",
                "doublings",
                "2 / 1: busiest thread's nodes",
                "2 / 1: all nodes",
            ],
            rows,
        )
        + "\n\nA time ratio r is log2(1/r) of a doubling of the search. On two free cores the busiest thread's "
        "nodes give the time ratio; all nodes over one thread's are the work the two threads did twice. "
        f"Load average {load_before:.2f} before, {os.getloadavg()[0]:.2f} after."
    )
    report(
        "Search on two threads: gain by the size of the search", body, None if args.no_write else "threads-scaling.md"
    )


MATCHES = RESULTS / "threads-match.json"
#: The two kinds of match: 2 threads against 1 at equal time, and its bound, 1 thread at twice the time against 1.
KINDS = {"threads": "2 threads", "double": "twice the time"}


def score_interval(wins: int, draws: int, losses: int) -> tuple[float, float, float]:
    """The mean score and its 95% interval (normal approximation over the games' scores of 1, 1/2 and 0)."""
    scores = [1.0] * wins + [0.5] * draws + [0.0] * losses
    mean = statistics.fmean(scores)
    spread = 1.96 * statistics.stdev(scores) / math.sqrt(len(scores)) if len(scores) > 1 else 1.0
    return mean, max(0.0, mean - spread), min(1.0, mean + spread)


def elo(score: float) -> float:
    """The Elo difference of a score (clamped away from 0 and 1)."""
    score = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / score - 1)


@contextlib.contextmanager
def endgame_setting(setting: str, variant: Variant) -> Iterator[str]:
    """Both players with the variant's database in the default directory ("on"), or with none ("off");
    yields the database's file name, or "none"."""
    if setting == "off":
        with tempfile.TemporaryDirectory() as empty:
            before = os.environ.get("KALAH_ENDGAME_DIR")
            os.environ["KALAH_ENDGAME_DIR"] = empty  # where the players look: nothing there
            try:
                yield "none"
            finally:
                if before is None:
                    del os.environ["KALAH_ENDGAME_DIR"]
                else:
                    os.environ["KALAH_ENDGAME_DIR"] = before
        return
    database = locate(variant)
    if database is None or database.path is None:
        sys.exit(f"--endgame on: no database of {variant.name} in {default_directory()} (kalah endgame build)")
    yield database.path.name


def play_match(variant: Variant, seconds: float, kind: str, games: int) -> dict:
    """``games`` games of the first side of ``kind`` against pvs on one thread at ``seconds`` a move."""
    one_spec = f"pvs:time={seconds:g},threads=1"
    first_spec = f"pvs:time={seconds:g},threads=2" if kind == "threads" else f"pvs:time={2 * seconds:g},threads=1"
    counts = {"wins": 0, "draws": 0, "losses": 0}
    depths: dict[int, list[int]] = {2: [], 1: []}
    began, load_before = time.perf_counter(), os.getloadavg()[0]
    for opening in builtin_openings(variant, games // 2):
        for side in (0, 1):
            first, one = make_player(first_spec), make_player(one_spec)
            players = [first, one] if side == 0 else [one, first]
            result = play_game(players, opening, observers=[_Depths(side, depths)])
            margin = result.margin if side == 0 else -result.margin
            counts["wins" if margin > 0 else "draws" if margin == 0 else "losses"] += 1
            done = sum(counts.values())
            print(
                f"\r{kind} {seconds:g} s: game {done}, score {counts['wins'] + counts['draws'] / 2:g}",
                end="",
                file=sys.stderr,
            )
    print(file=sys.stderr)
    return {
        **counts,
        "first": first_spec,
        "second": one_spec,
        "depth_first": round(statistics.fmean(depths[2] or [0]), 2),
        "depth_second": round(statistics.fmean(depths[1] or [0]), 2),
        "seconds": round(time.perf_counter() - began),
        "load": f"{load_before:.2f} to {os.getloadavg()[0]:.2f}",
    }


def _key(variant: str, seconds: float, database: str, kind: str) -> str:
    """A condition's key in threads-match.json."""
    return f"{variant} {seconds:g} s {database} {kind}"


def _games(entry: dict) -> int:
    return entry["wins"] + entry["draws"] + entry["losses"]


RUN_FIELDS = ("wins", "draws", "losses", "depth_first", "depth_second", "seconds", "load", "date", "command")


def merged(kept: dict | None, run: dict) -> dict:
    """A condition's result with one more run: games of the same engine add up (the depths weighted by games);
    a run of another engine replaces them."""
    runs = kept["runs"] if kept is not None and kept["engine"] == run["engine"] else []
    runs = [*runs, {field: run[field] for field in RUN_FIELDS}]
    games = [_games(r) for r in runs]
    totals = {field: sum(r[field] for r in runs) for field in ("wins", "draws", "losses")}
    depths = {
        field: round(sum(r[field] * g for r, g in zip(runs, games, strict=True)) / sum(games), 2)
        for field in ("depth_first", "depth_second")
    }
    common = {k: run[k] for k in ("variant", "time", "endgame", "kind", "first", "second", "engine")}
    return {**common, **totals, **depths, "runs": runs}


def load_matches() -> dict[str, dict]:
    return json.loads(MATCHES.read_text()) if MATCHES.exists() else {}


def match(args: argparse.Namespace) -> None:
    variant = Variant(args.pits, args.seeds)
    matches = load_matches()
    kinds = ["threads", "double"] if args.bound else ["threads"]
    for setting in args.endgame:
        with endgame_setting(setting, variant) as database:
            for seconds in args.time:
                for kind in kinds:
                    result = play_match(variant, seconds, kind, args.match)
                    entry = {
                        "variant": variant.name,
                        "time": seconds,
                        "endgame": database,
                        "kind": kind,
                        **result,
                        "engine": commit_of(str(RESULTS.parent.parent)),
                        "date": f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC",
                        "command": command(),
                    }
                    if args.no_write:
                        print(json.dumps(entry))
                        continue
                    key = _key(variant.name, seconds, database, kind)
                    matches[key] = merged(matches.get(key), entry)
                    write_atomic(MATCHES, json.dumps(matches, indent=1) + "\n")  # kept as soon as measured
    if not args.no_write:
        write_match_report(load_matches())


def _cell(entry: dict | None) -> list[str]:
    if entry is None:
        return ["", "", ""]
    mean, low, high = score_interval(entry["wins"], entry["draws"], entry["losses"])
    return [
        f"{_games(entry)}: {entry['wins']} / {entry['draws']} / {entry['losses']}",
        f"**{100 * mean:.1f}%** ({100 * low:.1f}-{100 * high:.1f}%), Elo {elo(mean):+.0f}",
        f"{entry['depth_first']:.1f} / {entry['depth_second']:.1f}",
    ]


def _conditions(matches: dict[str, dict]) -> list[tuple[str, str, float]]:
    return sorted(
        {(e["variant"], e["endgame"], e["time"]) for e in matches.values()}, key=lambda c: (c[0], c[1] != "none", c[2])
    )


def write_match_report(matches: dict[str, dict]) -> None:
    """results/threads-match.md: every condition measured, the two-thread match beside its bound."""
    rows = []
    for variant, database, seconds in _conditions(matches):
        keys = {kind: _key(variant, seconds, database, kind) for kind in KINDS}
        pair = {kind: matches[key] for kind, key in keys.items() if key in matches}
        rows.append(
            [
                variant,
                database,
                f"{seconds:g}",
                *_cell(pair.get("threads")),
                *_cell(pair.get("double")),
                "; ".join(
                    f"{KINDS[kind]}: "
                    + ", ".join(f"{run['date'][:16]} (load {run['load']})" for run in pair[kind]["runs"])
                    + f", engine {pair[kind]['engine']}"
                    for kind in KINDS
                    if kind in pair
                ),
            ]
        )
    body = (
        "pvs (evaluation strong, the players' time management) on 2 threads against pvs on 1 thread at the same "
        "time a move; beside it the bound: 1 thread at twice the time against 1 thread, which is what a second core "
        "gives at perfect scaling. The built-in openings, each played from both seats, one game at a time (the "
        'two-thread side needs both cores). Database: the endgame database both players use ("none": a fresh '
        "install's, which has none until `kalah endgame build`). Scores are the first side's, with the 95% interval; "
        "depth is the mean depth completed a move, first side / one thread.\n\n"
        + markdown_table(
            [
                "variant",
                "database",
                "s a move",
                "2 threads: games: W / D / L",
                "2 threads: score",
                "depth",
                "twice the time: games: W / D / L",
                "twice the time: score",
                "depth",
                "measured",
            ],
            rows,
        )
        + "\n\nEach row's runs, with their commands, are in `threads-match.json` beside this file; the first "
        "explorations were typed in from their reports, and some of the bound's ran two at a time (each match on "
        "one thread, one core each). On a busy machine the "
        "two-thread side loses the most, as its second thread waits for a core."
    )
    report("Search on several threads: matches against one thread", body, "threads-match.md")
    for kind, key, what in (
        ("threads", "threads-match", "pvs on 2 threads against 1 thread at equal time a move"),
        (
            "double",
            "threads-match-double",
            "pvs on 1 thread at twice the time against 1 thread (the bound of 2 threads)",
        ),
    ):
        parts = []
        for variant, database, seconds in _conditions(matches):
            entry = matches.get(_key(variant, seconds, database, kind))
            if entry:
                mean, low, high = score_interval(entry["wins"], entry["draws"], entry["losses"])
                where = (
                    "no database"
                    if database == "none"
                    else f"K={database.removesuffix('.egdb').rsplit('-k', 1)[-1]} database"
                )
                parts.append(
                    f"{variant} {seconds:g} s, {where}: {100 * mean:.0f}% ({100 * low:.0f}-{100 * high:.0f}%, {_games(entry)} games)"
                )
        if parts:
            figure(key, what, "; ".join(parts), "threads-match.md")


class _Depths(Observer):
    """Collects the depth each side completed a move (the players' ``last_info``)."""

    def __init__(self, first_side: int, depths: dict[int, list[int]]) -> None:
        self.first_side, self.depths = first_side, depths

    def move_played(self, event: MoveEvent) -> None:
        depth = event.info.get("depth")
        if isinstance(depth, int):
            self.depths[2 if event.player == self.first_side else 1].append(depth)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--depth", type=int, default=20)
    parser.add_argument("--middle", type=int, default=10, help="middle-game positions besides the start")
    parser.add_argument("--threads", default="1,2,4")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--match", type=int, metavar="GAMES", help="2 threads against 1: GAMES games (even)")
    parser.add_argument(
        "--time", type=float, nargs="+", default=[0.1], help="seconds a move in the match (several: one match each)"
    )
    parser.add_argument("--pits", type=int, default=6)
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument(
        "--endgame",
        nargs="+",
        choices=["on", "off"],
        default=["on"],
        help="both players with the variant's database in the default directory, or with none",
    )
    parser.add_argument(
        "--bound",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="also 1 thread at twice the time against 1 (the bound of 2 threads)",
    )
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--report", action="store_true", help="only redraw threads-match.md from threads-match.json")
    parser.add_argument(
        "--scaling", type=int, nargs="+", metavar="DEPTH", help="2 threads over 1 at each depth, as players search"
    )
    args = parser.parse_args()
    if args.report:
        write_match_report(load_matches())
    elif args.match:
        match(args)
    elif args.scaling:
        scaling(args)
    else:
        time_to_depth(args)


if __name__ == "__main__":
    main()
