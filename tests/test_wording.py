"""Messages and output in words: a count agrees with its noun ("1 move", "2 moves"), a value a message
quotes back is spelled as JSON spells it (``null``, ``true``), never as Python does (``None``, ``True``),
and a list of moves is pit letters joined with commas, not a Python list."""

from __future__ import annotations

import doctest
import json
import subprocess
import sys

import pytest
from rich.console import Console

from kalah.players import make_player
from kalah.puzzles import Puzzle, PuzzleError
from kalah.records import GameRecord, PlayerInfo, RecordError
from kalah.rules import InvalidPositionError, InvalidVariantError, Position, Variant, wording
from kalah.rules.wording import kind, plural, shown

PYTHON_SPELLINGS = ("None", "True", "False", "NoneType", "'int'", "[1, 3]")


def run_kalah(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kalah.cli", *args], capture_output=True, text=True, timeout=120)


def test_the_examples_run():
    failures, tried = doctest.testmod(wording)
    assert tried == 3 and failures == 0


def test_plural():
    assert [plural(n, "move") for n in (0, 1, 2)] == ["0 moves", "1 move", "2 moves"]
    assert plural(1, "entry", "entries") == "1 entry" and plural(3, "ply", "plies") == "3 plies"
    assert (
        plural(10_000, "playout") == "10,000 playouts" and plural(10_000, "playout", grouped=False) == "10000 playouts"
    )


def test_values_are_spelled_as_json_spells_them():
    assert [shown(v) for v in (None, True, False, 4, 2.5, "x", [1, None])] == [
        "null",
        "true",
        "false",
        "4",
        "2.5",
        "'x'",
        "[1, null]",
    ]
    assert [kind(v) for v in ({}, [], (), "", 1, 1.5, None, True)] == [
        "an object",
        "a list",
        "a list",
        "text",
        "a number",
        "a number",
        "null",
        "true",
    ]


@pytest.mark.parametrize(
    "data, expected",
    [
        ({"board": [[1, 0], [1, 0]], "to_move": None}, "to_move must be 0 or 1, got null"),
        ({"board": [[1, 0], [1, 0]], "to_move": True}, "to_move must be 0 or 1, got true"),
        ({"board": [[1, 0], [1, None]]}, "board[1][1] must be an integer, got null"),
        ({"board": [[4], [4, 0]]}, "player 0's row has 1 entry; it needs pits and a store"),
        ({"board": [[4, 0], [4, 0]], "variant": {"pits": 2}}, "player 0's row has 2 entries; Kalah(2,4) needs 2 pits"),
        ({"board": [[4, 0, 0], [4, 0]]}, "the rows have different lengths"),
        ({"board": "4,4"}, "a board is two rows of counts, got text"),
        ({"board": [5, [4, 0]]}, "player 0's row must be a list of counts, got a number"),
        ({"board": [[1, 0], [1, 0]], "variant": {"seeds": True}}, "seeds must be an integer, got true"),
        ({"board": [[1, 0], [1, 0]], "variant": {"pie_rule": None}}, "pie_rule must be true or false, got null"),
        ({"board": [[1, 0], [1, 0]], "variant": [1]}, "a variant must be a JSON object, got a list"),
        ([[1, 0], [1, 0]], "a position must be a JSON object, got a list"),
    ],
)
def test_a_position_read_from_json_is_refused_in_words(data, expected):
    with pytest.raises((InvalidPositionError, InvalidVariantError)) as refused:
        Position.from_dict(data)
    assert expected in str(refused.value)
    assert not any(spelling in str(refused.value) for spelling in PYTHON_SPELLINGS), str(refused.value)


def test_a_variant_with_one_pit_says_one_pit():
    with pytest.raises(InvalidPositionError, match=r"row has 3 entries; Kalah\(1,4\) needs 1 pit and a store"):
        Position([[4, 0, 0], [4, 0, 0]], 0, Variant(1, 4))


def _record(**move_fields) -> dict:
    players = [PlayerInfo("a", "random"), PlayerInfo("b", "random")]
    record = json.loads(GameRecord(Position.start(Variant(2, 1)), players).to_json())
    record["moves"] = [{"number": 1, "player": 0, "move": 0, **move_fields}]
    return record


@pytest.mark.parametrize(
    "data, expected",
    [
        (_record(move=None), "move 1: null is not a pit index or 'swap'"),
        (_record(move=True), "move 1: true is not a pit index or 'swap'"),
        (_record(seconds=None), "'seconds' must be a non-negative number, got null"),
        (_record(player=None), "the record says player null moved"),
        ({**_record(), "format": None}, "format is null"),
        ({**_record(), "version": None}, "unsupported record version null"),
        (_record(board=[[0, 1, 1], [1, 1, 0]]), "the recorded board [[0, 1, 1], [1, 1, 0]] does not follow"),
        ([], "a game record is a JSON object, got a list"),
    ],
)
def test_a_damaged_record_is_refused_in_words(data, expected):
    with pytest.raises(RecordError) as refused:
        GameRecord.from_dict(data)
    assert expected in str(refused.value)
    assert not any(spelling in str(refused.value) for spelling in PYTHON_SPELLINGS), str(refused.value)


def test_a_damaged_puzzle_names_the_missing_field():
    with pytest.raises(PuzzleError, match="a puzzle cannot be read: it has no 'variant'$"):
        Puzzle.from_dict({"id": "x"})


def test_a_player_of_one_playout():
    assert make_player("mcts:playouts=1").name == "mcts (1 playout)"
    assert make_player("mcts").name == "mcts (10000 playouts)"  # a name keeps its number as the spec gives it


@pytest.mark.parametrize(
    "args, expected",
    [
        (["analyse", "-p", '{"board": [[1, 0], [1, 0]], "to_move": null}'], "to_move must be 0 or 1, got null"),
        (["solve", "-p", '{"board": [[1, 0], [1, true]]}'], "board[1][1] must be an integer, got true"),
        (["analyse", "-p", "[[4], [4, 0]]"], "player 0's row has 1 entry;"),
    ],
)
def test_the_command_line_refuses_in_words(args, expected):
    run = run_kalah(*args)
    assert run.returncode == 2 and run.stderr.count("\n") == 1 and run.stderr.startswith("kalah: error: ")
    assert expected in run.stderr
    assert not any(spelling in run.stderr for spelling in PYTHON_SPELLINGS), run.stderr


def test_counts_of_one_in_the_output(tmp_path):
    over = run_kalah("solve", "-p", "[[1,0],[0,0]]")
    assert "1 seed in the pits" in over.stdout, over.stdout
    database = run_kalah("endgame", "build", "--pits", "1", "--max-seeds", "1", "--path", str(tmp_path), "-q")
    assert "endgame database: 1 pit, up to 1 seed" in database.stdout, database.stdout
    info = run_kalah("endgame", "info", str(next(tmp_path.glob("*.egdb"))))
    assert "(1 pit, K=1): 3 positions" in info.stdout, info.stdout
    alone = run_kalah("compare", "--algorithms", "pvs", "--depths", "1", "--positions", "0", "--repeats", "1")
    assert "One algorithm, pvs: nothing to compare its 1 decision with." in " ".join(alone.stdout.split())


def test_the_stepping_replay_counts_one_move():
    from kalah.cli.replay import step_through
    from kalah.match import play_game
    from kalah.players import RandomPlayer
    from kalah.records import RecordBuilder

    builder = RecordBuilder()
    play_game([RandomPlayer(seed=1), RandomPlayer(seed=2)], Position.start(Variant(1, 1)), [builder])
    console = Console(record=True, width=100, force_terminal=False)
    step_through(builder.record, console, lambda: "q")
    assert "Start (1 move)" in console.export_text()
