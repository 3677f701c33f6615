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
    # go-kgp's -board-size and -board-init: Kalah(12,12), the last stage of the FAU tournament. The practice
    # server's bots search 8 to 12 plies with no clock of their own (40 s a move and more at this size), so a
    # game there can take an hour; go-kgp's training server has the same bots at a depth we choose.
    yield from _practice_server(tmp_path_factory, 12, "train", "-search-depth", "4")


def _practice_server(tmp_path_factory, size, command="practice", *options):
    work = tmp_path_factory.mktemp(f"go-kgp-{size}")
    binary = build_go_kgp_practice(work, command)
    tcp, www = free_port(), free_port()
    db = work / "kgp.db"
    server = subprocess.Popen(
        [
            str(binary),
            *options,
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


def test_our_client_plays_a_whole_kalah_12_12_game_on_go_kgp(practice_12):
    run = _play(f"127.0.0.1:{practice_12['tcp']}", "kalah-12", 1, player="pvs:depth=4")
    assert run.returncode == 0, run.stderr
    assert "stopped: played 1 game" in run.stderr
    # go-kgp recorded a finished game (an illegal move of ours would have ended it as our resignation)
    played = _finished_games(practice_12["db"], "kalah-12")
    assert len(played) == 1, played
    assert played[0][0].startswith(("MinMax", "Random")), played
