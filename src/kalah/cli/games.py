"""``kalah games``: the game library from the command line (the web board's games too)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import typer

from kalah.records import GameFilter, GameLibrary, default_library_path
from kalah.records.filters import RESULTS, parse_day
from kalah.rules import KalahError, Variant

from .options import check_output_path, parse_game_id

_DB_HELP = "The game library: a SQLite file or postgresql://USER@HOST/DATABASE; default: the one kalah serve uses."


def _library(context: typer.Context, db: str | None, create: bool = False) -> GameLibrary:
    """The library named after the command (``kalah games list --db X``) or before it (``kalah games --db X list``).
    Only ``import`` creates one: a reading command given a mistyped name says so instead of making an empty file."""
    return GameLibrary(db or context.obj, busy_timeout=5, create=create)  # a locked library: one line after 5 s


def _result(summary) -> str:
    """The result column: the winner and the score, the winner's total first, as everywhere."""
    if summary.decided:  # resigned, out of time, forfeited: no final scores, a winner
        names = (summary.players[0].name, summary.players[1].name)
        return f"{names[summary.winner]} won: {summary.outcome.describe(names)}"
    if summary.status == "finished" and summary.scores:
        winner = summary.winner
        if winner is None:
            return f"draw {summary.scores[0]}-{summary.scores[1]}"
        return f"{summary.players[winner].name} won {max(summary.scores)}-{min(summary.scores)}"  # winner first
    if summary.status == "stopped" and summary.stop_reason:
        return f"stopped: {summary.stop_reason}"
    return summary.status


def _started(text: str) -> str:
    """When a game started, to the minute in UTC (the table's column; --json has the time as stored)."""
    from datetime import UTC, datetime

    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return text
    return (moment.astimezone(UTC) if moment.tzinfo else moment).strftime("%Y-%m-%d %H:%M")


def _show_table(summaries) -> None:
    """The games one line each, however long their players' names: names are cut with an ellipsis, as
    little as the terminal's width allows (in the players and in the result alike), and a long stop reason
    too. Wrapped, a library of bots with long names (arena specs) was a table no eye could follow. A name is
    never cut below the part that tells it from the others (``carol-minimax`` and ``carol-random`` keep
    ``carol-m…`` and ``carol-r…``), and piped into another program (not a terminal, no ``COLUMNS`` set)
    names are whole."""
    from rich.cells import cell_len
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    # What tells each name from the others: its common start with the nearest other name, one more
    # character, and the ellipsis; a name is never cut below that.
    ordered = sorted({player.name for summary in summaries for player in summary.players})
    least: dict[str, int] = {}
    for i, name in enumerate(ordered):
        common = max(
            (_common_start(name, other) for other in ordered[max(0, i - 1) : i + 2] if other != name), default=0
        )
        least[name] = common + 2

    def shown(name: str, cells: int) -> int:
        return cell_len(name) if not cells else min(cell_len(name), max(cells, least[name]))

    def short(name: str, cells: int) -> str:
        if not cells:
            return name
        text = Text(name)
        text.truncate(shown(name, cells), overflow="ellipsis")
        return text.plain

    def rows(cells: int) -> list[tuple[str, ...]]:
        made: list[tuple[str, ...]] = []
        for summary in summaries:
            names = [short(player.name, cells) for player in summary.players]
            result = _result(summary)
            if summary.status == "finished" and summary.winner is not None:
                result = result.replace(summary.players[summary.winner].name, names[summary.winner], 1)
            made.append(
                (
                    str(summary.id),
                    f"{names[0]} vs {names[1]}",
                    _variant_name(summary.variant),
                    str(summary.moves),
                    result,
                    _started(summary.started_at),
                )
            )
        return made

    headings = ("id", "players", "variant", "moves", "result", "started, UTC")
    console = Console(highlight=False)
    if not console.is_terminal and "COLUMNS" not in os.environ:  # piped, no width asked: whole names
        console = Console(highlight=False, width=100_000)
    full = rows(0)  # names whole (0: not cut); the other columns are the same at every name width
    fixed = sum(max(cell_len(row[i]) for row in [headings, *full]) for i in (0, 2, 3, 5)) + 2 * (len(headings) - 1)
    pairs = [tuple(player.name for player in summary.players) for summary in summaries]
    sizes = [tuple(cell_len(name) for name in pair) for pair in pairs]
    # the winner's name and the words after it ("won 30-18"); a result without a name (a stop reason)
    # does not count: its column gives way below
    won = [
        (pairs[i][s.winner], cell_len(full[i][4]) - sizes[i][s.winner])
        for i, s in enumerate(summaries)
        if s.status == "finished" and s.winner is not None
    ]

    def width(cells: int) -> int:
        players = max(shown(a, cells) + 4 + shown(b, cells) for a, b in pairs)  # 4: " vs "
        result = max([cell_len(headings[4]), *(shown(name, cells) + rest for name, rest in won)])
        return fixed + max(players, cell_len(headings[1])) + result

    # The longest names that keep a line within the terminal, found by halving (the width grows with
    # them); 6 cells at the least, so that a name's start stays readable.
    longest = max(max(size) for size in sizes)
    low, high = 6, longest
    while low < high:
        middle = (low + high + 1) // 2
        low, high = (middle, high) if width(middle) <= console.width else (low, middle - 1)
    cells = low if low < longest else 0
    needed = width(cells or longest)
    if needed > console.width:  # names that differ only late: a longer line rather than two names alike
        console = Console(highlight=False, width=needed)
    table = Table(box=None, pad_edge=False, show_edge=False, header_style="", padding=(0, 1))
    for heading in headings:
        right = heading in ("id", "moves")
        # players and result give way when a line is still too long; the others keep their width
        table.add_column(heading, justify="right" if right else "left", no_wrap=heading not in ("players", "result"))
    for row in rows(cells) if cells else full:
        table.add_row(*(Text(cell, no_wrap=True, overflow="ellipsis") for cell in row))
    with console.capture() as captured:
        console.print(table)
    for line in captured.get().splitlines():
        typer.echo(line.rstrip())  # rich pads every line to the table's width


def _common_start(one: str, other: str) -> int:
    """How many characters ``one`` and ``other`` share from their start."""
    count = 0
    for a, b in zip(one, other, strict=False):
        if a != b:
            break
        count += 1
    return count


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
        db: str = typer.Option(None, "--db", metavar="FILE|URL", help=_DB_HELP),
    ) -> None:
        context.obj = db

    @games.command("list")
    def list_games(
        context: typer.Context,
        db: str = typer.Option(None, "--db", metavar="FILE|URL", help=_DB_HELP),
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
        _show_table(summaries)

    @games.command("export")
    def export(
        context: typer.Context,
        db: str = typer.Option(None, "--db", metavar="FILE|URL", help=_DB_HELP),
        game_id: int = typer.Argument(
            None, metavar="ID", parser=parse_game_id, help="The game's id (see kalah games list); or --all."
        ),
        every: bool = typer.Option(
            False, "--all", help="Every game, oldest first, one JSON line each, with its tags and review."
        ),
        output: Path = typer.Option(
            None, "--output", "-o", metavar="FILE", help="Write to this file (atomically) instead of stdout."
        ),
    ) -> None:
        """A game's JSON record, as kalah replay and the web board read it; or, with --all, the whole library
        (import it into another library, SQLite or PostgreSQL, with kalah games import)."""
        from .exit import fail

        if every == (game_id is not None):
            fail("kalah games export takes a game's ID or --all (every game), not both")
        check_output_path(output, "--output")
        library = _library(context, db)
        if every:
            from kalah.records.transfer import export_lines

            text = "".join(line + "\n" for line in export_lines(library))
        else:
            text = library.record(game_id).to_json() + "\n"
        if output is None:
            typer.echo(text, nl=False)
        else:
            from kalah.records import write_atomic

            write_atomic(output, text)

    @games.command("import")
    def import_(
        context: typer.Context,
        db: str = typer.Option(None, "--db", metavar="FILE|URL", help=_DB_HELP),
        file: Path = typer.Argument(
            ..., metavar="FILE", help="A JSON game record, or the lines of kalah games export --all."
        ),
    ) -> None:
        """Store a JSON game record, or every game of an export (all or none), in the library; prints the
        new ids."""
        from kalah.records import RecordError, load_record
        from kalah.records.transfer import import_lines

        try:
            text = file.read_text(encoding="utf-8")
        except OSError as error:
            raise RecordError(f"cannot read {file}: {error.strerror or error}") from None
        except UnicodeDecodeError:
            raise RecordError(f"{file} is not a text file") from None
        lines = [line for line in text.splitlines() if line.strip()]
        library = _library(context, db, create=True)
        if len(lines) > 1 and lines[0].lstrip().startswith("{") and lines[0].rstrip().endswith("}"):
            try:
                ids = import_lines(library, lines, {"source": "import"})
            except RecordError as error:
                raise RecordError(f"{file}: {error}; nothing was imported") from None
        else:
            ids = [library.import_record(load_record(file), tags={"source": "import"})]
        typer.echo("\n".join(str(game_id) for game_id in ids))

    @games.command("delete")
    def delete(
        context: typer.Context,
        db: str = typer.Option(None, "--db", metavar="FILE|URL", help=_DB_HELP),
        game_id: int = typer.Argument(
            ..., metavar="ID", parser=parse_game_id, help="The game's id (see kalah games list)."
        ),
        yes: bool = typer.Option(False, "--yes", "-y", help="Delete without asking (needed when not at a terminal)."),
    ) -> None:
        """Delete a game and its moves from the library, after asking."""
        from .exit import fail

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
