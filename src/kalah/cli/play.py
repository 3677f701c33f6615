"""``kalah play``: a game in the terminal between people and/or engines."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Optional, Sequence

import typer
from rich.console import Console

from kalah.match import GameResult, MoveEvent, Observer, play_game
from kalah.players import HumanPlayer, make_player
from kalah.players.base import Player
from kalah.records import RecordFileWriter
from kalah.rules import Position

from . import fail
from .options import EMPTY_CAPTURE, PIE_RULE, PITS, SEEDS, make_variant
from .terminal import board_text, describe_move, result_line, terminal_asker

# The opponent a newcomer meets: the strongest engine, about a second a move.
DEFAULT_OPPONENT = "pvs:time=1"


class TerminalDisplay(Observer):
    """Shows the board after every move, with what the move did."""

    def __init__(self, console: Console, delay: float = 0.0) -> None:
        self.console = console
        self.delay = delay
        self.names: tuple[str, str] = ("player 0", "player 1")

    def game_started(self, start: Position, players: Sequence[Player]) -> None:
        self.names = (f"{players[0].name} (0)", f"{players[1].name} (1)")
        self.console.print(f"[bold]{start.variant.name}[/bold]: {self.names[0]} against {self.names[1]}")
        self.console.print(board_text(start, names=self.names))

    def move_played(self, event: MoveEvent) -> None:
        self.console.print()
        self.console.print(describe_move(event, self.names))
        self.console.print(board_text(event.after, event, self.names))
        if self.delay:
            time.sleep(self.delay)

    def game_ended(self, result: GameResult) -> None:
        self.console.print()
        if result.finished:
            self.console.print(f"[bold]{result_line(result.final, self.names)}[/bold]")
        else:
            self.console.print(f"Game stopped ({result.stop_reason}) after {result.moves} moves.")


def register(app: typer.Typer) -> None:
    @app.command()
    def play(
        player0: str = typer.Option("human", "--player0", "-0", help="Who moves first: a player spec such as human, random:seed=3, pvs:time=1."),
        player1: Optional[str] = typer.Option(None, "--player1", "-1", help="Who moves second (default: the strongest engine available, about a second a move)."),
        pits: int = PITS,
        seeds: int = SEEDS,
        empty_capture: bool = EMPTY_CAPTURE,
        pie_rule: bool = PIE_RULE,
        record: Optional[Path] = typer.Option(None, "--record", help="Write the game record (JSON) to this file, after every move."),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="Computer against computer without the board: print only the result."),
        delay: float = typer.Option(0.0, "--delay", help="Seconds to pause after each move, to watch engines play."),
    ) -> None:
        """Play a game in the terminal. Type a pit letter (or its number) to move."""
        variant = make_variant(pits, seeds, empty_capture, pie_rule)
        if delay < 0:
            fail(f"--delay must not be negative, got {delay}")
        players = [make_player(player0), make_player(player1 or DEFAULT_OPPONENT)]
        console = Console(highlight=False)
        humans = [p for p in players if isinstance(p, HumanPlayer)]
        if quiet and humans:
            fail("--quiet needs two computer players (a human must see the board)")
        for human in humans:
            human.ask = terminal_asker(console, input)
        observers: list[Observer] = [] if quiet else [TerminalDisplay(console, delay)]
        if record is not None:
            observers.append(RecordFileWriter(record))
        result = play_game(players, Position.start(variant), observers)
        if quiet:
            names = (players[0].name, players[1].name)
            console.print(result_line(result.final, names) if result.finished else f"stopped: {result.stop_reason}")
        if result.stop_reason == "interrupted":
            raise typer.Exit(130)
