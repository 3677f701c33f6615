"""An honest client's small requests while another sends lab trees of a megabyte: does the event loop keep up?

    python benchmarks/bench_big_bodies.py [--nodes 70000] [--trees 4] [--seconds 30]

Starts ``kalah serve`` (one engine worker) on a fresh library. One client
(one address) keeps ``--trees`` requests of ``POST /api/lab/tree`` under way,
each a traced tree of ``--nodes`` nodes (about a megabyte of JSON, the
largest the lab sends); the server works out at most two a client and
answers the others 429, as it should. Beside it, an honest client of another
address reads a game (``GET /api/games/ID``) every 20 ms. The honest client's
latencies are the figure: the trees' bodies are read on the event loop but
parsed, checked, worked out and answered in a thread of their own; parsed
on the loop (before), they held every other client for hundreds of
milliseconds. The goal (issue 42): honest p99 under 250 ms. Results go to
results/big_bodies.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import LoopLag, free_port, http_client, markdown_table, ms, report, wait_until_up


def tree_body(nodes: int) -> bytes:
    """A traced tree's shape as the lab sends it: breadth first from the start, every 7th node a cutoff."""
    from kalah import Position

    start = Position.start()
    parent: list[int | None] = [None]
    move: list[int | None] = [None]
    cutoff = [False]
    frontier = [(0, start)]
    for node, position in frontier:
        for pit in position.legal_moves():
            if len(parent) == nodes:
                data = {"position": start.to_dict(), "parent": parent, "move": move, "cutoff": cutoff}
                return json.dumps(data, separators=(",", ":")).encode()
            parent.append(node)
            move.append(pit)
            cutoff.append(len(parent) % 7 == 0)
            frontier.append((len(parent) - 1, position.play(pit)))
    raise ValueError(f"the start has fewer than {nodes} positions within reach of a breadth-first walk")


async def load(url: str, body: bytes, trees: int, until: float) -> dict[int, int]:
    """``trees`` tree requests under way at once from one address until ``until``: statuses counted."""
    statuses: dict[int, int] = {}
    async with http_client(url, address="127.0.0.2", timeout=120) as client:

        async def one() -> None:
            while time.time() < until:
                answer = await client.post("/api/lab/tree", content=body, headers={"Content-Type": "application/json"})
                statuses[answer.status_code] = statuses.get(answer.status_code, 0) + 1
                if answer.status_code == 429:
                    await asyncio.sleep(0.05)

        await asyncio.gather(*(one() for _ in range(trees)))
    return statuses


async def honest(url: str, game_id: int, until: float) -> tuple[list[float], list[float]]:
    """A small read every 20 ms from another address: its latencies, and this loop's own lag."""
    latencies: list[float] = []
    lag = LoopLag()
    lag.start()
    async with http_client(url, address="127.0.0.3") as client:
        while time.time() < until:
            began = time.perf_counter()
            answer = await client.get(f"/api/games/{game_id}")
            if answer.status_code == 200:
                latencies.append(time.perf_counter() - began)
            await asyncio.sleep(0.02)
    lag.stop()
    return latencies, lag.samples


async def run(
    url: str, body: bytes, trees: int, seconds: float
) -> tuple[list[float], list[float], list[float], dict[int, int]]:
    """The honest client alone for 3 s, then beside the trees: its latencies both times, its own loop's lag
    beside the trees, and the trees' answers."""
    async with http_client(url) as client:
        game_id = (await client.post("/api/games", json={"players": ["human", "human"]})).json()["id"]
    quiet, _ = await honest(url, game_id, time.time() + 3)
    until = time.time() + seconds
    (latencies, lag), statuses = await asyncio.gather(honest(url, game_id, until), load(url, body, trees, until))
    return quiet, latencies, lag, statuses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=70_000)  # 0.9 MB: under the 1 MB limit, so worked out, not refused
    parser.add_argument("--trees", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args()
    body = tree_body(args.nodes)
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "kalah",
                "serve",
                "--db",
                str(Path(folder) / "games.sqlite"),
                "--port",
                str(port),
                "--workers",
                "1",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            wait_until_up(server, url)
            quiet, latencies, lag, statuses = asyncio.run(run(url, body, args.trees, args.seconds))
        finally:
            server.kill()
            server.wait()
    table = markdown_table(
        ["honest client's reads", "requests", "p50 ms", "p90 ms", "p99 ms", "max ms"],
        [
            [
                "alone (3 s before)",
                len(quiet),
                ms(quiet, digits=1),
                ms(quiet, 0.9, 1),
                ms(quiet, 0.99, 1),
                ms(quiet, 1.0, 1),
            ],
            [
                f"beside {args.trees} trees of {args.nodes:,} nodes under way",
                len(latencies),
                ms(latencies, digits=1),
                ms(latencies, 0.9, 1),
                ms(latencies, 0.99, 1),
                ms(latencies, 1.0, 1),
            ],
        ],
    )
    answered = ", ".join(f"{count} × {status}" for status, count in sorted(statuses.items()))
    body_text = (
        f"One client keeps {args.trees} lab trees of {args.nodes:,} nodes ({len(body) / 1e6:.2f} MB each) under way"
        f" for {args.seconds:g} s (answers: {answered}); another reads a game every 20 ms.\n\n{table}\n\n"
        f"The honest client's own event loop lagged {LoopLag.describe(lag)} (in its latencies). The server"
        " (kalah serve, one engine worker), both clients and the machine's other work share two cores."
    )
    report("Big request bodies beside an honest client", body_text, "big_bodies.md")


if __name__ == "__main__":
    main()
