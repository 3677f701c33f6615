"""Game records: writing, reading, and refusing damaged ones with the move number."""

import json

import pytest

from kalah import Position, Variant
from kalah.match import play_game
from kalah.players import HumanPlayer, RandomPlayer
from kalah.records import (
    GameLibrary,
    LibraryWriter,
    PlayerInfo,
    RecordBuilder,
    RecordError,
    RecordFileWriter,
    load_record,
)


@pytest.fixture
def game_file(tmp_path):
    path = tmp_path / "game.json"
    play_game(
        [RandomPlayer(1), RandomPlayer(2)], Position.start(Variant(6, 4, pie_rule=True)), [RecordFileWriter(path)]
    )
    return path


def test_record_has_everything(game_file):
    data = json.loads(game_file.read_text())
    assert data["format"] == "kalah-game" and data["version"] == 1
    assert data["program"].startswith("kalah ")
    assert data["variant"]["pie_rule"] is True
    assert data["players"] == [
        {"name": "random (seed 1)", "spec": "random:seed=1"},
        {"name": "random (seed 2)", "spec": "random:seed=2"},
    ]
    assert data["start"]["board"] == Position.start().board
    assert data["started_at"]
    first = data["moves"][0]
    assert set(first) >= {"number", "player", "move", "board", "seconds"}
    result = data["result"]
    assert result["finished"] is True and sum(result["scores"]) == 48
    assert result["margin"] == result["scores"][0] - result["scores"][1]


def test_record_round_trips(game_file):
    record = load_record(game_file)
    assert json.loads(record.to_json()) == json.loads(game_file.read_text())
    assert record.final.is_over


def damage(path, change):
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def test_illegal_move_is_named_with_its_number(game_file):
    damage(game_file, lambda d: d["moves"][4].update(move=17))
    with pytest.raises(RecordError, match="move 5: illegal"):
        load_record(game_file)


def test_board_that_does_not_follow_is_named(game_file):
    def change(data):
        data["moves"][2]["board"][0][0] += 1

    damage(game_file, change)
    with pytest.raises(RecordError, match="move 3: the recorded board"):
        load_record(game_file)


def test_wrong_player_is_named(game_file):
    damage(game_file, lambda d: d["moves"][0].update(player=1))
    with pytest.raises(RecordError, match="move 1: the record says player 1"):
        load_record(game_file)


@pytest.mark.parametrize(
    "text, message",
    [
        ("{not json", "not valid JSON"),
        ("[]", "JSON object"),
        ('{"format": "chess"}', "not a kalah game record"),
        ('{"format": "kalah-game", "version": 9}', "unsupported record version"),
    ],
)
def test_bad_files(tmp_path, text, message):
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(RecordError, match=message):
        load_record(path)


def test_missing_file_is_named(tmp_path):
    with pytest.raises(RecordError, match="cannot read"):
        load_record(tmp_path / "nope.json")


def test_unfinished_game_is_written_and_marked(tmp_path):
    path = tmp_path / "stopped.json"
    calls = []

    def ask(position):
        calls.append(position)
        if len(calls) > 2:
            raise KeyboardInterrupt
        return position.legal_moves()[0]

    play_game([HumanPlayer(ask=ask), RandomPlayer(3)], observers=[RecordFileWriter(path)])
    data = json.loads(path.read_text())
    assert data["result"]["finished"] is False and data["result"]["stop_reason"] == "interrupted"
    assert load_record(path).moves


def test_library_keeps_games_and_moves(library_target, tmp_path):
    library = GameLibrary(library_target)
    writer = LibraryWriter(library, tags={"suite": "test"})
    result = play_game([RandomPlayer(1), RandomPlayer(2)], observers=[writer])
    summary = library.list_games(tags={"suite": "test"})[0]
    assert summary.status == "finished" and summary.moves == result.moves and summary.scores == result.scores
    record = library.record(writer.game_id)
    assert record.final == result.final
    assert library.list_games(tags={"suite": "other"}) == []
    copy_id = library.import_record(record)
    assert library.record(copy_id).final == result.final


@pytest.mark.parametrize("kind", ["read", "write"])
def test_ctrl_c_as_a_session_begins_leaves_the_library_usable(library_target, monkeypatch, kind):
    """Ctrl-C can land between a transaction's BEGIN and the block that ends it; the next session, of this
    library or of another program, must not find that transaction still open."""
    from kalah.records import store

    library = GameLibrary(library_target)
    writer = LibraryWriter(library)
    result = play_game([RandomPlayer(1), RandomPlayer(2)], observers=[writer])
    real_session = store.Session

    def interrupted(*args, **kwargs):
        monkeypatch.setattr(store, "Session", real_session)
        raise KeyboardInterrupt

    monkeypatch.setattr(store, "Session", interrupted)
    with pytest.raises(KeyboardInterrupt):
        with getattr(library.database, kind)():
            pass
    other = GameLibrary(library_target, busy_timeout=0.5)  # another program: must not wait for a lock
    assert other.import_record(library.record(writer.game_id)) != writer.game_id
    assert len(library.list_games()) == 2 and library.record(writer.game_id).final == result.final


def test_a_session_left_open_by_an_interruption_is_dropped(library_target):
    """The narrowest window: interrupted right after BEGIN, before anything can roll it back."""
    library = GameLibrary(library_target)
    library.database._connection().execute("BEGIN")
    assert library.list_games() == []
    builder = RecordBuilder()
    play_game([RandomPlayer(1), RandomPlayer(2)], observers=[builder])
    library.import_record(builder.record)
    assert len(GameLibrary(library_target, busy_timeout=0.5).list_games()) == 1


def test_library_refuses_illegal_moves_without_damage(library_target, tmp_path):
    from kalah import IllegalMoveError

    library = GameLibrary(library_target)
    game = library.create_game(Position.start(), [PlayerInfo("a", "random"), PlayerInfo("b", "random")])
    library.add_move(game, 2)
    with pytest.raises(IllegalMoveError):
        library.add_move(game, 2)
    assert library.position(game) == Position.start().play(2)
    assert library.take_back(game) == Position.start()


def test_a_game_of_kalah_12_12_in_a_record_file_and_the_library(library_target, tmp_path):
    # 288 seeds, more than a byte counts: the records and the library keep every count as it is
    path, library = tmp_path / "big.json", GameLibrary(library_target)
    writer = LibraryWriter(library)
    result = play_game(
        [RandomPlayer(3), RandomPlayer(4)], Position.start(Variant(12, 12)), [RecordFileWriter(path), writer]
    )
    record = load_record(path)
    assert record.variant == Variant(12, 12) and record.final == result.final and sum(result.scores) == 288
    assert json.loads(record.to_json()) == json.loads(path.read_text())
    assert library.record(writer.game_id).final == result.final
    assert library.list_games()[0].scores == result.scores


#: Every GameLibrary method that takes a game id, called with one.
GAME_ID_METHODS = {
    "add_move": lambda library, game_id: library.add_move(game_id, 2),
    "take_back": lambda library, game_id: library.take_back(game_id),
    "redo": lambda library, game_id: library.redo(game_id),
    "redo_steps": lambda library, game_id: library.redo_steps(game_id),
    "mark_stopped": lambda library, game_id: library.mark_stopped(game_id, "stopped"),
    "delete_game": lambda library, game_id: library.delete_game(game_id),
    "save_review": lambda library, game_id: library.save_review(game_id, 0, {}),
    "review": lambda library, game_id: library.review(game_id),
    "position": lambda library, game_id: library.position(game_id),
    "record": lambda library, game_id: library.record(game_id),
    "summary": lambda library, game_id: library.summary(game_id),
}


@pytest.mark.parametrize("game_id", [10**20, 2**63, 0, -1, -(10**20)])
@pytest.mark.parametrize("method", GAME_ID_METHODS)
def test_an_id_no_game_can_have_is_the_librarys_not_found_error(library_target, tmp_path, method, game_id):
    # From Python (the CLI and the servers check ids first), a huge id was sqlite3's OverflowError.
    from kalah.records import MAX_GAME_ID, GameNotFoundError

    library = GameLibrary(library_target)
    game = library.create_game(Position.start(), [PlayerInfo("a", "random"), PlayerInfo("b", "random")])
    with pytest.raises(GameNotFoundError) as caught:
        GAME_ID_METHODS[method](library, game_id)
    assert str(caught.value) == (
        f"no game {game_id} in {library.where}: a game id is a whole number from 1 to {MAX_GAME_ID}"
    )
    assert caught.value.game_id == game_id
    assert library.position(game) == Position.start() and library.summary(game).status == "playing"


def test_a_listing_by_ids_no_game_can_have_is_empty(library_target, tmp_path):
    library = GameLibrary(library_target)
    game = library.create_game(Position.start(), [PlayerInfo("a", "random"), PlayerInfo("b", "random")])
    assert library.list_games(ids=[10**20, -(10**20), 0]) == []
    assert [s.id for s in library.list_games(ids=[10**20, game])] == [game]
    assert [s.id for s in library.list_games(before=10**20)] == [game]
    assert library.list_games(before=-(10**20)) == []
