"""``kalah puzzles`` (build, list) and ``kalah puzzle``: positions with one clearly best move, proven by the solver."""

from __future__ import annotations

import json
import random
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from kalah.puzzles import (
    DEFAULT_MARGIN,
    THEMES,
    Puzzle,
    check_variant,
    find_puzzles,
    load,
    save,
    self_play_records,
    shipped,
)
from kalah.records import GameLibrary, GameRecord
from kalah.rules import IllegalMoveError, move_name, parse_move
from kalah.rules.wording import plural

from .exit import fail, interrupted
from .options import EMPTY_CAPTURE, PIE_RULE, PITS, SEEDS, check_output_path, make_variant
from .terminal import board_text

# The options `kalah puzzles list` and `kalah puzzle` share: which file, and which of its puzzles.
PUZZLE_FILE = typer.Option(None, "--file", metavar="FILE", help="A puzzle file (default: the puzzles in the package).")
ONLY_PITS = typer.Option(None, "--pits", min=1, max=8, metavar="N", help="Only this many pits a side.")
ONLY_SEEDS = typer.Option(None, "--seeds", min=1, max=15, metavar="N", help="Only this many seeds a pit.")
ONLY_THEME = typer.Option(None, "--theme", metavar="THEME", help=f"Only this theme: {', '.join(THEMES)}.")
ONLY_DIFFICULTY = typer.Option(None, "--difficulty", min=1, max=5, metavar="N", help="Only this difficulty (1-5).")

SOURCES = ("selfplay", "library", "arena")


def _puzzles(path: Path | None) -> list[Puzzle]:
    return load(path) if path is not None else list(shipped())


def _variant_matches(puzzle: Puzzle, pits: int | None, seeds: int | None) -> bool:
    variant = puzzle.position.variant
    return (pits is None or variant.pits == pits) and (seeds is None or variant.seeds == seeds)


def _check_theme(theme: str | None) -> None:
    if theme is not None and theme not in THEMES:
        fail(f"unknown theme {theme!r}; themes: {', '.join(THEMES)}")


def _library_records(library: GameLibrary, arena_only: bool, variant_name: str) -> list[GameRecord]:
    records = []
    for summary in library.list_games():
        if arena_only and "arena" not in summary.tags:
            continue
        record = library.record(summary.id)
        if record.variant.name == variant_name:
            records.append(record)
    return records


def register(app: typer.Typer) -> None:
    """Add ``kalah puzzles`` (build, list) and ``kalah puzzle`` to the command line."""
    group = typer.Typer(
        help="Puzzles: positions from real games whose one best move the solver proves.", no_args_is_help=True
    )
    app.add_typer(group, name="puzzles")

    @group.command("build")
    def build(
        source: str = typer.Option(
            "selfplay",
            "--from",
            metavar="SOURCE",
            help=f"Where the games come from: {', '.join(SOURCES)} "
            "(library: every game of the library; arena: the arena's games there).",
        ),
        games: int = typer.Option(
            20, "--games", min=1, max=100_000, metavar="N", help="Self-play games to play (--from selfplay)."
        ),
        db: Path | None = typer.Option(
            None, "--db", metavar="FILE", help="The game library (default: the one kalah serve uses)."
        ),
        margin: int = typer.Option(
            DEFAULT_MARGIN,
            "--margin",
            min=1,
            max=200,
            metavar="SEEDS",
            help="Seeds by which the solution must beat every other move.",
        ),
        pits: int = PITS,
        seeds: int = SEEDS,
        empty_capture: bool = EMPTY_CAPTURE,
        pie_rule: bool = PIE_RULE,
        seed: int = typer.Option(
            0, "--seed", metavar="N", help="Seed of the self-play games (the same seed, the same games)."
        ),
        limit: int | None = typer.Option(None, "--limit", min=1, metavar="N", help="Stop after this many new puzzles."),
        out: Path = typer.Option(
            ...,
            "--out",
            "-o",
            metavar="FILE",
            help="The puzzle file (gzip JSON) to write; puzzles already in it are kept.",
        ),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress bar."),
    ) -> None:
        """Find puzzles in games and add them to a puzzle file (every one proven by the solver)."""
        if source not in SOURCES:
            fail(f"--from must be one of {', '.join(SOURCES)}, got {source!r}")
        if db is not None and source == "selfplay":
            fail("--db needs --from library or --from arena")
        # Before the games are played: a folder that refuses the file would throw away all that work.
        check_output_path(out, "--out")
        variant = make_variant(pits, seeds, empty_capture, pie_rule)
        check_variant(variant)
        kept = load(out) if out.exists() else []
        if source == "selfplay":
            records = self_play_records(variant, games, seed)
            total = games
        else:
            listed = _library_records(GameLibrary(db, busy_timeout=5, create=False), source == "arena", variant.name)
            records, total = iter(listed), len(listed)
        console = Console(stderr=True)
        examined = [0]  # games whose positions were all examined, for the line Ctrl-C leaves
        try:
            with Progress(
                TextColumn("games"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[found]} puzzles"),
                TimeElapsedColumn(),
                console=console,
                transient=True,
                disable=quiet or not console.is_terminal,
            ) as bar:
                task = bar.add_task("games", total=total, found=0)

                def progress(done: int, _total: int, count: int) -> None:
                    examined[0] = done
                    bar.update(task, completed=done, found=count)

                found = find_puzzles(
                    records,
                    margin,
                    source=source,
                    limit=limit,
                    total=total,
                    known={puzzle.id for puzzle in kept},
                    progress=progress,
                )
        except KeyboardInterrupt:
            # The file is written once, at the end: say so, or the user would look in it for the puzzles found.
            interrupted(
                f"{examined[0]:,} of the {plural(total, 'game')} examined; {out} is as it was (nothing written)"
            )
        save(kept + found, out)
        typer.echo(f"{plural(len(found), 'new puzzle')} ({len(kept) + len(found)} in {out})")

    @group.command("list")
    def list_puzzles(
        file: Path | None = PUZZLE_FILE,
        pits: int | None = ONLY_PITS,
        seeds: int | None = ONLY_SEEDS,
        theme: str | None = ONLY_THEME,
        difficulty: int | None = ONLY_DIFFICULTY,
        limit: int | None = typer.Option(None, "--limit", min=1, metavar="N", help="At most this many."),
        as_json: bool = typer.Option(
            False,
            "--json",
            help="One JSON array (each: id, variant, position, solution, value, margin, theme, difficulty).",
        ),
    ) -> None:
        """List puzzles: variant, themes, difficulty (the solutions only with --json)."""
        _check_theme(theme)
        chosen = [
            p
            for p in _puzzles(file)
            if _variant_matches(p, pits, seeds)
            and (theme is None or theme in p.theme)
            and (difficulty is None or p.difficulty == difficulty)
        ]
        chosen = chosen[:limit] if limit else chosen
        if as_json:
            typer.echo(json.dumps([puzzle.to_dict() for puzzle in chosen]))
            return
        table = Table(title=plural(len(chosen), "puzzle"))
        for heading in ("id", "variant", "to move", "seeds left", "theme", "difficulty"):
            table.add_column(heading)
        for puzzle in chosen:
            table.add_row(
                puzzle.id,
                puzzle.position.variant.name,
                str(puzzle.position.to_move),
                str(puzzle.position.seeds_in_pits),
                ", ".join(puzzle.theme),
                "★" * puzzle.difficulty,
            )
        Console(highlight=False).print(table)

    @app.command("puzzle")
    def puzzle_command(
        file: Path | None = PUZZLE_FILE,
        puzzle_id: str | None = typer.Option(None, "--id", metavar="ID", help="This puzzle (default: a random one)."),
        pits: int | None = ONLY_PITS,
        seeds: int | None = ONLY_SEEDS,
        theme: str | None = ONLY_THEME,
        difficulty: int | None = ONLY_DIFFICULTY,
        seed: int | None = typer.Option(None, "--seed", metavar="N", help="Seed of the random choice."),
    ) -> None:
        """Solve a puzzle in the terminal: find the one best move (hint shows the theme, q gives up)."""
        _check_theme(theme)
        puzzles = [
            p
            for p in _puzzles(file)
            if _variant_matches(p, pits, seeds)
            and (theme is None or theme in p.theme)
            and (difficulty is None or p.difficulty == difficulty)
            and (puzzle_id is None or p.id == puzzle_id)
        ]
        if not puzzles:
            fail(f"no puzzle {puzzle_id}" if puzzle_id else "no puzzle matches")
        puzzle = random.Random(seed).choice(puzzles)
        position = puzzle.position
        me = position.to_move
        console = Console(highlight=False)
        names = ("player 0", "player 1")
        console.print(
            f"[bold]Puzzle {puzzle.id}[/bold], {position.variant.name}, difficulty {'★' * puzzle.difficulty}: "
            f"player {me} to move. One move is better than every other by {plural(puzzle.margin, 'seed')} or more."
        )
        console.print(board_text(position, names=names, bottom=me))
        tries = 0
        while True:
            try:
                answer = input("Your move (hint, q to give up): ").strip()
            except EOFError:
                answer = "q"
            if answer.lower() in ("q", "quit"):
                console.print(
                    f"The solution: {move_name(me, puzzle.solution)} (value {puzzle.value:+d} for the mover, "
                    f"every other move {puzzle.margin} or more less)."
                )
                raise typer.Exit(1)
            if answer.lower() == "hint":
                console.print(f"Theme: {', '.join(puzzle.theme)}")
                continue
            try:
                move = parse_move(answer, position)
            except IllegalMoveError as error:
                console.print(f"[red]{error}[/red]")
                continue
            tries += 1
            if move == puzzle.solution:
                console.print(
                    f"[green]Solved[/green] in {plural(tries, 'try', 'tries')}: "
                    f"{move_name(me, move)} is best: {puzzle.value:+d} for you (proven), every other move"
                    f" {puzzle.margin} or more seeds worse."
                )
                return
            console.print(
                f"[red]{move_name(me, move)} is not it[/red]: it gives away {puzzle.margin} or more seeds. Try again."
            )
