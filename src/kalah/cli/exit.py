"""How a command stops: an error (exit 2), Ctrl-C (exit 130), and work that Ctrl-C can stop."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import NoReturn

import typer

__all__ = ["fail", "interrupted", "wait_for"]


def fail(message: str) -> None:
    """Stop a command with a one-line error and exit code 2."""
    typer.echo(f"kalah: error: {message}", err=True)
    raise typer.Exit(2)


def wait_for(work: Callable[[], None], stop: Callable[[], None]) -> None:
    """Run ``work`` in a daemon thread until it ends; on Ctrl-C call ``stop`` and re-raise."""
    thread = threading.Thread(target=work, name="kalah-worker", daemon=True)
    thread.start()
    try:
        while thread.is_alive():
            thread.join(0.05)
    except KeyboardInterrupt:
        stop()
        thread.join(1.0)  # a stopped search returns within moments; UCT does not, and is left behind (a daemon)
        raise


def interrupted(what: str) -> NoReturn:
    """Stop a command that Ctrl-C interrupted with one line on stderr saying what was stopped or kept, and
    exit code 130. A long command calls it from its ``except KeyboardInterrupt``: typer turns a
    KeyboardInterrupt that escapes a command into exit 130 without a word, before ``main`` sees it."""
    typer.echo(f"kalah: interrupted: {what}", err=True)
    raise typer.Exit(130) from None
