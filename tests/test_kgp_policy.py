"""What the class server does with late, illegal and vanished agents (documented in docs/classroom.md)."""

from __future__ import annotations

import socket

from classroom_helpers import ServerThread
from kalah.kgp import Board, parse_line


class RawAgent:
    """An agent typed by hand over TCP."""

    def __init__(self, port: int, name: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.file = self.sock.makefile("rw", encoding="utf-8", newline="")
        assert parse_line(self.file.readline()).name == "kgp"
        self.send(f'set info:name "{name}"')
        self.send("mode freeplay")

    def send(self, line: str) -> None:
        self.file.write(line + "\r\n")
        self.file.flush()

    def next(self, *names: str):
        while True:
            command = parse_line(self.file.readline())
            if command.name in names:
                return command


def test_illegal_moves_get_errors_late_agents_get_random_moves_and_leavers_forfeit(tmp_path):
    with ServerThread(tmp_path / "lib.sqlite", move_time=0.5) as server:
        agent = RawAgent(server.kgp_port, "raw")
        first = agent.next("state")
        board: Board = first.args[0]
        empty = next((pit for pit, seeds in enumerate(board.south, 1) if seeds == 0), 0)
        legal = next(pit for pit, seeds in enumerate(board.south, 1) if seeds)
        agent.send(f"@{first.id} move 99")
        assert "illegal move" in agent.next("error").text(0)
        if empty:
            agent.send(f"@{first.id} move {empty}")
            assert "illegal move" in agent.next("error").text(0)
        agent.send(f"@{first.id} move {legal}")
        agent.send(f"@{first.id} yield")
        second = agent.next("state")
        stop = agent.next("stop")  # silent: after the move time the server stops it and plays for it
        assert stop.ref == second.id
        agent.file.close()  # and now it leaves in the middle of the game
        agent.sock.close()
        assert server.wait_for(lambda: server.server.book.results(), timeout=20)
        result = server.server.book.results()[0]
        assert result["reason"] == "forfeit: raw disconnected (the agent closed the connection)"
        game = server.library.list_games()[0]
        record = server.library.record(game.id)
        side = 0 if record.players[0].name == "raw" else 1
        assert result["score"] == (0.0 if side == 0 else 1.0)  # the leaver lost
        assert game.status == "stopped" and record.stop_reason.startswith("forfeit: raw")
        mine = [m for m in record.moves if m.player == side]
        assert mine[0].move == legal - 1 and mine[0].info.get("illegal_moves") == (2 if empty else 1)
        assert mine[1].info.get("kgp") == "late" and mine[1].info.get("random_move")


def test_an_agent_that_leaves_before_its_first_move_of_a_practice_game_loses_nothing(tmp_path):
    # what a client that has played the games it wanted meets when the queue pairs it again as it leaves
    with ServerThread(tmp_path / "lib.sqlite", move_time=0.5) as server:
        agent = RawAgent(server.kgp_port, "leaver")
        agent.next("state")
        agent.file.close()
        agent.sock.close()
        assert server.wait_for(lambda: [g for g in server.library.list_games() if g.status == "stopped"], timeout=20)
        game = server.library.list_games()[0]
        record = server.library.record(game.id)
        assert record.stop_reason.startswith("void: leaver left before its first move")
        assert server.server.book.results() == []  # no one lost it, no one won it
