"""The terminal can do what the board can: hint and undo in ``kalah play``, a replay stepped with keys,
every move numbered, values from the person's side."""

from __future__ import annotations

import json
import subprocess
import sys

from rich.console import Console

from kalah import Position, Variant
from kalah.cli.replay import step_through
from kalah.cli.terminal import describe_move
from kalah.match import MoveEvent, TakeBack, play_game
from kalah.players import make_player
from kalah.records import GameLibrary, LibraryWriter, RecordBuilder


def kalah(*args, input=None):
    return subprocess.run(
        [sys.executable, "-m", "kalah.cli", *args], input=input, capture_output=True, text=True, timeout=120
    )


class Scripted:
    """A player that plays its script; "undo" takes back its last move, "stop" ends the game."""

    is_computer = False

    def __init__(self, script):
        self.name = self.spec = "scripted"
        self.script = list(script)
        self.asked = []

    def choose_move(self, position):
        self.asked.append(position)
        step = self.script.pop(0)
        if step == "undo":
            raise TakeBack
        if step == "stop":
            raise EOFError
        return step


def test_take_back_returns_to_before_the_players_last_move_with_the_replies(tmp_path):
    builder = RecordBuilder()
    library = GameLibrary(tmp_path / "games.db")
    writer = LibraryWriter(library)
    # C is an extra turn, F passes the move and the opponent answers; the first undo takes back F and
    # the answers, the second C, the third finds nothing; then A.
    me = Scripted([2, 5, "undo", "undo", "undo", 0, "stop"])
    start = Position.start()
    result = play_game([me, make_player("random:seed=1")], start, [builder, writer])
    after_c = start.play(2)
    assert me.asked[:2] == [start, after_c]
    assert me.asked[3] == after_c and me.asked[4] == start and me.asked[5] == start
    record = builder.record
    assert record.moves[0].move == 0 and result.stop_reason == "end of input"
    moves = [(move.player, move.move, move.board) for move in record.moves]
    assert [(move.player, move.move, move.board) for move in library.record(writer.game_id).moves] == moves


def test_undo_with_nothing_to_take_back_changes_nothing():
    heard = []

    class Listener(RecordBuilder):
        def moves_taken_back(self, position, count):
            heard.append((position, count))
            super().moves_taken_back(position, count)

    me = Scripted(["undo", 2, "undo", 3])
    listener = Listener()
    play_game([me, make_player("random:seed=2")], Position.start(Variant(4, 2)), [listener], max_moves=2)
    assert heard[0] == (Position.start(Variant(4, 2)), 0)
    assert heard[1] == (Position.start(Variant(4, 2)), 1)
    assert [move.move for move in listener.record.moves][0] == 3 and len(listener.record.moves) == 2


def test_play_hint_and_undo_at_the_terminal(tmp_path):
    record = tmp_path / "game.json"
    run = kalah("play", "-1", "pvs:depth=3", "--record", str(record), input="hint\nc\nf\nundo\nundo\nundo\nq\n")
    assert run.returncode == 0, run.stderr
    assert "Hint: C (value +8 for you, exact)" in run.stdout  # the book knows the start of Kalah(6,4)
    assert "1. human (0) plays C" in run.stdout and "2. human (0) plays F" in run.stdout  # C's extra turn: move 2
    assert "3. pvs" in run.stdout and "1..." not in run.stdout  # every move its own number, no move pairs
    assert "Took back" in run.stdout and "Nothing to take back yet." in run.stdout
    assert json.loads(record.read_text())["moves"] == []


def test_engine_values_are_told_from_the_persons_side():
    start = Position.start()
    after, effect = start.play_explained(0)
    event = MoveEvent(1, 0, 0, start, after, effect, 0.0, {"value": 3})
    names = ("engine", "you")
    assert "value +3)" in describe_move(event, names)
    # after the other side's move, whose reckoning it is and from whose side (issue 48)
    assert "engine's estimate of the game: -3 for you)" in describe_move(event, names, viewer=1)
    proven = MoveEvent(1, 0, 0, start, after, effect, 0.0, {"value": 3, "exact": True})
    assert "engine's value of the game: -3 for you)" in describe_move(proven, names, viewer=1)
    assert "value +3 for you" in describe_move(event, names, viewer=0)
    assert describe_move(event, names).startswith("1. engine plays A")


def test_every_move_has_its_own_number(tmp_path):
    """Player 0's C ends in the store (an extra turn), so C and F are moves 1 and 2, the reply move 3: the
    numbers of the terminal are those of the record and of the web's move lists."""
    record = tmp_path / "game.json"
    run = kalah("play", "-0", "human", "-1", "human", "--record", str(record), input="c\nf\na\nq\n")
    shown = [line.split(" ", 1)[0] for line in run.stdout.splitlines() if " plays " in line]
    assert shown == ["1.", "2.", "3."]
    assert [move["number"] for move in json.loads(record.read_text())["moves"]] == [1, 2, 3]
    replay = kalah("replay", str(record), "--no-keys")
    assert [line.split(" ", 1)[0] for line in replay.stdout.splitlines() if " plays " in line] == ["1.", "2.", "3."]


def test_replay_steps_forward_and_back_with_the_keys():
    builder = RecordBuilder()
    play_game([make_player("random:seed=3"), make_player("random:seed=4")], Position.start(Variant(4, 2)), [builder])
    record = builder.record
    console = Console(record=True, width=100, force_terminal=False)
    keys = iter(["\x1b[C", "\x1b[C", "\x1b[D", "x", "G", "\x1b[C", "g", "q"])
    assert step_through(record, console, lambda: next(keys)) == 0
    shown = [line for line in console.export_text().splitlines() if " of " in line and "against" in line]
    last = len(record.moves)
    expected = [0, 1, 2, 1, 1, last, last, 0]
    assert [int(line.split("move ")[1].split(" of")[0]) for line in shown] == expected


def test_replay_without_a_terminal_plays_through(tmp_path):
    builder = RecordBuilder()
    play_game([make_player("random:seed=3"), make_player("random:seed=4")], Position.start(Variant(4, 2)), [builder])
    path = tmp_path / "game.json"
    path.write_text(builder.record.to_json())
    run = kalah("replay", str(path))
    assert run.returncode == 0 and run.stdout.count(" plays ") == len(builder.record.moves)
    refused = kalah("replay", str(path), "--keys")
    assert refused.returncode == 2 and "--keys needs a terminal" in refused.stderr


def test_the_review_table_numbers_every_move(capsys):
    from kalah.cli.review import show
    from kalah.review import review

    builder = RecordBuilder()
    # C ends in the store: C and F are player 0's moves 1 and 2, then player 1's a is move 3
    play_game([Scripted([2, 5]), Scripted([0])], Position.start(), [builder], max_moves=3)
    show(review(builder.record, 0.05).to_dict())
    rows = [line.split("│")[1].strip() for line in capsys.readouterr().out.splitlines() if line.count("│") > 3]
    assert rows[:3] == ["1.", "2.", "3."]
