"""The ``kalah`` command line.

Each command lives in a module of this package that defines ``register(app)``;
``COMMAND_MODULES`` lists them in the order ``kalah --help`` shows them.
Library errors (``KalahError``) become one line on stderr and exit code 2.
"""

from __future__ import annotations

import importlib
import sys

import click
import typer

from kalah.rules import KalahError

COMMAND_MODULES = [
    "play",
    "replay",
    "serve",
    "games",
    "analyse",
    "review",
    "puzzles",
    "compare",
    "solve",
    "endgame",
    "book",
    "arena",
    "mankalah",
    "kgp",
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


@app.callback(invoke_without_command=True)
def _root(
    version: bool = typer.Option(False, "--version", help="Print the version and exit.", is_eager=True),
) -> None:
    if version:
        from kalah.version import __version__

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
        # Not click's standalone mode: its parser errors come back here, to be written as one line.
        code = app(args=argv if argv is not None else sys.argv[1:], prog_name="kalah", standalone_mode=False)
    except SystemExit as stop:
        return int(stop.code or 0) if not isinstance(stop.code, str) else 2
    except KalahError as error:
        typer.echo(f"kalah: error: {error}", err=True)
        return 2
    except (KeyboardInterrupt, typer.Abort, click.Abort):
        typer.echo("kalah: interrupted", err=True)
        return 130
    except Exception as error:
        if type(error).__name__ == "NoArgsIsHelpError":  # a group named without its command: its help
            typer.echo(error.ctx.get_help())  # type: ignore[attr-defined]
            return 0
        if not _is_parser_error(error):
            raise
        typer.echo(f"kalah: error: {_one_line(error)}", err=True)
        return 2
    return code if isinstance(code, int) else 0


def _is_parser_error(error: Exception) -> bool:
    """A usage or bad-parameter error of click (or of the copy of click that newer typer versions carry)."""
    return callable(getattr(error, "format_message", None)) and isinstance(getattr(error, "exit_code", None), int)


def _one_line(error: Exception) -> str:
    """A parser error in one line: the problem, and where to find help."""
    message = " ".join(error.format_message().split())  # type: ignore[attr-defined]
    context = getattr(error, "ctx", None)
    if context is not None:
        message += f" (see '{context.command_path} --help')"
    return message


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
