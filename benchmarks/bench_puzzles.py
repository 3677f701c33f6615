"""Re-prove every shipped puzzle (``kalah.puzzles.prove``: the value, the one best move, the margin).

Exits 1 if any proof fails. Writes ``results/puzzles.md`` (the time per
variant) and the figure of the README's table.

    python benchmarks/bench_puzzles.py
"""

from __future__ import annotations

import sys
import time
from collections import defaultdict

from common import figure, markdown_table, report


def main() -> int:
    from kalah.puzzles import PuzzleError, prove, shipped

    seconds: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    failures = []
    started = time.perf_counter()
    for puzzle in shipped():
        name = puzzle.position.variant.name
        began = time.perf_counter()
        try:
            prove(puzzle)
        except PuzzleError as error:
            failures.append(str(error))
        seconds[name] += time.perf_counter() - began
        counts[name] += 1
    total = time.perf_counter() - started
    rows = [
        [name, counts[name], f"{seconds[name]:.1f}", f"{1000 * seconds[name] / counts[name]:.1f}"]
        for name in sorted(counts)
    ]
    body = (
        markdown_table(["variant", "puzzles", "seconds", "ms a puzzle"], rows)
        + f"\n\n{sum(counts.values())} puzzles re-proven in {total:.1f} s, one thread; {len(failures)} failed.\n"
        + "".join(f"\n- {line}" for line in failures)
    )
    report("Every shipped puzzle proven again", body, "puzzles.md")
    figure(
        "puzzles",
        "`kalah.puzzles.prove` of every shipped puzzle, one thread",
        f"{sum(counts.values())} puzzles in {total:.0f} s, {len(failures)} failed",
        "puzzles.md",
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
