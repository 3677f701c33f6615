"""`kalah arena serve` with real agents: KWARC's pykgp (unchanged) and our own client, over TCP and WebSocket."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import httpx
import pytest

from classroom_helpers import ServerThread
from kalah.rules import Variant
from kgp_interop import kalah_command, pykgp_dir


def _pykgp(example: str, host: str, port: int, name: str, token: str) -> subprocess.Popen:
    folder = pykgp_dir()
    env = dict(os.environ, PYTHONPATH=str(folder), KGP_HOST=host, KGP_PORT=str(port), NAME=name, TOKEN=token)
    return subprocess.Popen(
        [sys.executable, str(folder / "examples" / example)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def _stop(process: subprocess.Popen) -> None:
    import signal

    try:
        os.killpg(process.pid, signal.SIGKILL)  # pykgp does not exit by itself; its move processes go too
    except ProcessLookupError:
        pass
    process.wait(10)


@pytest.mark.slow
@pytest.mark.parametrize("transport", ["tcp", "websocket"])
def test_pykgp_plays_on_our_server(tmp_path, transport):
    pytest.importorskip(
        "websocket", reason="pykgp's WebSocket needs websocket-client"
    ) if transport == "websocket" else None
    with ServerThread(tmp_path / "lib.sqlite", move_time=0.5) as server:
        host = "127.0.0.1" if transport == "tcp" else f"ws://127.0.0.1:{server.port}/socket"
        agent = _pykgp("chance.py", host, server.kgp_port, "pykgp-random", "pykgp-secret-token")
        try:
            assert server.wait_for(lambda: len(server.finished_games("pykgp-random")) >= 2, timeout=120), (
                "pykgp did not finish two games"
            )
        finally:
            _stop(agent)
        games = server.finished_games("pykgp-random")
        for game in games:
            record = server.library.record(game.id)
            assert record.final.is_over
            # pykgp sent its own (random, legal) moves: most of its moves were not played for it by the server
            side = 0 if game.players[0].name == "pykgp-random" else 1
            own = [m for m in record.moves if m.player == side]
            assert sum(1 for m in own if not m.info.get("random_move")) > len(own) // 2
        board = httpx.get(f"http://127.0.0.1:{server.port}/api/leaderboard").json()
        assert any(row["name"] == "pykgp-random" and row["games"] >= 2 for row in board)


@pytest.mark.slow
def test_pykgp_minimax_is_stopped_at_the_move_time(tmp_path):
    # pykgp's minimax agent deepens to 15 and yields only then: the server must take its last move at the deadline
    move_time = 0.4
    with ServerThread(tmp_path / "lib.sqlite", move_time=move_time) as server:
        agent = _pykgp("minmax.py", "127.0.0.1", server.kgp_port, "ignored", "pykgp-minmax-token")
        try:
            assert server.wait_for(lambda: len(server.finished_games("Minmax 16")) >= 1, timeout=120)
        finally:
            _stop(agent)
        game = server.finished_games("Minmax 16")[0]
        record = server.library.record(game.id)
    side = 0 if record.players[0].name == "Minmax 16" else 1
    positions = list(record.positions())
    choices = [
        m
        for m, before in zip(record.moves, positions, strict=False)
        if m.player == side and len(before.legal_moves()) > 1
    ]
    assert len(choices) >= 5, record.moves
    # Its own moves (sent at depth 1 within the time), not ones the server chose for it ...
    assert sum(1 for m in choices if m.info.get("random_move")) <= len(choices) // 4, [m.info for m in choices]
    # ... each taken at the deadline: never much after it (the server did not wait for the search to end), and
    # mostly not before it (depth 15 is out of reach on a full board, so the agent never yields early).
    seconds = sorted(m.seconds for m in choices)
    assert seconds[-1] < move_time + 0.6, seconds
    assert seconds[len(seconds) // 2] > 0.8 * move_time, seconds


@pytest.mark.parametrize("transport", ["tcp", "websocket"])
def test_our_client_plays_on_our_server(tmp_path, transport):
    with ServerThread(tmp_path / "lib.sqlite", move_time=1.0) as server:
        address = f"127.0.0.1:{server.kgp_port}" if transport == "tcp" else f"ws://127.0.0.1:{server.port}/socket"
        run = subprocess.run(
            [
                *kalah_command(),
                "kgp",
                address,
                "--player",
                "alphabeta:depth=3",
                "--name",
                "ours",
                "--token",
                "our-secret-token",
                "--games",
                "2",
                "--retries",
                "0",
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert run.returncode == 0, run.stderr
        # a line for each game with its outcome, none for a third, and the end says the count once
        over = re.findall(r"^kalah kgp: game (\d+) is over: (won|drew|lost) (\d+)-(\d+)$", run.stderr, re.MULTILINE)
        assert [number for number, *_ in over] == ["1", "2"], run.stderr
        assert "game 3" not in run.stderr
        tally = ", ".join(
            f"{kind} {n}" for kind in ("won", "drew", "lost") if (n := [o for _, o, *_ in over].count(kind))
        )
        assert re.search(rf"\nkalah kgp: stopped: played 2 games: {tally} \(\d+ decisions\)\n$", run.stderr), run.stderr
        assert "our-secret-token" not in run.stderr + run.stdout
        assert server.wait_for(lambda: len(server.finished_games("ours")) >= 2, timeout=10)
        # it left after the server's game:result: no game was forfeited
        results = server.server.book.results()
        assert len(results) == 2 and not any(r["reason"].startswith("forfeit") for r in results)


def test_our_client_answers_eval_mode_and_two_clients_pair(tmp_path):
    with ServerThread(tmp_path / "lib.sqlite", move_time=1.0) as server:
        runs = [
            subprocess.Popen(
                [
                    *kalah_command(),
                    "kgp",
                    f"127.0.0.1:{server.kgp_port}",
                    "--player",
                    f"alphabeta:depth={d}",
                    "--name",
                    f"agent-{d}",
                    "--games",
                    "1",
                    "--retries",
                    "0",
                ],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for d in (2, 4)
        ]
        outputs = [run.communicate(timeout=120) for run in runs]
        assert all(run.returncode == 0 for run in runs), outputs
        games = server.finished_games()
        assert any({g.players[0].name, g.players[1].name} == {"agent-2", "agent-4"} for g in games) or all(
            any(n.startswith("bot-") for n in (g.players[0].name, g.players[1].name)) for g in games
        )


@pytest.mark.parametrize("size", [8, 10, 12])
def test_our_client_plays_the_fau_stages_on_our_server(tmp_path, size):
    # Kalah(8,8), (10,10) and (12,12), the stages of the FAU tournament: (12,12) holds 288 seeds
    with ServerThread(tmp_path / "lib.sqlite", move_time=1.0, variant=Variant(size, size)) as server:
        run = subprocess.run(
            [
                *kalah_command(),
                "kgp",
                f"127.0.0.1:{server.kgp_port}",
                "--player",
                "pvs:depth=3",
                "--name",
                "big",
                "--games",
                "1",
                "--retries",
                "0",
            ],
            capture_output=True,
            text=True,
            timeout=180,
        )
        assert run.returncode == 0, run.stderr
        assert "stopped: played 1 game" in run.stderr
        assert server.wait_for(lambda: len(server.finished_games("big")) >= 1, timeout=10)
        record = server.library.record(server.finished_games("big")[0].id)  # the game library holds it whole
        assert record.variant.pits == size and record.finished and record.final.is_over
        assert sum(record.final.cells) == 2 * size * size
        results = server.server.book.results()
        assert results and not any(r["reason"].startswith("forfeit") for r in results)
