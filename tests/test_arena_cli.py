"""``kalah arena`` from the command line: tables, bad input, Ctrl-C and resume."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time

import pytest


def kalah(*args, timeout=120):
    return subprocess.run([sys.executable, "-m", "kalah.cli", *args], capture_output=True, text=True, timeout=timeout)


def arena_games(db) -> list[tuple]:
    with sqlite3.connect(db) as connection:
        return connection.execute(
            "SELECT status, json_extract(tags, '$.pairing'), json_extract(tags, '$.opening'),"
            " json_extract(tags, '$.colour') FROM games"
        ).fetchall()


def test_arena_prints_the_tables_and_stores_the_games(tmp_path):
    db = tmp_path / "games.sqlite"
    run = kalah(
        "arena",
        "-p",
        "random:seed=1",
        "-p",
        "random:seed=2",
        "--games",
        "4",
        "--jobs",
        "1",
        "--pits",
        "4",
        "--seeds",
        "3",
        "--db",
        str(db),
    )
    assert run.returncode == 0, run.stderr
    for word in ("games", "wins", "draws", "losses", "score", "Elo", "95% interval", "random:seed=1", "Pairings"):
        assert word in run.stdout
    assert len(arena_games(db)) == 4
    again = kalah(
        "arena",
        "-p",
        "random:seed=2",
        "-p",
        "random:seed=1",
        "--games",
        "4",
        "--jobs",
        "1",
        "--pits",
        "4",
        "--seeds",
        "3",
        "--db",
        str(db),
    )
    assert again.returncode == 0 and "4 already played" in again.stderr
    assert len(arena_games(db)) == 4


@pytest.mark.parametrize(
    "args, message",
    [
        (["-p", "random", "-p", "nosuch"], "unknown player 'nosuch'"),
        (["-p", "random"], "at least two"),
        (["-p", "random", "-p", "random:seed=1", "--games", "3"], "even"),
        (["-p", "random", "-p", "random:seed=1", "--openings", "/nonexistent.json"], "cannot read openings file"),
        (["-p", "random", "-p", "random:seed=1", "--cluster", "tcp://127.0.0.1:9"], "cannot reach the Dask cluster"),
    ],
)
def test_bad_input_gives_one_line_and_exit_2(tmp_path, args, message):
    db = tmp_path / "games.sqlite"
    run = kalah(
        "arena",
        *args,
        "--games" if "--games" not in args else "--jobs",
        "2" if "--games" not in args else "1",
        "--db",
        str(db),
    )
    assert run.returncode == 2, run.stderr
    errors = [line for line in run.stderr.splitlines() if line.startswith("kalah: error:")]
    assert len(errors) == 1 and message in errors[0], run.stderr
    assert "Traceback" not in run.stderr


def test_ctrl_c_stops_cleanly_and_the_same_command_resumes(tmp_path):
    db = tmp_path / "games.sqlite"
    args = [
        sys.executable,
        "-m",
        "kalah.cli",
        "arena",
        "-p",
        "random:seed=1",
        "-p",
        "random:seed=2",
        "--games",
        "300",
        "--jobs",
        "2",
        "--db",
        str(db),
    ]
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while time.time() < deadline:
        time.sleep(0.2)
        try:
            if len(arena_games(db)) >= 3:
                break
        except sqlite3.Error:
            pass
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "run the same command again to resume" in err
    stopped = arena_games(db)
    assert 3 <= len(stopped) < 300 and all(status == "finished" for status, *_ in stopped)
    resumed = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    games = arena_games(db)
    assert len(games) == 300 and len({tuple(slot) for _, *slot in games}) == 300
    assert "300 of 300 games" in resumed.stdout


def test_arena_writes_json_and_csv_and_names_players_with_a_legend_on_a_narrow_terminal(tmp_path):
    import csv
    import json
    import os

    long_spec = "pvs:time=0.01,eval=store,memo=true"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "kalah.cli",
            "arena",
            "-p",
            "random:seed=1",
            "-p",
            long_spec,
            "--games",
            "2",
            "--jobs",
            "1",
            "--pits",
            "4",
            "--seeds",
            "3",
            "--db",
            str(tmp_path / "g.sqlite"),
            "--json",
            str(tmp_path / "r.json"),
            "--csv",
            str(tmp_path / "r.csv"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "70"},
    )
    assert run.returncode == 0, run.stderr
    assert f"pvs (0.01s, store): {long_spec}" in run.stdout  # by name in the tables, the spec in the legend
    assert "#1" not in run.stdout and "…" not in run.stdout
    assert all(len(line) <= 70 for line in run.stdout.splitlines()), run.stdout
    standings = json.loads((tmp_path / "r.json").read_text())
    assert {row["spec"] for row in standings["players"]} == {"random:seed=1", long_spec}
    rows = list(csv.DictReader((tmp_path / "r.csv").open()))
    assert {row["player"] for row in rows} == {"random:seed=1", long_spec} and all(row["games"] == "2" for row in rows)


def test_forfeits_are_counted_with_their_reasons_and_players_are_named(tmp_path):
    """A replay: player with three moves runs out of moves in every game: each is a forfeit, and the tables
    say so, with the reason, instead of a bare 2-0 (issue 32, item 6)."""
    import json

    game = tmp_path / "short.json"
    assert (
        kalah(
            "play", "-q", "--player0", "random:seed=1", "--player1", "random:seed=2", "--record", str(game)
        ).returncode
        == 0
    )
    record = json.loads(game.read_text())
    record["moves"] = record["moves"][:3]
    record["result"] = {"finished": False, "stop_reason": "cut short"}
    game.write_text(json.dumps(record))
    run = kalah(
        "arena",
        "-p",
        f"replay:file={game}",
        "-p",
        "random:seed=2",
        "--games",
        "2",
        "--jobs",
        "1",
        "--db",
        str(tmp_path / "g.sqlite"),
        "--json",
        str(tmp_path / "r.json"),
    )
    assert run.returncode == 0, run.stderr
    assert "Arena: 2 of 2 games, 2 lost by forfeit" in run.stdout
    forfeits = run.stdout[run.stdout.index("Forfeits") :]
    assert "replay" in forfeits and "the record has no move for this position" in forfeits, run.stdout
    assert "random (seed 2): random:seed=2" in run.stdout and f"replay: replay:file={game}" in " ".join(
        run.stdout.split()
    )
    standings = json.loads((tmp_path / "r.json").read_text())
    assert {row["spec"]: row["forfeits"] for row in standings["players"]} == {
        f"replay:file={game}": 2,
        "random:seed=2": 0,
    }
    assert standings["forfeits"] == [
        {"spec": f"replay:file={game}", "reason": "the record has no move for this position", "games": 2}
    ]


def test_two_players_of_the_same_name_are_told_apart():
    from kalah.cli.arena import player_labels

    labels = player_labels(["exec:python3 bot.py", "exec[move=5]:python3 bot.py", "random"])
    assert labels == {
        "exec:python3 bot.py": "python3 bot.py #1",
        "exec[move=5]:python3 bot.py": "python3 bot.py #2",
        "random": "random",
    }


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--games", "20000000"], "--games must be an even number from 2 to 100,000"),
        (["--games", "99999999999999999999998"], "--games must be an even number from 2 to 100,000"),
        (["-p", "random:seed=1", "--games", "100000"], "player 'random:seed=1' is listed twice"),
    ],
    ids=["large", "huge", "twice"],
)
def test_an_arena_checks_its_options_before_making_its_schedule(tmp_path, options, message):
    # --games had no upper bound: the openings and the schedule filled gigabytes before any other check.
    started = time.monotonic()
    run = kalah("arena", "-p", "random:seed=1", "-p", "random:seed=2", *options, "--db", str(tmp_path / "a.sqlite"))
    assert run.returncode == 2, run.stderr
    assert run.stderr.startswith("kalah: error: ") and message in run.stderr and run.stderr.count("\n") == 1
    assert time.monotonic() - started < 20
    assert not (tmp_path / "a.sqlite").exists()


def test_the_help_of_games_names_the_bound():
    from kalah.arena import MAX_GAMES

    assert f"at most {MAX_GAMES:,}" in " ".join(kalah("arena", "--help").stdout.split())


@pytest.mark.parametrize("threads", ["65", "99999999999999999999999", "0"])
def test_solve_threads_have_the_bound_of_a_players_threads(threads):
    from kalah.search import MAX_THREADS

    run = kalah("solve", "--threads", threads)
    assert run.returncode == 2
    assert run.stderr == f"kalah: error: threads must be a whole number from 1 to {MAX_THREADS}, got {threads}\n"
