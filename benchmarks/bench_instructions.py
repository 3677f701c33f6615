"""Instructions executed by the compiled core on fixed work, counted by callgrind (valgrind).

    python benchmarks/bench_instructions.py [--only NAME,...] [--no-write]
    PYTHONPATH=OTHER/src python benchmarks/bench_instructions.py --no-write   # another build

An instruction count does not depend on the load of the machine, so two
builds can be compared on a shared machine where seconds would not be
trusted (it does not see cache misses: confirm a difference with
bench_search.py and bench_playouts.py). Each workload runs in its own
process under ``valgrind --tool=callgrind``, counting only inside the C
function that does the work; it prints its answer too, so that the two
builds can be seen to do the same work. Needs valgrind (apt-get install valgrind).
Results go to results/instructions.md.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile

from common import markdown_table, report

# name -> (C function to count inside, what it does)
WORKLOADS = {
    "pvs": (
        "ks_iterate",
        "pvs, progressive deepening to depth 18 from the start of Kalah(6,4), evaluation strong, table 2^20",
    ),
    "mtdf": ("ks_iterate", "mtdf to depth 16 from the start, evaluation strong, table 2^20"),
    "scout": ("ks_iterate", "scout to depth 15 from the start, evaluation strong, table 2^20"),
    "alphabeta-plain": (
        "ks_iterate",
        "alphabeta at depth 13 from the start, evaluation store, no table, pits in order",
    ),
    "minimax": ("ks_iterate", "minimax at depth 9 from the start, evaluation strong, no table"),
    "reference": ("ks_reference_alphabeta", "the reference alpha-beta at depth 13 from the start"),
    "mcts": ("ks_mcts", "UCT, 100,000 playouts from the start, seed 1"),
    "playouts": ("__pyx_pf_*random_playouts*", "500,000 random games from the start of Kalah(6,4), seed 1"),
    "endgame": ("kalah_egdb_build_range", "endgame database, 6 pits, up to 14 seeds, one thread"),
    "solve": ("kalah_solver_search", "MTD(f) solve of the start of Kalah(6,3), one thread, table 2^22, no database"),
    "solve-db": ("kalah_solver_search", "the same with an endgame database of up to 12 seeds"),
}


def run(name: str) -> str:
    """Do one workload (in this process) and return its answer."""
    from kalah import Position
    from kalah.core import random_playouts
    from kalah.core.search import ALGORITHMS, EVALUATIONS, Engine, mcts, reference_alphabeta
    from kalah.core.solver import EndgameTable, Solver, table_size

    start = Position.start()

    def search(algorithm, evaluation, first, last, table_bits=20, **options):
        answer = Engine(table_bits).search(
            start, ALGORITHMS[algorithm], EVALUATIONS[evaluation], first, last, **options
        )
        return f"value {answer['value']}, best move {answer['best_move']}, nodes {answer['nodes']}"

    def endgame(pits, max_seeds):
        table = EndgameTable(pits, False, max_seeds, bytearray(table_size(pits, max_seeds)))
        for layer in range(max_seeds + 1):
            table.begin_layer(layer)
            table.build_range(layer, 0, table.layer_size(layer), 1)
            table.end_layer()
        return table

    def solve(table=None):
        solver = Solver(6, False, 22)
        if table is not None:
            solver.set_endgame(table)
        pits, lower, upper, guess, nodes = [3] * 12, -36, 36, 0, 0
        while lower < upper:
            beta = guess + 1 if guess == lower else guess
            guess, _, visited = solver.search(pits, beta - 1, beta, 1)
            nodes += visited
            lower, upper = (lower, guess) if guess < beta else (guess, upper)
        return f"value {guess}, nodes {nodes}"

    if name == "pvs":
        return search("pvs", "strong", 1, 18)
    if name == "mtdf":
        return search("mtdf", "strong", 1, 16)
    if name == "scout":
        return search("scout", "strong", 1, 15)
    if name == "alphabeta-plain":
        return search("alphabeta", "store", 13, 13, table_bits=0, memo=False, ordering=False)
    if name == "minimax":
        return search("minimax", "strong", 9, 9, table_bits=0)
    if name == "reference":
        value, nodes, _ = reference_alphabeta(start, 13)
        return f"value {value}, nodes {nodes}"
    if name == "mcts":
        answer = mcts(start, playouts=100_000, seed=1)
        return f"best move {answer['best_move']}, nodes {answer['nodes']}"
    if name == "playouts":
        return f"wins, draws, losses {random_playouts(start, 500_000, 1)}"
    if name == "endgame":
        return f"positions {endgame(6, 14).size}"
    if name == "solve":
        return solve()
    if name == "solve-db":
        return solve(endgame(6, 12))
    raise SystemExit(f"unknown workload {name!r}")


def count(name: str) -> tuple[int, str]:
    """Instructions executed inside the workload's C function, and its answer."""
    function = WORKLOADS[name][0]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        done = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--toggle-collect={function}",
                f"--callgrind-out-file={out}",
                sys.executable,
                __file__,
                "--workload",
                name,
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        with open(out) as data:
            totals = re.search(r"^(?:summary|totals): (\d+)", data.read(), re.MULTILINE)
    return int(totals.group(1)), done.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", help="comma-separated workloads (default: all)")
    parser.add_argument("--workload", help=argparse.SUPPRESS)  # the child process
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    if args.workload:
        print(run(args.workload))
        return
    names = args.only.split(",") if args.only else list(WORKLOADS)
    rows = []
    for name in names:
        instructions, answer = count(name)
        rows.append([name, WORKLOADS[name][1], f"{instructions:,}", answer])
        print(f"{name}: {instructions:,} ({answer})", file=sys.stderr)
    report(
        "Instructions of the compiled core on fixed work (callgrind)",
        markdown_table(["workload", "what", "instructions", "answer"], rows),
        None if args.no_write else "instructions.md",
    )


if __name__ == "__main__":
    main()
