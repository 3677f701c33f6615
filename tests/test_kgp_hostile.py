"""Hostile agents cannot hurt the class server or the other agents (issue 28, build item 5).

Each misbehaviour gets an ``error`` or a closed connection; meanwhile a
well-behaved agent (our client) plays on, its game finishes and is in the
library: the server neither crashed nor stalled, and lost no finished game.
"""

from __future__ import annotations

import asyncio
import socket
import subprocess
import time

import httpx
import pytest

from classroom_helpers import ServerThread
from kalah.classroom import SessionLimits
from kalah.web.connections import HttpConnectionLimits
from kgp_interop import kalah_command


def _connect(server: ServerThread) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.kgp_port), timeout=10)
    assert sock.recv(100).startswith(b"2 kgp 1 0 1")
    return sock


def _read_until_closed(sock: socket.socket, timeout: float = 15.0) -> bytes:
    """Everything the server sends until it closes the connection (fails if it does not close in time)."""
    sock.settimeout(timeout)
    data = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except (ConnectionResetError, BrokenPipeError):
            return data
        if not chunk:
            return data
        data += chunk
    raise AssertionError(f"the server did not close the connection; it sent {data[-300:]!r}")


class WellBehaved:
    """Our client playing one game meanwhile: it must finish, and the game must be in the library."""

    def __init__(self, server: ServerThread, name: str = "good-agent", games: int = 1) -> None:
        self.server, self.name, self.games = server, name, games
        self.process = subprocess.Popen(
            [
                *kalah_command(),
                "kgp",
                f"127.0.0.1:{server.kgp_port}",
                "--player",
                "alphabeta:depth=3",
                "--name",
                name,
                "--games",
                str(games),
                "--retries",
                "0",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def check(self) -> None:
        out, err = self.process.communicate(timeout=120)
        assert self.process.returncode == 0, err
        assert f"stopped: played {self.games} game" in err
        # Paired with a hostile agent that forfeits, its game ends stopped rather than played out.
        assert self.server.wait_for(lambda: len(self.server.ended_games(self.name)) >= self.games, timeout=10)


@pytest.fixture
def server(tmp_path):
    limits = SessionLimits(
        handshake_seconds=2.0,
        max_per_address=20,
        new_tokens_per_minute=5,
        ping_every=1.0,
        pong_seconds=1.0,
        write_seconds=3.0,
    )
    with ServerThread(tmp_path / "lib.sqlite", move_time=0.3, limits=limits) as running:
        yield running


def test_a_line_over_16384_characters_gets_an_error_and_is_closed(server):
    good = WellBehaved(server)
    sock = _connect(server)
    sock.sendall(b'set info:name "' + b"x" * 20000 + b'"\r\n')
    answer = _read_until_closed(sock)
    assert b"error" in answer and b"16384" in answer
    good.check()


def test_a_flood_of_commands_is_cut_off(server):
    good = WellBehaved(server)
    sock = _connect(server)
    flood = b"set flood:x 1\r\n" * 20000
    try:
        sock.sendall(flood)
    except (BrokenPipeError, ConnectionResetError):
        pass
    answer = _read_until_closed(sock)
    assert b"too many commands" in answer
    good.check()


def test_invalid_utf8_gets_an_error_and_is_closed(server):
    sock = _connect(server)
    sock.sendall(b'set info:name "\xff\xfe"\r\n')
    answer = _read_until_closed(sock)
    assert b"error" in answer and b"UTF-8" in answer


def test_a_silent_or_slow_connection_is_closed_after_the_handshake_time(server):
    silent = _connect(server)
    slow = _connect(server)
    good = WellBehaved(server)
    started = time.monotonic()
    for byte in b"mode free":  # a byte at a time, never a whole line
        slow.sendall(bytes([byte]))
        time.sleep(0.1)
    assert b"no mode chosen in time" in _read_until_closed(silent)
    assert b"no mode chosen in time" in _read_until_closed(slow)
    assert time.monotonic() - started < 10
    good.check()


def test_a_half_open_agent_in_a_game_forfeits_and_the_others_play_on(server):
    # an agent that chooses freeplay and then neither reads nor answers: no moves, no pong
    sock = _connect(server)
    sock.sendall(b'set info:name "ghost"\r\nmode freeplay\r\n')
    good = WellBehaved(server)
    assert server.wait_for(
        lambda: any(r["reason"].startswith("forfeit: ghost") for r in server.server.book.results()), timeout=30
    )
    good.check()
    sock.close()


def test_a_thousand_connections_from_one_address_are_capped(tmp_path):
    limits = SessionLimits(max_per_address=20, handshake_seconds=60)  # the connections stay open through the storm
    with ServerThread(tmp_path / "lib.sqlite", move_time=0.3, limits=limits) as server:
        _storm(server)


def _storm(server: ServerThread) -> None:
    async def storm() -> tuple[int, int]:
        greeted = refused = 0
        kept = []
        for _ in range(1000):
            reader, writer = await asyncio.open_connection("127.0.0.1", server.kgp_port)
            first = await asyncio.wait_for(reader.readline(), 10)
            if first.startswith(b"2 kgp"):
                greeted += 1
                kept.append(writer)
            else:
                assert b"too many connections" in first
                refused += 1
                writer.close()
        for writer in kept:
            writer.close()
        return greeted, refused

    good = WellBehaved(server, games=4)
    assert server.wait_for(lambda: server.call(lambda: any(s.name == "good-agent" for s in server.server.sessions)))
    greeted, refused = asyncio.run(storm())
    assert greeted <= 20 and refused >= 980 and greeted + refused == 1000
    good.check()
    # the cap counts open connections: once they are closed, the address may connect again
    assert server.wait_for(lambda: not server.server.by_address, timeout=10)
    _connect(server).close()


def test_half_open_web_requests_from_one_address_are_capped_and_closed(tmp_path):
    """A request never finished held its socket for ever: one address took every file descriptor, and the
    server could no longer store results, greet agents or answer pages."""
    cap, header_seconds = 4, 4.0
    limits = SessionLimits(max_per_address=cap)
    connections = HttpConnectionLimits(per_address=cap, header_seconds=header_seconds)
    with ServerThread(tmp_path / "lib.sqlite", limits=limits, connections=connections) as server:
        half_open = []
        try:
            for _ in range(6 * cap):
                sock = socket.create_connection(("127.0.0.1", server.port), timeout=10, source_address=("127.0.0.2", 0))
                sock.sendall(b"G")
                half_open.append(sock)
            with httpx.Client(base_url=f"http://127.0.0.1:{server.port}", timeout=10) as honest:
                assert honest.get("/api/leaderboard").status_code == 200
            _connect(server).close()  # agents are still greeted
            answers = [_read_until_closed(sock, header_seconds + 10) for sock in half_open]
        finally:
            for sock in half_open:
                sock.close()
        refused = [answer for answer in answers if answer.startswith(b"HTTP/1.1 503")]
        timed_out = [answer for answer in answers if answer.startswith(b"HTTP/1.1 408")]
        assert len(refused) >= 5 * cap and len(refused) + len(timed_out) == len(answers), answers


def test_guessed_tokens_are_limited_and_short_tokens_refused(server):
    def sign_in(token: str) -> bytes:
        sock = _connect(server)
        sock.sendall(f'set auth:token "{token}"\r\nmode freeplay\r\n'.encode())
        sock.settimeout(5)
        answer = sock.recv(4096)
        sock.close()
        return answer

    assert b"at least 8 characters" in sign_in("short")
    answers = [sign_in(f"guess-{n:08d}") for n in range(8)]
    assert all(b"ok" in answer for answer in answers[:5])
    assert all(b"too many new tokens" in answer for answer in answers[5:])
    assert b"ok" in sign_in("guess-00000001")  # a token the server knows still works
    # tokens are kept hashed: no token is in the file
    import sqlite3

    with sqlite3.connect(server.db) as db:
        stored = [row[0] for row in db.execute("SELECT token_hash FROM kgp_agents")]
    assert stored and not any("guess-" in (value or "") for value in stored)


def test_anonymous_agents_are_reused_and_new_ones_limited(tmp_path):
    """300 loops of connect, name, freeplay, close made 300 agents, on the leaderboard for ever."""
    import sqlite3

    def sign_in(name: str, source: str, token: str = "") -> tuple[socket.socket, bytes]:
        sock = socket.create_connection(("127.0.0.1", server.kgp_port), timeout=10, source_address=(source, 0))
        assert sock.recv(100).startswith(b"2 kgp")
        if token:
            sock.sendall(f'set auth:token "{token}"\r\n'.encode())
        sock.sendall(f'set info:name "{name}"\r\nmode freeplay\r\n'.encode())
        sock.settimeout(5)
        answer = b""
        while not answer.endswith(b"\n") or b" ok" not in answer and b"error" not in answer:
            answer += sock.recv(4096)
        return sock, answer

    def welcome(answer: bytes) -> bool:
        return b"error" not in answer

    def anonymous_agents() -> int:
        with sqlite3.connect(server.db) as db:
            return db.execute("SELECT COUNT(*) FROM kgp_agents WHERE kind = 'agent'").fetchone()[0]

    def gone(sock: socket.socket) -> None:
        sock.close()
        server.wait_for(lambda: server.call(lambda: not server.server.by_address.get(source)), timeout=10, every=0.01)

    limits = SessionLimits(new_anonymous_per_minute=3)
    with ServerThread(tmp_path / "lib.sqlite", limits=limits, pair_every=60) as server:
        source = "127.0.0.3"
        for _ in range(30):  # the same name again: the same agent
            sock, answer = sign_in("anon", source)
            assert welcome(answer)
            gone(sock)
        assert anonymous_agents() == 1
        held = [sign_in(f"anon-{n}", source) for n in range(4)]  # three new names a minute
        assert [welcome(answer) for _, answer in held] == [True, True, False, False]
        assert b"too many new anonymous agents" in held[2][1]
        again, answer = sign_in("anon", source)  # a name seen before is no new agent
        assert welcome(answer)
        with_token, answer = sign_in("with-token", source, "a-long-token")  # tokens have their own limit
        assert welcome(answer)
        with_token.close()
        elsewhere, answer = sign_in("anon-9", "127.0.0.4")  # the limit counts one address
        assert welcome(answer)
        for sock in [again, elsewhere, *(sock for sock, _ in held)]:
            sock.close()
        assert anonymous_agents() == 5  # "anon", two new names, one elsewhere, and the token's agent


def test_garbage_and_unknown_commands_get_errors_not_a_crash(server):
    sock = _connect(server)
    sock.sendall(b"\x00\x01\x02\r\nfoo bar\r\n<<<>>>\r\n12@ move\r\nmode freeplay\r\n@999 move 1\r\n2 move -5\r\n")
    time.sleep(0.5)
    sock.settimeout(5)
    answer = sock.recv(65536)
    assert answer.count(b"error") >= 3 and b"ok" in answer
    sock.close()
    good = WellBehaved(server)
    good.check()


def test_the_socket_refuses_pages_of_other_websites(server):
    """A browser lets any page open a WebSocket anywhere, and always says which page: the KGP socket
    accepted every Origin, so another website could open agents' connections from a visitor's machine."""
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    url = f"ws://127.0.0.1:{server.port}/socket"
    for origin in ("http://evil.example", "null", f"http://localhost:{server.port}", "http://127.0.0.1:1"):
        with pytest.raises(InvalidStatus) as refused:
            connect(url, origin=origin, open_timeout=10)
        assert refused.value.response.status_code == 403, origin
        assert b"other websites" in refused.value.response.body
    for origin in (None, f"http://127.0.0.1:{server.port}"):  # an agent (a program), a page of this server
        with connect(url, origin=origin, open_timeout=10) as socket_:
            assert "kgp 1" in socket_.recv(10)
