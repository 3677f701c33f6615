"""``kalah book``: build and inspect the opening books of the perfect player."""

from __future__ import annotations

import time as _time
from pathlib import Path

import typer

from kalah.rules import Position, move_name
from kalah.rules.wording import plural

from .exit import fail, interrupted
from .options import EMPTY_CAPTURE, PIE_RULE, PITS, SEEDS, check_output_path, make_variant
from .solve import _prepare_endgame


def _size(nbytes: int) -> str:
    return f"{nbytes / 1024:.1f} KiB" if nbytes >= 1024 else f"{nbytes} B"


def register(app: typer.Typer) -> None:
    """Add ``kalah book`` (build, show) to the command line."""
    group = typer.Typer(
        help="Opening books: the perfect player's solved moves along its own lines.", no_args_is_help=True
    )
    app.add_typer(group, name="book")

    @group.command("build")
    def build(
        moves: int | None = typer.Option(
            None,
            "--moves",
            "-n",
            metavar="N",
            help="The perfect player's first N decisions of each seat, against every reply.",
        ),
        plies: int | None = typer.Option(
            None, "--plies", metavar="N", help="Only positions fewer than N moves from the start (extra turns count)."
        ),
        pits: int = PITS,
        seeds: int = SEEDS,
        empty_capture: bool = EMPTY_CAPTURE,
        pie_rule: bool = PIE_RULE,
        out: Path | None = typer.Option(
            None, "--out", "-o", metavar="FILE", help="The book file (default: the package's book of the variant)."
        ),
        threads: int = typer.Option(1, "--threads", metavar="N", help="Solver threads."),
        fresh: bool = typer.Option(
            False, "--fresh", help="Start over instead of extending the book already in the file."
        ),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
    ) -> None:
        """Solve the positions of a variant's opening book and write it (after each complete move number)."""
        from kalah.book import Book, book_filename, build_book, data_directory, load

        variant = make_variant(pits, seeds, empty_capture, pie_rule)
        if moves is None and plies is None:
            fail("give --moves N, --plies P or both")
        if moves is not None and not 0 <= moves <= 30:
            fail(f"--moves must be from 0 to 30, got {moves}")
        if plies is not None and not 0 <= plies <= 30:
            fail(f"--plies must be from 0 to 30, got {plies}")
        if threads < 1:
            fail(f"--threads must be at least 1, got {threads}")
        if variant.total_seeds > 60:
            fail(f"{variant.name} has {variant.total_seeds} seeds: the solver proves positions of at most 60")
        check_output_path(out, "--out")  # as every command's output file: no folder made for a typing slip
        path = out if out is not None else data_directory() / book_filename(variant)
        earlier = load(path, variant) if path.exists() and not fresh else None
        started = _time.perf_counter()
        # The database a solve of the start should probe (K=28 for Kalah(6,5)), built once as kalah solve
        # builds it: without it every position of the book would be solved with a smaller one, far slower.
        try:
            _prepare_endgame(Position.start(variant), None, threads)
        except KeyboardInterrupt:
            interrupted(
                "the endgame database the book needs was not finished (its finished layers are kept in a"
                " .partial file); run the same command again to resume"
            )

        def save(book: Book) -> None:
            book.save(path)

        try:
            if quiet:
                book = build_book(variant, moves, plies=plies, book=earlier, threads=threads, checkpoint=save)
            else:
                from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

                with Progress(
                    TextColumn("[bold]move {task.fields[level]}/" + str(moves or plies) + "[/bold]"),
                    BarColumn(),
                    MofNCompleteColumn(),
                    TextColumn("positions"),
                    TimeElapsedColumn(),
                    transient=True,
                ) as bar:
                    task = bar.add_task("build", total=None, level=1)
                    book = build_book(
                        variant,
                        moves,
                        plies=plies,
                        book=earlier,
                        threads=threads,
                        checkpoint=save,
                        progress=lambda done, total, level: bar.update(task, completed=done, total=total, level=level),
                    )
        except KeyboardInterrupt:
            # The book is saved after each complete move number, so the next run goes on from there.
            kept = f"the book in {path} holds the move numbers finished" if path.exists() else "no move number finished"
            interrupted(f"{kept}; run the same command again to resume")
        book.save(path)
        seconds = _time.perf_counter() - started
        within = f", within {plural(book.plies, 'ply', 'plies')} of the start" if book.plies is not None else ""
        typer.echo(f"opening book: {variant.name}, {plural(book.moves, 'move')} per seat{within}")
        typer.echo(f"positions: {len(book):,}")
        typer.echo(f"size: {_size(path.stat().st_size)}")
        typer.echo(f"time: {seconds:.1f} s")
        typer.echo(f"file: {path}")

    @group.command("show")
    def show(
        file: Path | None = typer.Argument(
            None, metavar="FILE", help="A book file (default: the package's book of the variant)."
        ),
        pits: int = PITS,
        seeds: int = SEEDS,
        empty_capture: bool = EMPTY_CAPTURE,
        pie_rule: bool = PIE_RULE,
        check: bool = typer.Option(False, "--check", help="Also walk the book's lines and report positions it misses."),
    ) -> None:
        """Describe a book: its variant, moves per seat, positions, size and how it was built."""
        from kalah.book import book_filename, data_directory, lines, load

        variant = make_variant(pits, seeds, empty_capture, pie_rule)
        path = file if file is not None else data_directory() / book_filename(variant)
        if file is None and not path.exists():
            fail(f"no opening book of {variant.name} ships with this kalah")
        book = load(path)
        built = book.built
        within = f" within {plural(book.plies, 'ply', 'plies')} of the start" if book.plies is not None else ""
        typer.echo(
            f"{book.variant.name}: {plural(book.moves, 'move')} per seat{within}, {plural(len(book), 'position')}, "
            f"{_size(path.stat().st_size)}"
        )
        for number, level in enumerate(built.get("levels", [])[: book.moves], start=1):
            count = level.get("positions")
            typer.echo(
                f"  move {number}: {'? positions' if count is None else plural(count, 'position')},"
                f" {level.get('seconds', '?')} s"
            )
        if "seconds" in built:
            typer.echo(
                f"built in {built['seconds']} s (solver threads: {built.get('threads', '?')}) by kalah {built.get('kalah', '?')}"
            )
        first = Position.start(book.variant)
        start = book.get(first)
        if start is not None:  # the pit's letter, as the board and every other command name moves
            typer.echo(f"start: value {start.value:+d}, plays {move_name(first.to_move, start.move)}")
        if check:
            needed, missing = lines(book)
            typer.echo(f"lines: {plural(len(needed), 'position')} needed, {len(missing):,} missing")
            if missing:
                raise typer.Exit(1)
