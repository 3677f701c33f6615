"""``kalah play``: a game in the terminal between people and/or engines."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import typer
from rich.console import Console

from kalah.match import GameResult, MoveEvent, Observer, play_game
from kalah.players import HumanPlayer, make_player
from kalah.players.base import Player
from kalah.records import RecordFileWriter
from kalah.rules import Move, Position
from kalah.rules.wording import plural

from .exit import fail
from .options import EMPTY_CAPTURE, PIE_RULE, PITS, SEEDS, check_delay, check_output_path, make_variant
from .terminal import board_text, describe_move, result_line, terminal_asker

# The opponent a newcomer meets.
DEFAULT_OPPONENT = "pvs:time=1"


class PromptlyInterruptible:
    """A computer player that thinks in a thread of its own, so that Ctrl-C stops the game at once
    (the main thread only waits; compiled engines do not look at signals while they search)."""

    is_computer = True

    def __init__(self, player: Player) -> None:
        self.player = player
        self.name = player.name
        self.spec = player.spec

    def __getattr__(self, name: str) -> Any:  # last_info, reset, ...: those of the player
        return getattr(self.player, name)

    def choose_move(self, position: Position) -> Move:
        """The player's move; a KeyboardInterrupt here leaves the thinking thread behind (it is a daemon)."""
        answer: dict[str, Any] = {}

        def think() -> None:
            try:
                answer["move"] = self.player.choose_move(position)
            except BaseException as error:  # handed to the main thread
                answer["error"] = error

        thread = threading.Thread(target=think, name=f"kalah-{self.name}", daemon=True)
        thread.start()
        while thread.is_alive():
            thread.join(0.05)
        if "error" in answer:
            raise answer["error"]
        return answer["move"]


class TerminalDisplay(Observer):
    """Shows the board after every move, with what the move did."""

    def __init__(self, console: Console, delay: float = 0.0, bottom: int = 0, viewer: int | None = None) -> None:
        self.console = console
        self.delay = delay
        self.bottom = bottom  # whose row is drawn at the bottom: the person's
        self.viewer = viewer  # the one person playing: engines' values are told from their side
        self.names: tuple[str, str] = ("player 0", "player 1")

    def game_started(self, start: Position, players: Sequence[Player]) -> None:
        """Show the players and the starting board."""
        self.names = (f"{players[0].name} (0)", f"{players[1].name} (1)")
        self.console.print(f"[bold]{start.variant.name}[/bold]: {self.names[0]} against {self.names[1]}")
        self.console.print(board_text(start, names=self.names, bottom=self.bottom))

    def move_played(self, event: MoveEvent) -> None:
        """Show the move, what it did, and the board after it."""
        self.console.print()
        self.console.print(describe_move(event, self.names, self.viewer))
        self.console.print(board_text(event.after, event, self.names, bottom=self.bottom))
        if self.delay:
            time.sleep(self.delay)

    def moves_taken_back(self, position: Position, count: int) -> None:
        """Say what was taken back and show the board again."""
        if not count:
            self.console.print("Nothing to take back yet.")
            return
        self.console.print()
        self.console.print(f"Took back {plural(count, 'move')}.")
        self.console.print(board_text(position, names=self.names, bottom=self.bottom))

    def game_ended(self, result: GameResult) -> None:
        """Show the final score."""
        self.console.print()
        if result.finished:
            self.console.print(f"[bold]{result_line(result.final, self.names)}[/bold]")
        else:
            self.console.print(f"Game stopped ({result.stop_reason}) after {plural(result.moves, 'move')}.")


def register(app: typer.Typer) -> None:
    """Add ``kalah play`` to the command line."""

    @app.command()
    def play(
        player0: str = typer.Option(
            "human",
            "--player0",
            "-0",
            metavar="SPEC",
            help="Who moves first: a player spec such as human, random:seed=3, pvs:time=1.",
        ),
        player1: str | None = typer.Option(
            None,
            "--player1",
            "-1",
            metavar="SPEC",
            help="Who moves second (default: the strongest engine available, about a second a move).",
        ),
        pits: int = PITS,
        seeds: int = SEEDS,
        empty_capture: bool = EMPTY_CAPTURE,
        pie_rule: bool = PIE_RULE,
        record: Path | None = typer.Option(
            None, "--record", metavar="FILE", help="Write the game record (JSON) to this file, after every move."
        ),
        quiet: bool = typer.Option(
            False, "--quiet", "-q", help="Computer against computer without the board: print only the result."
        ),
        delay: float = typer.Option(
            0.0, "--delay", metavar="SECONDS", help="Seconds to pause after each move, to watch engines play."
        ),
    ) -> None:
        """Play a game in the terminal. Type a pit letter (or its number) to move; hint, undo, ? for help."""
        check_output_path(record, "--record")
        variant = make_variant(pits, seeds, empty_capture, pie_rule)
        check_delay(delay)
        players: list[Player] = [make_player(player0), make_player(player1 or DEFAULT_OPPONENT)]
        console = Console(highlight=False)
        humans = [p for p in players if isinstance(p, HumanPlayer)]
        if quiet and humans:
            fail("--quiet needs two computer players (a human must see the board)")
        for human in humans:
            human.ask = terminal_asker(console, input)
        players = [player if isinstance(player, HumanPlayer) else PromptlyInterruptible(player) for player in players]
        seats = [number for number, player in enumerate(players) if isinstance(player, HumanPlayer)]
        bottom = seats[0] if len(seats) == 1 else 0  # a person plays from the bottom row, whichever seat
        viewer = seats[0] if len(seats) == 1 else None
        observers: list[Observer] = [] if quiet else [TerminalDisplay(console, delay, bottom, viewer)]
        if record is not None:
            observers.append(RecordFileWriter(record))
        result = play_game(players, Position.start(variant), observers)
        if quiet:
            names = (players[0].name, players[1].name)
            console.print(result_line(result.final, names) if result.finished else f"stopped: {result.stop_reason}")
        if result.stop_reason == "interrupted":
            raise typer.Exit(130)
