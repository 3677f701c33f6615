"""``kalah review``: every move of a game judged against the best, exact where the solver proves it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from kalah.records import GameLibrary, GameRecord, load_record
from kalah.review import CLASSES, DEFAULT_TIME, review
from kalah.rules.wording import plural

from .exit import fail, interrupted
from .options import parse_game_id

_STYLE = {"best": "green", "good": "green", "inaccuracy": "yellow", "mistake": "red", "blunder": "bold red"}


def _number(value: Any) -> str:
    if value is None:
        return "?"
    return f"{value:+d}" if isinstance(value, int) else f"{value:+.2f}"


def _seconds(text: str | None) -> float:
    if text is None:
        return DEFAULT_TIME
    try:
        seconds = float(text)
    except ValueError:
        fail(f"--time must be a positive number of seconds, got {text!r}")
    if not 0 < seconds <= 60:
        fail(f"--time must be more than 0 and at most 60 seconds a position, got {text!r}")
    return seconds


def reviewed(record: GameRecord, seconds: float, show_progress: bool) -> dict[str, Any]:
    """The review's JSON object, with a progress bar on stderr when it is a terminal."""
    console = Console(stderr=True)
    with Progress(
        TextColumn("reviewing"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("positions"),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=not (show_progress and console.is_terminal),
    ) as bar:
        task = bar.add_task("review", total=len(record.moves) + 1)
        result = review(record, seconds, progress=lambda done, total: bar.update(task, completed=done, total=total))
    return result.to_dict()


def show(data: dict[str, Any]) -> None:
    """The review as a table of moves and a summary per player."""
    console = Console(highlight=False)
    players = data["players"]
    table = Table(title="Review (values in seeds for the player who moves)")
    for heading, justify in (
        ("#", "right"),
        ("by", "right"),
        ("move", "left"),
        ("before", "right"),
        ("best", "left"),
        ("played", "right"),
        ("lost", "right"),
        ("class", "left"),
        ("judged", "left"),
    ):
        table.add_column(heading, justify=justify)  # type: ignore[arg-type]
    for entry in data["moves"]:
        best = " ".join(
            chr((65 if entry["player"] == 0 else 97) + move) if move != "swap" else "swap"
            for move in entry["best_moves"]
        )
        klass = entry["class"] + (" (forced)" if entry["forced"] else "")
        style = _STYLE.get(entry["class"], "")
        table.add_row(
            f"{entry['number']}.",
            str(entry["player"]),
            entry["name"],
            _number(entry["value_before"]),
            best,
            _number(entry["value_after"]),
            f"{entry['loss']:g}",
            f"[{style}]{klass}[/{style}]",
            "exact" if entry["exact"] else "est.",
        )
    console.print(table)
    for player in (0, 1):
        counts = data["counts"][player]
        accuracy = data["accuracy"][player]
        loss = data["average_loss"][player]
        tally = ", ".join(f"{counts[name]} {name}" for name, _ in CLASSES if counts[name])
        console.print(
            f"Player {player} ({players[player]}): accuracy "
            f"{'-' if accuracy is None else f'{accuracy:.0f}%'}, "
            f"{'-' if loss is None else f'{loss:.2f}'} seeds lost a decision; {tally or 'no moves'}"
        )
    turning = data["turning_points"]
    names = {entry["number"]: f"{entry['number']}. {entry['name']}" for entry in data["moves"]}
    console.print("Turning points: " + (", ".join(names[number] for number in turning) if turning else "none"))
    exact = sum(1 for entry in data["moves"] if entry["exact"])
    console.print(
        f"{exact} of {plural(len(data['moves']), 'move')} judged exactly; {data['seconds']:.1f} s. Classes by seeds lost: "
        + ", ".join(f"{name} {'>8' if most is None else f'<={most:g}'}" for name, most in data["classes"].items())
    )


def register(app: typer.Typer) -> None:
    """Add ``kalah review`` to the command line."""

    @app.command("review")
    def review_command(
        game: Path | None = typer.Argument(
            None, metavar="FILE", help="A game record (JSON), as kalah play --record writes."
        ),
        game_id: int | None = typer.Option(
            None,
            "--game",
            metavar="ID",
            parser=parse_game_id,
            help="Review game ID of the game library instead (the review is stored with it).",
        ),
        db: Path | None = typer.Option(
            None, "--db", metavar="FILE", help="The game library (SQLite); default: the one kalah serve uses."
        ),
        time: str | None = typer.Option(
            None, "--time", "-t", metavar="SECONDS", help=f"Seconds of analysis a position (default {DEFAULT_TIME:g})."
        ),
        fresh: bool = typer.Option(False, "--fresh", help="With --game: review again even if a review is stored."),
        as_json: bool = typer.Option(
            False,
            "--json",
            help="Print one JSON object (its `moves`: move, player, "
            "best_moves, loss, class, exact, ...) instead of a table.",
        ),
    ) -> None:
        """Review a game: each move's value, best moves, seeds lost and class; accuracy and turning points."""
        if (game is None) == (game_id is None):
            fail("give a game record FILE or --game ID (one of them)")
        if db is not None and game_id is None:
            fail("--db needs --game ID")
        if fresh and game_id is None:
            fail("--fresh needs --game ID")
        seconds = _seconds(time)
        try:
            if game is not None:
                data = reviewed(load_record(game), seconds, not as_json)
            else:
                assert game_id is not None
                library = GameLibrary(db, busy_timeout=5, create=False)  # a reader never makes a library
                record = library.record(game_id)
                stored = None if fresh else library.review(game_id)
                if stored is not None and stored[0] == len(record.moves):
                    data = stored[1]
                else:
                    data = reviewed(record, seconds, not as_json)
                    library.save_review(game_id, len(record.moves), data)
        except KeyboardInterrupt:
            # A review is stored only whole, so nothing of this one was kept.
            interrupted("the review was not finished (nothing stored); run it again")
        if as_json:
            typer.echo(json.dumps(data))
            return
        show(data)
