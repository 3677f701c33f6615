"""The KGP client's ``stop`` ends the thinking of every player: an ``exec:`` program's wait (its late answer
dropped) and the ``perfect`` player's solve and search, not only the search players' iterations.

The bounds on time are generous (the machine may be busy): what they tell apart is a stop seen at once
from a player left to think for its whole budget (30 seconds or more)."""

from __future__ import annotations

import asyncio
import sys
import textwrap
import threading
import time

import pytest

from kalah.kgp import ClientOptions
from kalah.kgp.thinker import Thinker
from kalah.mankalah.external import ExecPlayer
from kalah.players.perfect import PerfectPlayer
from kalah.rules import Position, Variant
from test_kgp_client import _run, _until

pytestmark = pytest.mark.slow

# Thinks for argv[2] seconds at its first turn, then plays its first non-empty pit at once; writes what it hears.
SLOW_AGENT = textwrap.dedent("""
    import sys, time
    log = open(sys.argv[1], "a")
    side, first = None, True
    def answer(state):
        global first
        if first:
            first = False
            time.sleep(float(sys.argv[2]))
        m = len(state) // 2 - 1
        holes = state[:m] if side == "North" else state[m + 1 : 2 * m + 1]
        print("MOVE;%d" % next(i for i, seeds in enumerate(holes, 1) if seeds), flush=True)
    for line in sys.stdin:
        log.write(line)
        log.flush()
        parts = line.strip().split(";")
        if parts[0] == "END":
            break
        if parts[0] == "START":
            side = parts[1]
            if side == "South":
                answer([6] * 6 + [0] + [6] * 6 + [0])
            continue
        if parts[3] == "YOU":
            answer([int(x) for x in parts[2].split(",")])
""")


def _think_in_thread(thinker, position, stopped, reported):
    thread = threading.Thread(target=thinker.think, args=(position, lambda move, _: reported.append(move), stopped))
    thread.start()
    return thread


def test_stop_ends_an_exec_players_wait_and_its_late_answer_is_dropped(tmp_path):
    agent, log = tmp_path / "slow_agent.py", tmp_path / "heard.txt"
    agent.write_text(SLOW_AGENT)
    player = ExecPlayer(f"{sys.executable} {agent} {log} 8", timeout=120)
    thinker = Thinker(player)
    start = Position.start(Variant(6, 6))
    reported: list = []
    stopped = threading.Event()
    thread = _think_in_thread(thinker, start, stopped, reported)
    time.sleep(0.5)  # the program is thinking (8 seconds)
    asked = time.monotonic()
    stopped.set()
    thinker.interrupt()
    thread.join(10)
    assert not thread.is_alive() and time.monotonic() - asked < 3 and reported == []
    # the game went on without it: the server played our pit C, the opponent its pit a
    position = start.play(2).play(0)
    assert position.to_move == 0
    # its next turn: the late answer is read and dropped, the program hears what happened, then answers
    try:
        thinker.think(position, lambda move, _: reported.append(move), threading.Event())
    finally:
        player.close(None)
    assert reported == [0]  # its first non-empty pit, for the position it was told of
    heard = log.read_text().splitlines()
    assert heard[0] == "START;South"
    assert heard[1].startswith("CHANGE;3;") and heard[1].endswith(";OPP")  # pit C: the move the game went on with
    assert heard[2].startswith("CHANGE;1;") and heard[2].endswith(";YOU")  # the opponent's pit a


def test_stop_ends_the_perfect_players_solve():
    # Cold or warm: a cold solver's first nodes each fault in a page of its table (a millisecond or so on a
    # busy machine), and it reads its stop flag every 64 nodes, so a stop is seen within a fraction of a second.
    player = PerfectPlayer(time=60, threads=1, fallback=30, book=False)
    thinker = Thinker(player)
    position = Position.start(Variant(6, 6))  # no proof in a minute here: it would think the whole budget
    reported: list = []
    stopped = threading.Event()
    thread = _think_in_thread(thinker, position, stopped, reported)
    time.sleep(1.0)
    asked = time.monotonic()
    stopped.set()
    thinker.interrupt()
    thread.join(60)
    assert not thread.is_alive() and time.monotonic() - asked < 2 and reported == []


def test_stop_ends_the_perfect_players_search_on_a_big_board():
    player = PerfectPlayer(time=60, fallback=60, book=False)  # beyond the solver: a one-minute search
    thinker = Thinker(player)
    reported: list = []
    stopped = threading.Event()
    thread = _think_in_thread(thinker, Position.start(Variant(12, 12)), stopped, reported)
    time.sleep(1.0)
    asked = time.monotonic()
    stopped.set()
    thinker.interrupt()
    thread.join(30)
    assert not thread.is_alive() and time.monotonic() - asked < 5 and reported == []
    # unstopped, it plays the search's move on the big board
    quick = Thinker(PerfectPlayer(fallback=0.2, book=False))
    quick.think(Position.start(Variant(12, 12)), lambda move, _: reported.append(move), threading.Event())
    assert len(reported) == 1 and reported[0] in range(12)


def test_after_stop_the_client_answers_the_next_state_at_once():
    timings = {}

    async def handler(reader, writer, _):
        writer.write(b"kgp 1 0 1\r\n")
        await _until(reader, "mode")
        writer.write(b"2 state <6,0,0,6,6,6,6,6,6,6,6,6,6,6,6>\r\n")
        await asyncio.sleep(1.0)  # perfect is solving (a minute's budget)
        writer.write(b"4@2 stop\r\n")
        # the next state: a position the perfect player proves at once (one pit each)
        writer.write(b"6 state <2,20,10,1,0,0,1>\r\n")
        asked = time.monotonic()
        move, _ = await _until(reader, "move", timeout=30)
        timings["answered"] = time.monotonic() - asked
        assert move.ref == 6 and move.args[0] == 1
        writer.write(b"goodbye\r\n")
        await writer.drain()

    report, _ = _run("perfect:time=60,threads=1,book=off", ClientOptions("x:1", retries=0), handler)
    assert report.reason == "the server said goodbye"
    assert timings["answered"] < 10
