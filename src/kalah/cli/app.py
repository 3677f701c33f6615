"""The ``kalah`` typer application: its commands, their help, and ``main``, which turns every error into
one line and an exit code."""

from __future__ import annotations

import importlib
import sys
from typing import Any

import click
import typer
from typer.core import TyperCommand, TyperGroup

from kalah.rules import KalahError

__all__ = ["COMMAND_MODULES", "app", "main", "register_commands"]

#: The modules of ``kalah.cli`` that define a command (``register(app)``), in the order of ``kalah --help``.
COMMAND_MODULES = [
    "play",
    "replay",
    "serve",
    "site",
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


def _without_type_placeholders(params: list[Any]) -> None:
    """Leave nothing beside a flag or an argument in a command's help: typer writes a type (``<bool>``,
    ``<path>``, ``<str>``) next to every parameter, flags and ``--help`` included, which tells a user
    nothing. A flag takes no value, and an argument's own name (FILE, ID, SERVER) says what it is; an
    option that takes a value names it by its metavar (N, SECONDS, FILE), set where it is declared."""
    for param in params:
        if getattr(param, "is_flag", False) or getattr(param, "count", False):
            param.metavar = ""  # typer and click both print a metavar that is set, here nothing
        elif param.param_type_name == "argument" and hasattr(param, "display_type_rich"):
            # typer's arguments print their type whatever their metavar: the instance answers none instead
            param.display_type_rich = lambda ctx: None


class _HelpCommand(TyperCommand):
    """A command whose help shows flags and arguments without type placeholders."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        _without_type_placeholders(self.get_params(ctx))
        super().format_help(ctx, formatter)


class _HelpGroup(TyperGroup):
    """A group (``kalah``, ``kalah games``, ...) whose help shows its flags without type placeholders."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        _without_type_placeholders(self.get_params(ctx))
        super().format_help(ctx, formatter)


app = typer.Typer(
    name="kalah",
    cls=_HelpGroup,
    help="Play, study and solve the board game Kalah.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def register_commands() -> None:
    """Add every command of ``COMMAND_MODULES`` to ``app`` (once a process: ``main`` does it)."""
    for module in COMMAND_MODULES:
        importlib.import_module(f"kalah.cli.{module}").register(app)
    _help_classes(app)


def _help_classes(group: typer.Typer) -> None:
    """Give every command and group of ``group`` the help without type placeholders, here rather than in
    each module's declarations, so that a command added later has it too."""
    for command in group.registered_commands:
        if command.cls in (None, TyperCommand):  # typer fills in its own class when none is given
            command.cls = _HelpCommand
    for subgroup in group.registered_groups:
        subgroup.cls = _HelpGroup  # the add_typer() level: typer takes it before the sub-app's own
        if subgroup.typer_instance is not None:
            _help_classes(subgroup.typer_instance)


@app.callback(invoke_without_command=True)
def _root(
    version: bool = typer.Option(False, "--version", help="Print the version and exit.", is_eager=True),
) -> None:
    if version:
        from kalah.version import __version__

        typer.echo(f"kalah {__version__}")
        raise typer.Exit()


def main(argv: list[str] | None = None) -> int:
    """Run the ``kalah`` command line with ``argv`` (default: ``sys.argv[1:]``); returns the exit code."""
    register_commands()
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
            # The error made the help when it was raised: rich help was printed then (its message is empty),
            # plain help is the message. Asking the context again would print rich help a second time.
            text = error.format_message()  # type: ignore[attr-defined]
            if text.strip():
                typer.echo(text)
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
