"""No process outlives the program that started it: the server's engine workers and the
multiprocessing resource tracker go when the server goes (SIGTERM or SIGKILL), and the arena's
workers too; an arena whose worker dies plays that game again instead of hanging."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers import kill_group, start_kalah_serve

pytestmark = pytest.mark.skipif(not Path("/proc").exists(), reason="counts processes through /proc (Linux)")


def _children(pid: int) -> set[int]:
    """Every process below ``pid`` (children, their children, ...)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry.name)] = int(fields[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _alive(pids: set[int]) -> set[int]:
    alive = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":  # a zombie has exited; only its parent's wait is missing
            alive.add(pid)
    return alive


def _gone_soon(pids: set[int], seconds: float = 10.0) -> set[int]:
    deadline = time.monotonic() + seconds
    while _alive(pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    return _alive(pids)


def _server(tmp_path) -> tuple[subprocess.Popen, set[int]]:
    process, _ = start_kalah_serve(tmp_path / "games.sqlite", "--workers", "2")
    deadline = time.monotonic() + 60
    while len(_children(process.pid)) < 2:  # the workers start with the server
        assert time.monotonic() < deadline
        time.sleep(0.1)
    return process, _children(process.pid)


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_the_servers_workers_go_with_it(tmp_path, how):
    process, workers = _server(tmp_path)
    try:
        assert len(workers) >= 2
        os.kill(process.pid, how)  # the server alone, as a supervisor or the OOM killer would
        process.wait(timeout=30)
        assert _gone_soon(workers) == set()
    finally:
        kill_group(process)


def _arena(tmp_path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "kalah.cli",
            "arena",
            "-p",
            "random:seed=1",
            "-p",
            "pvs:time=0.05",
            "-p",
            "pvs:time=0.1",
            "--games",
            "2",
            "--jobs",
            "2",
            "--db",
            str(tmp_path / "arena.sqlite"),
            *extra,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def _is_worker(pid: int) -> bool:
    """A pool worker (multiprocessing's spawn_main), not the resource tracker."""
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
    return b"spawn_main" in command


def _wait_for_workers(process: subprocess.Popen, count: int) -> set[int]:
    deadline = time.monotonic() + 60
    while len({pid for pid in _alive(_children(process.pid)) if _is_worker(pid)}) < count:
        assert process.poll() is None and time.monotonic() < deadline, process.stderr.read() if process.stderr else ""
        time.sleep(0.05)
    return {pid for pid in _alive(_children(process.pid)) if _is_worker(pid)}


def test_the_arenas_workers_go_when_it_is_killed(tmp_path):
    process = _arena(tmp_path)
    try:
        _wait_for_workers(process, 2)
        everything = _children(process.pid)  # the workers and the resource tracker
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
        assert _gone_soon(everything) == set()
    finally:
        kill_group(process)


def test_an_arena_whose_worker_dies_plays_the_game_again(tmp_path):
    process = _arena(tmp_path)
    try:
        workers = _wait_for_workers(process, 2)
        time.sleep(1.0)  # into the games
        os.kill(max(workers), signal.SIGKILL)  # one worker killed mid-game
        out, err = process.communicate(timeout=300)
    finally:
        kill_group(process)
    assert process.returncode == 0, err
    from kalah.records import GameLibrary

    assert len(GameLibrary(tmp_path / "arena.sqlite").list_games()) == 3 * 2  # every game of the schedule
