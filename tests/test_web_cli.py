"""``kalah serve`` (a real server process) and ``kalah games list/export``."""

from __future__ import annotations

import json
import signal

import httpx
import pytest

from helpers import kill_group, start_kalah_serve
from kalah.cli import main
from kalah.records import GameLibrary, GameRecord
from kalah.rules import Position


def test_serve_stores_every_acknowledged_move_even_when_killed(tmp_path):
    db = tmp_path / "games.sqlite"
    process, url = start_kalah_serve(db, "--workers", "1")  # its own process group, worker pool included
    try:
        assert 'id="board"' in httpx.get(url + "/").text
        state = httpx.post(f"{url}/api/games", json={"players": ["human", "random:seed=1"]}).json()
        state = httpx.post(f"{url}/api/games/{state['id']}/moves", json={"move": 0, "moves": 0}).json()
        state = httpx.post(
            f"{url}/api/games/{state['id']}/computer-move", json={"moves": state["moves"]}
        ).json()  # runs in a worker process
        acknowledged = state["history"]
    finally:
        kill_group(process)  # no clean shutdown
    record = GameLibrary(db).record(state["id"])
    from kalah.rules import move_name

    assert [move_name(m.player, m.move) for m in record.moves] == acknowledged


def test_serve_makes_the_users_library_on_a_new_machine(tmp_path):
    """No --db and a data directory with nothing in it (a new user's first `kalah serve`): the library's
    folder is made, not refused as a missing directory."""
    import os

    data = tmp_path / "data"
    data.mkdir()
    process, url = start_kalah_serve(None, "--workers", "1", env={**os.environ, "XDG_DATA_HOME": str(data)})
    try:
        assert httpx.post(f"{url}/api/games", json={"players": ["human", "human"]}).status_code == 201
    finally:
        kill_group(process)
    assert (data / "kalah" / "games.sqlite").is_file()


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_serve_stops_cleanly_on_ctrl_c_and_on_sigterm(tmp_path, stop):
    """SIGTERM (kill, systemctl stop) was the system's: the process died at once, leaving the library's -wal
    and -shm files and saying nothing. It stops as Ctrl-C does now."""
    db = tmp_path / "games.sqlite"
    process, url = start_kalah_serve(db, "--workers", "2")
    try:
        assert httpx.post(f"{url}/api/games", json={"players": ["human", "human"]}).status_code == 201
        process.send_signal(stop)
        process.wait(timeout=30)
        errors = process.stderr.read().decode() if process.stderr else ""
    finally:
        kill_group(process)
    assert process.returncode == 0, errors
    assert errors.endswith("kalah serve: stopped\n") and "leaked" not in errors and "Traceback" not in errors, errors
    assert sorted(path.name for path in tmp_path.iterdir()) == ["games.sqlite"]  # the WAL checkpointed, closed
    assert len(GameLibrary(db).list_games()) == 1


def test_games_list_and_export(tmp_path, capsys):
    db = tmp_path / "games.sqlite"
    library = GameLibrary(db)
    from kalah.records import PlayerInfo

    game = library.create_game(
        Position.start(), [PlayerInfo("Ann", "human"), PlayerInfo("Computer (beginner)", "random")]
    )
    library.add_move(game, 2)
    library.add_move(game, 5)
    assert main(["games", "--db", str(db), "list"]) == 0
    out = capsys.readouterr().out
    assert "Ann vs Computer (beginner)" in out and "Kalah(6,4)" in out and "playing" in out
    assert main(["games", "--db", str(db), "list", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows[0]["id"] == game and rows[0]["moves"] == 2 and rows[0]["result"] == "playing"
    assert main(["games", "--db", str(db), "export", str(game)]) == 0
    record = GameRecord.from_json(capsys.readouterr().out)
    assert [m.move for m in record.moves] == [2, 5]
    out_file = tmp_path / "g.json"
    assert main(["games", "--db", str(db), "export", str(game), "-o", str(out_file)]) == 0
    assert main(["games", "--db", str(db), "import", str(out_file)]) == 0
    assert capsys.readouterr().out.strip() == str(game + 1)
    assert main(["games", "--db", str(db), "export", "99"]) == 2
    assert "no game 99" in capsys.readouterr().err
    library.mark_stopped(game, "Ann ran out of time")
    assert main(["games", "--db", str(db), "list", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[-1]["result"] == "stopped: Ann ran out of time"


def test_games_list_keeps_each_game_on_one_line_of_80_columns_with_long_names(tmp_path, capsys, monkeypatch):
    # With 60-character names every game took three or four wrapped lines of 80 columns (the players, the
    # winner in the result): the table could not be read.
    from rich.cells import cell_len

    from kalah.match import play_game
    from kalah.players import RandomPlayer
    from kalah.records import LibraryWriter, PlayerInfo

    first, second = "Ann " + "a" * 56, "Bob " + "b" * 56
    library = GameLibrary(tmp_path / "games.sqlite")
    writer = LibraryWriter(library)
    result = play_game([RandomPlayer(1), RandomPlayer(2)], observers=[writer])
    record = library.record(writer.game_id)
    record.players = [PlayerInfo(first, "random:seed=1"), PlayerInfo(second, "random:seed=2")]
    finished = library.import_record(record)
    playing = library.create_game(Position.start(), [PlayerInfo(first, "human"), PlayerInfo(second, "human")])
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["games", "--db", str(tmp_path / "games.sqlite"), "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 4, lines  # the headings, three games
    assert [line.split()[0] for line in lines] == ["id", str(playing), str(finished), str(writer.game_id)]
    shown = {line.split()[0]: line for line in lines}
    # the long names are cut; "random (seed 1)" and "random (seed 2)" differ only at their end, and are never
    # cut below that: a line longer than 80 columns rather than two names alike
    assert max(cell_len(line) for line in lines) <= cell_len(lines[-1]), lines
    assert "random (seed 1) vs random (seed 2)" in shown[str(writer.game_id)]
    assert "Ann" in shown[str(playing)] and "Bob" in shown[str(playing)] and "…" in shown[str(playing)]
    assert "playing" in shown[str(playing)] and first not in shown[str(playing)]
    winner = (first, second)[result.winner]  # the score stays whole after the winner's shortened name
    assert (
        f"{winner[:3]}" in shown[str(finished)]
        and f"won {max(result.scores)}-{min(result.scores)}" in shown[str(finished)]
    )


def test_games_list_cuts_no_name_below_what_tells_it_apart_and_gives_whole_names_when_piped(
    tmp_path, capsys, monkeypatch
):
    # Piped, names were cut to 6 characters: "carol-…" for both of carol's agents.
    from kalah.records import PlayerInfo

    library = GameLibrary(tmp_path / "games.sqlite")
    long = "carol-" + "x" * 70
    for first, second in (("carol-minimax", "carol-random"), (long + "-one", long + "-two")):
        library.create_game(Position.start(), [PlayerInfo(first, "human"), PlayerInfo(second, "human")])
    monkeypatch.delenv("COLUMNS", raising=False)
    assert main(["games", "--db", str(tmp_path / "games.sqlite"), "list"]) == 0
    out = capsys.readouterr().out
    assert "carol-minimax vs carol-random" in out and f"{long}-one vs {long}-two" in out  # whole, when piped
    monkeypatch.setenv("COLUMNS", "60")
    assert main(["games", "--db", str(tmp_path / "games.sqlite"), "list"]) == 0
    out = capsys.readouterr().out
    assert "carol-m" in out and "carol-r" in out and "carol-… vs" not in out, out


def test_games_delete_asks_and_deletes(tmp_path, capsys, monkeypatch):
    from kalah.records import GameLibrary, PlayerInfo

    db = tmp_path / "games.db"
    library = GameLibrary(db)
    game = library.create_game(Position.start(), [PlayerInfo("Ann", "human"), PlayerInfo("Bob", "human")])
    library.add_move(game, 2)
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    assert main(["games", "--db", str(db), "delete", str(game)]) == 2  # no terminal to ask at
    assert "--yes" in capsys.readouterr().err
    assert [summary.id for summary in library.list_games()] == [game]
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("typer.confirm", lambda *args, **kwargs: False)
    assert main(["games", "--db", str(db), "delete", str(game)]) == 0
    assert "Nothing deleted" in capsys.readouterr().out and len(library.list_games()) == 1
    monkeypatch.setattr("typer.confirm", lambda *args, **kwargs: True)
    assert main(["games", "--db", str(db), "delete", str(game)]) == 0
    assert library.list_games() == []
    with library.database.read() as session:  # the moves went with the game
        assert session.value("SELECT COUNT(*) FROM moves") == 0
    assert main(["games", "--db", str(db), "delete", str(game), "--yes"]) == 2
    assert f"no game {game}" in capsys.readouterr().err
