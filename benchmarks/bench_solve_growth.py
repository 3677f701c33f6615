"""How the solver's work grows with the seeds: nodes and time against seeds for 6, 7 and 8 pits, and where it
leads (the next boards, standard Kalah(6,6) on the cluster).

    python benchmarks/bench_solve_growth.py                      # from docs/values.json
    python benchmarks/bench_solve_growth.py --table other.json   # from another table file

The measurements are the value steps of the table of values (``kalah solve --table``: each board's value and
best first moves on a fresh solver table, with the endgame database the entry names, and the machine's load
before and after). This script only reads them: it fits, per pit count and capture rule, a straight line to
log(nodes) against the seeds in each pit over the largest boards measured (nodes are the same on any
machine; seconds are not), extrapolates the next two boards, and plots both into
benchmarks/results/solve_growth.png, with the tables in benchmarks/results/solve_growth.md.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from common import RESULTS, command, machine
from kalah.solve.values_table import ValueTable, entry_status

ROOT = Path(__file__).resolve().parent.parent
FIT_POINTS = 3  # the largest boards of a series that the line is fitted to (small boards grow differently)
MIN_NODES = 10_000  # boards solved in fewer nodes are noise for a growth rate
#: Solver nodes a second a core with probes of a large database (docs/solve.md, Kalah(6,6) with K=30: 4.4
#: million), the rate the cluster estimate assumes for its workers.
CLUSTER_RATE_PER_CORE = 4.4e6


def series(table: ValueTable) -> dict[tuple[int, bool], list[tuple[int, int, float, str]]]:
    """Per (pits, empty capture): (seeds, nodes, seconds, endgame) of each proven value."""
    found: dict[tuple[int, bool], list[tuple[int, int, float, str]]] = {}
    for board in table.boards():
        entry = table.entry(board)
        assert entry is not None
        if entry_status(entry) not in ("confirmed", "proven"):
            continue
        value = entry["value"]
        endgame = value.get("endgame")
        database = "none" if not endgame else f"K={endgame['max_seeds']}" + (" file" if endgame["file"] else "")
        found.setdefault((board.pits, board.empty_capture), []).append(
            (board.seeds, value["nodes"], value["seconds"], database)
        )
    return found


def fit(points: list[tuple[int, float]]) -> tuple[float, float] | None:
    """Least squares of log(y) = a + b * x over the points: (a, b), or None with fewer than two."""
    if len(points) < 2:
        return None
    xs = [x for x, _ in points]
    ys = [math.log(y) for _, y in points]
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    spread = sum((x - mean_x) ** 2 for x in xs)
    if spread == 0:
        return None
    slope = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / spread
    return mean_y - slope * mean_x, slope


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", default=str(ROOT / "docs" / "values.json"), help="the table of values to read")
    parser.add_argument("--pits", default="6,7,8", help="the pit counts to show")
    args = parser.parse_args()
    pits_shown = [int(p) for p in args.pits.split(",")]
    table = ValueTable.load(args.table)
    found = series(table)

    lines = [
        "# How the solver's work grows with the seeds",
        "",
        f"- machine of this analysis: {machine()}",
        f"- command: `{command()}`",
        f"- measurements: the value steps of `{Path(args.table).name}` (each with its own machine, load and date"
        " there; the table's runs shared a 2-core machine with other work, so the seconds are upper bounds)",
        "",
        "| pits | rule | seeds | nodes | seconds | nodes a second | endgame database |",
        "|---|---|---|---|---|---|---|",
    ]
    extrapolated: dict[tuple[int, bool], list[tuple[int, float, float]]] = {}
    for (pits, empty_capture), rows in sorted(found.items()):
        if pits not in pits_shown:
            continue
        rule = "empty capture" if empty_capture else "standard"
        for seeds, nodes, seconds, database in rows:
            rate = f"{nodes / seconds:,.0f}" if seconds > 0 else ""
            lines.append(f"| {pits} | {rule} | {seeds} | {nodes:,} | {seconds:,.1f} | {rate} | {database} |")
        usable = [(s, n, t) for s, n, t, _ in rows if n >= MIN_NODES][-FIT_POINTS:]
        nodes_line = fit([(s, n) for s, n, _ in usable])
        if nodes_line is None:
            continue
        rate = sum(n for _, n, _ in usable) / max(sum(t for _, _, t in usable), 1e-9)
        last = max(s for s, _, _ in usable)
        extrapolated[(pits, empty_capture)] = [
            (s, math.exp(nodes_line[0] + nodes_line[1] * s), math.exp(nodes_line[0] + nodes_line[1] * s) / rate)
            for s in (last + 1, last + 2)
        ]
    lines += [
        "",
        "## The next boards, extrapolated",
        "",
        f"A line through log(nodes) of the {FIT_POINTS} largest boards of each series (at least"
        f" {MIN_NODES:,} nodes), seconds at the series' own measured rate on this shared machine. A growth"
        " factor per seed a pit; not a measurement.",
        "",
        "| pits | rule | growth a seed | seeds | nodes (extrapolated) | seconds here (extrapolated) |",
        "|---|---|---|---|---|---|",
    ]
    for (pits, empty_capture), guesses in sorted(extrapolated.items()):
        rule = "empty capture" if empty_capture else "standard"
        rows = found[(pits, empty_capture)]
        usable = [(s, n) for s, n, _, _ in rows if n >= MIN_NODES][-FIT_POINTS:]
        line = fit(usable)
        assert line is not None
        for seeds, nodes, seconds in guesses:
            lines.append(f"| {pits} | {rule} | {math.exp(line[1]):.0f}x | {seeds} | {nodes:.2g} | {seconds:,.3g} |")
    six = extrapolated.get((6, False))
    if six:
        nodes = next((n for s, n, _ in six if s == 6), None)
        if nodes is not None:
            core_days = nodes / CLUSTER_RATE_PER_CORE / 86400
            lines += [
                "",
                "## Standard Kalah(6,6) on the cluster",
                "",
                f"The line of standard 6-pit boards puts Kalah(6,6)'s value at about {nodes:.2g} nodes. At"
                f" {CLUSTER_RATE_PER_CORE / 1e6:.1f} million nodes a second a core (docs/solve.md, with the K=30"
                f" database), that is {core_days:,.3g} core-days: {core_days / 16:,.3g} days of one machine of"
                f" 16 cores, or {core_days / 16 / 32:,.3g} days of 32 such machines, if `kalah solve --cluster`"
                " kept every core busy on useful work (on 2 cores it did not: docs/solve.md). An extrapolation"
                " of a few points, to read as an order of magnitude.",
            ]
    out = RESULTS / "solve_growth.md"
    out.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    plot(found, extrapolated, pits_shown, RESULTS / "solve_growth.png")


def plot(found, extrapolated, pits_shown: list[int], path: Path) -> None:
    """Nodes and seconds against seeds, one line per series, the extrapolation dashed."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    figure, (nodes_axis, time_axis) = plt.subplots(1, 2, figsize=(11, 4.5))
    for (pits, empty_capture), rows in sorted(found.items()):
        if pits not in pits_shown:
            continue
        label = f"{pits} pits" + (", empty capture" if empty_capture else "")
        style = "--" if empty_capture else "-"
        seeds = [s for s, n, _, _ in rows if n > 0]
        line = nodes_axis.plot(seeds, [n for _, n, _, _ in rows if n > 0], style, marker="o", label=label)[0]
        time_axis.plot(seeds, [t for _, n, t, _ in rows if n > 0], style, marker="o", color=line.get_color())
        guesses = extrapolated.get((pits, empty_capture))
        if guesses:
            last = rows[-1]
            xs = [last[0]] + [s for s, _, _ in guesses]
            nodes_axis.plot(xs, [last[1]] + [n for _, n, _ in guesses], ":", color=line.get_color())
            time_axis.plot(xs, [last[2]] + [t for _, _, t in guesses], ":", color=line.get_color())
    for axis, what in ((nodes_axis, "nodes"), (time_axis, "seconds (this shared 2-core machine)")):
        axis.set_yscale("log")
        axis.xaxis.set_major_locator(MaxNLocator(integer=True))
        axis.set_xlabel("seeds in each pit at the start")
        axis.set_ylabel(what)
        axis.grid(True, which="both", alpha=0.3)
    nodes_axis.set_title("Solver nodes for a start's value and best moves")
    time_axis.set_title("Wall-clock time (dotted: extrapolated)")
    nodes_axis.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=110)


if __name__ == "__main__":
    main()
