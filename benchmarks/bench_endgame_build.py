"""Benchmark: one endgame database build, layer by layer, and the sizes of the large ones.

    python benchmarks/bench_endgame_build.py              # K=24, 6 pits, both cores, in a fresh process
    python benchmarks/bench_endgame_build.py -k 20 --threads 1

The build runs cold in a fresh interpreter into a scratch directory (the file
is written as by `kalah endgame build`) and reports the seconds of every layer
from its progress reports, the whole build's wall and CPU time and its peak
resident memory. The second table gives the packed sizes (computed from the
position counts; a build needs that much memory) for K = 28, 30, 32, with build
times *estimated* from this run: each missing layer at the rate (positions a
second) of the last three layers measured, which overstates the speed a
little (the rate falls slowly as layers outgrow the caches). A layer's time
runs from the end of the one before to the end of its own computing, so it
carries the packing and writing of the layer before. Results go to
benchmarks/results/endgame_build.md.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from common import markdown_table, report

BUILD = """
import json, resource, time
from kalah.endgame import build
marks = []
t = time.perf_counter()
d = build(({pits}, False), {k}, {directory!r}, threads={threads},
          progress=lambda done, total: marks.append((done, time.perf_counter() - t)))
seconds = time.perf_counter() - t
usage = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({{"marks": marks, "seconds": seconds, "cpu": usage.ru_utime + usage.ru_stime,
                  "peak_gib": usage.ru_maxrss / 2**20, "bytes": d.nbytes, "positions": d.positions}}))
"""


def layer_times(marks: list[tuple[int, float]], offsets: list[int]) -> list[float]:
    """Seconds per layer from the progress marks (positions done, seconds): the time when each layer's end was reached."""
    ends = []
    for layer in range(len(offsets) - 1):
        end = offsets[layer + 1]
        ends.append(next(t for done, t in marks if done >= end))
    return [b - a for a, b in zip([0.0] + ends, ends, strict=False)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-k", "--max-seeds", type=int, default=24)
    parser.add_argument("--pits", type=int, default=6)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    from kalah.endgame import table_bytes, table_positions

    scratch = Path(tempfile.mkdtemp(prefix="kalah-egdb-build-"))
    try:
        code = BUILD.format(pits=args.pits, k=args.max_seeds, directory=str(scratch), threads=args.threads)
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=dict(os.environ)
        )
        result = json.loads(out.stdout.strip().splitlines()[-1])
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    k = args.max_seeds
    offsets = [0] + [table_positions(args.pits, s) for s in range(k + 1)]
    seconds = layer_times([tuple(mark) for mark in result["marks"]], offsets)
    rows = []
    for layer in range(max(0, k - 6), k + 1):
        size = offsets[layer + 1] - offsets[layer]
        rate = size / seconds[layer] if seconds[layer] > 0 else float("nan")
        rows.append([layer, f"{size:,}", f"{seconds[layer]:.1f}", f"{rate / 1e6:.1f}"])
    last = range(max(0, k - 2), k + 1)  # the rate of the last three layers: one layer alone is too noisy here
    last_rate = (offsets[k + 1] - offsets[last[0]]) / sum(seconds[layer] for layer in last)
    estimates = []
    for target in (24, 26, 28, 30, 32):
        positions = table_positions(args.pits, target)
        if target <= k:
            time_text = f"{sum(seconds[: target + 1]):.0f} (measured)"
        else:
            missing = positions - table_positions(args.pits, k)
            time_text = f"about {result['seconds'] + missing / last_rate:.0f} (estimate)"
        estimates.append(
            [
                target,
                f"{positions:,}",
                f"{positions / 2**30:.2f} GiB",
                f"{table_bytes(args.pits, target) / 2**30:.2f} GiB",
                time_text,
            ]
        )
    body = (
        f"Build of {args.pits} pits, standard capture, K={k}, {args.threads} threads, cold in a fresh process:"
        f" {result['seconds']:.1f} s wall, {result['cpu']:.1f} s CPU, peak resident {result['peak_gib']:.2f} GiB,"
        f" {result['bytes']:,} bytes on disk for {result['positions']:,} positions.\n\n"
        "## The last layers\n\n"
        + markdown_table(["layer (seeds)", "positions", "seconds", "million positions / s"], rows)
        + "\n\n## Sizes (packed, format 2) and build times\n\n"
        + markdown_table(
            [
                "K",
                "positions",
                "one byte a value (format 1)",
                "packed (format 2), on disk and to build",
                "build seconds on this machine",
            ],
            estimates,
        )
        + "\n\nEstimates take every missing layer at the rate of the last three measured; wall times move with the load."
    )
    report(f"Endgame database build, K={k}", body, "endgame_build.md")


if __name__ == "__main__":
    main()
