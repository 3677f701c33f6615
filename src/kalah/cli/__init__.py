"""The ``kalah`` command line.

Each command lives in a module of this package that defines ``register(app)``;
``COMMAND_MODULES`` lists them in the order ``kalah --help`` shows them.
Library errors (``KalahError``) become one line on stderr and exit code 2.
"""

from __future__ import annotations

import importlib
import sys

import typer

from kalah.rules import KalahError

COMMAND_MODULES = [
    "play",
    "replay",
    "serve",
    "games",
    "analyse",
    "compare",
    "solve",
    "endgame",
    "arena",
    "mankalah",
]

app = typer.Typer(
    name="kalah",
    help="Play, study and solve the board game Kalah.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _register_commands() -> None:
    for module in COMMAND_MODULES:
        importlib.import_module(f"{__name__}.{module}").register(app)


@app.callback()
def _root(
    version: bool = typer.Option(False, "--version", help="Print the version and exit.", is_eager=True),
) -> None:
    if version:
        from kalah import __version__

        typer.echo(f"kalah {__version__}")
        raise typer.Exit()


def fail(message: str) -> None:
    """Stop a command with a one-line error and exit code 2."""
    typer.echo(f"kalah: error: {message}", err=True)
    raise typer.Exit(2)


def main(argv: list[str] | None = None) -> int:
    """Run the ``kalah`` command line with ``argv`` (default: ``sys.argv[1:]``); returns the exit code."""
    _register_commands()
    try:
        app(args=argv, prog_name="kalah", standalone_mode=True)
    except SystemExit as stop:
        return int(stop.code or 0) if not isinstance(stop.code, str) else 2
    except KalahError as error:
        typer.echo(f"kalah: error: {error}", err=True)
        return 2
    except KeyboardInterrupt:
        typer.echo("kalah: interrupted", err=True)
        return 130
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
