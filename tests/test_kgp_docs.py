"""The teacher's guide's starter agents (docs/examples/kgp_*.py) play on the class server as documented."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from classroom_helpers import ServerThread

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"


def test_the_starter_agent_with_our_api_plays_a_game(tmp_path):
    with ServerThread(tmp_path / "lib.sqlite", move_time=1.0) as server:
        env = dict(os.environ, KGP_SERVER=f"127.0.0.1:{server.kgp_port}", KGP_TOKEN="starter-secret", KGP_GAMES="1")
        run = subprocess.run(
            [sys.executable, str(EXAMPLES / "kgp_starter.py")], env=env, capture_output=True, text=True, timeout=120
        )
        assert run.returncode == 0, run.stderr
        assert "stopped: played 1 game" in run.stdout
        assert server.finished_games("my-agent")


def test_the_bare_kgp_agent_plays_a_game(tmp_path):
    with ServerThread(tmp_path / "lib.sqlite", move_time=1.0) as server:
        agent = subprocess.Popen(
            [sys.executable, str(EXAMPLES / "kgp_bare.py"), "127.0.0.1", str(server.kgp_port), "bare-secret-token"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            assert server.wait_for(lambda: len(server.finished_games("bare-agent")) >= 1, timeout=60)
            record = server.library.record(server.finished_games("bare-agent")[0].id)
            side = 0 if record.players[0].name == "bare-agent" else 1
            assert not any(m.info.get("random_move") for m in record.moves if m.player == side)  # its own moves
        finally:
            agent.kill()
            agent.wait(10)
