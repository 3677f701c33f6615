"""``kalah solve``: the exact value of a position under perfect play, its best moves and principal variation."""

from __future__ import annotations

import json
from typing import Any

import typer

from kalah.rules import KalahError, Position, line_names, move_name
from kalah.rules.wording import plural
from kalah.search import check_threads

from .exit import fail
from .options import (
    EMPTY_CAPTURE,
    PIE_RULE,
    PITS,
    SEEDS,
    TO_MOVE,
    check_to_move,
    given_variant_flags,
    make_variant,
    read_position,
)


def register(app: typer.Typer) -> None:
    """Add ``kalah solve`` to the command line."""

    @app.command()
    def solve(
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
        time: float | None = typer.Option(
            None, "--time", "-t", metavar="SECONDS", help="Stop after this many seconds and report the proven bounds."
        ),
        threads: int | None = typer.Option(
            None, "--threads", metavar="N", help="Search threads, 1 to 64 (default: every core)."
        ),
        endgame: str | None = typer.Option(
            "auto",
            "--endgame",
            metavar="auto|none|FILE",
            help="'auto' (the data directory, else a small table in memory), 'none', or a database file.",
        ),
        endgame_seeds: int | None = typer.Option(
            None,
            "--endgame-seeds",
            metavar="K",
            help="With --endgame auto: K of the database to build into the data directory when none as large is there (default: chosen from the seeds on the board, the memory and the disk; a solve with --time builds none unless given).",
        ),
        tt_log2: int | None = typer.Option(
            None, "--tt-log2", metavar="N", help="Transposition table size as log2 of entries (8 bytes each)."
        ),
        as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of text."),
        cluster: str | None = typer.Option(
            None,
            "--cluster",
            metavar="ADDRESS",
            help="Split the solve over the Dask cluster at this scheduler address (tcp://HOST:PORT).",
        ),
        checkpoint: str | None = typer.Option(
            None,
            "--checkpoint",
            metavar="FILE",
            help="With --cluster: a SQLite file of proven bounds; a stopped solve started again with it resumes.",
        ),
        table: bool = typer.Option(
            False,
            "--table",
            help="Prove the values of whole boards' starts into a table file (--values), board after board"
            " (--boards), each step within --time seconds (default 7200), resuming what the file holds.",
        ),
        values: str = typer.Option(
            "kalah-values.json", "--values", metavar="FILE", help="With --table: the table file to extend."
        ),
        boards: str = typer.Option(
            "7,8",
            "--boards",
            metavar="RANGES",
            help="With --table: PITS[-PITS][xSEEDS[-[SEEDS]]],... such as 7,8 (seeds from 1 up) or 1-5x1-6.",
        ),
        rules: str = typer.Option(
            "both", "--rules", metavar="RULES", help="With --table: standard, empty-capture or both capture rules."
        ),
    ) -> None:
        """Solve a position exactly: the final margin for the side to move under perfect play."""
        from kalah.solve import MAX_EXACT_SEEDS
        from kalah.solve import solve as solve_position

        if time is not None and not time > 0:
            fail(f"--time must be a positive number of seconds, got {time}")
        if tt_log2 is not None and not 10 <= tt_log2 <= 34:
            fail(f"--tt-log2 must be from 10 to 34 (log2 of the entries: 2^10 to 2^34 of 8 bytes), got {tt_log2}")
        if table:
            from .solve_table import run_table

            run_table(context, values, boards, rules, time, threads, endgame, endgame_seeds, tt_log2)
            return
        for name in _given(context, {"values": "--values", "boards": "--boards", "rules": "--rules"}):
            fail(f"{name} goes with --table (the table of values of whole boards)")
        check_to_move(to_move, position_text)
        position = (
            read_position(position_text, to_move, given_variant_flags(context))
            if position_text
            else Position.start(make_variant(pits, seeds, empty_capture, pie_rule))
        )
        if checkpoint is not None and cluster is None:
            fail("--checkpoint is kept only by a solve on a cluster (give --cluster)")
        database = None if endgame in (None, "none", "off") else endgame
        if endgame_seeds is not None and database != "auto":
            fail("--endgame-seeds builds a database for --endgame auto; it cannot go with --endgame " + str(endgame))
        if threads is not None:
            check_threads(threads)  # the bound of a player's threads=, rather than a thread count Python cannot hold
        options: dict[str, Any] = {"threads": threads, "endgame": database, "tt_log2": tt_log2}
        if cluster is not None:
            options.update(cluster=cluster, checkpoint=checkpoint)
        try:
            # A timed solve builds nothing unless asked (a build takes minutes); one too large to solve exactly
            # without --time is refused by the solve before anything is built.
            if database == "auto" and (
                endgame_seeds is not None or (time is None and position.seeds_in_pits <= MAX_EXACT_SEEDS)
            ):
                _prepare_endgame(position, endgame_seeds, threads)
            result = _solve_with_status(solve_position, position, time, options, show=not as_json)
        except KalahError as error:
            fail(str(error))
        if as_json:
            data = result.to_dict()
            typer.echo(json.dumps(data))
            return
        mover = position.to_move
        variant = position.variant
        typer.echo(f"{variant.name}, player {mover} to move, {plural(position.seeds_in_pits, 'seed')} in the pits")
        if result.exact:
            typer.echo(f"value: {result.value:+d} for player {mover} (final margin under perfect play)")
        else:
            typer.echo(f"value: {result.describe()} for player {mover} (time ran out; proven bounds)")
        if result.best_moves:
            typer.echo("best moves: " + ", ".join(move_name(position.to_move, m) for m in result.best_moves))
        elif result.unproven_best_move is not None:
            typer.echo(
                f"best move so far: {move_name(position.to_move, result.unproven_best_move)}"
                " (a heuristic search's choice, not proven)"
            )
        for move, (low, high) in result.move_bounds.items():
            bound = f"{low:+d}" if low == high else f"between {low:+d} and {high:+d}"
            typer.echo(f"  move {move_name(position.to_move, move)}: {bound}" + (" (proven)" if low == high else ""))
        if result.pv:
            typer.echo("principal variation: " + " ".join(line_names(position, result.pv)))
        database = f", endgame database K={result.endgame_seeds}" if result.endgame_seeds is not None else ""
        typer.echo(f"{plural(result.nodes, 'node')} in {result.seconds:.2f} s{database}")


def _given(context: typer.Context, options: dict[str, str]) -> list[str]:
    """The options of ``options`` (parameter name: flag) typed on the command line, by flag."""
    return [
        flag
        for name, flag in options.items()
        if getattr(context.get_parameter_source(name), "name", "DEFAULT") != "DEFAULT"
    ]


def _solve_with_status(solve_position, position: Position, time, options, show: bool = True):
    """Solve while a status line on the terminal shows the bounds proven so far (long solves take minutes;
    ``show=False``: no status line, for --json). Ctrl-C prints the bounds proven before it (exit 130)."""
    from rich.console import Console

    label = f"Solving {position.variant.name} ({plural(position.seeds_in_pits, 'seed')} in the pits)"
    proven: list[tuple[int, int]] = []  # the latest bounds, kept for Ctrl-C
    try:
        with Console(stderr=True, quiet=not show).status(label) as status:

            def progress(lower: int, upper: int) -> None:
                proven[:] = [(lower, upper)]
                status.update(
                    f"{label}: value {_bounds_text(lower, upper)}" + ("; best moves and line" if lower == upper else "")
                )

            return solve_position(position, time, progress=progress, **options)
    except KeyboardInterrupt:
        # Minutes of work are not thrown away in silence: what was proven is printed before leaving.
        if proven:
            lower, upper = proven[0]
            typer.echo(
                f"interrupted: value {_bounds_text(lower, upper)} for player {position.to_move}"
                f" (proven before the interruption)",
                err=not show,
            )  # --json: stdout stays JSON or empty
        else:
            typer.echo("interrupted before any bound was proven", err=not show)
        raise typer.Exit(130) from None


def _bounds_text(lower: int, upper: int) -> str:
    return f"{lower:+d}" if lower == upper else f"between {lower:+d} and {upper:+d}"


def _prepare_endgame(position: Position, max_seeds, threads) -> None:
    """Build the endgame database the solve needs into the data directory (once: later solves reuse it)."""
    from rich.console import Console

    from kalah.solve import prepare_endgame

    from .terminal import building_bar

    console = Console(stderr=True)
    bar = building_bar(console)
    task = bar.add_task("build", total=None)

    def starting(k: int, path, nbytes: int) -> None:
        size = f"{nbytes / 2**30:.2f} GiB" if nbytes >= 2**30 else f"{nbytes / 2**20:.1f} MiB"
        console.print(
            f"Building the endgame database K={k} ({size}) into {path}: once, later solves"
            " reuse it (Ctrl-C stops it; the next run resumes)",
            highlight=False,
        )
        bar.start()

    def progress(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    try:
        prepare_endgame(position, max_seeds, threads=threads, progress=progress, on_build=starting)
    finally:
        if bar.live.is_started:  # stopping a bar that never started still prints a blank line
            bar.stop()
