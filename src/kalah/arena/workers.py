"""Engine worker processes that never outlive the program that started them.

The arena's games and the web server's computer moves run in pools of
processes. A worker must not keep running (and keep its memory and the
multiprocessing resource tracker alive) when its parent is killed, even by
SIGKILL, which gives the parent no chance to clean up: on Linux the kernel
sends the worker SIGKILL when the parent dies (``PR_SET_PDEATHSIG``); elsewhere
a thread of the worker watches for the parent to go. Workers ignore Ctrl-C:
the parent decides when they stop.
"""

from __future__ import annotations

import concurrent.futures
import ctypes
import ctypes.util
import multiprocessing
import os
import signal
import threading
import time

PR_SET_PDEATHSIG = 1


def worker_setup(parent: int, nice: int = 0) -> None:
    """Run first in every worker: die with ``parent`` (its pid), ignore Ctrl-C, search on one thread, and
    lower its scheduling priority by ``nice``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if nice and hasattr(os, "nice"):
        os.nice(nice)
    os.environ["KALAH_THREADS"] = "1"  # the pool's processes already fill the cores
    if not _die_with_parent():
        threading.Thread(target=_watch_parent, args=(parent,), name="kalah-parent-watch", daemon=True).start()
    if os.getppid() != parent:  # the parent died before the kernel was told to warn us
        os._exit(1)


def _die_with_parent() -> bool:
    if not hasattr(os, "getppid") or not os.uname().sysname == "Linux":
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return bool(libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def process_pool(workers: int, nice: int = 0) -> concurrent.futures.ProcessPoolExecutor:
    """``workers`` fresh processes ("spawn": forking a threaded program is unsafe) that die with this one,
    ``nice`` steps below it in priority (the web server's engines yield the CPU to its requests)."""
    return concurrent.futures.ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=worker_setup,
        initargs=(os.getpid(), nice),
    )


def stop_pool(pool: concurrent.futures.Executor) -> None:
    """Stop a pool now: queued work is cancelled and running workers are killed, not waited for."""
    processes = list(getattr(pool, "_processes", None) or {})  # the pids of a ProcessPoolExecutor's workers
    for pid in processes:
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    # With its workers gone the pool's manager ends at once; waiting for it lets the pool close its
    # queues, whose semaphores the resource tracker would otherwise report as leaked at exit.
    pool.shutdown(wait=bool(processes), cancel_futures=True)
