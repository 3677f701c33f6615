"""Fair shares of the engines: every client's jobs wait behind each other, never in front of everyone else's.

The server has a few engine slots (``kalah serve --workers``), each one worker
process of its own. A job (a computer move, an analysis, a trace) is queued
under its client's key; when a slot frees, it goes to the client with the
fewest jobs running, among those to the one that has used the least engine
time lately (its seconds, halved every minute), and among equals to the one
served longest ago (round robin). So a client that sends many jobs only
lengthens its own queue, and one that sends long jobs waits behind those
that send short ones: while any are waiting, a freed slot serves them. No
client runs on more than half the slots at once (one slot of two), and of
two or more slots the last free one is kept for light clients (under
``light_seconds`` of engine time lately): a person playing a quick level
never waits behind long analyses, whoever sends them; long jobs share the
other slots. A client may have at most ``per_client`` jobs queued or
running (more is refused with 429 and Retry-After); all clients together at
most ``max_queued`` waiting (then 503), which bounds the memory a crowd of
addresses can take.

A job's time limit starts when it starts running, not when it is queued. A job
that runs past it is answered 503 and its worker alone is killed and replaced:
the other slots' jobs, other clients' jobs, go on. (Worker threads, used by
tests, cannot be killed: such a slot stays taken until its thread returns.)

The key of a client is a string: ``addr:`` and the address now (an IPv6
client by its /64 network, which one host is usually given whole); a seat or
an agent token can become a key of its own later without changing the policy.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import itertools
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from kalah.arena.workers import process_pool, stop_pool

T = TypeVar("T")

#: How long a fresh worker may take to start (importing the engines) before the slot gives up on it.
START_SECONDS = 60.0
#: A client that has used less engine time than this lately may take the last free slot.
LIGHT_SECONDS = 1.0
#: A client's engine time counts half as much after this many seconds (then a quarter, ...).
HALF_LIFE = 60.0
#: The most clients whose engine time is remembered (the least recently served are forgotten first).
REMEMBERED = 10_000


class Refused(Exception):
    """The scheduler will not run (or finish) a job: answered with HTTP ``status`` and ``Retry-After``."""

    def __init__(self, status: int, message: str, retry_after: int = 1) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.retry_after = retry_after


def _ready() -> bool:
    return True


class Slot:
    """Where one job runs at a time."""

    def submit(self, function: Callable[..., Any], *args: Any) -> concurrent.futures.Future[Any]:
        """Start ``function(*args)`` in the slot's worker."""
        raise NotImplementedError

    async def recover(self, running: concurrent.futures.Future[Any] | None) -> None:
        """After ``running`` overran or its worker died: make the slot usable again."""
        raise NotImplementedError

    async def start(self) -> None:
        """Have the worker ready (started, engines imported) before the first job's clock starts."""

    def stop(self) -> None:
        """Stop the worker now (the server is stopping)."""


class ProcessSlot(Slot):
    """One worker process: a job that overruns is killed with it, and a fresh worker takes its place."""

    def __init__(self, nice: int = 0) -> None:
        self._nice = nice
        self._pool = process_pool(1, nice=nice)

    def submit(self, function: Callable[..., Any], *args: Any) -> concurrent.futures.Future[Any]:
        """Start ``function(*args)`` in the slot's worker."""
        return self._pool.submit(function, *args)

    async def recover(self, running: concurrent.futures.Future[Any] | None) -> None:
        """Kill the worker (and ``running`` with it) and start a fresh one."""
        old, self._pool = self._pool, process_pool(1, nice=self._nice)
        await asyncio.to_thread(stop_pool, old)  # waits for the killed worker's pool to close
        await self.start()

    async def start(self) -> None:
        """Start the worker and import the engines in it."""
        try:
            await asyncio.wait_for(asyncio.wrap_future(self._pool.submit(_ready)), START_SECONDS)
        except (TimeoutError, BrokenProcessPool):  # the next job will find out, and recover the slot
            pass

    def stop(self) -> None:
        """Kill the worker."""
        stop_pool(self._pool)


class ThreadSlot(Slot):
    """A thread of a shared pool (tests, and platforms without processes): it cannot be killed, so a slot
    whose job overran stays taken until the thread returns."""

    def __init__(self, pool: concurrent.futures.ThreadPoolExecutor) -> None:
        self._pool = pool

    def submit(self, function: Callable[..., Any], *args: Any) -> concurrent.futures.Future[Any]:
        """Start ``function(*args)`` in the slot's worker."""
        return self._pool.submit(function, *args)

    async def recover(self, running: concurrent.futures.Future[Any] | None) -> None:
        """Wait until ``running`` has returned: the thread is the slot."""
        if running is None:
            return
        try:
            await asyncio.wrap_future(running)
        except Exception:  # its answer was given up on already
            pass


class Usage:
    """Engine seconds each client used lately, halved every ``half_life`` seconds; at most ``remembered``
    clients are kept (memory does not grow with the addresses seen)."""

    def __init__(self, half_life: float = HALF_LIFE, remembered: int = REMEMBERED) -> None:
        self.half_life = half_life
        self.remembered = remembered
        self._seconds: OrderedDict[str, tuple[float, float]] = OrderedDict()  # client: (seconds, when)

    def __len__(self) -> int:
        return len(self._seconds)

    def of(self, client: str, now: float | None = None) -> float:
        """The client's engine seconds, as they count at ``now`` (by default, now)."""
        seconds, when = self._seconds.get(client, (0.0, 0.0))
        if not seconds:
            return 0.0
        return seconds * 0.5 ** (((time.monotonic() if now is None else now) - when) / self.half_life)

    def add(self, client: str, seconds: float) -> None:
        """Count ``seconds`` more for ``client``."""
        now = time.monotonic()
        self._seconds[client] = (self.of(client, now) + seconds, now)
        self._seconds.move_to_end(client)
        while len(self._seconds) > self.remembered:
            self._seconds.popitem(last=False)


def make_slots(workers: int, kind: str, nice: int = 0) -> list[Slot]:
    """``workers`` slots: a process each, or threads of one pool when ``kind`` is "thread"."""
    if kind == "thread":
        pool = concurrent.futures.ThreadPoolExecutor(max_workers=workers, thread_name_prefix="kalah-engine")
        return [ThreadSlot(pool) for _ in range(workers)]
    return [ProcessSlot(nice) for _ in range(workers)]


@dataclass
class _Job(Generic[T]):
    client: str
    function: Callable[..., T]
    args: tuple[Any, ...]
    answer: asyncio.Future[T]


class Scheduler:
    """Engine jobs of many clients on a few slots, fairly (see the module's documentation)."""

    def __init__(
        self,
        slots: list[Slot],
        *,
        run_seconds: float,
        per_client: int = 2,
        max_queued: int = 256,
        light_seconds: float = LIGHT_SECONDS,
    ) -> None:
        """``run_seconds``: how long a job may run before its worker is stopped."""
        self.slots = list(slots)
        self.run_seconds = run_seconds
        self.light_seconds = light_seconds
        self.per_client = per_client
        self.max_queued = max_queued
        self.max_running = max(1, len(self.slots) // 2)  # per client
        self._free = list(self.slots)
        self._waiting: OrderedDict[str, deque[_Job[Any]]] = OrderedDict()  # in the order they came
        self._running: dict[str, int] = {}
        self._served: dict[str, int] = {}  # the turn each client with work under way was last served
        self._turns = itertools.count(1)
        self.usage = Usage()
        self._queued = 0
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        """Start every slot's worker now rather than at the first job."""
        await asyncio.gather(*(slot.start() for slot in self.slots))

    def stop(self) -> None:
        """Stop every worker now (the server is stopping)."""
        for slot in self.slots:
            slot.stop()

    def load(self, client: str) -> int:
        """The client's jobs queued or running."""
        return self._running.get(client, 0) + len(self._waiting.get(client, ()))

    async def run(self, client: str, function: Callable[..., T], *args: Any) -> T:
        """Run ``function(*args)`` in a slot when ``client``'s turn comes; its answer, or its exception.

        Raises :class:`Refused`: 429 when the client already has ``per_client`` jobs, 503 when
        ``max_queued`` jobs are waiting, when the job ran over ``run_seconds`` or its worker died.
        """
        if self.load(client) >= self.per_client:
            raise Refused(
                429,
                f"this client already has {self.per_client} engine jobs queued or running;"
                " send the next when one has answered",
            )
        if self._queued >= self.max_queued:
            raise Refused(503, f"all engines are busy ({self._queued} jobs waiting); try again in a moment", 2)
        job: _Job[T] = _Job(client, function, args, asyncio.get_running_loop().create_future())
        self._waiting.setdefault(client, deque()).append(job)
        self._queued += 1
        self._dispatch()
        try:
            return await asyncio.shield(job.answer)
        except asyncio.CancelledError:  # the request went away: a job still waiting is dropped
            self._drop(job)
            job.answer.add_done_callback(_forget)  # a running job's answer has nobody left to read it
            raise

    def _drop(self, job: _Job[Any]) -> None:
        queue = self._waiting.get(job.client)
        if queue is not None and job in queue:
            queue.remove(job)
            self._queued -= 1
            if not queue:
                del self._waiting[job.client]
            self._forget_client(job.client)

    def _forget_client(self, client: str) -> None:
        # nothing is kept of a client with no work under way: memory does not grow with addresses seen
        if client not in self._waiting and client not in self._running:
            self._served.pop(client, None)

    def _next(self) -> _Job[Any] | None:
        # the client with the fewest jobs running; then the least engine time lately; then the one served
        # longest ago (round robin), and among clients not served yet the first to come
        now = time.monotonic()
        keep_one = len(self.slots) > 1 and len(self._free) == 1  # the last free slot: light clients only
        candidates = [
            (self._running.get(key, 0), self.usage.of(key, now), self._served.get(key, 0), key) for key in self._waiting
        ]
        candidates = [
            entry
            for entry in candidates
            if entry[0] < self.max_running and not (keep_one and entry[1] > self.light_seconds)
        ]
        if not candidates:
            return None  # each waiting client runs its share already, or is too heavy for the last slot
        client = min(candidates)[3]
        queue = self._waiting[client]
        job = queue.popleft()
        if not queue:
            del self._waiting[client]
        self._served[client] = next(self._turns)
        self._queued -= 1
        return job

    def _dispatch(self) -> None:
        while self._free and self._waiting:
            job = self._next()
            if job is None:
                return
            slot = self._free.pop()
            self._running[job.client] = self._running.get(job.client, 0) + 1
            task = asyncio.get_running_loop().create_task(self._execute(slot, job))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _execute(self, slot: Slot, job: _Job[Any]) -> None:
        running: concurrent.futures.Future[Any] | None = None
        began = time.monotonic()
        try:
            running = slot.submit(job.function, *job.args)
            # the clock starts now, when the job runs, not when it was queued
            result = await asyncio.wait_for(asyncio.wrap_future(running), self.run_seconds)
            _settle(job, result=result)
        except TimeoutError:
            _settle(
                job,
                error=Refused(
                    503, f"the engine ran over the server's limit of {self.run_seconds:g} s a job; it was stopped"
                ),
            )
            await slot.recover(running)
        except BrokenProcessPool:
            _settle(job, error=Refused(503, "an engine worker stopped; try again"))
            await slot.recover(running)
        except Exception as error:  # the job's own exception, for the caller to judge
            _settle(job, error=error)
        finally:
            self.usage.add(job.client, time.monotonic() - began)  # a job that overran pays for its replacement too
            count = self._running[job.client] - 1
            if count:
                self._running[job.client] = count
            else:
                del self._running[job.client]
                self._forget_client(job.client)
            self._free.append(slot)
            self._dispatch()


def _forget(answer: asyncio.Future[Any]) -> None:
    if not answer.cancelled():
        answer.exception()  # read, so that asyncio does not report it as never retrieved


def _settle(job: _Job[Any], result: Any = None, error: BaseException | None = None) -> None:
    if job.answer.done():
        return
    if error is not None:
        job.answer.set_exception(error)
    else:
        job.answer.set_result(result)
