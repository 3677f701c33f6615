"""``kalah replay``: show a recorded game, or check it against the engines of today."""

from __future__ import annotations

import time
from pathlib import Path

import typer
from rich.console import Console

from kalah.match import MoveEvent
from kalah.players import PlayerSpecError, make_player
from kalah.records import GameRecord, load_record
from kalah.rules import move_name

from .terminal import board_text, describe_move, result_line


def recompute(record: GameRecord) -> tuple[list[str], int, list[str]]:
    """Re-run the record's computer players on their own positions.

    Returns the differences (one line each), the number of moves checked, and
    notes on players that could not be re-run.
    """
    players, notes = [], []
    for number, info in enumerate(record.players):
        try:
            player = make_player(info.spec)
        except PlayerSpecError as error:
            players.append(None)
            notes.append(f"player {number} ({info.spec or info.name}) cannot be re-run: {error}")
            continue
        if not getattr(player, "is_computer", False):
            players.append(None)
            notes.append(f"player {number} ({info.spec or info.name}) is not a computer player; its moves are not checked")
            continue
        players.append(player)
    differences, checked = [], 0
    positions = list(record.positions())
    for number, (before, recorded) in enumerate(zip(positions, record.moves), 1):
        player = players[recorded.player]
        if player is None:
            continue
        checked += 1
        now = player.choose_move(before)
        if now != recorded.move:
            differences.append(
                f"move {number} (player {recorded.player}, {record.players[recorded.player].spec}): "
                f"recorded {move_name(recorded.player, recorded.move)}, now {move_name(recorded.player, now)}"
            )
    return differences, checked, notes


def register(app: typer.Typer) -> None:
    @app.command()
    def replay(
        file: Path = typer.Argument(..., help="A game record (JSON) written by kalah play, the web board or the arena."),
        recompute_moves: bool = typer.Option(False, "--recompute", help="Re-run the recorded computer players and report every move they now choose differently."),
        delay: float = typer.Option(0.0, "--delay", help="Seconds to pause between moves."),
    ) -> None:
        """Show a recorded game move by move."""
        record = load_record(file)
        console = Console(highlight=False)
        names = tuple(f"{p.name} (0)" if i == 0 else f"{p.name} (1)" for i, p in enumerate(record.players))
        if recompute_moves:
            differences, checked, notes = recompute(record)
            for note in notes:
                console.print(note)
            for line in differences:
                console.print(line)
            console.print(f"{len(differences)} of {checked} computer moves differ from the record.")
            raise typer.Exit(1 if differences else 0)
        console.print(f"[bold]{record.variant.name}[/bold]: {names[0]} against {names[1]}, {record.started_at}")
        positions = list(record.positions())
        console.print(board_text(positions[0], names=names))
        for number, (before, recorded) in enumerate(zip(positions, record.moves), 1):
            after, effect = before.play_explained(recorded.move)
            event = MoveEvent(number, recorded.player, recorded.move, before, after, effect, recorded.seconds, recorded.info)
            console.print()
            console.print(describe_move(event, names))
            console.print(board_text(after, event, names))
            if delay > 0:
                time.sleep(delay)
        console.print()
        final = positions[-1]
        console.print(result_line(final, names) if final.is_over else f"Unfinished game ({record.stop_reason or 'stopped'}) after {len(record.moves)} moves.")
