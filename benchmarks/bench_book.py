"""The perfect player's answer time along its opening book's lines, cold, in a fresh process.

For each variant with a shipped book and each seat, a fresh Python process
imports kalah, makes ``perfect`` (or ``perfect:book=off``) and plays the
perfect player's first moves of a game against a random opponent (fixed
seed): the time of each decision is measured around ``choose_move`` (the
first one includes loading the book). Without the book only the first
decision of each seat is timed (each is a full solve). Writes
``results/book.md``.

    python benchmarks/bench_book.py [--no-baseline] [--variants 6,3 6,3,ec 6,3,pie 6,3,ec,pie 6,4 6,4,ec]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

from common import markdown_table, report

CHILD = r"""
import json, random, sys, time
started = time.perf_counter()
import kalah
from kalah.players.spec import make_player
imported = time.perf_counter() - started
pits, seeds, ec, pie, seat, spec, decisions = json.loads(sys.argv[1])
variant = kalah.Variant(pits, seeds, empty_capture=ec, pie_rule=pie)
player = make_player(spec)
made = time.perf_counter() - started
rng = random.Random(2026 + seat)
position = kalah.Position.start(variant)
times, book = [], []
while len(times) < decisions and not position.is_over:
    if position.to_move == seat:
        forced = len(position.legal_moves()) == 1
        t = time.perf_counter()
        move = player.choose_move(position)
        if not forced:
            times.append(time.perf_counter() - t)
            book.append(bool(player.last_info.get("book")))
    else:
        move = rng.choice(position.legal_moves())
    position = position.play(move)
print(json.dumps({"import": imported, "made": made, "times": times, "book": book}))
"""


def run(pits: int, seeds: int, ec: bool, pie: bool, seat: int, spec: str, decisions: int) -> dict:
    argument = json.dumps([pits, seeds, ec, pie, seat, spec, decisions])
    out = subprocess.run([sys.executable, "-c", CHILD, argument], check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", nargs="*", default=["6,3", "6,3,ec", "6,3,pie", "6,3,ec,pie", "6,4", "6,4,ec"])
    parser.add_argument("--no-baseline", action="store_true", help="Skip the solves without the book.")
    args = parser.parse_args()
    from kalah import Variant
    from kalah.book import shipped

    rows = []
    for text in args.variants:
        parts = text.split(",")
        pits, seeds, ec, pie = int(parts[0]), int(parts[1]), "ec" in parts[2:], "pie" in parts[2:]
        book = shipped(Variant(pits, seeds, empty_capture=ec, pie_rule=pie))
        if book is None:
            print(f"no shipped book for {text}", file=sys.stderr)
            continue
        name = book.variant.name
        for seat in (0, 1):
            with_book = run(pits, seeds, ec, pie, seat, "perfect", book.moves)
            times = with_book["times"]
            row = [
                name,
                seat,
                book.moves,
                sum(with_book["book"]),
                f"{with_book['made']:.3f}",
                f"{times[0] * 1000:.1f}",
                f"{max(times[1:], default=0) * 1000:.2f}",
            ]
            if args.no_baseline:
                row.append("-")
            else:
                without = run(pits, seeds, ec, pie, seat, "perfect:book=off,time=600,threads=1", 1)
                row.append(f"{without['times'][0]:.2f}")
            rows.append(row)
            print(row, file=sys.stderr, flush=True)
    headers = [
        "variant",
        "seat",
        "book moves",
        "answered from the book",
        "import kalah, make the player (s)",
        "first decision, book loaded (ms)",
        "slowest later decision (ms)",
        "first decision without the book, one thread (s)",
    ]
    body = (
        markdown_table(headers, rows) + "\n\n"
        "Each row is one fresh process: the perfect player plays its seat's first decisions along its book "
        "against a random opponent (seed 2026 + seat); the times are of `choose_move` alone (the first "
        "includes reading the book). The last column is the same first decision solved from scratch "
        "(`perfect:book=off,threads=1`) in another fresh process, endgame database built in memory included."
    )
    report("Opening book: the perfect player's answer time along its lines", body, "book.md")


if __name__ == "__main__":
    started = time.perf_counter()
    main()
    print(f"{time.perf_counter() - started:.0f} s", file=sys.stderr)
