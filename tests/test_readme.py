"""The README and docs/ are executable: their Python example runs, every command line they show
parses with exactly the options it names, and their concrete commands run (long ones on small
arguments, by the substitutions listed here), so a documented feature cannot break silently."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
KALAH = shutil.which("kalah")
pytestmark = pytest.mark.skipif(KALAH is None, reason="the kalah command is not installed (pip install .)")

# Concrete commands of the documents that take minutes or gigabytes, and what the test runs instead
# (the same command and options on a small case).
SUBSTITUTIONS = {
    "kalah endgame build -k 28": "kalah endgame build -k 8 --path {tmp}",
    "kalah endgame build -k 26": "kalah endgame build -k 8 --path {tmp}",
    "kalah endgame build -k 30": "kalah endgame build -k 8 --path {tmp}",
    "kalah solve --seeds 6 --time 3600": "kalah solve --seeds 6 --time 2",
    "kalah solve --seeds 5": "kalah solve --seeds 5 --time 2",
    "kalah solve --seeds 5 --json": "kalah solve --seeds 5 --json --time 2",
    "kalah play": "kalah play --player1 random:seed=1",  # a person types: stdin ends the game
    "kalah solve --seeds 4 --time 10": "kalah solve --seeds 4 --time 1",
    "kalah solve --pits 7 --seeds 3": "kalah solve --pits 7 --seeds 3 --time 2",
    "kalah solve -p '[[0,7,0,8,8,8,2],[7,7,7,6,6,6,0]]' --to-move 1 --time 1800 --json": (
        "kalah solve -p '[[0,7,0,8,8,8,2],[7,7,7,6,6,6,0]]' --to-move 1 --time 2 --json"
    ),
    "kalah solve -p '[[6,6,6,6,6,0,1],[7,7,7,7,7,6,0]]' --to-move 1 --time 1800 --json": (
        "kalah solve -p '[[6,6,6,6,6,0,1],[7,7,7,7,7,6,0]]' --to-move 1 --time 2 --json"
    ),
    "kalah endgame build --pits 6 -k 24": "kalah endgame build --pits 6 -k 8 --path {tmp}",
    "kalah endgame build --pits 6 -k 24 --empty-capture": "kalah endgame build --pits 6 -k 8 --empty-capture --path {tmp}",
    "kalah endgame build --pits 7 -k 22": "kalah endgame build --pits 7 -k 8 --path {tmp}",
    "kalah endgame build --pits 7 -k 22 --empty-capture": "kalah endgame build --pits 7 -k 8 --empty-capture --path {tmp}",
    # a Kalah(6,4) book move takes an hour: a small book, and never the package's own file
    "kalah book build --seeds 4 --moves 6": "kalah book build --pits 4 --seeds 3 --moves 2 --out {tmp}/book.json.gz",
    "kalah book build --seeds 5 --plies 4 --threads 2": "kalah book build --pits 4 --seeds 3 --plies 4 --threads 2 --out {tmp}/book.json.gz",
}

# A run of the table of values takes hours, so the test runs the same command and options on the
# one-seed version of each board it names, within a minute (in its own directory, as every command).
TABLE_RUN = re.compile(r"(kalah solve --table --values \S+) --boards (\S+)(.*) --time \d+")


def small_twin(command: str) -> str:
    """What the test runs for a documented command: its substitution, a table run's small twin, or itself."""
    if command in SUBSTITUTIONS:
        return SUBSTITUTIONS[command]
    run = TABLE_RUN.fullmatch(command)
    if run is None:
        return command
    boards = ",".join(item.split("x")[0] + "x1" for item in run.group(2).split(","))
    return f"{run.group(1)} --boards {boards}{run.group(3)} --time 60"


def _synopses() -> list[tuple[str, str]]:
    """Indented command lines (``    kalah ...``) with the continuation lines that follow them."""
    found = []
    for document in DOCUMENTS:
        lines = document.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines):
            if line.startswith("    kalah "):
                text = line.strip()
                for follow in lines[number + 1 :]:
                    if not follow.startswith("      ") or follow.strip().startswith("kalah "):
                        break
                    text += " " + follow.strip()
                found.append((f"{document.name}:{number + 1}", text.split("#")[0].strip()))
    return found


def _command_words(text: str) -> list[str]:
    """The subcommand path of a synopsis: kalah games [--db PATH] list ... -> ['games', 'list']."""
    words = []
    for word in re.sub(r"\[[^\]]*\]", " ", text).split()[1:]:
        if not re.fullmatch(r"[a-z]+", word):
            break
        words.append(word)
    return words


SYNOPSES = _synopses()


@pytest.mark.parametrize("where, text", SYNOPSES, ids=[where for where, _ in SYNOPSES])
def test_every_option_a_document_names_exists(where, text):
    words = _command_words(text)
    assert words, f"{where}: no command in {text!r}"
    help_text = subprocess.run([KALAH, *words, "--help"], capture_output=True, text=True, timeout=60)
    assert help_text.returncode == 0, (where, help_text.stderr)
    for option in sorted(set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*|-[a-zA-Z0-9])\b", text))):
        if option in ("-p",) and words == ["arena"]:
            option = "--player"
        assert option in help_text.stdout, f"{where}: {' '.join(words)} has no option {option}"


def _concrete_commands() -> list[tuple[str, str]]:
    """Commands the documents give in full: in backquotes, or indented without placeholders."""
    found = []
    for document in DOCUMENTS:
        text = document.read_text(encoding="utf-8")
        for command in re.findall(r"`(kalah [^`]*)`", text):
            if "..." not in command and len(command.split()) > 2:  # `kalah serve` in prose names a command
                found.append((document.name, " ".join(command.split())))  # one line, also where prose wraps it
        for command in re.findall(r"^    (kalah [^\[\n]*?)(?:\s+#.*)?$", text, re.M):
            if not re.search(r"[A-Z]{2,}|\.\.\.", command):
                found.append((document.name, command.strip()))
    for document in DOCUMENTS[:1]:
        quick = re.search(r"```sh\n(.*?)```", document.read_text(encoding="utf-8"), re.S)
        assert quick is not None, "the README has a Quick start"
        for line in quick.group(1).splitlines():
            for part in line.split("&&"):
                if part.strip().startswith("kalah"):
                    found.append((document.name, part.strip()))
    return sorted(set(found))


COMMANDS = _concrete_commands()


@pytest.mark.parametrize("where, command", COMMANDS, ids=[command for _, command in COMMANDS])
def test_every_concrete_command_runs(where, command, tmp_path):
    run = small_twin(command).format(tmp=tmp_path)
    if "my_bot.py" in run:  # the bot of docs/mankalah.md, saved where its commands run, as the page says
        (tmp_path / "my_bot.py").write_text(documented_bot())
    if "--db class.sqlite list" in run:  # docs/classroom.md lists the library its class server made there
        from kalah.records import GameLibrary

        GameLibrary(tmp_path / "class.sqlite")
    # A data directory of its own: what a command writes there (a database, a game) must not reach other tests.
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "KALAH_ENDGAME_DIR": str(tmp_path / "endgame")}
    result = subprocess.run(
        shlex.split(run.replace("kalah", KALAH, 1)),
        capture_output=True,
        text=True,
        timeout=300,
        input="",
        cwd=tmp_path,
        env=env,
    )
    assert result.returncode == 0 or "end of input" in result.stdout, (where, run, result.stderr[-1000:])


def test_the_python_example_runs():
    readme = DOCUMENTS[0].read_text(encoding="utf-8")
    example = re.search(r"```python\n(.*?)```", readme, re.S)
    assert example is not None
    namespace: dict = {}
    exec(compile(example.group(1), "README.md (Python example)", "exec"), namespace)
    import kalah

    assert namespace["result"].best_move in namespace["position"].legal_moves()
    comment = re.search(
        r"kalah\.solve\(kalah\.Position\.start\(kalah\.Variant\(6, 3\)\)\)\.value\s+# exact: ([+-]\d+)",
        example.group(1),
    )
    assert comment is not None and kalah.solve(kalah.Position.start(kalah.Variant(6, 3))).value == int(comment.group(1))


def test_the_table_of_figures_is_what_the_benchmarks_measured():
    """The README's figures come from benchmarks/results/figures.json, which the scripts write."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("figures", ROOT / "benchmarks" / "figures.py")
    assert spec and spec.loader
    figures = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(figures)
    readme = (ROOT / "README.md").read_text()
    kept = figures.load()
    assert set(figures.ORDER) <= set(kept), "a README figure has no measurement in benchmarks/results/figures.json"
    assert figures.drawn(readme, kept) == readme, "run python benchmarks/figures.py to redraw the README's table"
    for figure in kept.values():
        assert (ROOT / "benchmarks" / "results" / figure["source"]).exists(), figure
        assert figure["command"].startswith("python benchmarks/"), figure


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_every_python_example_of_the_documents_runs(document):
    text = document.read_text(encoding="utf-8")
    if "import pyspiel" in text:
        # OpenSpiel is the optional extra [openspiel], not in [test]; on a machine without its wheel the
        # Quick start's test command must still pass
        pytest.importorskip("pyspiel")
    for number, example in enumerate(re.findall(r"```python\n(.*?)```", text, re.S)):
        exec(compile(example, f"{document.name} (Python example {number + 1})", "exec"), {})


def documented_bot() -> str:
    """The first bot of docs/mankalah.md: the indented block after "Save it as `my_bot.py`"."""
    text = (ROOT / "docs" / "mankalah.md").read_text(encoding="utf-8")
    block = re.search(r"Save it as `my_bot\.py`\.\n\n((?:    .*\n|\n)+)", text)
    assert block is not None, "docs/mankalah.md shows a bot saved as my_bot.py"
    return textwrap.dedent(block.group(1))


def test_the_documented_bot_plays_legal_games_as_an_exec_player(tmp_path):
    """The protocol page's bot, run as an exec: player from both seats, never forfeits (it follows the page)."""
    from kalah.arena import Arena, builtin_openings, run_arena
    from kalah.mankalah import MANKALAH
    from kalah.records import GameLibrary

    bot = tmp_path / "my_bot.py"
    bot.write_text(documented_bot())
    arena = Arena([f"exec:{sys.executable} {bot}", "random:seed=5"], MANKALAH, 4, builtin_openings(MANKALAH, 2)[:1] * 2)
    library = GameLibrary(tmp_path / "games.sqlite")
    assert run_arena(arena, library, jobs=1) == 4
    results = arena.results(library)
    assert results.games_played == 4 and results.forfeits == [], results.forfeits


def test_every_link_between_documents_leads_to_a_file():
    for document in DOCUMENTS:
        text = document.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)#:]+\.md)(?:#[^)]*)?\)", text):
            assert (document.parent / target).is_file(), f"{document.name} links to {target}, which is not there"
        for named in re.findall(r"`([A-Za-z_/]+\.md)`", text):
            assert (ROOT / named).is_file() or (document.parent / named).is_file(), f"{document.name} names {named}"
