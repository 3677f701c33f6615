"""Thousands of slow connections against one ``kalah serve``, and an honest player beside them.

    python benchmarks/bench_slow_connections.py [--connections 20000] [--seconds 40] [--log FILE]

Starts ``kalah serve`` on a fresh library. Attackers hold ``--connections``
connections open from many loopback addresses (127.0.0.2 and up, at most the
server's cap of 64 each, plus a tenth more that the cap should refuse): a
third send nothing, a third drip a header byte every 2 s, a third send
headers and then never the body; each reconnects as soon as the server
closes it. Meanwhile one honest client (127.0.0.1, in another process than the
attackers) plays human moves. Reports the honest client's p50/p99 and failures, how long
the server let each kind of slow connection live (the limits: 5 s idle, 10 s
for headers, 30 s for a body), the refusals at the cap, and what the server
wrote to its log. Results go to results/slow_connections.md.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import httpx

from common import LoopLag, figure, free_port, http_client, markdown_table, ms, report, wait_until_up

PER_ADDRESS = 64  # kalah.web.connections.HttpConnectionLimits.per_address
KINDS = ("idle", "drip", "no body")


def start_server(directory: Path) -> tuple[subprocess.Popen[bytes], str, Path]:
    port = free_port()
    log = directory / "server.log"
    process = subprocess.Popen(
        [sys.executable, "-m", "kalah.cli", "serve", "--port", str(port), "--db", str(directory / "games.sqlite")],
        stdout=subprocess.DEVNULL,
        stderr=log.open("wb"),
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    wait_until_up(process, url)
    return process, url, log


async def attacker(
    port: int, source: str, kind: str, stop: asyncio.Event, lives: dict[str, list[float]], refused: list[int]
) -> None:
    """One slow connection, opened again whenever the server closes it."""
    while not stop.is_set():
        began = time.monotonic()
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
        except OSError:
            await asyncio.sleep(1)
            continue
        try:
            if kind == "drip":
                writer.write(b"GET /api/info HTTP/1.1\r\n")
            elif kind == "no body":
                writer.write(
                    b"POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    b"Content-Length: 100000\r\n\r\n{"
                )
            while not stop.is_set():
                try:
                    data = await asyncio.wait_for(reader.read(4096), timeout=2.0)
                except TimeoutError:
                    if kind == "drip":
                        writer.write(b"X")
                    continue
                if data.startswith(b"HTTP/1.1 503"):
                    refused.append(1)
                    await asyncio.sleep(5)  # as told by Retry-After
                    break
                if not data:
                    lives[kind].append(time.monotonic() - began)
                    break
        except (ConnectionError, OSError):
            lives[kind].append(time.monotonic() - began)
        finally:
            writer.close()


async def honest(url: str, stop: asyncio.Event, latencies: list[float], failures: list[str]) -> None:
    async with http_client(url, timeout=30) as client:
        game = None
        while not stop.is_set():
            began = time.perf_counter()
            try:
                if game is None or game["over"]:
                    created = await client.post("/api/games", json={"players": ["human", "human"]})
                    if created.status_code != 201:
                        failures.append(f"new game {created.status_code}: {created.text[:80]}")
                        game = None
                        await asyncio.sleep(1)
                        continue
                    game = created.json()
                    continue
                response = await client.post(
                    f"/api/games/{game['id']}/moves", json={"move": game["legal_moves"][0], "moves": game["moves"]}
                )
                if response.status_code != 200:
                    failures.append(str(response.status_code))
                    game = None
                    continue
                game = response.json()
                latencies.append(time.perf_counter() - began)
            except httpx.HTTPError as error:
                failures.append(type(error).__name__)
            await asyncio.sleep(0.05)


#: Seconds the attackers have to open their connections before the honest client starts.
WARM_UP = 5.0


async def attack(port: int, numbers: range, connections: int, seconds: float) -> dict:
    """Attackers ``numbers`` of ``connections`` (the numbers past it are the ones beyond the cap)."""
    stop = asyncio.Event()
    lives: dict[str, list[float]] = defaultdict(list)
    refused: list[int] = []
    tasks = []
    addresses = -(-connections // PER_ADDRESS)
    for count, number in enumerate(numbers):
        address = number // PER_ADDRESS if number < connections else (number - connections) % addresses
        source = f"127.0.{2 + address // 250}.{2 + address % 250}"
        tasks.append(asyncio.create_task(attacker(port, source, KINDS[number % 3], stop, lives, refused)))
        if count % 200 == 199:
            await asyncio.sleep(0.05)  # open them in waves, as an attacker with one machine would
    await asyncio.sleep(WARM_UP + seconds)
    stop.set()
    await asyncio.wait(tasks, timeout=40)
    return {"lives": dict(lives), "refused": len(refused)}


def attackers(port: int, numbers: range, connections: int, seconds: float, results: multiprocessing.Queue) -> None:
    """Some of the attackers, in a process of their own: their event loop must not delay the honest
    client's, and one process may hold only so many files (the hard limit: 20,000 here)."""
    resource.setrlimit(resource.RLIMIT_NOFILE, (resource.getrlimit(resource.RLIMIT_NOFILE)[1],) * 2)
    results.put(asyncio.run(attack(port, numbers, connections, seconds)))


#: Slow connections per attacking process (each one is a file of that process).
PER_PROCESS = 5000


def run(url: str, connections: int, seconds: float) -> dict:
    port = int(url.rsplit(":", 1)[1])
    results: multiprocessing.Queue = multiprocessing.Queue()
    everyone = range(connections + connections // 10)
    shares = [everyone[start : start + PER_PROCESS] for start in range(0, len(everyone), PER_PROCESS)]
    processes = [
        multiprocessing.Process(target=attackers, args=(port, share, connections, seconds, results)) for share in shares
    ]
    for process in processes:
        process.start()
    time.sleep(WARM_UP)
    latencies: list[float] = []
    failures: list[str] = []
    lag = LoopLag()

    async def play() -> None:
        stop = asyncio.Event()
        asyncio.get_running_loop().call_later(seconds, stop.set)
        lag.start()
        await honest(url, stop, latencies, failures)
        lag.stop()

    asyncio.run(play())
    lives: dict[str, list[float]] = defaultdict(list)
    refused = 0
    for _ in processes:
        result = results.get(timeout=120)
        refused += result["refused"]
        for kind, values in result["lives"].items():
            lives[kind] += values
    for process in processes:
        process.join(timeout=30)
    return {
        "lives": lives,
        "refused": refused,
        "latencies": latencies,
        "failures": failures,
        "lag": lag.samples,
        "processes": len(processes),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--connections", type=int, default=20000)
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--log", help="keep the server's log in this file")
    options = parser.parse_args()
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the server (a child) inherits it, and raises its own
    with tempfile.TemporaryDirectory() as directory:
        process, url, log = start_server(Path(directory))
        try:
            result = run(url, options.connections, options.seconds)
        finally:
            process.terminate()
            process.wait(timeout=30)
        log_text = log.read_bytes()
        if options.log:
            Path(options.log).write_bytes(log_text)
    log_lines, tracebacks = log_text.count(b"\n"), log_text.count(b"Traceback")
    latencies = result["latencies"]
    lives = {kind: result["lives"].get(kind, []) for kind in KINDS}
    rows = [
        [
            kind,
            len(lives[kind]),
            f"{statistics.median(lives[kind]):.1f} s" if lives[kind] else "-",
            f"{max(lives[kind]):.1f} s" if lives[kind] else "-",
        ]
        for kind in KINDS
    ]
    limit = "unlimited" if hard == resource.RLIM_INFINITY else f"{hard:,}"
    body = (
        f"{options.connections:,} slow connections from {-(-options.connections // PER_ADDRESS)} addresses"
        f" (+{options.connections // 10:,} beyond the per-address cap) for {options.seconds:g} s, opened by"
        f" {result['processes']} attacking processes; each reconnects as soon as the server closes it.\n\n"
        + markdown_table(["slow connection", "closed by the server", "median life", "longest life"], rows)
        + f"\n\nRefused at the cap (503): {result['refused']}.  \n"
        f"Honest human moves (one client, one keep-alive connection, a move every 50 ms): {len(latencies)},"
        f" p50 {ms(latencies)} ms, p99 {ms(latencies, 0.99)} ms, max {ms(latencies, 1.0)} ms,"
        f" failures {len(result['failures'])} {sorted(set(result['failures']))[:5]}.  \n"
        f"The honest client's own event loop lag: {LoopLag.describe(result['lag'])}.  \n"
        f"Server log: {len(log_text)} bytes, {log_lines} lines, {tracebacks} tracebacks.\n\n"
        f"Open files: a process here may hold at most {limit} (the hard limit, which only a privileged"
        " process can raise); the benchmark and the server (`kalah serve` raises its own soft limit to the hard"
        f" one) run at that limit, and the attackers are spread over processes of {PER_PROCESS:,} connections."
        " The server itself cannot hold more connections than its limit: those past it wait in the kernel's"
        " listen queue until the server closes others.\n\n"
        "Timings are noisy on a machine shared with other work."
    )
    report("Slow connections against kalah serve", body, "slow_connections.md")
    figure(
        "slow-connections",
        f"`kalah serve` with {options.connections:,} slow connections open against it: an honest player's moves",
        f"p50 {ms(latencies)} ms, p99 {ms(latencies, 0.99)} ms, {len(result['failures'])} failures",
        "slow_connections.md",
    )


if __name__ == "__main__":
    main()
