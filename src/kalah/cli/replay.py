"""``kalah replay``: show a recorded game, or check it against the engines of today."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import typer
from rich.console import Console

from kalah.match import MoveEvent
from kalah.players import Player, PlayerSpecError, external_access, make_player
from kalah.records import GameRecord, load_record
from kalah.rules import move_name

from .options import check_delay
from .terminal import board_text, describe_move, result_line


def recompute(record: GameRecord, allowed_external: frozenset[int] = frozenset()) -> tuple[list[str], int, list[str]]:
    """Re-run the record's computer players on their own positions.

    Players that would run a program or read a file (``exec:``, ``replay:``)
    are re-run only when their number is in ``allowed_external``. Returns the
    differences (one line each), the number of moves checked, and notes on
    players that could not be re-run.
    """
    players: list[Player | None] = []
    notes: list[str] = []
    for number, info in enumerate(record.players):
        reach = external_access(info.spec)
        if reach is not None and number not in allowed_external:
            players.append(None)
            notes.append(f"player {number} ({info.spec}) is not re-run: it {reach} (--allow-exec allows it)")
            continue
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
        rerun = players[recorded.player]
        if rerun is None:
            continue
        checked += 1
        now = rerun.choose_move(before)
        if now != recorded.move:
            differences.append(
                f"move {number} (player {recorded.player}, {record.players[recorded.player].spec}): "
                f"recorded {move_name(recorded.player, recorded.move)}, now {move_name(recorded.player, now)}"
            )
    return differences, checked, notes


def _external_players_to_run(record: GameRecord, allow_exec: bool) -> frozenset[int]:
    """The record's players that run programs or read files and may be re-run: all with
    --allow-exec, else those a person at the terminal agrees to (none without a terminal)."""
    from kalah.cli import fail

    external = [(number, info.spec, reach) for number, info in enumerate(record.players)
                if (reach := external_access(info.spec)) is not None]
    if allow_exec or not external:
        return frozenset(number for number, _, _ in external)
    if not sys.stdin.isatty():
        spec = external[0][1]
        fail(f"the record's player {external[0][0]} ({spec!r}) {external[0][2]}; re-running it needs --allow-exec")
    allowed = set()
    for number, spec, reach in external:
        if typer.confirm(f"The record's player {number} is {spec!r}: it {reach}. Run it?", default=False):
            allowed.add(number)
    return frozenset(allowed)


def register(app: typer.Typer) -> None:
    """Add ``kalah replay`` to the command line."""

    @app.command()
    def replay(
        file: Path = typer.Argument(..., help="A game record (JSON) written by kalah play, the web board or the arena."),
        recompute_moves: bool = typer.Option(False, "--recompute", help="Re-run the recorded computer players and report every move they now choose differently."),
        delay: float = typer.Option(0.0, "--delay", help="Seconds to pause between moves."),
        allow_exec: bool = typer.Option(
            False, "--allow-exec",
            help="With --recompute: run the record's exec: players (programs named in the file) without asking."),
    ) -> None:
        """Show a recorded game move by move."""
        check_delay(delay)
        record = load_record(file)
        console = Console(highlight=False)
        names = (f"{record.players[0].name} (0)", f"{record.players[1].name} (1)")
        if recompute_moves:
            allowed = _external_players_to_run(record, allow_exec)
            differences, checked, notes = recompute(record, allowed)
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
        console.print(result_line(final, names) if final.is_over else f"Unfinished game ({record.stop_reason or 'stopped'}) after {len(record.moves)} move{'' if len(record.moves) == 1 else 's'}.")
