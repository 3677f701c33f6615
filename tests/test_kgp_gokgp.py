"""Our KGP client (`kalah kgp`) on go-kgp's own practice server, against go-kgp's bots.

go-kgp is built from the unmodified copy in ../shared/interop (Go and Debian's
Go packages, as .ci/run installs them); the test skips, saying why, where
they are missing. go-kgp pairs waiting agents every 20 seconds, so a game
takes about a minute to begin.
"""

from __future__ import annotations

import sqlite3
import subprocess
import time

import pytest

from kgp_interop import build_go_kgp_practice, free_port, kalah_command

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def practice(tmp_path_factory):
    yield from _practice_server(tmp_path_factory, 6)


@pytest.fixture(scope="module")
def practice_12(tmp_path_factory):
    # go-kgp's -board-size and -board-init: Kalah(12,12), the last stage of the FAU tournament
    yield from _practice_server(tmp_path_factory, 12)


def _practice_server(tmp_path_factory, size):
    work = tmp_path_factory.mktemp(f"go-kgp-{size}")
    binary = build_go_kgp_practice(work)
    tcp, www = free_port(), free_port()
    db = work / "kgp.db"
    server = subprocess.Popen(
        [
            str(binary),
            "-tcpport",
            str(tcp),
            "-wwwport",
            str(www),
            "-board-size",
            str(size),
            "-board-init",
            str(size),
            "-timeout",
            "1s",
            "-db",
            str(db),
        ],
        cwd=work,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(1.0)
    if server.poll() is not None:
        pytest.skip("go-kgp's practice server did not start")
    yield {"tcp": tcp, "www": www, "db": db}
    server.terminate()
    server.wait(10)


def _finished_games(db, name):
    """go-kgp's record of the agent's games: (opponent's name, result from our side) of each finished game."""
    with sqlite3.connect(db) as con:
        rows = con.execute(
            "SELECT g.state, n.name, s.name FROM game g JOIN agent n ON n.id = g.north JOIN agent s ON s.id = g.south"
            " WHERE (n.name = ? OR s.name = ?) AND g.state IN ('nw', 'sw', 'u')",
            (name, name),
        ).fetchall()
    games = []
    for state, north, south in rows:
        ours = "n" if north == name else "s"
        result = "draw" if state == "u" else ("win" if state[0] == ours else "loss")
        games.append((south if ours == "n" else north, result))
    return games


def _play(server, name, games, player="alphabeta:depth=6"):
    return subprocess.run(
        [
            *kalah_command(),
            "kgp",
            server,
            "--player",
            player,
            "--name",
            name,
            "--games",
            str(games),
            "--retries",
            "0",
        ],
        capture_output=True,
        text=True,
        timeout=240,
    )


def test_our_client_plays_go_kgps_bots_over_tcp(practice):
    run = _play(f"127.0.0.1:{practice['tcp']}", "kalah-tcp", 2)
    assert run.returncode == 0, run.stderr
    assert "stopped: played 2 games" in run.stderr
    played = _finished_games(practice["db"], "kalah-tcp")
    # go-kgp itself recorded whole games (not resignations) against its own bots (MinMax-..., Random)
    assert len(played) >= 2, played
    assert all(opponent.startswith(("MinMax", "Random")) for opponent, _ in played), played


def test_our_client_plays_on_go_kgp_over_a_websocket(practice):
    run = _play(f"ws://127.0.0.1:{practice['www']}/socket", "kalah-ws", 1)
    assert run.returncode == 0, run.stderr
    assert "stopped: played 1 game" in run.stderr
    assert len(_finished_games(practice["db"], "kalah-ws")) >= 1


def _moves_of(db, name):
    """go-kgp's record of the agent's 12-pit games so far: its legal moves, as go-kgp saves them one by one,
    and the states of its games (an illegal move or a resignation ends a game as 'nr' or 'sr')."""
    with sqlite3.connect(db) as con:
        moves = con.execute(
            "SELECT COUNT(*) FROM move m JOIN agent a ON a.id = m.agent JOIN game g ON g.id = m.game"
            " WHERE a.name = ? AND g.size = 12",
            (name,),
        ).fetchone()[0]
        states = [
            row[0]
            for row in con.execute(
                "SELECT g.state FROM game g JOIN agent n ON n.id = g.north JOIN agent s ON s.id = g.south"
                " WHERE n.name = ? OR s.name = ?",
                (name, name),
            )
        ]
    return moves, states


def test_our_client_plays_go_kgps_bots_at_kalah_12_12(practice_12):
    # A whole Kalah(12,12) game against go-kgp's deeper bots (plain minimax to 12 plies, no time limit of their
    # own: 40 s a move and more here) can take an hour, so the test watches go-kgp's record until our client
    # has made 3 legal moves there (or finished a game), then stops it.
    client = subprocess.Popen(
        [*kalah_command(), "kgp", f"127.0.0.1:{practice_12['tcp']}", "--player", "pvs:depth=4", "--name", "kalah-12"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 240
        moves, states = 0, []
        while time.monotonic() < deadline and client.poll() is None:
            moves, states = _moves_of(practice_12["db"], "kalah-12")
            if moves >= 3 or any(state in ("nw", "sw", "u") for state in states):
                break
            time.sleep(1)
        assert client.poll() is None, client.communicate()[1]  # still connected: nothing went wrong
    finally:
        client.terminate()
        errors = client.communicate(timeout=30)[1]
    assert "game 1 begins" in errors, errors
    assert moves >= 3 or any(state in ("nw", "sw", "u") for state in states), (moves, states)
    # go-kgp took every move: none was illegal (go-kgp ends the game as our resignation then)
    assert not any(state in ("nr", "sr") for state in states), (states, errors)
    assert all(
        opponent.startswith(("MinMax", "Random")) for opponent, _ in _finished_games(practice_12["db"], "kalah-12")
    )
