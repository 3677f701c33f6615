"""``kalah analyse``: the value of every legal move of a position, the best move and the principal variation.

By default the analysis of :func:`kalah.analysis.analyse` (exact wherever the
book, the endgame databases or the solver prove it in time); with
``--algorithm``, ``--depth`` or ``--evaluation`` a plain heuristic search.
"""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from kalah.analysis import DEFAULT_TIME, Analysis
from kalah.analysis import analyse as analyse_position
from kalah.core.builds import Engine
from kalah.rules import SWAP, Position, line_names, move_name
from kalah.rules.wording import plural
from kalah.search import (
    ALGORITHMS,
    EVALUATIONS,
    SearchError,
    SearchResult,
    check_algorithm,
    check_depth,
    check_evaluation,
    check_time,
    search,
)

from .exit import fail, interrupted, wait_for
from .options import (
    EMPTY_CAPTURE,
    PIE_RULE,
    PITS,
    SEEDS,
    TO_MOVE,
    VARIANT_FLAGS,
    check_to_move,
    given_variant_flags,
    make_variant,
    read_position,
    read_record_position,
)


def parse_depth(text: str | None) -> int | None:
    """The ``--depth`` option as a search depth, or a one-line error."""
    if text is None:
        return None
    try:
        number = int(text)
    except ValueError:
        raise SearchError(f"depth must be a whole number of moves, 1 or more; got {text!r}") from None
    return check_depth(number)


def parse_time(text: str | None) -> float | None:
    """The ``--time`` option as seconds, or a one-line error."""
    if text is None:
        return None
    try:
        number = float(text)
    except ValueError:
        raise SearchError(f"time must be a positive number of seconds, got {text!r}") from None
    return check_time(number)


#: Below this a search's speed is mostly the timer's and the call's overhead: no rate is shown.
RATE_MIN_SECONDS = 0.01


def duration_text(seconds: float) -> str:
    """A duration with the digits that mean something: ``1.23 s``, ``12.3 ms``, ``45 µs``."""
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 0.001:
        return f"{seconds * 1e3:.3g} ms"
    return f"{seconds * 1e6:.0f} µs"


def rate_text(nodes: int, seconds: float) -> str:
    """`` (1.8 M nodes/s)`` in a unit that fits, or nothing for a search too short to time."""
    if seconds < RATE_MIN_SECONDS or nodes <= 0:
        return ""
    rate = nodes / seconds
    if rate >= 1e6:
        return f" ({rate / 1e6:.1f} M nodes/s)"
    return f" ({rate / 1e3:.0f} k nodes/s)" if rate >= 1e3 else f" ({rate:.0f} nodes/s)"


def search_interruptibly(position: Position, **options: object) -> SearchResult:
    """:func:`kalah.search.search` in a worker thread, so that Ctrl-C stops it.

    The compiled search runs without the GIL and never looks at signals: called from the main thread,
    Python only sees a SIGINT once the search returns, which for a deep or long search is never. Here
    the main thread waits, takes the KeyboardInterrupt, asks the engine to stop and lets it go on up.
    UCT has no stop of its own; its thread is a daemon, ended with the process."""
    engine = Engine()
    answer: dict[str, object] = {}

    def work() -> None:
        try:
            answer["result"] = search(position, engine=engine, **options)  # type: ignore[arg-type]
        except BaseException as error:  # handed to the main thread
            answer["error"] = error

    wait_for(work, engine.stop)
    if "error" in answer:
        raise answer["error"]  # type: ignore[misc]
    return answer["result"]  # type: ignore[return-value]


def cannot_arise(position: Position) -> str | None:
    """Why ``position`` cannot arise in a game of its variant, or None: seeds are never made nor lost, so a
    board holding another total than the variant's start was typed for other rules (or by mistake)."""
    variant = position.variant
    held = sum(position.board[0]) + sum(position.board[1])
    if held == variant.total_seeds:
        return None
    note = (
        f"this board holds {plural(held, 'seed')}; every position of {variant.name} holds {variant.total_seeds},"
        " so it cannot arise in a game of that variant"
    )
    seeds, rest = divmod(held, 2 * variant.pits)
    if not rest and 1 <= seeds <= 15 and seeds != variant.seeds:
        note += f" (it can with --seeds {seeds})"
    return note + "; analysed as given"


def _value_text(value) -> str:
    if value is None:
        return "?"
    if isinstance(value, int):
        return f"{value:+d}"
    return f"{value:+.2f}"


def register(app: typer.Typer) -> None:
    """Add ``kalah analyse`` to the command line."""

    @app.command()
    def analyse(
        context: typer.Context,
        position_text: str | None = typer.Option(
            None,
            "--position",
            "-p",
            metavar="POSITION",
            help="The position: JSON or a board such as '[[0,0,1,2,0,3,20],[1,0,0,2,1,0,18]]', inline or in a file"
            " (default: the start of the variant). A board is played by the variant flags.",
        ),
        to_move: int | None = TO_MOVE,
        pits: int = PITS,
        seeds: int = SEEDS,
        empty_capture: bool = EMPTY_CAPTURE,
        pie_rule: bool = PIE_RULE,
        record: Path | None = typer.Option(
            None, "--record", metavar="FILE", help="Take the position from a game record (JSON) ..."
        ),
        move: int | None = typer.Option(
            None, "--move", min=0, metavar="N", help="... after this many moves (default: its last position)."
        ),
        algorithm: str | None = typer.Option(
            None,
            "--algorithm",
            "-a",
            metavar="NAME",
            help=f"Search with this algorithm only (no proof): one of {', '.join(ALGORITHMS)}.",
        ),
        depth: str | None = typer.Option(
            None,
            "--depth",
            "-d",
            metavar="N",
            help="Search to this depth only (no proof), in moves (sowings); default 8 unless --time is given.",
        ),
        time: str | None = typer.Option(
            None,
            "--time",
            "-t",
            metavar="SECONDS",
            help=f"Seconds to think (default {DEFAULT_TIME:g} for the exact analysis).",
        ),
        evaluation: str | None = typer.Option(
            None,
            "--evaluation",
            "-e",
            metavar="NAME",
            help=f"Search with this evaluation only (no proof): {', '.join(EVALUATIONS)}.",
        ),
        as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of a table."),
    ) -> None:
        """Analyse a position: every legal move's value (exact where proven), best move, principal variation."""
        plain_search = algorithm is not None or depth is not None or evaluation is not None
        try:
            name = check_algorithm(algorithm or "pvs")
            kind = check_evaluation(evaluation or "strong")
            limit = parse_depth(depth)
            seconds = parse_time(time)
        except SearchError as error:
            fail(str(error))
        # An option that would change nothing is refused rather than ignored: the user meant something by it.
        if name == "mcts" and (depth is not None or evaluation is not None):
            fail(
                f"{'--depth' if depth is not None else '--evaluation'} does not apply to mcts"
                " (random playouts to the end of the game; give --time)"
            )
        check_to_move(to_move, position_text)
        if record is not None and position_text is not None:
            fail("give a position with --position or --record, not both")
        if move is not None and record is None:
            fail("--move needs --record FILE")
        flags = given_variant_flags(context)
        if record is not None:
            if flags:
                # A record carries its variant; a flag beside it could only contradict it or repeat it.
                fail(f"{', '.join(VARIANT_FLAGS[name] for name in flags)} cannot go with --record (it has its variant)")
            position = read_record_position(record, move)
        elif position_text is not None:
            position = read_position(position_text, to_move, flags)
        else:
            position = Position.start(make_variant(pits, seeds, empty_capture, pie_rule))
        try:
            if not plain_search:
                show_analysis(analyse_position(position, seconds or DEFAULT_TIME), as_json)
                say_if_impossible(position, as_json)
                return
            result = search_interruptibly(
                position, algorithm=name, depth=limit, time=seconds, evaluation=kind, move_values=True
            )
        except KeyboardInterrupt:
            interrupted("the analysis stopped before it finished; nothing to show")
        if as_json:
            data = result.to_dict()
            typer.echo(json.dumps(data))
            say_if_impossible(position, as_json)
            return
        console = Console(highlight=False)
        me = position.to_move
        console.print(f"[bold]{position.variant.name}[/bold], player {me} to move; {name}, evaluation {kind}")
        if position.is_over:
            console.print(f"The game is over: final margin {position.margin:+d} (player 0 minus player 1).")
            say_if_impossible(position, as_json)
            return
        table = Table(title="Moves (values for the side to move, in seeds)")
        table.add_column("move")
        table.add_column("pit", justify="right")
        table.add_column("value", justify="right")
        table.add_column("", justify="left")
        for entry in result.moves:
            mark = "best" if entry.move == result.best_move else ""
            bound = "" if entry.bound in ("exact", "estimate") else entry.bound
            table.add_row(
                move_name(me, entry.move),
                "swap" if entry.move == SWAP else str(entry.move),
                _value_text(entry.value),
                " ".join(filter(None, [mark, bound])),
            )
        console.print(table)
        verdict = f" (proven: player {me} {result.outcome})" if result.outcome else ""
        best = move_name(me, result.best_move) if result.best_move is not None else "-"
        console.print(f"Best move: [bold]{best}[/bold], value {_value_text(result.value)}{verdict}")
        console.print(f"Principal variation: {' '.join(line_names(position, result.pv)) or '-'}")
        s = result.stats
        if name == "mcts":
            console.print(
                f"{plural(s.playouts, 'playout')}, {plural(s.nodes, 'tree node')}, deepest {s.depth},"
                f" {duration_text(s.seconds)} "
                "(values: mean final margin of the playouts through each move)"
            )
        else:
            console.print(
                f"Depth {s.depth}, {plural(s.nodes, 'node')}, {plural(s.leaves, 'leaf', 'leaves')},"
                f" table {s.tt_hits:,}/{s.tt_probes:,} hits, {plural(s.cutoffs, 'cut-off')},"
                f" {plural(s.researches, 're-search', 're-searches')}, {duration_text(s.seconds)}"
                f"{rate_text(s.nodes, s.seconds)}"
            )
        say_if_impossible(position, as_json)


def say_if_impossible(position: Position, as_json: bool) -> None:
    """Say, after the analysis, that its board cannot arise in its variant: on stderr beside JSON (whose
    readers parse stdout), on stdout under a table. An analysis of a board typed for other rules is not
    refused (a study may want it), but never given without a word."""
    note = cannot_arise(position)
    if note is not None:
        typer.echo(f"Note: {note}.", err=as_json)


def best_move_names(analysis: Analysis) -> tuple[str, str]:
    """The move named best, and the moves as good as it (``"b, c"``; empty when none is).

    A hint in ``kalah play`` and ``kalah analyse`` both name the best move from here, so that where
    several moves are worth the same they name the same one: :attr:`kalah.analysis.Analysis.best_move`,
    the lowest pit among them, as the search itself breaks ties."""
    me = analysis.position.to_move
    if analysis.best_move is None:
        return "-", ""
    return move_name(me, analysis.best_move), ", ".join(move_name(me, move) for move in analysis.best_moves[1:])


def show_analysis(analysis: Analysis, as_json: bool) -> None:
    """Print an exact-where-proven analysis: a table of the moves, each value marked exact or estimated."""
    if as_json:
        typer.echo(json.dumps(analysis.to_dict()))
        return
    position = analysis.position
    me = position.to_move
    console = Console(highlight=False)
    console.print(f"[bold]{position.variant.name}[/bold], player {me} to move")
    if position.is_over:
        console.print(f"The game is over: final margin {position.margin:+d} (player 0 minus player 1).")
        return
    table = Table(title="Moves (values for the side to move, in seeds)")
    for heading, justify in (("move", "left"), ("pit", "right"), ("value", "right"), ("", "left"), ("from", "left")):
        table.add_column(heading, justify=justify)  # type: ignore[arg-type]
    for entry in analysis.moves:
        marks = ["best" if entry.move in analysis.best_moves else "", "exact" if entry.exact else "estimate"]
        table.add_row(
            move_name(me, entry.move),
            "swap" if entry.move == SWAP else str(entry.move),
            _value_text(entry.value),
            " ".join(filter(None, marks)),
            entry.source,
        )
    console.print(table)
    best, equal = best_move_names(analysis)
    if analysis.exact:
        verdict = f"exact ({analysis.source})"
    else:
        verdict = f"estimated by a search to depth {analysis.depth} (not proven)"
    also = f" (as good: {equal})" if equal else ""
    console.print(f"Best move: [bold]{best}[/bold]{also}, value {_value_text(analysis.value)}, {verdict}")
    console.print(f"Principal variation: {' '.join(line_names(position, analysis.pv)) or '-'}")
    console.print(f"{analysis.seconds:.3f} s")
