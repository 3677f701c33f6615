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

import multiprocessing
import os
import signal
from typing import Any, Callable, Iterable, Iterator

from kalah.match import play_game
from kalah.players import make_player
from kalah.records import GameLibrary, GameRecord, RecordBuilder
from kalah.rules import KalahError, Position

from .schedule import Arena, ArenaError, GameTask

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
                except Exception:  # noqa: BLE001 - a failing cleanup must not lose the game
                    pass
    assert builder.record is not None
    return {"record": builder.record.to_dict(), "forfeit": forfeit, "error": error}


def store_result(library: GameLibrary, task: GameTask, result: dict[str, Any]) -> int:
    """Store a played game (the result of a worker) in the library, tagged with its arena slot; returns the game's id."""
    record = GameRecord.from_dict(result["record"])
    tags = task.tags
    if result.get("forfeit") is not None:
        tags["forfeit"] = result["forfeit"]
    return library.import_record(record, tags=tags)


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _inline(tasks: list[GameTask]) -> Iterator[tuple[GameTask, dict]]:
    for task in tasks:
        yield task, play_task(task)


def _pool(tasks: list[GameTask], jobs: int) -> Iterator[tuple[GameTask, dict]]:
    context = multiprocessing.get_context("spawn")
    pool = context.Pool(processes=min(jobs, len(tasks)), initializer=_ignore_sigint)
    try:
        for pair in pool.imap_unordered(_play_pair, tasks, chunksize=1):
            yield pair
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def _play_pair(task: GameTask) -> tuple[GameTask, dict]:
    return task, play_task(task)


def _dask(tasks: list[GameTask], address: str, connect_timeout: float) -> Iterator[tuple[GameTask, dict]]:
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
        futures = client.map(_play_pair, tasks, pure=False)
        for future in as_completed(futures):
            yield future.result()
    finally:
        client.cancel(futures)
        client.close()


def run_arena(arena: Arena, library: GameLibrary, jobs: int | None = None, cluster: str | None = None,
              progress: Progress | None = None, connect_timeout: float = 10.0) -> int:
    """Play the games of ``arena`` that ``library`` does not hold yet; returns how many were played.

    ``jobs`` local processes (default: all cores; 1 plays in this process), or
    the Dask cluster at ``cluster``. ``progress(done, total, task, result)``
    hears of every stored game.
    """
    tasks = arena.missing_tasks(library)
    if not tasks:
        if cluster is not None:
            _check_cluster(cluster, connect_timeout)
        return 0
    jobs = jobs or os.cpu_count() or 1
    if jobs < 1:
        raise ArenaError(f"--jobs must be at least 1, got {jobs}")
    if cluster is not None:
        stream: Iterable[tuple[GameTask, dict]] = _dask(tasks, cluster, connect_timeout)
    elif jobs == 1 or len(tasks) == 1:
        stream = _inline(tasks)
    else:
        stream = _pool(tasks, jobs)
    done = 0
    try:
        for task, result in stream:
            store_result(library, task, result)
            done += 1
            if progress is not None:
                progress(done, len(tasks), task, result)
    finally:
        close = getattr(stream, "close", None)
        if close is not None:
            close()  # stops the pool or cancels the cluster's futures
    return done


def _check_cluster(address: str, connect_timeout: float) -> None:
    for _ in _dask([], address, connect_timeout):
        pass
