"""kalah.review: every move judged against brute force on small variants; stored in the library; the command."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys

import pytest

import kalah
from kalah import Position, Variant
from kalah.match import play_game
from kalah.players import make_player
from kalah.records import GameLibrary, GameRecord, RecordBuilder
from kalah.records.schema import GAMES, STEPS
from kalah.review import CLASSES, ReviewError, classify, review
from test_solve_truth import brute, brute_move_value


def game(variant: Variant, seeds: tuple[int, int]) -> GameRecord:
    builder = RecordBuilder()
    players = [make_player(f"random:seed={seeds[0]}"), make_player(f"random:seed={seeds[1]}")]
    play_game(players, Position.start(variant), [builder])
    assert builder.record is not None
    return builder.record


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kalah.cli", *args], capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize(
    "variant, seeds", [(Variant(3, 2), (1, 2)), (Variant(2, 4), (7, 8)), (Variant(3, 3, empty_capture=True), (5, 6))]
)
def test_every_move_is_judged_as_brute_force_does(variant, seeds):
    record = game(variant, seeds)
    heard: list[tuple[int, int]] = []
    result = review(record, 1.0, threads=1, progress=lambda done, total: heard.append((done, total)))
    assert heard[-1] == (len(record.moves) + 1, len(record.moves) + 1) and len(heard) == len(record.moves) + 1
    positions = list(record.positions())
    for entry, before in zip(result.moves, positions, strict=False):
        value = brute(before)
        played = brute_move_value(before, entry.move)
        best = {move for move in before.legal_moves() if brute_move_value(before, move) == value}
        assert entry.exact and entry.value_before == value and entry.value_after == played
        assert set(entry.best_moves) == best and entry.loss == value - played
        assert entry.klass == ("best" if entry.forced else classify(value - played))
        assert entry.forced == (len(before.legal_moves()) == 1)
        # every legal move's value, so the trainer knows a better move than the one played (issue 48)
        assert {(m["move"], m["value"], m["exact"]) for m in entry.move_values} == {
            (move, brute_move_value(before, move), True) for move in before.legal_moves()
        }
        assert entry.to_dict()["move_values"] == entry.move_values
    for position, point in zip(positions, result.evaluation, strict=False):
        assert point == (brute(position) if position.to_move == 0 else -brute(position))
    # accuracy, average loss and turning points from brute force's values alone (not the review's classes)
    losses: list[list[int]] = [[], []]
    turning = []
    for number, (recorded, before) in enumerate(zip(record.moves, positions, strict=False), 1):
        value, played = brute(before), brute_move_value(before, recorded.move)
        if len(before.legal_moves()) > 1:
            losses[recorded.player].append(value - played)
        if _sign(played) < _sign(value):  # a win thrown into a draw or a loss, or a draw into a loss
            turning.append(number)
    for player in (0, 1):
        lost = losses[player]
        assert result.accuracy[player] == (
            round(100 * sum(loss <= 2 for loss in lost) / len(lost), 1) if lost else None
        )
        assert result.average_loss[player] == (round(sum(lost) / len(lost), 2) if lost else None)
    assert result.turning_points == turning
    assert turning, "the game chosen has no turning point: choose seeds whose players throw a result away"
    assert any(0 < accuracy < 100 for accuracy in result.accuracy if accuracy is not None), result.accuracy


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


def test_classes_follow_the_documented_thresholds():
    assert [classify(loss) for loss in (0, 1, 2, 3, 4, 5, 8, 9, 30)] == [
        "best",
        "good",
        "good",
        "inaccuracy",
        "inaccuracy",
        "mistake",
        "mistake",
        "blunder",
        "blunder",
    ]
    assert [name for name, _ in CLASSES] == ["best", "good", "inaccuracy", "mistake", "blunder"]


def test_exact_judgements_agree_with_the_solver_in_kalah_6_3():
    record = game(Variant(6, 3), (7, 8))
    result = review(record, 0.3, threads=1)
    positions = list(record.positions())
    assert any(entry.exact for entry in result.moves)
    for entry, before in zip(result.moves, positions, strict=False):
        if not entry.exact:
            continue
        solved = kalah.solve(before, threads=1)
        assert entry.value_before == solved.value and set(entry.best_moves) == set(solved.best_moves)
        child = before.play(entry.move)
        after = kalah.solve(child, threads=1, best_moves=False, pv=False).value
        assert entry.value_after == (after if child.to_move == before.to_move else -after)


def test_a_move_judged_by_an_estimate_is_not_exact():
    # Kalah(6,6): the first positions are far beyond a tenth of a second's proof.
    record = game(Variant(6, 6), (1, 2))
    record.moves = record.moves[:4]
    result = review(record, 0.1, threads=1)
    assert not any(entry.exact for entry in result.moves) and not any(result.exact)


def test_bad_arguments_are_refused():
    with pytest.raises(ReviewError, match="GameRecord"):
        review("game.json")  # type: ignore[arg-type]
    with pytest.raises(ReviewError, match="time"):
        review(game(Variant(3, 2), (1, 1)), 0)


def test_reviews_are_stored_with_the_game(tmp_path):
    library = GameLibrary(tmp_path / "games.db")
    record = game(Variant(4, 2), (1, 2))
    game_id = library.import_record(record)
    assert library.review(game_id) is None
    data = review(record, 0.5, threads=1).to_dict()
    library.save_review(game_id, len(record.moves), data)
    assert library.review(game_id) == (len(record.moves), json.loads(json.dumps(data)))
    library.delete_game(game_id)
    with pytest.raises(kalah.KalahError, match="no game"):
        library.review(game_id)
    with pytest.raises(kalah.KalahError, match="no game"):
        library.save_review(game_id, 1, data)


def test_an_old_library_gains_the_reviews_table_and_keeps_its_games(tmp_path):
    path = tmp_path / "old.db"
    library = GameLibrary(path)
    record = game(Variant(4, 2), (3, 4))
    game_id = library.import_record(record)
    library.close()
    with sqlite3.connect(path) as old:  # the library as kalah wrote it before reviews existed
        old.execute("DROP TABLE reviews")
        old.execute("DROP TABLE schema_versions")  # steps were counted by PRAGMA user_version then
        for column in ("winner", "termination", "leave_digest"):
            old.execute(f"ALTER TABLE games DROP COLUMN {column}")
        old.execute("PRAGMA user_version = 0")
    assert "reviews" not in GAMES
    reopened = GameLibrary(path)
    assert reopened.record(game_id).moves == record.moves
    reopened.save_review(game_id, len(record.moves), {"moves": []})
    assert reopened.review(game_id) == (len(record.moves), {"moves": []})
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT version FROM schema_versions WHERE owner = 'library'").fetchone()[0] == len(STEPS)


def test_the_command_prints_a_table_and_json(tmp_path):
    record = game(Variant(4, 3), (1, 2))
    path = tmp_path / "game.json"
    path.write_text(record.to_json())
    table = cli("review", str(path))
    assert table.returncode == 0, table.stderr
    assert "accuracy" in table.stdout and "Turning points" in table.stdout
    # every column has a heading: the last one (exact or est.) had none (issue 48)
    header = next(line for line in table.stdout.splitlines() if " # " in line or line.lstrip("┃ ").startswith("#"))
    assert header.split()[-2:] == ["judged", "┃"], header
    run = cli("review", str(path), "--json", "--time", "0.5")
    data = json.loads(run.stdout)
    assert len(data["moves"]) == len(record.moves)
    for entry in data["moves"]:
        assert {"move", "player", "best_moves", "loss", "class", "exact", "value_before"} <= set(entry)


def test_the_command_reviews_a_library_game_once(tmp_path):
    db = tmp_path / "games.db"
    record = game(Variant(4, 2), (5, 6))
    game_id = GameLibrary(db).import_record(record)
    first = cli("review", "--game", str(game_id), "--db", str(db), "--json")
    assert first.returncode == 0, first.stderr
    stored = GameLibrary(db).review(game_id)
    assert stored is not None and stored[1] == json.loads(first.stdout)
    GameLibrary(db).save_review(game_id, len(record.moves), {**stored[1], "marker": 1})
    again = cli("review", "--game", str(game_id), "--db", str(db), "--json")
    assert json.loads(again.stdout)["marker"] == 1  # read back, not computed again
    fresh = cli("review", "--game", str(game_id), "--db", str(db), "--json", "--fresh")
    assert "marker" not in json.loads(fresh.stdout)


@pytest.mark.parametrize(
    "args, message",
    [
        ([], "FILE or --game"),
        (["a.json", "--game", "1"], "FILE or --game"),
        (["{game}", "--time", "x"], "--time"),
        (["{game}", "--time", "0"], "--time"),
        (["{game}", "--fresh"], "--fresh needs"),
        (["/no/such/game.json"], "cannot read"),
        (["--game", "7", "--db", "{db}"], "no game library"),
    ],
)
def test_bad_input_is_one_line(tmp_path, args, message):
    path = tmp_path / "game.json"
    path.write_text(game(Variant(3, 2), (1, 1)).to_json())
    args = [arg.format(game=path, db=tmp_path / "games.db") for arg in args]
    run = cli("review", *args)
    assert run.returncode == 2 and message in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1 and "Traceback" not in run.stderr


def test_a_review_from_a_library_that_is_not_there_creates_none(tmp_path):
    typo = tmp_path / "typo.sqlite"
    done = cli("review", "--game", "1", "--db", str(typo))
    assert done.returncode == 2 and done.stderr.startswith("kalah: error:") and len(done.stderr.splitlines()) == 1
    assert "no game library" in done.stderr and not typo.exists()
