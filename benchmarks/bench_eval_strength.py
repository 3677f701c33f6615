"""Is the `strong` evaluation better than `store`? A match at equal depth.

    python benchmarks/bench_eval_strength.py [--depth 6] [--openings 100] [--algorithm pvs]
                                             [--challenger strong] [--baseline store]

Openings: the positions after 2 to 4 random moves from the start of Kalah(6,4)
whose value (pvs, depth 10, evaluation store) is within 2 seeds of even, so
that neither side starts from a clear advantage. Every opening is played
twice, each evaluation taking each side once, so 2 x openings games. The
result goes to results/eval_strength.md.
"""

from __future__ import annotations

import argparse
import math
import random
import time

from common import figure, markdown_table, report
from kalah import Position, Variant, search


def balanced_openings(variant: Variant, count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    found, seen = [], set()
    while len(found) < count:
        position = Position.start(variant)
        for _ in range(rng.randrange(2, 5)):
            position = position.play(rng.choice(position.legal_moves()))
            if position.is_over:
                break
        if position.is_over or position in seen:
            continue
        seen.add(position)
        if abs(search(position, "pvs", depth=10, evaluation="store", move_values=False).value) <= 2:
            found.append(position)
    return found


def play(position: Position, evaluations: tuple[str, str], algorithm: str, depth: int) -> int:
    """Play to the end; evaluations[p] is player p's. Returns player 0's margin."""
    while not position.is_over:
        result = search(position, algorithm, depth=depth, evaluation=evaluations[position.to_move], move_values=False)
        position = position.play(result.best_move)
    return position.margin


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--openings", type=int, default=100)
    parser.add_argument("--algorithm", default="pvs")
    parser.add_argument("--challenger", default="strong")
    parser.add_argument("--baseline", default="store")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--no-write", action="store_true", help="print only, do not write results/")
    args = parser.parse_args()

    variant = Variant(6, 4)
    started = time.perf_counter()
    openings = balanced_openings(variant, args.openings, args.seed)
    wins = draws = losses = 0
    margin_sum = 0
    by_colour = {0: [0, 0, 0], 1: [0, 0, 0]}
    for opening in openings:
        for colour in (0, 1):
            evaluations = (args.challenger, args.baseline) if colour == 0 else (args.baseline, args.challenger)
            margin = play(opening, evaluations, args.algorithm, args.depth)
            mine = margin if colour == 0 else -margin
            margin_sum += mine
            slot = 0 if mine > 0 else 1 if mine == 0 else 2
            by_colour[colour][slot] += 1
            wins += slot == 0
            draws += slot == 1
            losses += slot == 2
    games = wins + draws + losses
    score = (wins + draws / 2) / games
    # 95% interval of the score (normal approximation over games)
    spread = 1.96 * math.sqrt(max(score * (1 - score), 1e-9) / games)
    elo = -400 * math.log10(1 / min(max(score, 1e-6), 1 - 1e-6) - 1)
    rows = [[f"{args.challenger} as player {c}", by_colour[c][0], by_colour[c][1], by_colour[c][2]] for c in (0, 1)] + [
        ["total", wins, draws, losses]
    ]
    body = (
        f"{args.challenger} against {args.baseline}: {args.algorithm} at depth {args.depth} for both, "
        f"{len(openings)} balanced openings of {variant.name}, each played with both colours ({games} games).\n\n"
        + markdown_table([f"{args.challenger}", "wins", "draws", "losses"], rows)
        + f"\n\nScore of {args.challenger}: {score:.1%} (95% interval {score - spread:.1%} to {score + spread:.1%}), "
        f"about {elo:+.0f} Elo; mean margin {margin_sum / games:+.2f} seeds per game. "
        f"Run time {time.perf_counter() - started:.0f} s."
    )
    name = f"eval_strength_{args.challenger}_{args.baseline}_d{args.depth}.md"
    report(f"Evaluation strength: {args.challenger} against {args.baseline}", body, None if args.no_write else name)
    if not args.no_write:
        figure(
            "eval-strength",
            f"`{args.challenger}` against `{args.baseline}`, {args.algorithm} depth {args.depth}, {games} games",
            f"{score:.0%} for `{args.challenger}`",
            name,
        )


if __name__ == "__main__":
    main()
