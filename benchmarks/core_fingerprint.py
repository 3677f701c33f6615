"""What the compiled core answers on fixed work, to show that a change of the C code changed no result.

    python benchmarks/core_fingerprint.py [--out FILE]          # this checkout's build
    PYTHONPATH=OTHER/src python benchmarks/core_fingerprint.py  # another build, to compare
    python benchmarks/core_fingerprint.py --update-signature    # a reviewed change of an answer

Runs the search engine (every algorithm, evaluation, table and ordering
setting, at fixed depths, on the starts of four variants and on positions
drawn with fixed seeds), MCTS and random playouts with fixed seeds, the plain
reference alpha-beta, the exact solver (one thread, so that node counts are
deterministic) and an endgame-database build, and prints one line per answer:
values, best moves, node counts and every statistic (times excluded). Two
builds that print the same lines (compare the last line, a digest, or diff
the files) searched the same trees.

The digest is the core's behaviour signature: tests/data/core_signature.json
holds it and tests/test_core_signature.py fails when this build's differs. A
change that means to change an answer (a node count, a value, a move) updates
the file with --update-signature, in the same commit, and says why.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from pathlib import Path

from kalah import Position, Variant
from kalah.core import random_playouts
from kalah.core.search import ALGORITHMS, EVALUATIONS, Engine, mcts, reference_alphabeta
from kalah.core.solver import EndgameTable, Solver, table_size

VARIANTS = [Variant(6, 4), Variant(4, 3, empty_capture=True), Variant(6, 6), Variant(5, 4, pie_rule=True)]


def positions(variant: Variant, count: int, seed: int) -> list[Position]:
    """The start, the position after the first move, and `count` positions of random games."""
    rng = random.Random(seed)
    start = Position.start(variant)
    found = [start, start.play(start.legal_moves()[0])]
    while len(found) < count + 2:
        position = start
        for _ in range(rng.randrange(1, 40)):
            if position.is_over:
                break
            position = position.play(rng.choice(position.legal_moves()))
        if not position.is_over:
            found.append(position)
    return found


def search_answers(emit) -> None:
    engine = Engine(18)
    for index, variant in enumerate(VARIANTS):
        for number, position in enumerate(positions(variant, 6, 1000 + index)):
            where = f"{variant.name} #{number}"
            for algorithm, code in ALGORITHMS.items():
                depths = [1, 3, 5] if algorithm == "minimax" else [2, 5, 8]
                for evaluation, kind in EVALUATIONS.items():
                    for depth in depths:
                        for options in ({}, {"all_values": True}, {"memo": False}, {"ordering": False}):
                            answer = engine.search(position, code, kind, depth, depth, **options)
                            answer.pop("seconds")
                            emit("search", where, algorithm, evaluation, depth, options, answer)
                    iterative = engine.search(position, code, kind, 1, depths[-1] + 1)
                    iterative.pop("seconds")
                    emit("iterative", where, algorithm, evaluation, iterative)
            value, nodes, _ = reference_alphabeta(position, 9)
            emit("reference", where, value, nodes)
            answer = mcts(position, playouts=3000, seed=7)
            answer.pop("seconds")
            emit("mcts", where, answer)
            emit("playouts", where, random_playouts(position, 20000, 11))
    # deeper, and with an endgame database as the oracle at the leaves
    table, _ = built_table(6, False, 10, 2)
    for number, position in enumerate(positions(Variant(6, 4), 4, 99)):
        for oracle in (None, table.oracle_capsule()):
            engine.set_oracle(oracle)
            for algorithm in ("alphabeta", "scout", "pvs", "mtdf"):
                answer = engine.search(position, ALGORITHMS[algorithm], EVALUATIONS["strong"], 1, 11)
                answer.pop("seconds")
                emit("deep", number, oracle is not None, algorithm, answer)
    engine.set_oracle(None)
    # pvs to depth 13 or more deepens in steps (KS_PREPARE_STEP in csrc/search.h): best move only and every root value
    for number, position in enumerate(positions(Variant(6, 4), 2, 5)):
        for all_values in (False, True):
            answer = engine.search(position, ALGORITHMS["pvs"], EVALUATIONS["strong"], 1, 14, all_values=all_values)
            answer.pop("seconds")
            emit("prepared", number, all_values, answer)


def built_table(pits: int, empty_capture: bool, max_seeds: int, threads: int) -> tuple[EndgameTable, bytearray]:
    """An endgame table built in memory, layer by layer, and the buffer that holds it."""
    buffer = bytearray(table_size(pits, max_seeds))
    table = EndgameTable(pits, empty_capture, max_seeds, buffer)
    for layer in range(max_seeds + 1):
        table.begin_layer(layer)
        table.build_range(layer, 0, table.layer_size(layer), threads)
        table.end_layer()
    return table, buffer


def solver_answers(emit) -> None:
    for pits, empty_capture, seeds in [(4, False, 3), (4, True, 3), (5, False, 3), (6, False, 2)]:
        variant = Variant(pits, seeds, empty_capture=empty_capture)
        for number, position in enumerate(positions(variant, 4, 77 + pits)):
            me, other = position.to_move, 1 - position.to_move
            rows = position.cells
            m = pits
            pits_view = list(rows[me * (m + 1) : me * (m + 1) + m]) + list(rows[other * (m + 1) : other * (m + 1) + m])
            if sum(pits_view) == 0:
                continue
            for with_table in (False, True):
                solver = Solver(pits, empty_capture, 18)
                if with_table:
                    table, _ = built_table(pits, empty_capture, 6, 1)
                    solver.set_endgame(table)
                total = sum(pits_view)
                for alpha, beta in [(-total - 1, total + 1), (-1, 0), (0, 1), (2, 3), (-3, -2)]:
                    answer = solver.search(pits_view, alpha, beta, 1)
                    emit("solve", variant.name, number, with_table, alpha, beta, answer)
                emit("lookup", variant.name, number, with_table, solver.lookup(pits_view))


def endgame_answers(emit) -> None:
    for pits, empty_capture, max_seeds in [(6, False, 9), (4, True, 12), (5, False, 8)]:
        _, buffer = built_table(pits, empty_capture, max_seeds, 2)
        emit("endgame", pits, empty_capture, max_seeds, hashlib.sha256(buffer).hexdigest())


#: The signature kept in the repository: the test suite (tests/test_core_signature.py) compares it with this build's.
SIGNATURE = Path(__file__).resolve().parents[1] / "tests" / "data" / "core_signature.json"


def answers() -> list[str]:
    """Every answer of the core on the fixed work, one JSON line each."""
    lines: list[str] = []

    def emit(*parts) -> None:
        lines.append(json.dumps(parts, sort_keys=True, default=str))

    search_answers(emit)
    solver_answers(emit)
    endgame_answers(emit)
    return lines


def signature(lines: list[str]) -> dict[str, object]:
    """The number of answers and the digest of them all: what tests/data/core_signature.json holds."""
    return {"answers": len(lines), "digest": hashlib.sha256("\n".join(lines).encode()).hexdigest()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", help="write the lines to this file as well")
    parser.add_argument(
        "--update-signature",
        action="store_true",
        help="write the signature to tests/data/core_signature.json (a reviewed change of an answer)",
    )
    args = parser.parse_args()
    lines = answers()
    found = signature(lines)
    if args.out:
        with open(args.out, "w") as out:
            out.write("\n".join(lines) + "\n")
    if args.update_signature:
        from kalah.atomic import write_atomic

        SIGNATURE.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(SIGNATURE, json.dumps(found, indent=2) + "\n", mode=0o644)
    print(f"{found['answers']} answers, digest {found['digest']}")


if __name__ == "__main__":
    main()
