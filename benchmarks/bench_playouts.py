"""Random playouts per second, Kalah(6,4): the compiled core against the reference.

    python benchmarks/bench_playouts.py [--games N] [--reference-games N]

The compiled figure is for one core (the playout loop runs in one thread).
"""

from __future__ import annotations

import argparse
import random
import time

from common import figure, markdown_table, report
from kalah import Position, Variant
from kalah.core import random_playouts


def reference_playouts(start: Position, games: int, seed: int) -> int:
    rng = random.Random(seed)
    moves = 0
    for _ in range(games):
        position = start
        while not position.is_over:
            position = position.play(rng.choice(position.legal_moves()))
            moves += 1
    return moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2_000_000)
    parser.add_argument("--reference-games", type=int, default=2_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    rows = []
    for variant in [Variant(6, 4), Variant(6, 6), Variant(7, 7, pie_rule=True)]:
        start = Position.start(variant)
        best = min(
            _timed(lambda start=start, seed=seed: random_playouts(start, args.games, seed))
            for seed in range(args.repeats)
        )
        began = time.perf_counter()
        reference_playouts(start, args.reference_games, 1)
        reference = time.perf_counter() - began
        compiled_rate = args.games / best
        reference_rate = args.reference_games / reference
        if variant == Variant(6, 4):
            figure(
                "playouts",
                "random playouts, Kalah(6,4), one core",
                f"{compiled_rate:,.0f} games/s (reference: {reference_rate:,.0f})",
                "playouts.md",
            )
        rows.append(
            [variant.name, f"{compiled_rate:,.0f}", f"{reference_rate:,.0f}", f"{compiled_rate / reference_rate:,.0f}x"]
        )
    body = markdown_table(["variant", "compiled core (games/s, 1 core)", "reference (games/s)", "speed-up"], rows)
    body += "\n\nTarget: at least 500,000 games per second for Kalah(6,4) on one core."
    report("Random playouts", body, "playouts.md")


def _timed(function) -> float:
    began = time.perf_counter()
    function()
    return time.perf_counter() - began


if __name__ == "__main__":
    main()
