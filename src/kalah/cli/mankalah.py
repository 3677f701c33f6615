"""``kalah mankalah``: an agent for the ManKalah engine on standard input and output."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import typer

from .exit import fail


def register(app: typer.Typer) -> None:
    """Add ``kalah mankalah`` to the command line."""
    app.command("mankalah")(mankalah)


def mankalah(
    player: str | None = typer.Option(
        None, "--player", "-p", metavar="SPEC", help="Player spec to play with (default: a time-managed search)."
    ),
    move_time: float | None = typer.Option(
        None,
        "--move-time",
        metavar="SECONDS",
        help="Most seconds per move for the default player (default: 1/100 of the total, 36 s).",
    ),
    total_time: float = typer.Option(
        3600.0, "--total-time", metavar="SECONDS", help="The match's total time in seconds (ManKalah: one hour)."
    ),
    log: Path | None = typer.Option(None, "--log", metavar="FILE", help="Append the messages exchanged to this file."),
) -> None:
    """Play Kalah(7,7) with the pie rule against the ManKalah engine (protocol on stdin/stdout).

    Nothing but protocol messages is written to standard output.
    """
    from kalah.mankalah import ConnectionClosed, MankalahEngine, TimeBudget, run_agent
    from kalah.players import Player, make_player

    if total_time <= 0:
        fail(f"--total-time must be positive, got {total_time}")
    if move_time is not None and move_time <= 0:
        fail(f"--move-time must be positive, got {move_time}")
    chosen: Player
    if player is None:
        chosen = MankalahEngine(TimeBudget(total_time, move_time))
    else:
        chosen = make_player(player)
        if not getattr(chosen, "is_computer", False):
            fail(f"player {player!r} needs a person at a board; the agent plays computer players only")
    writer: Callable[[str], None] | None = None
    if log is not None:
        try:
            log_file = log.open("a", encoding="utf-8")
        except OSError as error:
            fail(f"cannot open the log {log}: {error.strerror or error}")

        def writer(text: str) -> None:
            log_file.write(text + "\n")
            log_file.flush()

    try:
        run_agent(chosen, sys.stdin, sys.stdout, log=writer)
    except ConnectionClosed as error:
        fail(str(error))
