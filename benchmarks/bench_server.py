"""Many players at once against one ``kalah serve``: throughput, latency per route, errors.

    python benchmarks/bench_server.py [--clients 10,50,200] [--seconds 20] [--workers 2]

Starts ``kalah serve`` in a fresh process on a fresh game library, then for
each client count runs that many concurrent clients for ``--seconds``: each
client (one keep-alive connection) plays games against the "easy" level as
the page does: it reads the game, plays a human move, asks for the
computer's answer (waiting as told when the engines are busy, as the page
does), and starts a new game when one ends. Each client connects from an
address of its own in 127.0.0.0/8, as players on a network do (the server
shares its engines by client address). Reports requests per second,
p50/p95/p99 latency per route, busy answers (429 or 503 with Retry-After,
expected under load) and errors (any other 5xx, or a failed connection).
Results go to results/server.md.
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import Tally, client_address, free_port, http_client, markdown_table, ms, report, wait_until_up


def start_server(workers: int, directory: Path) -> tuple[subprocess.Popen[bytes], str]:
    """``kalah serve`` on a free loopback port over a fresh library in ``directory``, up and answering."""
    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "kalah.cli",
            "serve",
            "--port",
            str(port),
            "--workers",
            str(workers),
            "--db",
            str(directory / "games.sqlite"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    wait_until_up(process, url)
    return process, url


async def play(url: str, tally: Tally, until: float, address: str) -> None:
    async with http_client(url, address) as client:
        game = None
        while time.monotonic() < until:
            if game is None or game["over"]:
                response = await tally.request(
                    client, "POST /api/games", "POST", "/api/games", json={"players": ["human", "easy"]}
                )
                if response is None or response.status_code != 201:
                    await asyncio.sleep(0.5)
                    continue
                game = response.json()
            gid = game["id"]
            response = await tally.request(client, "GET /api/games/ID", "GET", f"/api/games/{gid}")
            if response is None or response.status_code != 200:
                continue
            game = response.json()
            if game["over"]:
                continue
            if game["human_to_move"]:
                response = await tally.request(
                    client,
                    "POST moves",
                    "POST",
                    f"/api/games/{gid}/moves",
                    json={"move": game["legal_moves"][0], "moves": game["moves"]},
                )
            else:
                response = await tally.request(
                    client,
                    "POST computer-move",
                    "POST",
                    f"/api/games/{gid}/computer-move",
                    json={"moves": game["moves"]},
                )
                if response is not None and response.status_code in (429, 503):
                    await asyncio.sleep(float(response.headers.get("Retry-After", "1")))
                    continue
            if response is not None and response.status_code == 200:
                game = response.json()


def run(url: str, clients: int, seconds: float) -> tuple[list[list[object]], Tally, float]:
    tally = Tally()
    began = time.monotonic()
    until = began + seconds

    async def everyone() -> None:
        await asyncio.gather(*(play(url, tally, until, client_address(number)) for number in range(clients)))

    asyncio.run(everyone())
    elapsed = time.monotonic() - began
    rows = []
    for route, values in sorted(tally.latencies.items()):
        rows.append(
            [
                clients,
                route,
                len(values),
                f"{len(values) / elapsed:.0f}",
                ms(values),
                ms(values, 0.95),
                ms(values, 0.99),
            ]
        )
    return rows, tally, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", default="10,50,200")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    counts = [int(part) for part in args.clients.split(",")]
    rows: list[list[object]] = []
    summary: list[list[object]] = []
    with tempfile.TemporaryDirectory() as directory:
        process, url = start_server(args.workers, Path(directory))
        try:
            for clients in counts:
                route_rows, tally, elapsed = run(url, clients, args.seconds)
                rows += route_rows
                total = sum(len(values) for values in tally.latencies.values())
                summary.append(
                    [
                        clients,
                        f"{total / elapsed:.0f}",
                        sum(tally.count(route, (429, 503)) for route in tally.statuses),
                        sum(tally.failures().values()),
                        ", ".join(sorted(tally.failures())[:3]) or "-",
                    ]
                )
        finally:
            process.terminate()
            process.wait(timeout=30)
    body = (
        f"`kalah serve --workers {args.workers}` on loopback, a fresh library; each client plays the 'easy' level"
        f" for {args.seconds:g} s per row, one keep-alive connection each, from an address of its own.\n\n"
        + markdown_table(["clients", "req/s", "busy (429/503)", "errors", "which"], summary)
        + "\n\n"
        + markdown_table(["clients", "route", "requests", "req/s", "p50 ms", "p95 ms", "p99 ms"], rows)
    )
    report("Server under load", body, "server.md")


if __name__ == "__main__":
    main()
