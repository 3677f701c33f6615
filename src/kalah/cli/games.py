"""``kalah games``: the game library from the command line (the web board's games too)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer

from kalah.records import GameFilter, GameLibrary, default_library_path
from kalah.records.filters import RESULTS, parse_day
from kalah.rules import KalahError, Variant

from .options import check_output_path, parse_game_id

_DB_HELP = "The game library (SQLite); default: the one kalah serve uses."


def _library(context: typer.Context, db: Path | None, create: bool = False) -> GameLibrary:
    """The library named after the command (``kalah games list --db X``) or before it (``kalah games --db X list``).
    Only ``import`` creates one: a reading command given a mistyped name says so instead of making an empty file."""
    return GameLibrary(db or context.obj, busy_timeout=5, create=create)  # a locked library: one line after 5 s


def _result(summary) -> str:
    """The result column: the winner and the score, the winner's total first, as everywhere."""
    if summary.status == "finished" and summary.scores:
        winner = summary.winner
        if winner is None:
            return f"draw {summary.scores[0]}-{summary.scores[1]}"
        return f"{summary.players[winner].name} won {max(summary.scores)}-{min(summary.scores)}"  # winner first
    if summary.status == "stopped" and summary.stop_reason:
        return f"stopped: {summary.stop_reason}"
    return summary.status


def _variant_name(data) -> str:
    try:
        return Variant.from_dict(data).name
    except KalahError:
        return json.dumps(data)


def register(app: typer.Typer) -> None:
    """Add ``kalah games`` (list, export, import, delete) to the command line."""
    games = typer.Typer(help="The game library: list, export, import and delete games.", no_args_is_help=True)

    @games.callback()
    def _games(
        context: typer.Context,
        db: Path = typer.Option(None, "--db", metavar="FILE", help=_DB_HELP),
    ) -> None:
        context.obj = db

    @games.command("list")
    def list_games(
        context: typer.Context,
        db: Path = typer.Option(None, "--db", metavar="FILE", help=_DB_HELP),
        as_json: bool = typer.Option(False, "--json", help="One JSON array instead of a table."),
        limit: int = typer.Option(
            None, "--limit", min=1, metavar="N", help="Only the newest N games (of those the filters keep)."
        ),
        player: str = typer.Option(
            None, "--player", metavar="TEXT", help="Games where either player's name or spec contains this text."
        ),
        variant: str = typer.Option(
            None, "--variant", metavar="NAME", help="Games of this variant, e.g. 'Kalah(6,4)' or '(4,3)'."
        ),
        result: str = typer.Option(None, "--result", metavar="RESULT", help=f"Games by result: {', '.join(RESULTS)}."),
        since: str = typer.Option(
            None, "--since", metavar="YYYY-MM-DD", help="Games started on this day (YYYY-MM-DD, UTC) or later."
        ),
        until: str = typer.Option(
            None, "--until", metavar="YYYY-MM-DD", help="Games started on this day (YYYY-MM-DD, UTC) or earlier."
        ),
    ) -> None:
        """The games, newest first: id, players, variant, moves so far, result."""
        chosen = GameFilter(
            player=player,
            variant=variant,
            result=result,
            since=parse_day(since, "--since") if since else None,
            until=parse_day(until, "--until") if until else None,
        )
        path = db or context.obj
        if path is None and not default_library_path().exists():
            summaries = []  # the user's own library before the first game: empty, not created by a reader
        else:
            summaries = _library(context, db).list_games()
        summaries = list(chosen.apply(summaries))[:limit]
        if as_json:
            rows = []
            for summary in summaries:
                data = summary.to_dict()
                data["variant_name"] = _variant_name(summary.variant)
                data["result"] = _result(summary)
                rows.append(data)
            typer.echo(json.dumps(rows, indent=1))
            return
        if not summaries:
            filtered = any(value is not None for value in (player, variant, result, since, until))
            typer.echo("no games match the filters" if filtered else "no games")
            return
        table = [("id", "players", "variant", "moves", "result", "started")]
        for summary in summaries:
            table.append(
                (
                    str(summary.id),
                    f"{summary.players[0].name} vs {summary.players[1].name}",
                    _variant_name(summary.variant),
                    str(summary.moves),
                    _result(summary),
                    summary.started_at,
                )
            )
        widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
        for row in table:
            typer.echo("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=False)).rstrip())

    @games.command("export")
    def export(
        context: typer.Context,
        db: Path = typer.Option(None, "--db", metavar="FILE", help=_DB_HELP),
        game_id: int = typer.Argument(
            ..., metavar="ID", parser=parse_game_id, help="The game's id (see kalah games list)."
        ),
        output: Path = typer.Option(
            None, "--output", "-o", metavar="FILE", help="Write the record to this file (atomically) instead of stdout."
        ),
    ) -> None:
        """A game's JSON record, as kalah replay and the web board read it."""
        check_output_path(output, "--output")
        record = _library(context, db).record(game_id)
        text = record.to_json() + "\n"
        if output is None:
            typer.echo(text, nl=False)
        else:
            from kalah.records import write_atomic

            write_atomic(output, text)

    @games.command("import")
    def import_(
        context: typer.Context,
        db: Path = typer.Option(None, "--db", metavar="FILE", help=_DB_HELP),
        file: Path = typer.Argument(..., metavar="FILE", help="A JSON game record."),
    ) -> None:
        """Store a JSON game record in the library; prints the new id."""
        from kalah.records import load_record

        game_id = _library(context, db, create=True).import_record(load_record(file), tags={"source": "import"})
        typer.echo(str(game_id))

    @games.command("delete")
    def delete(
        context: typer.Context,
        db: Path = typer.Option(None, "--db", metavar="FILE", help=_DB_HELP),
        game_id: int = typer.Argument(
            ..., metavar="ID", parser=parse_game_id, help="The game's id (see kalah games list)."
        ),
        yes: bool = typer.Option(False, "--yes", "-y", help="Delete without asking (needed when not at a terminal)."),
    ) -> None:
        """Delete a game and its moves from the library, after asking."""
        from kalah.cli import fail

        library = _library(context, db)
        summary = library.summary(game_id)
        if not yes:
            if not sys.stdin.isatty():
                fail(f"kalah games delete asks before deleting game {game_id}; add --yes to delete without asking")
            if not typer.confirm(
                f"Delete game {game_id} ({summary.players[0].name} vs {summary.players[1].name}, {_result(summary)})?",
                default=False,
            ):
                typer.echo("Nothing deleted.")
                return
        library.delete_game(game_id)
        typer.echo(f"Deleted game {game_id}.")

    app.add_typer(games, name="games")
