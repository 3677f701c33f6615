"""`kalah arena serve`'s web side guarded as `kalah serve`'s: a refused WebSocket is no server error in
the log, and no other site may frame its pages."""

from __future__ import annotations

import asyncio
import logging
import time

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from classroom_helpers import ServerThread
from kalah.web.connections import HttpConnectionLimits


class _Records(logging.Handler):
    """The log records of one thread: the server's event loop (other tests' servers log from theirs)."""

    def __init__(self, thread: int | None) -> None:
        super().__init__(logging.DEBUG)
        self.thread = thread
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.thread == self.thread:
            self.messages.append(f"{record.levelname}: {record.getMessage()}")


@pytest.fixture
def server(tmp_path):
    with ServerThread(tmp_path / "class.sqlite", connections=HttpConnectionLimits()) as running:
        yield running


def test_a_refused_socket_logs_no_error(server):
    records = _Records(server.thread.ident)
    uvicorn_log = logging.getLogger("uvicorn.error")
    uvicorn_log.addHandler(records)
    try:

        async def refused() -> int:
            url = f"ws://127.0.0.1:{server.port}/socket"
            with pytest.raises(InvalidStatus) as refusal:
                async with connect(url, additional_headers={"Origin": "http://elsewhere.example"}):
                    pass
            return refusal.value.response.status_code

        assert asyncio.run(refused()) == 403
        # uvicorn logs the false error after the app has returned and before it closes the connection: once
        # the server counts no connection from here, whatever it logs of this one is in.
        open_here = server.connections.open_by_address
        deadline = time.monotonic() + 30
        while open_here.get("127.0.0.1") and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not open_here.get("127.0.0.1"), open_here
    finally:
        uvicorn_log.removeHandler(records)
    assert not [line for line in records.messages if line.startswith("ERROR")], records.messages


@pytest.mark.parametrize("path", ["/", "/live", "/api/leaderboard"])
def test_no_other_site_may_frame_the_pages(server, path):
    answer = httpx.get(f"http://127.0.0.1:{server.port}{path}", timeout=10)
    assert answer.status_code == 200
    assert answer.headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]


def test_another_sites_page_may_not_read_the_api(server):
    answer = httpx.get(
        f"http://127.0.0.1:{server.port}/api/leaderboard",
        headers={"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "cors"},
        timeout=10,
    )
    assert answer.status_code == 403 and isinstance(answer.json()["detail"], str)
