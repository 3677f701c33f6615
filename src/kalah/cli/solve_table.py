"""``kalah solve --table``: the values of whole boards' starts, proven, checked and kept in a table file."""

from __future__ import annotations

import time as _time
from typing import Any

import typer

from kalah.rules import KalahError
from kalah.rules.wording import plural

from . import fail

#: The limit of each step of a board when --time is not given: two hours.
DEFAULT_LIMIT = 7200.0
RULES = {"standard": [False], "empty-capture": [True], "both": [False, True]}
#: Options of a single solve that say nothing to a table of whole boards.
SINGLE_SOLVE_OPTIONS = {
    "position_text": "--position",
    "to_move": "--to-move",
    "pits": "--pits",
    "seeds": "--seeds",
    "empty_capture": "--empty-capture",
    "pie_rule": "--pie-rule",
    "as_json": "--json",
    "cluster": "--cluster",
    "checkpoint": "--checkpoint",
    "endgame_seeds": "--endgame-seeds",
}


def run_table(
    context: typer.Context,
    values: str,
    boards: str,
    rules: str,
    time: float | None,
    threads: int | None,
    endgame: str | None,
    endgame_seeds: int | None,
    tt_log2: int | None,
) -> None:
    """Extend the table file ``values`` with the boards of ``boards`` (the options of ``kalah solve``)."""
    from kalah.search import check_threads
    from kalah.solve.values_table import ValueTable, fill, parse_boards

    for name, flag in SINGLE_SOLVE_OPTIONS.items():
        if getattr(context.get_parameter_source(name), "name", "DEFAULT") != "DEFAULT":
            fail(f"{flag} is for one position; --table solves the starts of --boards")
    if rules not in RULES:
        fail(f"--rules is standard, empty-capture or both, got {rules!r}")
    if endgame not in ("auto", "none", "off"):
        fail(f"--endgame with --table is auto or none (a file covers one pit count and rule), got {endgame!r}")
    if threads is not None:
        check_threads(threads)
    limit = DEFAULT_LIMIT if time is None else time
    try:
        ranges = parse_boards(boards)
        table = ValueTable.load(values)
    except (KalahError, OSError) as error:
        fail(str(error))
    typer.echo(
        f"Table {values}: {plural(len(table.entries), 'entry', 'entries')} kept; boards {boards}, rules {rules},"
        f" each step within {limit:,.0f} s"
    )
    shown = _Shown()
    try:
        fill(
            table,
            ranges,
            RULES[rules],
            limit,
            threads=threads,
            endgame="auto" if endgame == "auto" else None,
            tt_log2=tt_log2,
            report=shown.report,
            progress=shown.progress,
        )
    except KeyboardInterrupt:
        shown.stop()
        typer.echo(f"interrupted: {values} keeps every step that finished; the same command resumes")
        raise typer.Exit(130) from None
    except (KalahError, OSError) as error:
        shown.stop()
        fail(str(error))
    shown.stop()
    typer.echo(_summary(table))


class _Shown:
    """What the terminal shows of a table's run: a line per finished step, a status line while one runs."""

    def __init__(self) -> None:
        from rich.console import Console

        self.console = Console(stderr=True)
        self.status: Any = None
        self.label = ""
        self.started = 0.0

    def stop(self) -> None:
        if self.status is not None:
            self.status.stop()
            self.status = None

    def report(self, what: str, board: Any, entry: dict[str, Any]) -> None:
        if what.startswith("start "):
            self.stop()
            self.label = f"{board.name}: {what.removeprefix('start ').replace('_', ' ')}"
            self.started = _time.perf_counter()
            self.status = self.console.status(self.label)
            self.status.start()
            return
        self.stop()
        typer.echo(_step_line(what, board, entry))

    def progress(self, step: str, lower: int, upper: int) -> None:
        if self.status is not None:
            bounds = f"{lower:+d}" if lower == upper else f"between {lower:+d} and {upper:+d}"
            self.status.update(f"{self.label}: {bounds} after {_time.perf_counter() - self.started:,.0f} s")


def _bounds(step: dict[str, Any]) -> str:
    if step.get("value") is not None:
        return f"{step['value']:+d}"
    return f"between {step['lower']:+d} and {step['upper']:+d}, not proven"


def _work(step: dict[str, Any]) -> str:
    return f"{plural(step['nodes'], 'node')}, {step['seconds']:,.1f} s, load {step['load'][0]}-{step['load'][1]}"


def _step_line(what: str, board: Any, entry: dict[str, Any]) -> str:
    from kalah.solve.values_table import moves_text

    step = entry[what]
    if what == "value":
        endgame = step.get("endgame")
        where = (
            "no endgame database"
            if endgame is None
            else f"endgame database K={endgame['max_seeds']} " + ("(file)" if endgame["file"] else "(in memory)")
        )
        if step["value"] is None:
            return f"{board.name}: cut by the limit of {step['limit']:,g} s: {_bounds(step)} ({_work(step)}, {where})"
        if not step["best_moves"]:
            return (
                f"{board.name}: {step['value']:+d} for the first player; the limit of {step['limit']:,g} s cut the"
                f" proof of the best first moves ({_work(step)}, {where})"
            )
        return (
            f"{board.name}: {_bounds(step)} for the first player, best first "
            f"{'move' if len(step['best_moves']) == 1 else 'moves'} {moves_text(step['best_moves'])}"
            f" ({_work(step)}, {where})"
        )
    if what == "pie_rule":
        best = f", best first moves {moves_text(step['best_moves'])}" if step["best_moves"] else ""
        return f"  with the pie rule: {_bounds(step)}{best} ({_work(step)})"
    verdict = step["verdict"]
    said = {"agrees": "confirmed", "cut": "cut by the limit (not confirmed)", "disagrees": "DISAGREES"}[verdict]
    wrong = f": {'; '.join(step['disagreements'])}" if step["disagreements"] else ""
    return f"  check: {said}{wrong} ({step['method']}; {_work(step)})"


def _summary(table: Any) -> str:
    from kalah.solve.values_table import entry_status

    counts: dict[str, int] = {}
    for entry in table.entries.values():
        status = entry_status(entry)
        counts[status] = counts.get(status, 0) + 1
    parts = [f"{counts[status]} {status}" for status in ("confirmed", "proven", "disputed", "cut") if status in counts]
    return f"{table.path}: {plural(len(table.entries), 'entry', 'entries')}" + (
        f" ({', '.join(parts)})" if parts else ""
    )
