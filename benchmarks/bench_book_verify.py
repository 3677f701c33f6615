"""Re-prove a random sample of a shipped opening book's entries by fresh solves (too slow for the tests).

    python benchmarks/bench_book_verify.py [--seeds 5] [--sample 5] [--seed 0] [--threads 2]

For Kalah(6,S) (default Kalah(6,5), whose positions take minutes each with the
K=28 endgame database, built first into the data directory if it is not
there: 3.25 GiB, about 4 minutes), ``--sample`` entries drawn with ``--seed``
are solved again from scratch in this process (the solver's table cleared
before each): the value and the set of best moves must be the book's, and the
book's move one of them. Writes ``results/book_verify_6_S.md``; exit code 1 if an
entry disagrees.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from common import markdown_table, report
from kalah import Position, Variant, solve
from kalah.book import shipped
from kalah.solve import clear_cache, prepare_endgame


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--sample", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    variant = Variant(6, args.seeds)
    book = shipped(variant)
    if book is None:
        sys.exit(f"bench_book_verify: no book of {variant.name} ships with this kalah")
    database = prepare_endgame(variant, threads=args.threads)
    keys = sorted(book.entries)
    chosen = random.Random(args.seed).sample(keys, min(args.sample, len(keys)))
    rows, wrong = [], 0
    for key in chosen:
        cells, _, mover = key.partition("/")
        position = Position.from_cells([int(cell) for cell in cells.split(".")], int(mover), variant)
        entry = book.entries[key]
        clear_cache()
        began = time.perf_counter()
        fresh = solve(position, threads=args.threads, pv=False)
        seconds = time.perf_counter() - began
        agrees = fresh.value == entry.value and fresh.best_moves == list(entry.best_moves)
        agrees = agrees and entry.move in fresh.best_moves
        wrong += not agrees
        rows.append(
            [f"`{key}`", entry.value, fresh.value, list(entry.best_moves), fresh.best_moves, f"{seconds:.0f}", agrees]
        )
        print(f"{len(rows)}/{len(chosen)}: {'ok' if agrees else 'DISAGREES'} in {seconds:.0f} s", file=sys.stderr)
    k = database.max_seeds if database is not None else "none"
    body = (
        f"{variant.name} book: {len(book)} entries, {book.moves} moves per seat"
        + (f" within {book.plies} plies" if book.plies is not None else "")
        + f"; {len(chosen)} drawn with seed {args.seed}, each solved afresh ({args.threads} solver threads, "
        f"endgame database K={k}, table cleared before each).\n\n"
        + markdown_table(
            ["position", "book value", "solved value", "book best moves", "solved best moves", "seconds", "agrees"],
            rows,
        )
        + f"\n\n{len(rows) - wrong} of {len(rows)} agree."
    )
    report("Opening book re-proven", body, f"book_verify_6_{args.seeds}.md")
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
