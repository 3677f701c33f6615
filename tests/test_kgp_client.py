"""The KGP client's behaviour against a scripted server: ping while thinking, stop, unknown options,
errors, eval mode, reconnecting, and a version it does not speak."""

from __future__ import annotations

import asyncio
import time

from kalah.kgp import ClientOptions, KgpClient, parse_line
from kalah.players import make_player

START_6_6 = "<6,0,0,6,6,6,6,6,6,6,6,6,6,6,6>"


class Script:
    """A one-connection-at-a-time fake server; ``handler(reader, writer)`` plays one connection."""

    def __init__(self, handler) -> None:
        self.handler = handler
        self.connections = 0

    async def __aenter__(self):
        async def serve(reader, writer):
            self.connections += 1
            try:
                await self.handler(reader, writer, self.connections)
            finally:
                writer.close()

        self.server = await asyncio.start_server(serve, "127.0.0.1", 0)
        self.address = f"127.0.0.1:{self.server.sockets[0].getsockname()[1]}"
        return self

    async def __aexit__(self, *exc):
        self.server.close()


async def _line(reader, timeout=10.0):
    data = await asyncio.wait_for(reader.readline(), timeout)
    return parse_line(data.decode()) if data else None


async def _until(reader, name, timeout=10.0):
    seen = []
    while True:
        command = await _line(reader, timeout)
        assert command is not None, f"closed before {name}; saw {[c.name for c in seen]}"
        seen.append(command)
        if command.name == name:
            return command, seen


def _run(player, options, handler):
    async def main():
        async with Script(handler) as script:
            options.server = script.address
            report = await KgpClient(make_player(player), options).run()
            return report, script

    return asyncio.run(main())


def test_ping_is_answered_while_thinking_and_stop_stops():
    timings = {}

    async def handler(reader, writer, _):
        writer.write(b"kgp 1 0 1\r\n")
        await _until(reader, "mode")
        writer.write(b'set kalah:unknown-option 42\r\nset game:something "x"\r\nerror "not fatal"\r\n')
        writer.write(f"4 state {START_6_6}\r\n".encode())
        first, _ = await _until(reader, "move")  # the first iteration's move comes at once
        assert first.ref == 4 and 1 <= first.args[0] <= 6
        sent = time.monotonic()
        writer.write(b"6 ping\r\n")
        pong, _ = await _until(reader, "pong")
        timings["pong"] = time.monotonic() - sent
        assert pong.ref == 6
        writer.write(b"8@4 stop\r\n")
        stopped = time.monotonic()
        # after stop: no yield and no more moves for state 4 (a short wait for stragglers)
        try:
            late = await _line(reader, timeout=1.0)
        except TimeoutError:
            late = None
        timings["quiet"] = late is None or late.ref != 4 or late.name not in ("move", "yield")
        timings["stopped"] = time.monotonic() - stopped
        writer.write(b"goodbye\r\n")
        await writer.drain()

    # an open-ended search: without stop it would think for minutes
    report, _ = _run("pvs", ClientOptions("x:1", name="t", retries=0), handler)
    assert report.reason == "the server said goodbye"
    assert timings["pong"] < 0.5
    assert timings["quiet"]
    assert "not fatal" in report.errors


def test_eval_mode_answers_with_values():
    values = []

    async def handler(reader, writer, _):
        writer.write(b"kgp 1 0 1\r\n")
        mode, _ = await _until(reader, "mode")
        assert mode.text(0) == "eval"
        # south's only move leaves north one move, which ends the game: south wins 21 to 11
        writer.write(b"2 state <2,20,10,1,0,0,1>\r\n")
        done, seen = await _until(reader, "stop")
        values.extend(c.args[0] for c in seen if c.name == "eval")
        assert done.ref == 2
        writer.write(b"goodbye\r\n")
        await writer.drain()

    report, _ = _run("alphabeta:depth=4", ClientOptions("x:1", mode="eval", retries=0), handler)
    assert values and values[-1] == 10.0  # the exact margin, for south


def test_the_client_sends_its_name_token_and_reconnects_with_backoff():
    sent = {}

    async def handler(reader, writer, number):
        writer.write(b"kgp 1 0 1\r\n")
        mode, seen = await _until(reader, "mode")
        sent[number] = {c.text(0): c.text(1) for c in seen if c.name == "set"}
        if number == 1:
            return  # the connection drops: the client comes back
        writer.write(b"goodbye\r\n")
        await writer.drain()

    options = ClientOptions(
        "x:1", name="Ann", authors="A. B.", description="d", token="s3cret-token", retries=2, backoff_first=0.05
    )
    report, script = _run("random", options, handler)
    assert script.connections == 2 and report.reason == "the server said goodbye"
    assert (
        sent[1]
        == sent[2]
        == {"info:name": "Ann", "info:authors": "A. B.", "info:description": "d", "auth:token": "s3cret-token"}
    )
    assert "s3cret-token" not in repr(options)


def test_a_major_version_it_does_not_speak_ends_the_run():
    async def handler(reader, writer, _):
        writer.write(b"kgp 2 0 0\r\n")
        await writer.drain()
        await _line(reader)

    report, _ = _run("random", ClientOptions("x:1", retries=0), handler)
    assert not report.ok and "KGP 2.0.0" in report.reason


def test_a_board_bigger_than_the_core_is_refused_with_an_error():
    answers = []

    async def handler(reader, writer, _):
        writer.write(b"kgp 1 0 1\r\n")
        await _until(reader, "mode")
        writer.write(("2 state <13,0,0," + ",".join(["12"] * 26) + ">\r\n").encode())
        error, _ = await _until(reader, "error")
        answers.append(error)

    report, _ = _run("random", ClientOptions("x:1", retries=0), handler)
    assert answers and answers[0].ref == 2 and "13 pits" in answers[0].text(0)
    assert not report.ok and "13 pits a side are not supported" in report.reason


def test_a_server_that_hangs_up_at_once_uses_up_the_retries_with_growing_pauses():
    """Accepting and closing at once is a failed attempt, not a connection: --retries ends it."""
    events = []

    async def handler(reader, writer, _):
        return  # closed before a word

    async def main():
        async with Script(handler) as script:
            options = ClientOptions(script.address, retries=2, backoff_first=0.01)
            client = KgpClient(make_player("random"), options, lambda kind, text: events.append((kind, text)))
            report = await asyncio.wait_for(client.run(), 30)
            return report, script

    report, script = asyncio.run(main())
    assert script.connections == 3 and not report.ok
    assert report.reason == (
        "the server closed the connection before a game began (gave up after 3 attempts: the first and 2 retries)"
    )
    pauses = [text.rsplit(" in ", 1)[1] for kind, text in events if kind == "retry"]
    assert pauses == ["0.01 s", "0.02 s"]


def test_a_connection_that_played_resets_the_count_of_failures():
    async def handler(reader, writer, number):
        writer.write(b"kgp 1 0 1\r\n")
        await _until(reader, "mode")
        if number == 1:
            writer.write(f"2 state {START_6_6}\r\n".encode())
            await _until(reader, "yield")
            return  # played, then dropped: the client comes back even with no retries
        if number == 2:
            return  # greeted but no game: the one failure --retries 0 allows ends the run

    async def main():
        async with Script(handler) as script:
            options = ClientOptions(script.address, retries=0, backoff_first=0.01)
            return await asyncio.wait_for(KgpClient(make_player("random"), options).run(), 30), script

    report, script = asyncio.run(main())
    assert script.connections == 2 and not report.ok
    assert report.reason.endswith("before a game began (gave up after 1 attempt, no retries)")


def _run_with_events(player, options, handler):
    events = []

    async def main():
        async with Script(handler) as script:
            options.server = script.address
            client = KgpClient(make_player(player), options, lambda kind, text: events.append((kind, text)))
            return await client.run()

    return asyncio.run(main()), events


def test_a_game_the_agent_ends_is_told_once_with_its_outcome():
    # Its last move ends the game and --games is reached: the client left before the server's result, so
    # the game's result line was missing, and the end said the count twice ("played 1 game (1 game, ...").
    async def handler(reader, writer, _):
        writer.write(b"kgp 1 0 1\r\n")
        await _until(reader, "mode")
        writer.write(b"4 state <6,30,10,0,0,0,0,0,1,1,1,1,1,1,1>\r\n")  # one move: pit 6, which ends the game
        await _until(reader, "yield")
        await reader.read()  # until the client closes

    report, events = _run_with_events("pvs:depth=2", ClientOptions("x:1", name="t", games=1, retries=0), handler)
    assert report.all_played and report.games == 1 and report.outcomes == {"won": 1}
    assert report.reason == "played 1 game"
    assert [text for kind, text in events if kind == "game"] == ["game 1 begins", "game 1 is over: won 31-16"]


def test_the_first_state_after_the_last_game_begins_no_game():
    # A server that names no games (go-kgp): the next game's first state ends the last one, and the run
    # stops there; it was announced as "game 2 begins" before the client left.
    async def handler(reader, writer, _):
        writer.write(b"kgp 1 0 1\r\n")
        await _until(reader, "mode")
        writer.write(b"4 state <6,10,10,4,4,4,4,4,4,4,4,4,4,4,4>\r\n")
        await _until(reader, "yield")
        writer.write(f"6 state {START_6_6}\r\n".encode())  # fewer seeds in the stores: a new game
        await reader.read()

    report, events = _run_with_events("pvs:depth=2", ClientOptions("x:1", name="t", games=1, retries=0), handler)
    assert report.all_played and report.games == 1 and report.outcomes == {}
    assert [text for kind, text in events if kind == "game"] == ["game 1 begins", "game 1 is over"]
