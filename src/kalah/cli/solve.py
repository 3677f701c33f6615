"""``kalah solve``: the exact value of a position under perfect play, its best moves and principal variation."""

from __future__ import annotations

import json
from typing import Any, Optional

import typer

from kalah.rules import KalahError, Position, line_names, move_name

from . import fail
from .options import EMPTY_CAPTURE, PIE_RULE, PITS, SEEDS, make_variant, read_position


def register(app: typer.Typer) -> None:
    """Add ``kalah solve`` to the command line."""

    @app.command()
    def solve(
        position_text: Optional[str] = typer.Option(None, "--position", "-p", help="The position: JSON inline or a JSON file (default: the start of the variant)."),
        pits: int = PITS,
        seeds: int = SEEDS,
        empty_capture: bool = EMPTY_CAPTURE,
        pie_rule: bool = PIE_RULE,
        time: Optional[float] = typer.Option(None, "--time", "-t", help="Stop after this many seconds and report the proven bounds."),
        threads: Optional[int] = typer.Option(None, "--threads", help="Search threads (default: every core)."),
        endgame: Optional[str] = typer.Option("auto", "--endgame", help="'auto' (the data directory, else a small table in memory), 'none', or a database file."),
        table: Optional[int] = typer.Option(None, "--table", help="Transposition table size as log2 of entries (16 bytes each)."),
        as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of text."),
        cluster: Optional[str] = typer.Option(None, "--cluster", help="Split the solve over the Dask cluster at this scheduler address (tcp://HOST:PORT)."),
        checkpoint: Optional[str] = typer.Option(None, "--checkpoint", help="With --cluster: a SQLite file of proven bounds; a stopped solve started again with it resumes."),
    ) -> None:
        """Solve a position exactly: the final margin for the side to move under perfect play."""
        from kalah.solve import solve as solve_position

        if time is not None and not time > 0:
            fail(f"--time must be a positive number of seconds, got {time}")
        position = read_position(position_text) if position_text else Position.start(make_variant(pits, seeds, empty_capture, pie_rule))
        if checkpoint is not None and cluster is None:
            fail("--checkpoint is kept only by a solve on a cluster (give --cluster)")
        database = None if endgame in (None, "none", "off") else endgame
        options: dict[str, Any] = {"threads": threads, "endgame": database, "tt_log2": table}
        if cluster is not None:
            options.update(cluster=cluster, checkpoint=checkpoint)
        try:
            if as_json:
                result = solve_position(position, time, **options)
            else:
                result = _solve_with_status(solve_position, position, time, options)
        except KalahError as error:
            fail(str(error))
        if as_json:
            data = result.to_dict()
            typer.echo(json.dumps(data))
            return
        mover = position.to_move
        variant = position.variant
        typer.echo(f"{variant.name}, player {mover} to move, {position.seeds_in_pits} seeds in the pits")
        if result.exact:
            typer.echo(f"value: {result.value:+d} for player {mover} (final margin under perfect play)")
        else:
            typer.echo(f"value: {result.describe()} for player {mover} (time ran out; proven bounds)")
        if result.best_moves:
            typer.echo("best moves: " + ", ".join(move_name(position.to_move, m) for m in result.best_moves))
        elif result.unproven_best_move is not None:
            typer.echo(f"best move so far: {move_name(position.to_move, result.unproven_best_move)}"
                       " (a heuristic search's choice, not proven)")
        for move, (low, high) in result.move_bounds.items():
            bound = f"{low:+d}" if low == high else f"between {low:+d} and {high:+d}"
            typer.echo(f"  move {move_name(position.to_move, move)}: {bound}" + (" (proven)" if low == high else ""))
        if result.pv:
            typer.echo("principal variation: " + " ".join(line_names(position, result.pv)))
        database = f", endgame database K={result.endgame_seeds}" if result.endgame_seeds is not None else ""
        typer.echo(f"{result.nodes:,} nodes in {result.seconds:.2f} s{database}")


def _solve_with_status(solve_position, position: Position, time, options):
    """Solve while a status line on the terminal shows the bounds proven so far (long solves take minutes)."""
    from rich.console import Console

    label = f"Solving {position.variant.name} ({position.seeds_in_pits} seeds in the pits)"
    with Console(stderr=True).status(label) as status:

        def progress(lower: int, upper: int) -> None:
            proven = f"{lower:+d}" if lower == upper else f"between {lower:+d} and {upper:+d}"
            status.update(f"{label}: value {proven}" + ("; best moves and line" if lower == upper else ""))

        return solve_position(position, time, progress=progress, **options)
