"""Many KGP agents at once on one ``kalah arena serve``: games a second, move latency.

    python benchmarks/bench_kgp.py [--agents 200] [--seconds 30] [--transport tcp|websocket]

Starts ``kalah arena serve`` (practice mode, Kalah(6,6), 5 s a move) in a
fresh process on a fresh game library, then connects ``--agents`` agents from
this process (asyncio, one connection each) that answer every state at once
with their first legal move and ``yield``. The server pairs them every second.
Reports the games finished a second (the server's results table), and the
move latency: the time from an agent's ``yield`` to its next ``state`` of the
same game, in which the server records the move, asks the opponent (another
instant agent), records its move and sends the board. Also the connections
the server dropped (it should drop none). Results go to results/kgp.md.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import markdown_table, report


async def agent(
    number: int, url: str, port: int, latencies: list[float], stop: asyncio.Event, drops: list[int]
) -> None:
    from kalah.kgp import Board, open_connection, parse_line

    connection = await open_connection(url if url.startswith("ws") else f"127.0.0.1:{port}")
    await connection.send_line(f'set info:name "bench-{number}"')
    await connection.send_line(f'set auth:token "bench-token-{number:04d}"')
    await connection.send_line("mode freeplay")
    yielded: float | None = None
    try:
        while not stop.is_set():
            try:
                line = await asyncio.wait_for(connection.read_line(), 1.0)
            except TimeoutError:
                continue
            if line is None:
                drops.append(number)
                return
            command = parse_line(line)
            if command.name == "ping":
                await connection.send_line(f"@{command.id} pong")
            elif command.name == "set" and command.text(0) == "game:result":
                yielded = None
            elif command.name == "state" and command.args and isinstance(command.args[0], Board):
                if yielded is not None:
                    latencies.append(time.perf_counter() - yielded)
                board = command.args[0]
                move = next(i for i, seeds in enumerate(board.south, 1) if seeds)
                await connection.send_line(f"@{command.id} move {move}")
                await connection.send_line(f"@{command.id} yield")
                yielded = time.perf_counter()
    finally:
        await connection.close()


def games_in(db: Path) -> int:
    try:
        with sqlite3.connect(db) as con:
            return int(con.execute("SELECT COUNT(*) FROM kgp_results").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


async def run(agents: int, seconds: float, transport: str, folder: Path) -> dict[str, float]:
    db = folder / "lib.sqlite"
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "kalah.cli",
            "arena",
            "serve",
            "--port",
            "0",
            "--kgp-port",
            "0",
            "--db",
            str(db),
            "--max-per-address",
            str(agents + 10),
            "--new-tokens-per-minute",
            str(agents + 10),
        ],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stderr is not None
        banner = server.stderr.readline()
        web, tcp = re.search(r"http://[\d.]+:(\d+)/", banner), re.search(r"TCP [\d.]+:(\d+)", banner)
        assert web and tcp, banner
        url = f"ws://127.0.0.1:{web.group(1)}/socket" if transport == "websocket" else "tcp"
        latencies: list[float] = []
        drops: list[int] = []
        stop = asyncio.Event()
        tasks = [asyncio.create_task(agent(n, url, int(tcp.group(1)), latencies, stop, drops)) for n in range(agents)]
        await asyncio.sleep(3)  # all connected and paired once
        latencies.clear()
        before, started = games_in(db), time.perf_counter()
        await asyncio.sleep(seconds)
        elapsed, after = time.perf_counter() - started, games_in(db)
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        server.terminate()
        server.wait(30)
    ordered = sorted(latencies)
    return {
        "agents": agents,
        "games_per_second": (after - before) / elapsed,
        "moves": len(ordered),
        "p50_ms": 1000 * statistics.median(ordered) if ordered else float("nan"),
        "p99_ms": 1000 * ordered[int(0.99 * (len(ordered) - 1))] if ordered else float("nan"),
        "dropped": len(drops),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", default="200", help="comma-separated agent counts (default 200)")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--transport", choices=("tcp", "websocket"), default="tcp")
    options = parser.parse_args()
    rows = []
    for count in (int(text) for text in options.agents.split(",")):
        with tempfile.TemporaryDirectory() as folder:
            result = asyncio.run(run(count, options.seconds, options.transport, Path(folder)))
        rows.append(
            [
                result["agents"],
                options.transport,
                f"{result['games_per_second']:.1f}",
                result["moves"],
                f"{result['p50_ms']:.1f}",
                f"{result['p99_ms']:.1f}",
                result["dropped"],
            ]
        )
        print(rows[-1], file=sys.stderr)
    body = markdown_table(
        [
            "agents",
            "transport",
            "games/s",
            "moves timed",
            "latency p50 (ms)",
            "latency p99 (ms)",
            "connections dropped",
        ],
        rows,
    )
    body += (
        "\n\nLatency: from an agent's `yield` to its next `state` (the server stores the move, asks the "
        "other agent, stores its move, sends the board). Timings are noisy on a shared machine."
    )
    report("KGP class server under load", body, f"kgp-{options.transport}.md")


if __name__ == "__main__":
    main()
