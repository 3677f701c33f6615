"""``kalah endgame``: build and inspect endgame databases."""

from __future__ import annotations

import time as _time
from pathlib import Path

import typer

from kalah.rules.wording import plural

from .exit import fail, interrupted
from .options import EMPTY_CAPTURE, PIE_RULE, PITS, SEEDS, check_output_path, make_variant


def _size(nbytes: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if nbytes < 1024 or unit == "GiB":
            return f"{nbytes:.0f} {unit}" if unit == "B" else f"{nbytes:.1f} {unit}"
        nbytes /= 1024
    return f"{nbytes} B"  # pragma: no cover


def _check_directory(directory: Path, database: Path) -> None:
    """Make the database's folder, or stop with one line: a file given as the folder, a place that
    cannot hold one (``/proc/x``), a folder this user cannot write or that refuses files (``/proc``)."""
    if directory.exists() and not directory.is_dir():
        fail(f"--path {directory}: not a folder (the database's file name is chosen from the variant)")
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        fail(f"--path {directory}: cannot create the folder: {error.strerror or error}")
    # The permission bits are not enough: /proc allows root but refuses new files, found after the build.
    check_output_path(database, "--path")


def register(app: typer.Typer) -> None:
    """Add ``kalah endgame`` (build, info, list) to the command line."""
    group = typer.Typer(
        help="Endgame databases: exact values of every position with few seeds left.", no_args_is_help=True
    )
    app.add_typer(group, name="endgame")

    @group.command("build")
    def build(
        max_seeds: int = typer.Option(
            ..., "--max-seeds", "-k", metavar="K", help="K: every position with at most K seeds in the pits."
        ),
        pits: int = PITS,
        seeds: int = SEEDS,
        empty_capture: bool = EMPTY_CAPTURE,
        pie_rule: bool = PIE_RULE,
        path: Path | None = typer.Option(
            None, "--path", metavar="FOLDER", help="Directory for the database (default: the user data directory)."
        ),
        threads: int | None = typer.Option(None, "--threads", metavar="N", help="Threads (default: every core)."),
        fresh: bool = typer.Option(
            False, "--fresh", help="Start over instead of resuming an interrupted build or keeping a complete one."
        ),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
    ) -> None:
        """Build the database of a variant's pits and capture rule (the seeds per pit do not matter)."""
        from kalah.endgame import (
            EndgameDatabaseError,
            available_memory,
            build_memory,
            database_path,
            default_directory,
            load,
            table_positions,
        )
        from kalah.endgame import build as build_database

        from .terminal import building_bar

        variant = make_variant(pits, seeds, empty_capture, pie_rule)
        if max_seeds < 0 or max_seeds > 40:
            fail(f"--max-seeds must be from 0 to 40, got {max_seeds}")
        if threads is not None and threads < 1:
            fail(f"--threads must be at least 1, got {threads}")
        directory = path or default_directory()
        existing = database_path(variant, max_seeds, directory)
        _check_directory(directory, existing)
        # A complete database needs no memory to build: say it is there before any check of the memory.
        if existing.exists() and not fresh:
            try:
                load(existing)
            except EndgameDatabaseError as error:
                fail(f"{error} (give --fresh to build it again)")
            typer.echo(f"already built: {existing} (give --fresh to build it again)")
            return
        positions = table_positions(variant.pits, max_seeds)
        needed = build_memory(variant.pits, max_seeds)
        available = available_memory()
        if available is not None and needed > available:
            fail(
                f"the database of {variant.pits} pits up to K={max_seeds} needs {_size(needed)} of memory while"
                f" it is built; {_size(available)} is available"
            )
        started = _time.perf_counter()
        try:
            if quiet:
                database = build_database(variant, max_seeds, directory, threads=threads, resume=not fresh)
            else:
                with building_bar() as bar:
                    task = bar.add_task("build", total=positions)
                    database = build_database(
                        variant,
                        max_seeds,
                        directory,
                        threads=threads,
                        resume=not fresh,
                        progress=lambda done, total: bar.update(task, completed=done),
                    )
        except KeyboardInterrupt:
            # The layers done are in the .partial file, which the next run (without --fresh) resumes from.
            interrupted(f"the layers finished are kept in {existing}.partial; run the same command again to resume")
        seconds = _time.perf_counter() - started
        rule = " empty-capture" if variant.empty_capture else ""
        typer.echo(f"endgame database: {plural(variant.pits, 'pit')}{rule}, up to {plural(max_seeds, 'seed')}")
        typer.echo(f"positions: {database.positions:,}")
        typer.echo(f"size: {_size(database.nbytes)} ({database.nbytes:,} bytes)")
        typer.echo(f"time: {seconds:.2f} s")
        typer.echo(f"file: {database.path}")

    @group.command("info")
    def info(file: Path = typer.Argument(..., metavar="FILE", help="A database file.")) -> None:
        """Check a database file (header and checksum) and describe it."""
        from kalah.endgame import load
        from kalah.rules import KalahError

        try:
            database = load(file)
        except KalahError as error:
            fail(str(error))
        typer.echo(
            f"{database.describe()}: {plural(database.positions, 'position')}, {_size(database.nbytes)}, checksum ok"
        )
