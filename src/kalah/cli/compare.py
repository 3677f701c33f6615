"""``kalah compare``: the seeds' AI comparison. Nodes and time of each algorithm against depth."""

from __future__ import annotations

import csv
import io
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from kalah.atomic import write_atomic
from kalah.core.builds import Engine
from kalah.rules.wording import plural
from kalah.search import EVALUATIONS, EXACT_ALGORITHMS, SearchError, check_algorithm, check_evaluation
from kalah.search.compare import run_comparison, varied_positions

from .exit import fail, interrupted, wait_for
from .options import EMPTY_CAPTURE, PIE_RULE, PITS, SEEDS, check_output_path, make_variant

MAX_COMPARE_DEPTH = 30
#: Enough for a smooth mean; choosing them alone takes about a second, and a hundred million took hours
#: before the progress bar could show anything.
MAX_COMPARE_POSITIONS = 10_000


def parse_depths(text: str) -> list[int]:
    """``1-8``, ``2,4,6`` or a mix, e.g. ``1-4,6``."""
    depths: set[int] = set()
    for part in filter(None, (p.strip() for p in text.split(","))):
        low, dash, high = part.partition("-")
        try:
            numbers = range(int(low), int(high) + 1) if dash else [int(low)]
        except ValueError:
            raise SearchError(f"bad depths {text!r}: give a range such as 1-8 or a list such as 2,4,6") from None
        depths.update(numbers)
    if not depths:
        raise SearchError(f"bad depths {text!r}: give a range such as 1-8 or a list such as 2,4,6")
    if min(depths) < 1:
        raise SearchError(f"depths must be at least 1, got {min(depths)}")
    if max(depths) > MAX_COMPARE_DEPTH:
        raise SearchError(f"depths must be at most {MAX_COMPARE_DEPTH}, got {max(depths)}")
    return sorted(depths)


def _run_stoppable(compare: Callable[[Engine, threading.Event], tuple[dict, list]]) -> tuple[dict, list]:
    """``compare(engine, cancelled)`` (``run_comparison``) in a worker thread, so that Ctrl-C stops even
    a search of hours at once: the main thread waits in short joins, where the interrupt arrives, and
    then stops the engine."""
    engine = Engine()
    cancelled = threading.Event()
    outcome: list[Any] = []

    def work() -> None:
        try:
            outcome.append(compare(engine, cancelled))
        except BaseException as error:  # raised again in the main thread
            outcome.append(error)

    def stop() -> None:
        cancelled.set()
        engine.stop()

    wait_for(work, stop)
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    return outcome[0]


def check_plot_format(path: Path | None) -> None:
    """Refuse, before any computing, a plot file whose suffix names no image format matplotlib writes
    (no suffix: PNG)."""
    if path is None or not path.suffix:
        return
    from matplotlib.backend_bases import FigureCanvasBase

    formats = FigureCanvasBase.get_supported_filetypes()
    if path.suffix[1:].lower() not in formats:
        fail(
            f"--plot {path}: {path.suffix!r} is not an image format; give one of {', '.join('.' + f for f in sorted(formats))}"
        )


def seconds_table_unit(values) -> tuple[str, float, int]:
    """The time table's unit (s, ms or µs: the longest time in it has a whole part), its scale, and as many
    decimals as the smallest time needs for three significant digits (at most 4)."""
    import math

    positive = [v for v in values if v > 0]
    longest = max(positive, default=0.0)
    unit, scale = ("s", 1.0) if longest >= 1 else ("ms", 1e3) if longest >= 0.01 else ("µs", 1e6)
    if not positive:
        return unit, scale, 1
    smallest = min(positive) * scale
    return unit, scale, max(0, min(4, 2 - math.floor(math.log10(smallest))))


def plot_figure(algorithms, depths, totals, title: str):
    """The figure of nodes and time against depth for each algorithm (integer depths on the x axes)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5))
    for algorithm in algorithms:
        left.plot(depths, [max(totals[(algorithm, d)]["nodes"], 1) for d in depths], marker="o", label=algorithm)
        right.plot(depths, [max(totals[(algorithm, d)]["seconds"], 1e-6) for d in depths], marker="o", label=algorithm)
    for axis, label in ((left, "nodes visited"), (right, "seconds")):
        axis.set_yscale("log")
        axis.set_xlabel("depth (moves)")
        axis.set_ylabel(label)
        axis.grid(True, which="both", alpha=0.3)
        axis.legend()
        axis.xaxis.set_major_locator(MaxNLocator(integer=True))  # a depth is a whole number of moves
    figure.suptitle(title)
    figure.tight_layout()
    return figure


def write_plot(path: Path, algorithms, depths, totals, title: str) -> None:
    """Draw nodes and time against depth for each algorithm into an image file."""
    import matplotlib.pyplot as plt

    figure = plot_figure(algorithms, depths, totals, title)
    image = io.BytesIO()
    try:  # drawn in memory and written whole: a failed or interrupted draw leaves the old file as it was
        figure.savefig(image, dpi=110, format=path.suffix.lstrip(".").lower() or None)
    finally:
        plt.close(figure)
    write_atomic(path, image.getvalue())


def register(app: typer.Typer) -> None:
    """Add ``kalah compare`` to the command line."""

    @app.command()
    def compare(
        algorithms: str = typer.Option(
            ",".join(EXACT_ALGORITHMS), "--algorithms", metavar="NAMES", help="Comma-separated algorithms."
        ),
        depths: str = typer.Option(
            "1-8", "--depths", metavar="DEPTHS", help="Depths: a range such as 1-8 or a list such as 2,4,6."
        ),
        positions: int = typer.Option(
            10, "--positions", metavar="N", help=f"Varied positions besides the start (0-{MAX_COMPARE_POSITIONS:,})."
        ),
        evaluation: str = typer.Option(
            "strong", "--evaluation", "-e", metavar="NAME", help=f"Evaluation: {', '.join(EVALUATIONS)}."
        ),
        seed: int = typer.Option(1, "--seed", metavar="N", help="Seed of the varied positions."),
        repeats: int = typer.Option(
            3,
            "--repeats",
            min=1,
            max=50,
            metavar="N",
            help="Runs of each search; its time is their median (one timing is noise).",
        ),
        csv_file: Path | None = typer.Option(None, "--csv", metavar="FILE", help="Write the table as CSV."),
        plot_file: Path | None = typer.Option(
            None, "--plot", metavar="FILE", help="Write a plot (PNG) of nodes and time against depth."
        ),
        pits: int = PITS,
        seeds: int = SEEDS,
        empty_capture: bool = EMPTY_CAPTURE,
        pie_rule: bool = PIE_RULE,
    ) -> None:
        """Compare search algorithms: nodes and time against depth, and whether they all decided alike."""
        try:
            names = [check_algorithm(a) for a in algorithms.split(",") if a.strip()]
            if not names:
                raise SearchError(f"no algorithms given; accepted: {', '.join(EXACT_ALGORITHMS)}")
            repeated = sorted({name for name in names if names.count(name) > 1})
            if repeated:
                raise SearchError(f"--algorithms names {', '.join(repeated)} more than once")
            if "mcts" in names:
                raise SearchError(f"mcts has no depth to compare; accepted: {', '.join(EXACT_ALGORITHMS)}")
            kind = check_evaluation(evaluation)
            depth_list = parse_depths(depths)
            if not 0 <= positions <= MAX_COMPARE_POSITIONS:
                raise SearchError(f"--positions must be from 0 to {MAX_COMPARE_POSITIONS}, got {positions}")
        except SearchError as error:
            fail(str(error))
        check_output_path(csv_file, "--csv")
        check_output_path(plot_file, "--plot")
        check_plot_format(plot_file)
        variant = make_variant(pits, seeds, empty_capture, pie_rule)
        try:
            chosen = varied_positions(variant, positions, seed)
        except SearchError as error:
            fail(str(error))
        except KeyboardInterrupt:
            interrupted("the positions were still being chosen; nothing compared")
        console = Console(highlight=False)
        with Progress(
            TextColumn("comparing"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
            transient=True,
        ) as progress:
            task = progress.add_task("compare", total=len(names) * len(depth_list) * len(chosen) * repeats)
            completed: list[int] = []
            asked = len(depth_list)
            found: dict = {}
            try:
                totals, disagreements = _run_stoppable(
                    lambda engine, cancelled: run_comparison(
                        names,
                        depth_list,
                        chosen,
                        kind,
                        repeats=repeats,
                        on_search=lambda: progress.advance(task, repeats),
                        completed=completed,
                        found=found,
                        engine=engine,
                        cancelled=cancelled,
                    )
                )
            except KeyboardInterrupt:
                stopped = True
                totals, depth_list = found.get("totals", {}), completed
                # only the depths shown: a disagreement at the unfinished one would name a row not in the tables
                disagreements = [d for d in found.get("disagreements", []) if d[0] in completed]
            else:
                stopped = False
        if stopped and not depth_list:
            interrupted("no depth was finished; nothing to show")

        title = f"{variant.name}, {plural(len(chosen), 'position')}, evaluation {kind}"
        unit, scale, decimals = seconds_table_unit([totals[(n, d)]["seconds"] for n in names for d in depth_list])
        time_label = {"s": "Seconds", "ms": "Milliseconds", "µs": "Microseconds"}[unit]
        console.print(title)
        for metric, label, fmt, factor in (
            ("nodes", "Nodes visited", "{:,}", 1),
            ("seconds", time_label, f"{{:,.{decimals}f}}", scale),
        ):
            table = Table(title=label)
            table.add_column("depth", justify="right")
            for name in names:
                table.add_column(name, justify="right")
            for depth in depth_list:
                table.add_row(str(depth), *(fmt.format(totals[(name, depth)][metric] * factor) for name in names))
            console.print(table)
        if csv_file is not None:
            rows = io.StringIO(newline="")
            writer = csv.writer(rows)
            writer.writerow(["algorithm", "depth", "positions", "nodes", "leaves", "tt_hits", "cutoffs", "seconds"])
            for name in names:
                for depth in depth_list:
                    t = totals[(name, depth)]
                    writer.writerow(
                        [
                            name,
                            depth,
                            len(chosen),
                            t["nodes"],
                            t["leaves"],
                            t["tt_hits"],
                            t["cutoffs"],
                            f"{t['seconds']:.6f}",
                        ]
                    )
            write_atomic(csv_file, rows.getvalue())
            console.print(f"Wrote {csv_file}")
        if plot_file is not None:
            write_plot(plot_file, names, depth_list, totals, title)
            console.print(f"Wrote {plot_file}")
        decisions = len(depth_list) * len(chosen)
        if disagreements:
            console.print(
                f"[red]The algorithms disagreed on {len(disagreements)} of {plural(decisions, 'decision')}.[/red]"
            )
            for depth, number, answers in disagreements[:5]:
                console.print(
                    f"  depth {depth}, position {number}: " + ", ".join(f"{a} {v}/{m}" for a, (v, m) in answers.items())
                )
        elif len(names) > 1:
            console.print(
                f"All {len(names)} algorithms agreed on every decision"
                f" ({plural(decisions, 'decision')}: same value, same best move)."
            )
        else:
            console.print(f"One algorithm, {names[0]}: nothing to compare its {plural(decisions, 'decision')} with.")
        if stopped:  # after the tables, so that it is the last line: exit 130 even when they disagreed
            interrupted(f"the tables show the depths finished ({len(depth_list)} of {asked})")
        if disagreements:
            raise typer.Exit(1)
