"""Honest players beside attackers against one ``kalah serve``: do the honest ones still get their share?

    python benchmarks/bench_server_fairness.py [--honest 50] [--alone 200] [--seconds 30] [--head-start 8]
                                               [--think 0] [--workers 2]

Starts ``kalah serve`` in a fresh process on a fresh library. Every client
connects from an address of its own in 127.0.0.0/8 (the server shares its
engines by client address), honest clients from 127.0.1.x and up, attackers
from 127.0.9.x. Two rows:

1. ``--honest`` clients play the 'easy' level as the page does (read the game,
   play a human move, ask for the computer's answer, waiting as told by
   Retry-After; they arrive over 5 s, open their first games, then all
   play for ``--seconds``, measured), while attackers run beside them (from ``--head-start``
   seconds before the honest clients come: the attack is under way, and
   each attacker's first job, which finds it new and light, is behind it;
   docs/server-engines.md): two play computer against
   computer with ``pvs:time=5,ponder=on`` as fast as answers come; four
   connections of one address loop 10-second analyses (the POST), four more
   loop the old cross-site GET of an analysis; one address floods
   computer moves of ``pvs:time=5`` games from 20 connections, ignoring
   Retry-After; 50 connections drip a request line a byte a second.
2. ``--alone`` honest clients and no attackers.

Honest clients move as fast as answers come unless ``--think S`` has them
look at the board S seconds before each move (as people do): without it,
200 clients keep the server saturated, and a request's latency is about
the number of clients over the requests the server answers a second.

Reports the honest clients' human-move latency (p50/p95/p99), their
computer moves' latency and refusals (429 or 503), and what the attackers
got. Goals (issue 26): with the attackers, honest human moves p99 < 100 ms and
no honest computer move refused at 50 clients; alone at 200 clients, human
moves p99 < 300 ms. Results go to results/server_fairness.md.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import httpx

from bench_server import percentile, start_server
from common import figure, markdown_table, report

#: Seconds over which the honest clients arrive, before they are measured.
RAMP = 5.0


class Tally:
    """Latencies by route and status counts, for one group of clients (honest, or an attacker)."""

    def __init__(self) -> None:
        self.latencies: dict[str, list[float]] = defaultdict(list)
        self.statuses: dict[str, Counter[int]] = defaultdict(Counter)
        self.errors: Counter[str] = Counter()

    async def request(
        self, client: httpx.AsyncClient, route: str, method: str, url: str, **kwargs: Any
    ) -> httpx.Response | None:
        began = time.perf_counter()
        try:
            response = await client.request(method, url, **kwargs)
        except httpx.HTTPError as error:
            self.errors[f"{route}: {type(error).__name__}"] += 1
            return None
        self.latencies[route].append(time.perf_counter() - began)
        self.statuses[route][response.status_code] += 1
        return response


def _client(url: str, address: str, timeout: float = 60) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=url, timeout=timeout, transport=httpx.AsyncHTTPTransport(local_address=address))


def honest_address(number: int) -> str:
    return f"127.0.{1 + number // 250}.{1 + number % 250}"


class Start:
    """The honest clients open their first games (not measured), then all play for ``seconds`` together."""

    def __init__(self, clients: int, seconds: float) -> None:
        self.waiting, self.seconds = clients, seconds
        self.ready = asyncio.Event()
        self.until = 0.0
        self.opening: list[float] = []

    def arrived(self) -> None:
        self.waiting -= 1
        if self.waiting == 0:
            self.until = time.monotonic() + self.seconds
            self.ready.set()


async def honest(url: str, address: str, tally: Tally, start: Start, delay: float, think: float) -> None:
    """The page against the 'easy' level (as benchmarks/bench_server.py plays), from ``delay`` seconds on."""
    await asyncio.sleep(delay)
    async with _client(url, address) as client:
        game = None
        began = time.perf_counter()
        while game is None:
            try:
                response = await client.post("/api/games", json={"players": ["human", "easy"]})
                game = response.json() if response.status_code == 201 else None
            except httpx.HTTPError:
                pass
            if game is None:
                await asyncio.sleep(0.5)
        start.opening.append(time.perf_counter() - began)
        start.arrived()
        await start.ready.wait()
        while time.monotonic() < start.until:
            if game is None or game["over"]:
                response = await tally.request(
                    client, "new game", "POST", "/api/games", json={"players": ["human", "easy"]}
                )
                if response is None or response.status_code != 201:
                    await asyncio.sleep(0.5)
                    continue
                game = response.json()
            if game["human_to_move"]:
                await asyncio.sleep(think)  # the person looks at the board
                response = await tally.request(
                    client,
                    "human move",
                    "POST",
                    f"/api/games/{game['id']}/moves",
                    json={"move": game["legal_moves"][0], "moves": game["moves"]},
                )
            else:
                response = await tally.request(
                    client,
                    "computer move",
                    "POST",
                    f"/api/games/{game['id']}/computer-move",
                    json={"moves": game["moves"]},
                )
                if response is not None and response.status_code in (429, 503):
                    await asyncio.sleep(float(response.headers.get("Retry-After", "1")))
                    continue
            if response is not None and response.status_code == 200:
                game = response.json()
            else:  # reload: it may have moved on
                response = await tally.request(client, "read game", "GET", f"/api/games/{game['id']}")
                game = response.json() if response is not None and response.status_code == 200 else None


async def computer_games(url: str, address: str, spec: str, tally: Tally, until: float) -> None:
    """Computer against computer with ``spec``, asking for the next move as soon as one answers."""
    async with _client(url, address, timeout=120) as client:
        game = None
        while time.monotonic() < until:
            if game is None or game["over"]:
                response = await tally.request(client, "new game", "POST", "/api/games", json={"players": [spec, spec]})
                game = response.json() if response is not None and response.status_code == 201 else None
                if game is None:
                    await asyncio.sleep(0.1)
                continue
            response = await tally.request(
                client, "computer move", "POST", f"/api/games/{game['id']}/computer-move", json={"moves": game["moves"]}
            )
            if response is not None and response.status_code == 200:
                game = response.json()
            else:
                await asyncio.sleep(0.02)  # no Retry-After: an attacker asks again at once
                response = await tally.request(client, "read game", "GET", f"/api/games/{game['id']}")
                game = response.json() if response is not None and response.status_code == 200 else None


async def analyses(url: str, address: str, game_id: int, tally: Tally, until: float, method: str) -> None:
    """Ten-second analyses, one after the other, on one connection: the POST, or the old GET an image could send."""
    async with _client(url, address, timeout=120) as client:
        while time.monotonic() < until:
            if method == "POST":
                response = await tally.request(
                    client, "analysis (POST)", "POST", f"/api/games/{game_id}/analysis", json={"seconds": 10}
                )
            else:
                response = await tally.request(
                    client, "analysis (GET)", "GET", f"/api/games/{game_id}/analysis?seconds=10"
                )
            if response is None or response.status_code != 200:
                await asyncio.sleep(0.02)


async def drip(port: int, address: str, until: float) -> None:
    """A connection that sends its request line a byte a second and never finishes it."""
    line = b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
    except OSError:
        return
    try:
        for byte in line:
            if time.monotonic() >= until:
                break
            writer.write(bytes([byte]))
            await writer.drain()
            await asyncio.sleep(1)
    except OSError:
        pass
    finally:
        writer.close()


async def attackers(url: str, port: int, tally: dict[str, Tally], until: float) -> list[asyncio.Task[None]]:
    async with _client(url, "127.0.9.1") as client:
        response = await client.post("/api/games", json={"players": ["human", "human"]})
        target = response.json()["id"]
    jobs = [computer_games(url, f"127.0.9.{2 + n}", "pvs:time=5,ponder=on", tally["ponder"], until) for n in range(2)]
    jobs += [analyses(url, "127.0.9.10", target, tally["analyses"], until, "POST") for _ in range(4)]
    jobs += [analyses(url, "127.0.9.11", target, tally["cross-site GET"], until, "GET") for _ in range(4)]
    jobs += [computer_games(url, "127.0.9.20", "pvs:time=5", tally["flood"], until) for _ in range(20)]
    jobs += [drip(port, "127.0.9.30", until) for _ in range(50)]
    return [asyncio.create_task(job) for job in jobs]


def run(
    url: str, honest_clients: int, seconds: float, with_attackers: bool, head_start: float, think: float
) -> tuple[Tally, dict[str, Tally], list[float]]:
    port = int(url.rsplit(":", 1)[1])
    attack_tally: dict[str, Tally] = defaultdict(Tally)
    honest_tally = Tally()
    start = Start(honest_clients, seconds)

    async def everyone() -> None:
        ahead = head_start if with_attackers else 0.0
        tasks = await attackers(url, port, attack_tally, float("inf")) if with_attackers else []
        await asyncio.sleep(ahead)  # the attack is under way when the honest arrive
        # the honest clients arrive one after the other over RAMP seconds and open their first games; then
        # they play, measured, for ``seconds``: a row measures play, not a crowd opening games at once
        await asyncio.gather(
            *(
                honest(url, honest_address(n), honest_tally, start, RAMP * n / honest_clients, think)
                for n in range(honest_clients)
            )
        )
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(everyone())
    return honest_tally, attack_tally, start.opening


def _ms(values: list[float], fraction: float | None = None) -> str:
    if not values:
        return "-"
    value = statistics.median(values) if fraction is None else percentile(values, fraction)
    return f"{value * 1000:.0f}"


def _statuses(counter: Counter[int]) -> str:
    return ", ".join(f"{status}: {count}" for status, count in sorted(counter.items())) or "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--honest", type=int, default=50)
    parser.add_argument("--alone", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--head-start", type=float, default=8.0)
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="seconds an honest player looks at the board before each move (0: none)",
    )
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    rows: list[list[object]] = []
    attack_rows: list[list[object]] = []
    headline: dict[str, str] = {}
    which: list[str] = []
    with tempfile.TemporaryDirectory() as directory:
        process, url = start_server(args.workers, Path(directory))
        try:
            for clients, attacked in ((args.honest, True), (args.alone, False)):
                tally, attacks, opening = run(url, clients, args.seconds, attacked, args.head_start, args.think)
                human, computer = tally.latencies["human move"], tally.latencies["computer move"]
                refused = sum(
                    count for status, count in tally.statuses["computer move"].items() if status in (429, 503)
                )
                failures = Counter(tally.errors)
                for route, counter in tally.statuses.items():
                    for status, count in counter.items():
                        if status >= 500 and status != 503:
                            failures[f"{route}: {status}"] += count
                errors = sum(failures.values())
                which += [f"{clients} honest: {name} ({count})" for name, count in sorted(failures.items())]
                label = f"{clients} honest" + (" + attackers" if attacked else ", no attackers")
                rows.append(
                    [
                        label,
                        _ms(opening),
                        _ms(opening, 0.99),
                        len(human),
                        _ms(human),
                        _ms(human, 0.95),
                        _ms(human, 0.99),
                        len(computer),
                        _ms(computer),
                        _ms(computer, 0.99),
                        refused,
                        errors,
                    ]
                )
                headline[label] = (
                    f"human p99 {_ms(human, 0.99)} ms, {refused} computer moves refused"
                    if attacked
                    else f"human p99 {_ms(human, 0.99)} ms"
                )
                for name, attack in sorted(attacks.items()):
                    for route, counter in sorted(attack.statuses.items()):
                        attack_rows.append(
                            [name, route, sum(counter.values()), _statuses(counter), _ms(attack.latencies[route])]
                        )
                    for error, count in sorted(attack.errors.items()):
                        attack_rows.append([name, error, count, "connection error", "-"])
        finally:
            process.terminate()
            process.wait(timeout=30)
    body = (
        f"`kalah serve --workers {args.workers}` on loopback, a fresh library, {args.seconds:g} s per row (the"
        f" attackers start {args.head_start:g} s before the honest clients; those arrive over {RAMP:g} s, open their"
        " first games, then play, measured, for the row's seconds); every client on an address of its own. Honest clients play the 'easy' level as the page does; the attackers"
        " are listed in the second table (bench_server_fairness.py describes them). The machine's two cores"
        " are shared with whatever else runs on it: the load average above says how busy it was.\n\n"
        + markdown_table(
            [
                "clients",
                "first game p50 ms",
                "p99 ms",
                "human moves",
                "p50 ms",
                "p95 ms",
                "p99 ms",
                "computer moves",
                "p50 ms",
                "p99 ms",
                "computer moves refused",
                "errors",
            ],
            rows,
        )
        + ("\n\nHonest errors: " + "; ".join(which) if which else "")
        + "\n\nWhat the attackers got (first row, head start included):\n\n"
        + markdown_table(["attacker", "route", "requests", "answers", "p50 ms"], attack_rows)
    )
    if args.think:  # another question (players as people play): its own file, and no figure of the README
        body = f"Each honest player looks at the board for {args.think:g} s before each of its moves.\n\n" + body
        report("Server fairness: honest clients beside attackers", body, f"server_fairness_think{args.think:g}.md")
        return
    report("Server fairness: honest clients beside attackers", body, "server_fairness.md")
    attacked, alone = headline[f"{args.honest} honest + attackers"], headline[f"{args.alone} honest, no attackers"]
    figure(
        "server-fairness",
        f"`kalah serve`, {args.honest} honest players beside attackers / {args.alone} alone",
        f"{attacked} / {alone}",
        "server_fairness.md",
    )


if __name__ == "__main__":
    main()
