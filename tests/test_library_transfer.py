"""A library moved between SQLite and PostgreSQL with ``kalah games export --all`` and ``import``, and the
command line's answers to a bad or unreachable ``--db``."""

from __future__ import annotations

import json
import subprocess
import sys

from helpers import free_port
from kalah.records import GameLibrary, PlayerInfo, StaleGameError
from kalah.rules import Position, Variant


def kalah(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kalah", *args], capture_output=True, text=True, timeout=120)


def filled(target: str) -> GameLibrary:
    """A library with a finished game (reviewed), a resigned one, a stopped one and one under way."""
    library = GameLibrary(target)
    people = [PlayerInfo("Ann", "human"), PlayerInfo("Bob", "random:seed=2")]
    finished = library.create_game(Position.start(Variant(2, 1)), people, tags={"source": "web", "n": 1})
    position = library.position(finished)
    while not position.is_over:
        position = library.add_move(finished, position.legal_moves()[0])
    library.save_review(finished, len(library.record(finished).moves), {"accuracy": [90, 80]})
    resigned = library.create_game(Position.start(Variant(4, 3)), people, tags={"source": "live"})
    library.add_move(resigned, 0)
    library.decide(resigned, 1, "resignation")
    stopped = library.create_game(Position.start(Variant(6, 4)), people)
    library.add_move(stopped, 2)
    library.mark_stopped(stopped, "left unfinished")
    library.create_game(Position.start(Variant(6, 4, pie_rule=True)), people)
    return library


def described(library: GameLibrary) -> list[tuple[object, ...]]:
    """Each game as what a move of the library must keep: its record, result, tags and review."""
    return [
        (
            json.dumps(library.record(s.id).to_dict(), sort_keys=True),
            s.status,
            s.winner,
            s.stop_reason,
            json.dumps(s.tags, sort_keys=True),
            library.review(s.id)[1] if library.review(s.id) else None,
        )
        for s in reversed(library.list_games())
    ]


def test_a_library_moves_from_sqlite_to_postgresql_and_back(tmp_path, postgres_url):
    source = filled(str(tmp_path / "games.sqlite"))
    exported = tmp_path / "library.jsonl"
    done = kalah("games", "--db", str(tmp_path / "games.sqlite"), "export", "--all", "-o", str(exported))
    assert done.returncode == 0, done.stderr
    assert len(exported.read_text().splitlines()) == 4
    imported = kalah("games", "--db", postgres_url, "import", str(exported))
    assert imported.returncode == 0, imported.stderr
    assert len(imported.stdout.split()) == 4
    assert described(GameLibrary(postgres_url)) == described(source)
    back = tmp_path / "back.jsonl"
    assert kalah("games", "--db", postgres_url, "export", "--all", "-o", str(back)).returncode == 0
    assert kalah("games", "--db", str(tmp_path / "again.sqlite"), "import", str(back)).returncode == 0
    assert described(GameLibrary(tmp_path / "again.sqlite")) == described(source)
    listed = kalah("games", "--db", postgres_url, "list", "--result", "decisive")
    assert "Ann won: Bob resigned" in listed.stdout, listed.stdout


def test_a_bad_line_imports_nothing(tmp_path):
    library = filled(str(tmp_path / "games.sqlite"))
    lines = [json.dumps(library.record(s.id).to_dict()) for s in library.list_games()]
    lines.insert(2, '{"format": "kalah-game", "version": 1, "moves": []}')
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    refused = kalah("games", "--db", str(tmp_path / "new.sqlite"), "import", str(bad))
    assert refused.returncode == 2
    assert refused.stderr.startswith("kalah: error: ") and refused.stderr.count("\n") == 1
    assert "line 3" in refused.stderr and "nothing was imported" in refused.stderr
    assert GameLibrary(tmp_path / "new.sqlite").list_games() == []


def test_a_bad_or_unreachable_database_is_one_line_and_exit_2(tmp_path):
    for target, words in (
        ("mysql://somebody@host/kalah", "mysql:// is not a database this library speaks"),
        ("postgresql://nobody@127.0.0.1:1/none", "cannot reach the game library postgresql://nobody@127.0.0.1:1/none"),
        (
            "postgresql://nobody:SECRET@127.0.0.1:1/none",
            "cannot reach the game library postgresql://nobody@127.0.0.1:1",
        ),
    ):
        for command in (["games", "--db", target, "list"], ["serve", "--db", target, "--port", str(free_port())]):
            answer = kalah(*command)
            assert answer.returncode == 2, (command, answer.stderr)
            assert answer.stderr.startswith("kalah: error: ") and answer.stderr.count("\n") == 1, answer.stderr
            assert words in answer.stderr and "SECRET" not in answer.stderr


def test_two_writers_of_one_game_on_postgresql_cannot_both_add_move_n(postgres_url):
    """Two server processes' libraries add the same game's move 1 at once: one is stored, the other stale."""
    import threading

    first, second = GameLibrary(postgres_url), GameLibrary(postgres_url)
    game_id = first.create_game(Position.start(), [PlayerInfo("a", "human"), PlayerInfo("b", "human")])
    outcomes: list[str] = []
    barrier = threading.Barrier(2)

    def write(library: GameLibrary, move: int) -> None:
        barrier.wait()
        try:
            library.add_move(game_id, move, expected_moves=0)
            outcomes.append("stored")
        except StaleGameError:
            outcomes.append("stale")

    threads = [threading.Thread(target=write, args=(lib, pit)) for lib, pit in ((first, 0), (second, 1))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["stale", "stored"]
    assert len(first.record(game_id).moves) == 1
