"""Honest players beside attackers against one ``kalah serve``: do the honest ones still get their share?

    python benchmarks/bench_server_fairness.py [--honest 50] [--alone 200] [--seconds 30] [--head-start 8]
                                               [--think 1,3] [--workers 2]

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

An honest client is a person at the page: before each of its moves it
looks at the board for a time drawn uniformly from ``--think`` seconds
(default 1 to 3 s), then plays the first legal pit and asks for the
computer's answer at once, as the page does (waiting as told by
Retry-After when refused). ``--think 0`` has them move as fast as answers
come: 200 such clients keep the server saturated, and a request's latency
is then about the number of clients over the requests the server answers a
second (a load test, not people; its results go to
server_fairness_think0.md). The clients run in processes of their own,
at most 50 honest clients to a process and the attackers in another, and
each process reports how late its own event loop woke.

Reports the honest clients' human-move latency (p50/p95/p99), their
computer moves' latency and refusals (429 or 503), and what the attackers
got. Goals (issue 26): with the attackers, honest human moves p99 < 100 ms and
no honest computer move refused at 50 clients; alone at 200 clients, human
moves p99 < 300 ms. Results go to results/server_fairness.md.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import random
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

import httpx

from bench_server import start_server
from common import LoopLag, Tally, client_address, figure, http_client, markdown_table, ms, report

#: Seconds over which the honest clients arrive and open their first games, before they are measured.
RAMP = 5.0
#: Seconds after the last arrival before the measured window opens (the last first games are made).
SETTLE = 3.0


def _client(url: str, address: str, timeout: float = 60) -> httpx.AsyncClient:
    return http_client(url, address, timeout)


class Start:
    """The honest clients open their first games (not measured), then all play from ``begin`` to ``until``
    (``time.time()``: the clients run in several processes)."""

    def __init__(self, begin: float, until: float) -> None:
        self.begin, self.until = begin, until
        self.opening: list[float] = []


async def honest(url: str, address: str, tally: Tally, start: Start, delay: float, think: tuple[float, float]) -> None:
    """The page against the 'easy' level (as benchmarks/bench_server.py plays), from ``delay`` seconds on."""
    rng = random.Random(address)
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
        await asyncio.sleep(max(0.0, start.begin - time.time()))
        while time.time() < start.until:
            if game is None or game["over"]:
                response = await tally.request(
                    client, "new game", "POST", "/api/games", json={"players": ["human", "easy"]}
                )
                if response is None or response.status_code != 201:
                    await asyncio.sleep(0.5)
                    continue
                game = response.json()
            if game["human_to_move"]:
                await asyncio.sleep(rng.uniform(*think))  # the person looks at the board
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


def honest_share(
    url: str, numbers: list[int], begin: float, until: float, think: tuple[float, float], arrive: float
) -> tuple[Tally, list[float], list[float]]:
    """One process of honest clients (client ``n`` arrives ``arrive * n`` seconds from now): their tally, the
    seconds each took to open its first game, and the process's own event loop lag."""

    async def clients() -> tuple[Tally, list[float], list[float]]:
        tally, start, lag = Tally(), Start(begin, until), LoopLag()
        lag.start()
        await asyncio.gather(*(honest(url, client_address(n), tally, start, arrive * n, think) for n in numbers))
        lag.stop()
        return tally, start.opening, lag.samples

    return asyncio.run(clients())


def attack_share(url: str, until: float) -> tuple[dict[str, Tally], list[float]]:
    """The attackers' process, until ``until`` (``time.time()``): their tallies and the process's loop lag."""
    port = int(url.rsplit(":", 1)[1])

    async def everyone() -> tuple[dict[str, Tally], list[float]]:
        tally: dict[str, Tally] = defaultdict(Tally)
        lag = LoopLag()
        lag.start()
        tasks = await attackers(url, port, tally, float("inf"))
        await asyncio.sleep(max(0.0, until - time.time()))
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        lag.stop()
        return dict(tally), lag.samples

    return asyncio.run(everyone())


#: Honest clients per process of their own (a Python process with hundreds of connections lags itself).
PER_PROCESS = 50


def run(
    url: str,
    honest_clients: int,
    seconds: float,
    with_attackers: bool,
    head_start: float,
    think: tuple[float, float],
) -> tuple[Tally, dict[str, Tally], list[float], dict[str, list[float]]]:
    """One row: the attackers (in a process of their own) from ``head_start`` seconds before the honest
    clients, who arrive over RAMP seconds and play, measured, for ``seconds``; each process's loop lag."""
    now = time.time()
    ahead = head_start if with_attackers else 0.0
    begin = now + ahead + RAMP + SETTLE
    until = begin + seconds
    processes = max(1, -(-honest_clients // PER_PROCESS))
    lags: dict[str, list[float]] = {}
    with concurrent.futures.ProcessPoolExecutor(processes + 1) as pool:
        attack = pool.submit(attack_share, url, until) if with_attackers else None
        if attack is not None:
            time.sleep(ahead)  # the attack is under way when the honest arrive
        numbers = list(range(honest_clients))
        shares = [
            pool.submit(honest_share, url, numbers[p::processes], begin, until, think, RAMP / honest_clients)
            for p in range(processes)
        ]
        honest_tally, opening = Tally(), []
        for p, share in enumerate(shares):
            tally, opened, lag = share.result()
            for route, values in tally.latencies.items():
                honest_tally.latencies[route] += values
            for route, counter in tally.statuses.items():
                honest_tally.statuses[route].update(counter)
            honest_tally.errors.update(tally.errors)
            opening += opened
            lags[f"honest clients {p + 1}"] = lag
        attacks: dict[str, Tally] = {}
        if attack is not None:
            attacks, lags["attackers"] = attack.result()
    return honest_tally, attacks, opening, lags


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
        default="1,3",
        help="seconds an honest player looks at the board before each move, MIN,MAX (0: none, a load test)",
    )
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    low, _, high = args.think.partition(",")
    think = (float(low), float(high or low))
    rows: list[list[object]] = []
    attack_rows: list[list[object]] = []
    lag_rows: list[list[object]] = []
    headline: dict[str, str] = {}
    which: list[str] = []
    with tempfile.TemporaryDirectory() as directory:
        process, url = start_server(args.workers, Path(directory))
        try:
            for clients, attacked in ((args.honest, True), (args.alone, False)):
                tally, attacks, opening, lags = run(url, clients, args.seconds, attacked, args.head_start, think)
                human, computer = tally.latencies["human move"], tally.latencies["computer move"]
                refused = tally.count("computer move", (429, 503))
                failures = tally.failures()
                errors = sum(failures.values())
                lag_rows += [
                    [f"{clients} honest", who, ms(lag, digits=1), ms(lag, 0.99, 1), ms(lag, 1.0, 1)]
                    for who, lag in lags.items()
                ]
                which += [f"{clients} honest: {name} ({count})" for name, count in sorted(failures.items())]
                label = f"{clients} honest" + (" + attackers" if attacked else ", no attackers")
                rows.append(
                    [
                        label,
                        ms(opening),
                        ms(opening, 0.99),
                        len(human),
                        ms(human),
                        ms(human, 0.95),
                        ms(human, 0.99),
                        len(computer),
                        ms(computer),
                        ms(computer, 0.99),
                        refused,
                        errors,
                    ]
                )
                headline[label] = (
                    f"human p99 {ms(human, 0.99)} ms, {refused} computer moves refused"
                    if attacked
                    else f"human p99 {ms(human, 0.99)} ms"
                )
                for name, attack in sorted(attacks.items()):
                    for route, counter in sorted(attack.statuses.items()):
                        attack_rows.append(
                            [name, route, sum(counter.values()), _statuses(counter), ms(attack.latencies[route])]
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
        + "\n\nHow late the load generator's own event loops woke (each process's lag is in the latencies it"
        " measured; the honest clients run in processes of at most"
        f" {PER_PROCESS}, the attackers in one of their own):\n\n"
        + markdown_table(["row", "process", "loop lag p50 ms", "p99 ms", "max ms"], lag_rows)
    )
    body = (
        f"Each honest player looks at the board for {think[0]:g} to {think[1]:g} s (uniformly drawn) before each of"
        " its moves, then asks for the computer's answer at once, as the page does.\n\n" + body
        if think[1] > 0
        else "The honest players move as fast as answers come (a load test: people think).\n\n" + body
    )
    if think != (1.0, 3.0):  # another question than the issue's: its own file, and no figure of the README
        name = f"server_fairness_think{args.think.replace(',', '-')}.md"
        report("Server fairness: honest clients beside attackers", body, name)
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
