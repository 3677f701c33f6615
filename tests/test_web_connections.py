"""Slow, idle and too many connections (issue 26, item 8): they are closed after their timeouts, one
address cannot hold more than its share, everyone else is answered meanwhile, and the log stays short."""

from __future__ import annotations

import logging
import socket
import threading
import time

import httpx
import pytest

from kalah.web import create_app
from kalah.web.connections import HttpConnectionLimits, QuietLog, server_config

#: Short limits, so that the test sees them act.
LIMITS = dict(idle_seconds=1.0, header_seconds=1.5, body_seconds=1.5, per_address=12)
#: Where the slow clients come from (all of 127.0.0.0/8 is this machine); the honest one uses 127.0.0.1.
ATTACKER = "127.0.0.2"


@pytest.fixture()
def server(tmp_path):
    import uvicorn

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    app = create_app(tmp_path / "games.sqlite", workers=1, pool="thread")
    running = uvicorn.Server(server_config(app, "127.0.0.1", port, HttpConnectionLimits(**LIMITS)))
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not running.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert running.started, "the test server did not start"
    yield port
    running.should_exit = True
    thread.join(timeout=10)


def connect(port, source=ATTACKER, send=b""):
    sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    if send:
        sock.sendall(send)
    return sock


def closed_after(sock, limit):
    """Seconds until the server closed ``sock`` (reading whatever it said), or None if it is still open
    after ``limit`` seconds."""
    began = time.monotonic()
    sock.settimeout(0.1)
    while time.monotonic() - began < limit:
        try:
            if sock.recv(4096) == b"":
                return time.monotonic() - began
        except TimeoutError:
            continue
        except ConnectionResetError:
            return time.monotonic() - began
    return None


def test_slow_and_idle_connections_are_closed_and_others_are_answered(server):
    port = server
    idle = [connect(port) for _ in range(4)]
    headers = [connect(port, send=b"GET /api/info HTTP/1.1\r\nHost: localhost\r\n") for _ in range(4)]
    bodies = [
        connect(
            port,
            send=b"POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            b'Content-Length: 1000\r\n\r\n{"players"',
        )
        for _ in range(4)
    ]
    dripping = threading.Event()

    def drip():  # a byte every 0.2 s: each one used to reset uvicorn's timer
        while not dripping.is_set():
            for sock in headers:
                try:
                    sock.sendall(b"X")
                except OSError:
                    pass
            time.sleep(0.2)

    dripper = threading.Thread(target=drip, daemon=True)
    dripper.start()
    try:
        time.sleep(0.3)
        over = [connect(port) for _ in range(6)]  # past the cap of 12 from this address
        for sock in over:
            sock.settimeout(5)
            answer = sock.recv(4096)
            assert answer.startswith(b"HTTP/1.1 503"), answer[:100]
            assert closed_after(sock, 2) is not None
        began = time.monotonic()
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as honest:
            for _ in range(5):
                assert honest.get("/api/info").status_code == 200
        assert time.monotonic() - began < 2.5, "the honest client waited"
        for group, limit in (
            (idle, LIMITS["idle_seconds"]),
            (headers, LIMITS["header_seconds"]),
            (bodies, LIMITS["body_seconds"]),
        ):
            for sock in group:
                after = closed_after(sock, limit + 3)
                assert after is not None, "a slow connection is still open"
        fresh = connect(port)  # the slow ones are gone: this address may connect again
        fresh.sendall(b"GET /api/info HTTP/1.1\r\nHost: localhost\r\n\r\n")
        fresh.settimeout(5)
        assert fresh.recv(4096).startswith(b"HTTP/1.1 200")
        fresh.close()
    finally:
        dripping.set()
        dripper.join(timeout=5)
        for sock in idle + headers + bodies:
            sock.close()


def test_many_slow_connections_from_many_addresses_leave_the_server_answering(server):
    port = server
    socks = []
    try:
        for last in range(2, 22):  # 20 addresses, each at its cap
            for _ in range(LIMITS["per_address"]):
                socks.append(connect(port, source=f"127.0.0.{last}", send=b"GET / HTTP/1.1\r\n"))
        latencies = []
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as honest:
            for _ in range(10):
                began = time.monotonic()
                assert honest.post("/api/games", json={"players": ["human", "human"]}).status_code == 201
                latencies.append(time.monotonic() - began)
        assert max(latencies) < 2.0, latencies
        time.sleep(LIMITS["header_seconds"] + 1.0)
        assert all(closed_after(sock, 1.0) is not None for sock in socks)
    finally:
        for sock in socks:
            sock.close()


def test_a_flood_of_refusals_writes_one_line(server, caplog):
    port = server
    keep = [connect(port) for _ in range(LIMITS["per_address"])]
    try:
        with caplog.at_level(logging.WARNING):
            time.sleep(0.2)
            for _ in range(50):
                sock = connect(port)
                sock.settimeout(5)
                assert sock.recv(4096).startswith(b"HTTP/1.1 503")
                sock.close()
            time.sleep(0.2)
        refusals = [record for record in caplog.records if "refused a connection" in record.getMessage()]
        assert len(refusals) <= 1, [record.getMessage() for record in refusals]
        assert all(record.exc_info is None for record in caplog.records)
    finally:
        for sock in keep:
            sock.close()


def test_the_quiet_log_writes_a_condition_once_per_interval_without_traceback():
    quiet = QuietLog(interval=60)
    records = []
    for number in range(100):
        try:
            raise OSError(24, "Too many open files")
        except OSError:
            import sys

            record = logging.LogRecord(
                "asyncio",
                logging.ERROR,
                __file__,
                1,
                "socket.accept() out of system resource (%d)",
                (number,),
                sys.exc_info(),
            )
        if quiet.filter(record):
            records.append(record)
    assert len(records) == 1
    assert records[0].exc_info is None and "Too many open files" in records[0].getMessage()
    other = logging.LogRecord(
        "uvicorn.error", logging.WARNING, __file__, 1, "Invalid HTTP request received.", None, None
    )
    assert quiet.filter(other)
    quiet._seen[("asyncio", "socket.accept() out of system resource (%d)", "OSError")] = (time.monotonic() - 61, 99)
    later = logging.LogRecord(
        "asyncio", logging.ERROR, __file__, 1, "socket.accept() out of system resource (%d)", (7,), None
    )
    later.exc_info = (OSError, OSError(24, "Too many open files"), None)
    assert quiet.filter(later) and "99 more like it" in later.getMessage()


def test_kalah_serve_closes_a_connection_that_never_speaks(tmp_path):
    from helpers import kill_group, start_kalah_serve

    process, url = start_kalah_serve(tmp_path / "games.sqlite")
    try:
        port = int(url.rsplit(":", 1)[1])
        silent = connect(port, source="127.0.0.1")
        dripping = connect(port, source="127.0.0.1", send=b"GET /api/info HTTP/1.1\r\n")
        began = time.monotonic()
        for _ in range(14):  # a header line every second: each reset uvicorn's idle timer
            time.sleep(1)
            try:
                dripping.sendall(b"X-Slow: 1\r\n")
            except OSError:
                break
        assert closed_after(silent, 1) is not None, "an idle connection is still open"
        assert closed_after(dripping, 2) is not None, "a connection dripping its headers is still open"
        assert time.monotonic() - began < 16
    finally:
        kill_group(process)


def test_kalah_serve_takes_the_per_address_limits(tmp_path):
    from helpers import kill_group, start_kalah_serve

    process, url = start_kalah_serve(tmp_path / "games.sqlite", "--client-connections", "3", "--games-per-minute", "2")
    try:
        port = int(url.rsplit(":", 1)[1])
        held = [connect(port) for _ in range(3)]
        time.sleep(0.3)
        over = connect(port)
        over.settimeout(5)
        assert over.recv(4096).startswith(b"HTTP/1.1 503")
        for sock in held + [over]:
            sock.close()
        with httpx.Client(base_url=url, timeout=30) as client:
            answers = [client.post("/api/games", json={"players": ["human", "human"]}).status_code for _ in range(3)]
            assert answers == [201, 201, 429]
            assert len(client.get("/api/games").json()) == 2
    finally:
        kill_group(process)


def test_closed_push_connections_leave_the_address_its_share(server):
    """A WebSocket is an upgraded HTTP connection: when it closes, its address may open another (every push
    connection ever opened counted against the cap until the address was shut out of the server)."""
    import asyncio

    import websockets

    async def open_and_close(count: int) -> None:
        for _ in range(count):
            async with websockets.connect(f"ws://127.0.0.1:{server}/api/lobby/live", ping_interval=None) as push:
                assert '"challenges"' in await asyncio.wait_for(push.recv(), 10)

    asyncio.run(open_and_close(2 * LIMITS["per_address"]))
    time.sleep(0.3)  # the server sees the last one go
    assert httpx.get(f"http://127.0.0.1:{server}/api/info", timeout=10).status_code == 200


def test_a_push_connection_outlives_the_request_timeouts(server):
    """The upgrade request of a WebSocket has no body, but h11 still waits for its end: the body's deadline
    must not close the WebSocket that the connection has become (every push connection was cut at 30 s)."""
    import asyncio

    import websockets

    async def stay() -> None:
        async with websockets.connect(f"ws://127.0.0.1:{server}/api/lobby/live", ping_interval=None) as push:
            assert '"challenges"' in await asyncio.wait_for(push.recv(), 10)
            await asyncio.sleep(LIMITS["body_seconds"] + LIMITS["header_seconds"] + 1)
            await push.send('{"type": "nonsense"}')
            assert '"error"' in await asyncio.wait_for(push.recv(), 10)

    asyncio.run(stay())


def test_a_push_message_past_the_limit_closes_its_connection_before_it_is_kept(server):
    """uvicorn keeps a WebSocket message whole before the app sees it (16 MiB by default): ten such hellos
    took a gigabyte. Past HttpConnectionLimits.max_message_bytes the connection is closed (1009, too big)."""
    import asyncio

    import websockets

    game = httpx.post(
        f"http://127.0.0.1:{server}/api/live/games", json={}, headers={"Origin": f"http://127.0.0.1:{server}"}
    )
    assert game.status_code == 201, game.text
    url = f"ws://127.0.0.1:{server}/api/games/{game.json()['game_id']}/live"

    async def send(size: int) -> int | None:
        async with websockets.connect(url, ping_interval=None, max_size=None) as push:
            try:
                await push.send('{"token": "' + "x" * size + '"}')
                await asyncio.wait_for(push.recv(), 10)
            except websockets.ConnectionClosed as closed:
                return closed.rcvd.code if closed.rcvd else None
            return 1000

    limit = HttpConnectionLimits().max_message_bytes
    assert asyncio.run(send(100)) == 1000  # a hello of a watcher: answered
    assert asyncio.run(send(limit + 1)) == 1009
