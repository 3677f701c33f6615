"""Helpers shared by the benchmark scripts: machine description and markdown output."""

from __future__ import annotations

import asyncio
import json
import os
import platform
import shlex
import statistics
import subprocess
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"
#: The load when the benchmark started (this module is imported first thing).
_LOAD_AT_START = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0


def machine() -> str:
    """CPU, cores, memory, Python and the load when the benchmark started (a busy machine reads slower)."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        memory = f"{int(Path('/proc/meminfo').read_text().split()[1]) // (1024 * 1024)} GiB RAM"
    except (OSError, ValueError, IndexError):
        memory = "RAM unknown"
    load = (
        f", load average {_LOAD_AT_START:.2f} at start, {os.getloadavg()[0]:.2f} at the end"
        if hasattr(os, "getloadavg")
        else ""
    )
    return (
        f"{cpu}, {os.cpu_count()} cores, {memory}, Python {platform.python_version()}, "
        f"{platform.system()} {platform.release()}{load}"
    )


def command() -> str:
    """The command line of this run as typed from the repository's root, wherever it was run from."""
    script = Path(sys.argv[0]).resolve()
    root = RESULTS.parent.parent
    shown = str(script.relative_to(root)) if script.is_relative_to(root) else sys.argv[0]
    return "python " + " ".join(shlex.quote(arg) for arg in [shown, *sys.argv[1:]])


def markdown_table(headers: list[str], rows: list[list[object]]) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def report(title: str, body: str, filename: str | None = None) -> str:
    """Print a result with the machine and command, and keep it under results/."""
    text = (
        f"# {title}\n\nMachine: {machine()}  \nDate: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC  \n"
        f"Command: `{command()}`\n\n{body}\n"
    )
    print(text)
    if filename:
        RESULTS.mkdir(exist_ok=True)
        (RESULTS / filename).write_text(text)
    return text


#: The sources whose changes change how the engine plays: a commit elsewhere (the web, the documents, the
#: benchmarks, the books' data, which changes no search) leaves the engine as it was, and its results stand.
ENGINE_SOURCES = tuple(
    f"src/kalah/{part}" for part in ("core", "search", "players", "endgame", "book", "rules", "match", "solve", "arena")
) + ("setup.py", "pyproject.toml", ":(exclude)src/kalah/book/data")


def commit_of(directory: str) -> str:
    """The checkout's last commit that changed the engine's sources (``ENGINE_SOURCES``), with ``+dirty``
    when they have uncommitted changes."""
    run_git = lambda *a: subprocess.run(["git", "-C", directory, *a], capture_output=True, text=True).stdout  # noqa: E731
    head = run_git("log", "-1", "--format=%h", "--", *ENGINE_SOURCES).strip() or "unknown"
    return head + ("+dirty" if run_git("status", "--porcelain", "--", *ENGINE_SOURCES).strip() else "")


FIGURES = RESULTS / "figures.json"


def figure(key: str, what: str, value: str, source: str) -> None:
    """Keep one figure of the README's table (benchmarks/figures.py draws the table from these).

    ``key`` names the row, ``what`` is its left cell, ``value`` the measured
    figure, ``source`` the results file that holds the full table. The command,
    date and machine of this run go with it, so that every row of the README
    can be traced to the run that measured it.
    """
    figures = json.loads(FIGURES.read_text()) if FIGURES.exists() else {}
    figures[key] = {
        "what": what,
        "figure": value,
        "source": source,
        "command": command(),
        "date": f"{datetime.now(UTC):%Y-%m-%d}",
        "machine": machine(),
    }
    RESULTS.mkdir(exist_ok=True)
    temporary = FIGURES.with_suffix(".json.tmp")
    temporary.write_text(json.dumps(figures, indent=1, ensure_ascii=False) + "\n")
    os.replace(temporary, FIGURES)  # a run stopped halfway never leaves a broken file


# --- servers and clients of the web benchmarks (bench_server, bench_server_fairness, bench_live, ...) ---


def free_port() -> int:
    """A TCP port on loopback that nothing listens on now."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_until_up(process: Any, url: str, seconds: float = 60.0) -> None:
    """Wait until the server at ``url`` answers ``/api/info``; stop it and exit if it does not."""
    import httpx

    deadline = time.monotonic() + seconds
    while True:
        try:
            if httpx.get(url + "/api/info", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise SystemExit("the server did not start")
        time.sleep(0.2)


def http_client(url: str, address: str | None = None, timeout: float = 60, **limits: int | None) -> Any:
    """An ``httpx.AsyncClient`` for the server at ``url`` (plain HTTP on loopback), connecting from ``address``.

    No client loads the certificate store: httpx makes an SSL context for every client (tens of
    milliseconds each on a busy machine, all on the event loop), which made 50 clients of one process
    wake up to 5 s late while they opened; plain HTTP needs none."""
    import httpx

    # a kept-alive connection is dropped after 2 s idle, before the server's 5 s (kalah serve closes idle
    # connections): reusing one the server is closing fails the request (a POST is not retried)
    transport = httpx.AsyncHTTPTransport(
        local_address=address, verify=False, limits=httpx.Limits(keepalive_expiry=2.0, **limits)
    )
    return httpx.AsyncClient(base_url=url, timeout=timeout, transport=transport)


def client_address(number: int) -> str:
    """The loopback address client ``number`` connects from (the server shares its engines by address)."""
    return f"127.0.{1 + number // 250}.{1 + number % 250}"


def percentile(values: Sequence[float], fraction: float) -> float:
    """The value below which ``fraction`` of ``values`` lie (nearest rank); nan for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def ms(values: Sequence[float], fraction: float | None = None, digits: int = 0) -> str:
    """Seconds ``values`` as milliseconds: the median, or the ``fraction`` percentile; "-" for none."""
    if not values:
        return "-"
    value = statistics.median(values) if fraction is None else percentile(values, fraction)
    return f"{value * 1000:.{digits}f}"


class Tally:
    """Latencies by route, answers by status and connection errors, for one group of HTTP clients."""

    def __init__(self) -> None:
        self.latencies: dict[str, list[float]] = defaultdict(list)
        self.statuses: dict[str, Counter[int]] = defaultdict(Counter)
        self.errors: Counter[str] = Counter()

    async def request(self, client: Any, route: str, method: str, url: str, **kwargs: Any) -> Any:
        """``client.request(method, url)``, timed under ``route``; None when the connection failed."""
        import httpx

        began = time.perf_counter()
        try:
            response = await client.request(method, url, **kwargs)
        except httpx.HTTPError as error:
            self.errors[f"{route}: {type(error).__name__}"] += 1
            return None
        self.latencies[route].append(time.perf_counter() - began)
        self.statuses[route][response.status_code] += 1
        return response

    def count(self, route: str, statuses: Sequence[int]) -> int:
        """How many answers of ``route`` had one of ``statuses``."""
        return sum(count for status, count in self.statuses[route].items() if status in statuses)

    def failures(self) -> Counter[str]:
        """Connection errors and server errors (5xx but 503, which is a refusal with Retry-After)."""
        failures = Counter(self.errors)
        for route, counter in self.statuses.items():
            for status, count in counter.items():
                if status >= 500 and status != 503:
                    failures[f"{route}: {status}"] += count
        return failures


class LoopLag:
    """How late an event loop wakes: a task sleeps ``interval`` seconds again and again and keeps how much
    later than asked it woke. A load generator whose own loop lags adds that lag to every latency it measures,
    so each benchmark reports it beside its figures."""

    def __init__(self, interval: float = 0.01) -> None:
        self.interval = interval
        self.samples: list[float] = []
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._watch())

    async def _watch(self) -> None:
        while True:
            began = time.perf_counter()
            await asyncio.sleep(self.interval)
            self.samples.append(max(0.0, time.perf_counter() - began - self.interval))

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()

    @staticmethod
    def describe(samples: Sequence[float]) -> str:
        """p50/p99/max of lag ``samples`` in milliseconds."""
        return f"p50 {ms(samples, digits=1)}, p99 {ms(samples, 0.99, 1)}, max {ms(samples, 1.0, 1)} ms"
