"""Every ``--help`` of the command line reads as words: no type placeholder (``<bool>``, ``<int>``,
``<path>``) beside an option, a flag or an argument; a value an option takes is named by its metavar."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
import typer

from kalah.cli import app, main, register_commands

register_commands()


def _commands() -> list[tuple[list[str], object]]:
    """Every command and group of ``kalah``, as the words that name it and its click command."""
    found = []

    def walk(words: list[str], command) -> None:
        found.append((words, command))
        for name, sub in sorted(getattr(command, "commands", {}).items()):
            walk([*words, name], sub)

    walk([], typer.main.get_command(app))
    return found


COMMANDS = _commands()
PLACEHOLDER = re.compile(r"<[a-z][a-z_ \[\]]*>")


def test_every_command_is_visited():
    names = {" ".join(words) for words, _ in COMMANDS}
    assert {"", "play", "games export", "arena serve", "puzzles build", "book show", "endgame info"} <= names


@pytest.mark.parametrize("words", [words for words, _ in COMMANDS], ids=lambda words: " ".join(words) or "kalah")
def test_help_shows_no_type_placeholders(words, capsys):
    assert main([*words, "--help"]) == 0
    shown = capsys.readouterr().out
    assert "Show this message and exit." in shown
    assert not PLACEHOLDER.findall(shown), shown


@pytest.mark.parametrize(
    "words, command", COMMANDS, ids=lambda value: " ".join(value) if isinstance(value, list) else ""
)
def test_every_value_is_named_in_words(words, command):
    for param in command.params:
        takes_value = not (getattr(param, "is_flag", False) or getattr(param, "count", False))
        if takes_value:
            assert param.metavar and param.metavar == param.metavar.strip(), (words, param.name)
            assert not param.metavar.islower(), (words, param.name, param.metavar)  # FILE, N, auto|none|FILE


@pytest.mark.parametrize(
    "args, message",
    [
        (["replay"], "Missing argument 'FILE'"),
        (["games", "export", "x"], "Invalid value for 'ID'"),
        (["kgp"], "Missing argument 'SERVER'"),
        (["play", "--quiet=yes"], "Option '--quiet' does not take a value"),
        (["solve", "--time", "soon"], "'--time'"),
    ],
)
def test_a_misuse_still_says_so_in_one_line(args, message):
    run = subprocess.run([sys.executable, "-m", "kalah.cli", *args], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert run.stderr.startswith("kalah: error: ") and run.stderr.count("\n") == 1, run.stderr
    assert message in run.stderr


@pytest.mark.parametrize(
    "words", [[], ["games"], ["puzzles"], ["endgame"], ["book"]], ids=lambda w: " ".join(w) or "kalah"
)
def test_a_group_named_without_its_command_shows_its_help_once(words):
    run = subprocess.run([sys.executable, "-m", "kalah.cli", *words], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and run.stderr == ""
    assert run.stdout.count("Show this message and exit.") == 1, run.stdout


@pytest.mark.parametrize("module", ["kalah", "kalah.cli"])
def test_python_dash_m_runs_the_kalah_command(module):
    # for an environment whose scripts directory is not on the PATH (pip install --user, some Windows setups)
    run = subprocess.run([sys.executable, "-m", module, "--help"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert "Usage: kalah " in run.stdout
    misuse = subprocess.run([sys.executable, "-m", module, "replay"], capture_output=True, text=True, timeout=60)
    assert misuse.returncode == 2 and "Missing argument 'FILE'" in misuse.stderr
