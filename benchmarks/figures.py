"""Draw the README's table of figures from what the benchmark scripts measured.

Each script keeps its headline figures in benchmarks/results/figures.json
(common.figure) beside its full results file. This script writes them into the
README between the ``figures`` markers, in the order below; ``--check`` only
says whether the README is up to date (the README test runs it), so a figure
typed into the README by hand fails the tests.

    python benchmarks/figures.py            # rewrite the README's table
    python benchmarks/figures.py --check    # exit 1 if the README differs
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
README = HERE.parent / "README.md"
FIGURES = HERE / "results" / "figures.json"
START, END = "<!-- figures: drawn by benchmarks/figures.py -->", "<!-- figures end -->"

#: The rows of the table, in order; each is written by the script named.
ORDER = [
    "playouts",  # bench_playouts.py
    "alphabeta-rate",  # bench_search.py
    "pvs-1s",  # bench_search.py --anchor
    "pvs-cmancala",  # bench_search.py --anchor --cmancala
    "wasm-speed",  # bench_wasm.py
    "threads-time-to-depth",  # bench_threads.py
    "threads-match",  # bench_threads.py --match
    "threads-match-double",  # bench_threads.py --match --double-time
    "match-cmancala",  # bench_cmancala.py
    "overrun",  # bench_search.py --overrun
    "eval-strength",  # bench_eval_strength.py
    "solve-64-cold",  # bench_solve.py
    "solve-64-warm",  # bench_solve.py
    "endgame-builds",  # bench_solve.py
    "solve-65",  # bench_kalah65.py
    "solve-cluster",  # bench_solve_cluster.py
    "mankalah",  # bench_mankalah.py
    "rl-steps",  # bench_rl.py
    "server-fairness",  # bench_server_fairness.py
    "live-push",  # bench_live.py
    "slow-connections",  # bench_slow_connections.py
    "review-40",  # bench_review.py
    "puzzles",  # bench_puzzles.py
    "lighthouse",  # bench_lighthouse.py
]


def load(path: Path = FIGURES) -> dict[str, dict[str, str]]:
    """The figures the scripts kept, by key."""
    return json.loads(path.read_text()) if path.exists() else {}


def table(figures: dict[str, dict[str, str]]) -> str:
    """The README's table: one row per known figure, with its date and results file."""
    rows = ["| what | figure | measured |", "|---|---|---|"]
    for key in ORDER + sorted(set(figures) - set(ORDER)):
        if key in figures:
            f = figures[key]
            rows.append(f"| {f['what']} | {f['figure']} | {f['date']}, `benchmarks/results/{f['source']}` |")
    return "\n".join(rows)


def drawn(readme: str, figures: dict[str, dict[str, str]]) -> str:
    """The README text with its table of figures redrawn."""
    begin, end = readme.index(START) + len(START), readme.index(END)
    return readme[:begin] + "\n" + table(figures) + "\n" + readme[end:]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that the README is up to date")
    args = parser.parse_args()
    readme = README.read_text()
    text = drawn(readme, load())
    if args.check:
        if text != readme:
            print(
                "README.md: the table of figures is not what benchmarks/results/figures.json holds; "
                "run python benchmarks/figures.py",
                file=sys.stderr,
            )
            return 1
        return 0
    temporary = README.with_suffix(".md.tmp")
    temporary.write_text(text)
    os.replace(temporary, README)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
