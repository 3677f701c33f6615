"""A 40-move Kalah(6,4) game reviewed (``kalah.review``), cold, in a fresh process each.

Games of a random player against ``pvs:depth=4`` (fixed seeds; the first five
that last at least 40 moves, cut to 40) are each reviewed in a fresh Python
process with the default time a position (``kalah.review.DEFAULT_TIME``) and
every usable core, as ``kalah review GAME.json`` does. The time includes
loading the book and what the solver computes in memory. Writes
``results/review.md``.

    python benchmarks/bench_review.py [--games 5] [--time SECONDS]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

from common import figure, markdown_table, report

CHILD = r"""
import json, sys, time
started = time.perf_counter()
from kalah.records import GameRecord
from kalah.review import review
record = GameRecord.from_json(sys.argv[1])
seconds = float(sys.argv[2])
begun = time.perf_counter()
result = review(record, seconds)
done = time.perf_counter()
print(json.dumps({"import": begun - started, "review": done - begun, "exact": sum(m.exact for m in result.moves),
                  "moves": len(result.moves)}))
"""


def games(count: int, length: int = 40) -> list[str]:
    from kalah import Position, Variant
    from kalah.match import play_game
    from kalah.players import make_player
    from kalah.records import RecordBuilder

    found: list[str] = []
    seed = 0
    while len(found) < count:
        seed += 1
        builder = RecordBuilder()
        play_game(
            [make_player(f"random:seed={seed}"), make_player("pvs:depth=4")], Position.start(Variant(6, 4)), [builder]
        )
        record = builder.record
        assert record is not None
        if len(record.moves) >= length:
            record.moves = record.moves[:length]
            record.finished = False
            found.append(record.to_json())
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--time", type=float, default=None, help="seconds a position (default: the library's)")
    args = parser.parse_args()
    from kalah.review import DEFAULT_TIME

    seconds = args.time or DEFAULT_TIME
    rows, times = [], []
    for number, text in enumerate(games(args.games), 1):
        out = subprocess.run(
            [sys.executable, "-c", CHILD, text, str(seconds)], check=True, capture_output=True, text=True
        )
        data = json.loads(out.stdout.strip().splitlines()[-1])
        times.append(data["review"])
        rows.append([number, data["moves"], data["exact"], f"{data['import']:.2f}", f"{data['review']:.1f}"])
    body = (
        f"Each game: 40 moves of Kalah(6,4), {seconds:g} s a position at most, every core.\n\n"
        + markdown_table(["game", "moves", "judged exactly", "import s", "review s"], rows)
        + f"\n\nSlowest review: {max(times):.1f} s; mean {sum(times) / len(times):.1f} s."
    )
    report("Review of a 40-move Kalah(6,4) game", body, "review.md")
    figure(
        "review-40",
        "`kalah review` of a 40-move Kalah(6,4) game, cold (5 games)",
        f"mean {sum(times) / len(times):.1f} s, slowest {max(times):.1f} s",
        "review.md",
    )


if __name__ == "__main__":
    main()
