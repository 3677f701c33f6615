"""``kalah play`` and ``kalah replay`` as a person or a script uses them."""

import json
import subprocess
import sys

import pytest

from kalah import Position


def kalah(*args, input=None):
    return subprocess.run(
        [sys.executable, "-m", "kalah.cli", *args], input=input, capture_output=True, text=True, timeout=120
    )


def test_quiet_game_prints_only_the_result():
    run = kalah("play", "--player0", "random:seed=1", "--player1", "random:seed=2", "--quiet")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.strip().splitlines()
    assert len(lines) == 1 and ("wins" in lines[0] or "Draw" in lines[0])


def test_watching_two_computers_shows_every_move(tmp_path):
    record = tmp_path / "game.json"
    run = kalah(
        "play",
        "-0",
        "random:seed=1",
        "-1",
        "random:seed=2",
        "--pits",
        "4",
        "--seeds",
        "3",
        "--empty-capture",
        "--record",
        str(record),
    )
    assert run.returncode == 0, run.stderr
    data = json.loads(record.read_text())
    assert data["variant"] == {"pits": 4, "seeds": 3, "empty_capture": True, "pie_rule": False}
    assert run.stdout.count("plays") == len(data["moves"])
    assert "A   B   C   D" in run.stdout and "d   c   b   a" in run.stdout


def test_human_types_letters_and_bad_input_is_asked_again(tmp_path):
    record = tmp_path / "game.json"
    # q stops the game (the moves typed after it are never read)
    run = kalah("play", "-1", "random:seed=1", "--record", str(record), input="c\nzz\nd\nq\ne\nf\n")
    assert run.returncode == 0, run.stderr
    assert "'zz' is not a pit; legal:" in run.stdout
    assert "Game stopped (player 0 quit) after 4 moves." in run.stdout  # the person stopped it, not the input
    data = json.loads(record.read_text())
    assert data["moves"][0]["move"] == 2 and data["moves"][1]["move"] == 3  # C, then (extra turn) D
    assert len(data["moves"]) == 4  # and the random player's two answers (an extra turn); then q
    assert data["result"]["finished"] is False and data["result"]["stop_reason"] == "player 0 quit"


def test_the_end_of_input_is_not_taken_for_a_person_quitting():
    run = kalah("play", "-1", "random:seed=1", input="a\n")
    assert "Game stopped (end of input) after 2 moves." in run.stdout  # A, the answer, then nothing to read


def test_two_humans_on_one_terminal():
    run = kalah("play", "-0", "human", "-1", "human", input="a\nf\n")
    assert run.returncode == 0
    assert "1. human (0) plays A" in run.stdout and "2. human (1) plays f" in run.stdout  # every move numbered


def test_pie_rule_swap_typed_by_a_person():
    run = kalah(
        "play", "-0", "random:seed=1", "-1", "human", "--pits", "7", "--seeds", "7", "--pie-rule", input="swap\n"
    )
    assert "plays swap" in run.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["play", "-0", "nobody"], "unknown player 'nobody'"),
        (["play", "--pits", "13", "-0", "random", "-1", "random"], "pits must be between 1 and 12"),
        (["play", "-0", "human", "-1", "random", "--quiet"], "--quiet needs two computer players"),
        (["play", "-0", "random:seed=x", "-1", "random"], "seed must be an integer"),
        (["replay", "/nonexistent/game.json"], "cannot read"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(args, message):
    run = kalah(*args)
    assert run.returncode == 2
    assert message in run.stderr and len(run.stderr.strip().splitlines()) == 1
    assert "Traceback" not in run.stderr


def test_replay_shows_the_game(tmp_path):
    record = tmp_path / "game.json"
    kalah("play", "-0", "random:seed=3", "-1", "random:seed=4", "--quiet", "--record", str(record))
    run = kalah("replay", str(record))
    assert run.returncode == 0, run.stderr
    data = json.loads(record.read_text())
    assert run.stdout.count("plays") == len(data["moves"])
    assert "wins" in run.stdout or "Draw" in run.stdout


def test_replay_recompute(tmp_path):
    record = tmp_path / "game.json"
    kalah("play", "-0", "random:seed=3", "-1", "random:seed=4", "--quiet", "--record", str(record))
    same = kalah("replay", str(record), "--recompute")
    assert same.returncode == 0 and "0 of" in same.stdout
    data = json.loads(record.read_text())
    data["players"][1]["spec"] = "random:seed=5"  # a different engine now plays player 1's moves
    record.write_text(json.dumps(data))
    changed = kalah("replay", str(record), "--recompute")
    assert changed.returncode == 1
    assert "(player 1, random:seed=5): recorded" in changed.stdout
    assert "(player 0" not in changed.stdout


def test_replay_of_a_damaged_record_names_the_move(tmp_path):
    record = tmp_path / "game.json"
    kalah("play", "-0", "random:seed=3", "-1", "random:seed=4", "--quiet", "--record", str(record))
    data = json.loads(record.read_text())
    data["moves"][6]["board"][1][6] += 3
    record.write_text(json.dumps(data))
    run = kalah("replay", str(record))
    assert run.returncode == 2 and "move 7" in run.stderr


def test_the_replay_player_plays_a_recorded_game_again(tmp_path):
    first = tmp_path / "first.json"
    again = tmp_path / "again.json"
    run = kalah("play", "-q", "--player0", "random:seed=1", "--player1", "random:seed=2", "--record", str(first))
    assert run.returncode == 0, run.stderr
    run = kalah("play", "-q", "--player0", f"replay:file={first}", "--player1", "random:seed=2", "--record", str(again))
    assert run.returncode == 0, run.stderr
    moves = lambda path: [(m["player"], m["move"]) for m in json.loads(path.read_text())["moves"]]  # noqa: E731
    assert moves(again) == moves(first)
    assert json.loads(again.read_text())["result"] == json.loads(first.read_text())["result"]


def test_an_illegal_entry_says_why_and_question_mark_helps():
    from kalah.cli.terminal import HELP, why_illegal

    position = Position.start().play(2)  # C is empty, and player 0 moves again
    assert why_illegal("c", position).startswith("pit C is empty")
    assert why_illegal("3", position).startswith("pit C is empty")
    assert why_illegal("z", position).startswith("'z' is not a pit")
    assert "pie rule" in why_illegal("swap", position)
    assert "Last seed in your store" in HELP


def test_the_person_plays_from_the_bottom_row_and_the_stores_are_named():
    from kalah.cli.terminal import board_text

    text = board_text(Position.start().play(0), names=("Ann (0)", "Bob (1)"), bottom=1).plain.splitlines()
    assert text[0].split() == list("FEDCBA") and text[-2].split() == list("abcdef")  # Bob's row below
    assert "Bob (1)" in text[-3] and "Ann (0)" in text[1]
    assert text[-1].strip() == "stores: o Bob (1), O Ann (0)"


def test_a_three_digit_store_stays_apart_from_its_letter():
    from kalah.cli.terminal import board_text
    from kalah.rules import Variant

    variant = Variant(pits=8, seeds=15)
    board = [[10, 0, 0, 0, 0, 0, 0, 0, 104], [8, 0, 0, 0, 0, 0, 0, 0, 118]]  # 240 seeds
    text = board_text(Position(board, 0, variant), names=("Ann (0)", "Bob (1)")).plain.splitlines()
    assert text[2].split() == ["o", "118", "104", "O"], text[2]
    assert text[1].rstrip().endswith("Bob (1)") and len(text[1]) - len(text[1].lstrip()) > len(" O 118"), text


def test_ctrl_c_stops_a_game_while_an_engine_thinks(tmp_path):
    import signal
    import subprocess
    import sys
    import time

    record = tmp_path / "game.json"
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "kalah.cli",
            "play",
            "-q",
            "--player0",
            "pvs:time=60",
            "--player1",
            "random",
            "--record",
            str(record),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 30
    while not record.exists():  # the game has started: the engine thinks for a minute
        assert time.monotonic() < deadline and process.poll() is None, process.stderr.read()
        time.sleep(0.05)
    time.sleep(0.5)
    process.send_signal(signal.SIGINT)
    stopped = time.monotonic()
    process.wait(timeout=30)
    assert time.monotonic() - stopped < 5  # not the minute the engine had (0.3 s on an idle machine)
    assert process.returncode == 130


def test_a_game_of_kalah_12_12_in_the_terminal(tmp_path):
    # 12 pits a side (letters A..L, a..l) and 288 seeds: the big build of the core plays the computer's moves
    record = tmp_path / "game.json"
    run = kalah("play", "--pits", "12", "--seeds", "12", "-1", "pvs:depth=3", "--record", str(record), input="l\nq\n")
    assert run.returncode == 0, run.stderr
    assert "A   B   C   D   E   F   G   H   I   J   K   L" in run.stdout
    assert "l   k   j   i   h   g   f   e   d   c   b   a" in run.stdout
    data = json.loads(record.read_text())
    assert data["variant"]["pits"] == 12 and data["moves"][0]["move"] == 11
    assert sum(map(sum, data["moves"][-1]["board"])) == 288
