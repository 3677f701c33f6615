"""Benchmark: `kalah solve --seeds 5`, the one command that solves Kalah(6,5), cold and warm.

    python benchmarks/bench_kalah65.py                        # cold (empty data dir: the database is built), then warm
    python benchmarks/bench_kalah65.py --directory ~/egdb     # keep (or reuse) the data directory
    python benchmarks/bench_kalah65.py --endgame-seeds 24 --time 120   # a shorter partial run (no README figure)
    python benchmarks/bench_kalah65.py --time 90 --table 28            # K=28 built, 90 s solves in a 2 GiB table

Each run is the command line itself, `python -m kalah.cli solve --seeds 5
--json`, in a fresh process with KALAH_ENDGAME_DIR pointing at the data
directory: cold finds it empty, builds the database the command chooses (K
from the seeds, the memory and the disk) and solves; warm runs the same
command again and reuses the file. Wall time from start to exit, peak
resident memory of the child (its ru_maxrss, from wait4), and when the
database file appeared (the build's share of the cold run). Only a full run
(no --time, no --endgame-seeds, an empty data directory) writes the README
figure and benchmarks/results/kalah65.md; other runs write
benchmarks/results/kalah65-partial.md.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import figure, markdown_table, report


def run_command(arguments: list[str], env: dict[str, str], directory: Path) -> dict:
    """Run the CLI in a fresh process; its wall time, peak memory, JSON answer and the database's appearance."""
    command = [sys.executable, "-m", "kalah.cli", "solve", *arguments, "--json"]
    started = time.time()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        child = subprocess.Popen(command, env=env, stdout=out, stderr=err, text=True)
        _, status, usage = os.wait4(child.pid, 0)  # the child's own peak memory, not the children's maximum
        seconds = time.time() - started
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if child.returncode:
        raise SystemExit(f"{' '.join(command)} failed ({child.returncode}):\n{stderr}")
    files = sorted(directory.glob("kalah-m6-std-k*.egdb"), key=lambda path: path.stat().st_mtime)
    built = [path for path in files if path.stat().st_mtime >= started]
    return {
        "answer": json.loads(stdout.strip().splitlines()[-1]),
        "seconds": seconds,
        "peak_gib": usage.ru_maxrss / 2**20,
        "built_after": built[-1].stat().st_mtime - started if built else None,
        "database": files[-1] if files else None,
        "stderr": stderr,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--directory", help="the data directory (reused when it holds a database); default: a scratch dir"
    )
    parser.add_argument("--time", type=float, help="seconds allowed for each solve (a partial run: no README figure)")
    parser.add_argument("--endgame-seeds", type=int, help="K to build instead of the command's choice (a partial run)")
    parser.add_argument("--threads", type=int, help="threads (default: every core)")
    parser.add_argument(
        "--table", type=int, help="solver table, log2 of entries (default: the command's; a partial run)"
    )
    args = parser.parse_args()

    scratch = None
    if args.directory:
        directory = Path(args.directory).expanduser()
    else:
        scratch = Path(tempfile.mkdtemp(prefix="kalah-bench65-"))
        directory = scratch
    arguments = ["--seeds", "5"]
    if args.time is not None:
        arguments += ["--time", str(args.time)]
    if args.endgame_seeds is not None:
        arguments += ["--endgame-seeds", str(args.endgame_seeds)]
    if args.threads is not None:
        arguments += ["--threads", str(args.threads)]
    if args.table is not None:
        arguments += ["--tt-log2", str(args.table)]
    env = dict(os.environ, KALAH_ENDGAME_DIR=str(directory))
    try:
        before = list(directory.glob("kalah-m6-std-k*.egdb"))
        first = run_command(arguments, env, directory)
        second = run_command(arguments, env, directory)
        rows = []
        for name, run in (("cold" if not before else "first (database there before)", first), ("warm", second)):
            answer = run["answer"]
            database = run["database"]
            size = f"{database.stat().st_size / 2**30:.2f} GiB" if database else ""
            built = f"{run['built_after']:.0f}" if run["built_after"] is not None else "reused"
            rows.append(
                [
                    name,
                    answer["value"] if answer["exact"] else f"{answer['lower']:+d}..{answer['upper']:+d}",
                    answer["best_moves"],
                    f"{answer['nodes']:,}",
                    built,
                    f"{run['seconds']:.0f}",
                    f"{run['peak_gib']:.2f}",
                    answer["endgame_seeds"],
                    size,
                ]
            )
        body = (
            f"Command: `kalah solve {' '.join(arguments)} --json` in a fresh process, data directory "
            + ("given" if args.directory else "a fresh scratch directory")
            + ".\n\n"
            + markdown_table(
                [
                    "run",
                    "value",
                    "best moves",
                    "nodes",
                    "database written after (s)",
                    "seconds in all",
                    "peak resident GiB",
                    "database K",
                    "database size",
                ],
                rows,
            )
            + "\n\nTimings are wall-clock and move with the load of the machine (given above)."
        )
        full = args.time is None and args.endgame_seeds is None and args.table is None and not before
        report("Kalah(6,5): the one command, cold and warm", body, "kalah65.md" if full else "kalah65-partial.md")
        if full and first["answer"]["exact"]:
            figure(
                "solve-65",
                "`kalah solve --seeds 5` (Kalah(6,5)), cold (database built) / warm, peak memory",
                f"{first['answer']['value']:+d}: cold {first['seconds']:.0f} s (database K={first['answer']['endgame_seeds']}"
                f" written after {first['built_after'] or 0:.0f} s) / warm {second['seconds']:.0f} s,"
                f" peak {max(first['peak_gib'], second['peak_gib']):.1f} GiB",
                "kalah65.md",
            )
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
