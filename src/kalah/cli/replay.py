"""``kalah replay``: show a recorded game, or check it against the engines of today."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

import click
import typer
from rich.console import Console

from kalah.match import MoveEvent
from kalah.players import Player, PlayerSpecError, external_access, make_player
from kalah.records import GameRecord, load_record
from kalah.rules import move_name
from kalah.rules.wording import plural

from .exit import fail
from .options import check_delay
from .terminal import board_text, describe_move, result_line

#: Keys of the stepping replay (click.getchar's answers: arrows come as escape sequences).
FORWARD = {"\x1b[C", "n", " ", "\r", "\n", "l", "f"}
BACK = {"\x1b[D", "p", "b", "h"}
FIRST = {"\x1b[H", "\x1b[1~", "g", "0"}
LAST = {"\x1b[F", "\x1b[4~", "G", "$"}
QUIT = {"q", "Q", "\x1b", "\x03", "\x04"}
KEYS_HELP = "→/n/space forward, ←/p back, g start, G end, q quit"


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
            notes.append(
                f"player {number} ({info.spec or info.name}) is not a computer player; its moves are not checked"
            )
            continue
        players.append(player)
    differences, checked = [], 0
    positions = list(record.positions())
    for number, (before, recorded) in enumerate(zip(positions, record.moves, strict=False), 1):
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


def _frame(record: GameRecord, positions: list, index: int, names: tuple[str, str]) -> list[object]:
    """What the stepping replay shows at frame ``index``: the move that led there and the board."""
    if index == 0:
        return [f"Start ({plural(len(record.moves), 'move')})", board_text(positions[0], names=names)]
    recorded = record.moves[index - 1]
    before = positions[index - 1]
    after, effect = before.play_explained(recorded.move)
    event = MoveEvent(index, recorded.player, recorded.move, before, after, effect, recorded.seconds, recorded.info)
    lines: list[object] = [describe_move(event, names), board_text(after, event, names)]
    if index == len(record.moves):
        lines.append(
            result_line(after, names) if after.is_over else f"Unfinished game ({record.stop_reason or 'stopped'})."
        )
    return lines


def step_through(record: GameRecord, console: Console, read_key: Callable[[], str]) -> int:
    """Show the game one frame at a time, moving by the keys ``read_key`` returns; returns the last frame."""
    names = (f"{record.players[0].name} (0)", f"{record.players[1].name} (1)")
    positions = list(record.positions())
    index, last = 0, len(record.moves)
    while True:
        console.clear()
        console.print(f"[bold]{record.variant.name}[/bold]: {names[0]} against {names[1]}, move {index} of {last}")
        for line in _frame(record, positions, index, names):
            console.print(line)
        console.print(f"[dim]{KEYS_HELP}[/dim]")
        key = read_key()
        if key in QUIT:
            return index
        if key in FORWARD:
            index = min(last, index + 1)
        elif key in BACK:
            index = max(0, index - 1)
        elif key in FIRST:
            index = 0
        elif key in LAST:
            index = last


def _external_players_to_run(record: GameRecord, allow_exec: bool) -> frozenset[int]:
    """The record's players that run programs or read files and may be re-run: all with
    --allow-exec, else those a person at the terminal agrees to (none without a terminal)."""
    from .exit import fail

    external = [
        (number, info.spec, reach)
        for number, info in enumerate(record.players)
        if (reach := external_access(info.spec)) is not None
    ]
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
        file: Path = typer.Argument(
            ..., metavar="FILE", help="A game record (JSON) written by kalah play, the web board or the arena."
        ),
        recompute_moves: bool = typer.Option(
            False,
            "--recompute",
            help="Re-run the recorded computer players and report every move they now choose differently.",
        ),
        delay: float = typer.Option(
            0.0, "--delay", metavar="SECONDS", help="Seconds to pause between moves (plays the game through)."
        ),
        keys: bool | None = typer.Option(
            None,
            "--keys/--no-keys",
            help="Step with the keys (→ ← g G q); default:"
            " on when the input and output are a terminal and no --delay is given.",
        ),
        allow_exec: bool = typer.Option(
            False,
            "--allow-exec",
            help="With --recompute: run the record's exec: players (programs named in the file) without asking.",
        ),
    ) -> None:
        """Show a recorded game move by move: step with the arrow keys on a terminal, else played through."""
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
            differ = "differs" if len(differences) == 1 else "differ"
            console.print(f"{len(differences)} of {plural(checked, 'computer move')} {differ} from the record.")
            raise typer.Exit(1 if differences else 0)
        if keys is None:
            keys = sys.stdin.isatty() and sys.stdout.isatty() and delay == 0
        elif keys and not sys.stdin.isatty():
            fail("--keys needs a terminal to read the keys from")
        if keys:
            step_through(record, console, click.getchar)
            return
        console.print(f"[bold]{record.variant.name}[/bold]: {names[0]} against {names[1]}, {record.started_at}")
        positions = list(record.positions())
        console.print(board_text(positions[0], names=names))
        for number, (before, recorded) in enumerate(zip(positions, record.moves, strict=False), 1):
            after, effect = before.play_explained(recorded.move)
            event = MoveEvent(
                number, recorded.player, recorded.move, before, after, effect, recorded.seconds, recorded.info
            )
            console.print()
            console.print(describe_move(event, names))
            console.print(board_text(after, event, names))
            if delay > 0:
                time.sleep(delay)
        console.print()
        final = positions[-1]
        console.print(
            result_line(final, names)
            if final.is_over
            else f"Unfinished game ({record.stop_reason or 'stopped'}) after {plural(len(record.moves), 'move')}."
        )
