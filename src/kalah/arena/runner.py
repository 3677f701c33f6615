"""Playing an arena's games: in this process, in a local process pool, or on
a Dask cluster; each finished game is stored in the library as it arrives.

A worker gets a :class:`GameTask` (plain data), makes fresh players from the
specs, plays the game and returns the record as a dict; only the calling
process writes to the library, one transaction per game (``import_record``),
so a game is either wholly in the library or not at all. Interrupting
(Ctrl-C) stops the workers and loses only the games in progress; running the
match again plays exactly the missing ones.
"""

from __future__ import annotations

import concurrent.futures
import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from kalah.match import play_game
from kalah.players import make_player
from kalah.records import GameLibrary, GameRecord, RecordBuilder
from kalah.rules import KalahError, Position

from .schedule import Arena, ArenaError, GameTask
from .workers import process_pool, stop_pool

#: A forfeit's reason is kept in the game's tags up to this length (an engine's message can be long).
FORFEIT_REASON_CHARS = 300

Progress = Callable[[int, int, GameTask, dict], None]


def play_task(task: GameTask) -> dict[str, Any]:
    """Play one arena game. Returns ``{"record": ..., "forfeit": seat or None, "error": text}``.

    A player that fails (an illegal move, a crashed or silent external
    program: any ``KalahError`` while it is to move) loses the game by forfeit.
    """
    players = [make_player(spec) for spec in task.specs]
    builder = RecordBuilder()
    start = Position.from_json(task.start)
    forfeit, error = None, None
    try:
        result = play_game(players, start, [builder])
        if result.stop_reason == "interrupted":
            raise KeyboardInterrupt
    except KalahError as failure:
        record = builder.record
        position = record.final if record is not None else start
        forfeit, error = position.to_move, str(failure)
        if record is None:
            record = GameRecord(start, [])
        record.stop_reason = f"forfeit by {task.specs[forfeit]}: {error}"
        builder.record = record
    finally:
        for player in players:
            close = getattr(player, "close", None)
            if close is not None:
                try:
                    close(builder.record.final if builder.record is not None else None)
                except Exception:
                    pass
    assert builder.record is not None
    return {"record": builder.record.to_dict(), "forfeit": forfeit, "error": error}


def store_result(library: GameLibrary, task: GameTask, result: dict[str, Any]) -> int:
    """Store a finished game of the arena in the library, tagged with its pairing, opening and colour."""
    record = GameRecord.from_dict(result["record"])
    tags = task.tags
    if result.get("forfeit") is not None:
        tags["forfeit"] = result["forfeit"]
        tags["forfeit_reason"] = str(result.get("error") or "")[:FORFEIT_REASON_CHARS]  # for the tables
    return library.import_record(record, tags=tags)


def _inline(tasks: Iterable[GameTask]) -> Iterator[tuple[GameTask, dict[str, Any]]]:
    for task in tasks:
        yield task, play_task(task)


#: How often a game is started again after the worker playing it died (killed, out of memory).
ATTEMPTS = 3


#: Games handed to the pool ahead of its workers, per worker: enough that none waits for the next, few
#: enough that the schedule is made as it is played (the pool keeps every game submitted to it).
AHEAD = 2


def _pool(tasks: Iterable[GameTask], jobs: int) -> Iterator[tuple[GameTask, dict[str, Any]]]:
    """Play ``tasks`` on ``jobs`` worker processes, yielding each finished game; the tasks are taken from
    the iterable as workers come free (``AHEAD`` a worker waiting), not all at once.

    A worker that dies breaks its pool: the games that had not finished are
    played again on a new pool (at most ``ATTEMPTS`` times each), so a lost
    worker costs its games, not the whole arena.
    """
    upcoming = iter(tasks)
    again: list[GameTask] = []  # the games of a broken pool, played before the schedule goes on
    attempts: dict[tuple[Any, ...], int] = {}

    def next_task() -> GameTask | None:
        return again.pop(0) if again else next(upcoming, None)

    task = next_task()
    while task is not None:
        pool = process_pool(jobs)
        try:
            running: dict[concurrent.futures.Future[tuple[GameTask, dict[str, Any]]], GameTask] = {}
            broken = False
            while running or (task is not None and not broken):
                while task is not None and not broken and len(running) < jobs * (1 + AHEAD):
                    try:
                        running[pool.submit(_play_pair, task)] = task
                    except BrokenProcessPool:  # a worker died before its game's future said so
                        _count_attempt(attempts, task)  # a pool that breaks at once, each time, ends too
                        broken = True
                        break
                    task = next_task()
                finished, _ = concurrent.futures.wait(running, return_when=concurrent.futures.FIRST_COMPLETED)
                for future in finished:
                    lost = running.pop(future)
                    try:
                        yield future.result()
                    except BrokenProcessPool:
                        _count_attempt(attempts, lost)
                        again.append(lost)
                        broken = True  # no more for this pool: the games still running finish or fail
            if broken and task is not None:
                again.append(task)  # taken but not submitted: after the lost ones, as it came after them
                task = None
            if again:
                task = next_task()
        finally:
            stop_pool(pool)


def _count_attempt(attempts: dict[tuple[Any, ...], int], task: GameTask) -> None:
    attempts[task.slot] = attempts.get(task.slot, 0) + 1
    if attempts[task.slot] >= ATTEMPTS:
        raise ArenaError(f"the workers playing game {task.slot} died {ATTEMPTS} times") from None


def _play_pair(task: GameTask) -> tuple[GameTask, dict[str, Any]]:
    return task, play_task(task)


def _dask(tasks: Iterable[GameTask], address: str, connect_timeout: float) -> Iterator[tuple[GameTask, dict]]:
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise ArenaError("--cluster needs the Dask scheduler: pip install 'kalah[cluster]'") from None
    try:
        client = Client(address, timeout=f"{connect_timeout}s")
    except (OSError, TimeoutError, ValueError) as error:
        raise ArenaError(f"cannot reach the Dask cluster at {address}: {error}") from None
    futures = []
    try:
        futures = client.map(_play_pair, list(tasks), pure=False)  # the cluster holds a future a game anyway
        for future in as_completed(futures):
            yield future.result()
    finally:
        client.cancel(futures)
        client.close()


def run_arena(
    arena: Arena,
    library: GameLibrary,
    jobs: int | None = None,
    cluster: str | None = None,
    progress: Progress | None = None,
    connect_timeout: float = 10.0,
) -> int:
    """Play the games of ``arena`` that ``library`` does not hold yet; returns how many were played.

    ``jobs`` local processes (default: all cores; 1 plays in this process), or
    the Dask cluster at ``cluster``. ``progress(done, total, task, result)``
    hears of every stored game.
    """
    total, tasks = arena.missing(library)  # counted, not listed: the schedule is made as it is played
    if not total:
        if cluster is not None:
            check_cluster(cluster, connect_timeout)
        return 0
    jobs = jobs or os.cpu_count() or 1
    if jobs < 1:
        raise ArenaError(f"--jobs must be at least 1, got {jobs}")
    if cluster is not None:
        stream: Iterable[tuple[GameTask, dict]] = _dask(tasks, cluster, connect_timeout)
    elif jobs == 1 or total == 1:
        stream = _inline(tasks)
    else:
        stream = _pool(tasks, min(jobs, total))
    done = 0
    try:
        for task, result in stream:
            store_result(library, task, result)
            done += 1
            if progress is not None:
                progress(done, total, task, result)
    finally:
        close = getattr(stream, "close", None)
        if close is not None:
            close()  # stops the pool or cancels the cluster's futures
    return done


def check_cluster(address: str, connect_timeout: float = 10.0) -> None:
    """Connect to the Dask cluster at ``address`` and leave; raises ArenaError if it cannot be reached
    (a command checks it before it creates or announces anything)."""
    for _ in _dask([], address, connect_timeout):
        pass
