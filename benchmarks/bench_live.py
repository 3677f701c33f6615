"""Many games between people at once over the push API: how soon a move reaches the other screen.

    python benchmarks/bench_live.py [--games 200] [--seconds 60] [--ramp 10] [--think 1,3] [--processes 4]
                                    [--pits 6] [--seeds 4] [--seed 1]

Starts a server (``kalah.web.create_app`` under uvicorn with ``kalah serve``'s
configuration, ``kalah.web.connections.server_config``) in a fresh process on a fresh game library, with the per-address
caps raised (every scripted player comes from 127.0.0.1). Then ``--games``
tables play at once, each between two scripted players: the tables open one
after the other over ``--ramp`` seconds; at each, one player invites and the
other claims the seat (POST /api/live/games, /claim), each holds a push
connection (/api/games/ID/live) and, when the pushed state says it is to
move, thinks for a time drawn uniformly from ``--think`` seconds (as a
person would; 0: no thinking, every game as fast as the server goes) and
plays a random legal move (POST .../moves with its seat token). When a game
ends, its table starts the next one, so that ``--games`` games are under way
all the time, until ``--seconds`` after the last table opened.

The latency of a move is the time from the mover sending its POST to the
opponent's push connection receiving the state with that move (both players
of a table live in one process: one clock). The figures count the moves
sent while every table was open (after the ramp); the moves of the ramp are
reported on a row of their own. The players run in ``--processes`` processes
of their own (a single Python process holding 800 connections is itself
slow to read them), and each measures how late its own event loop wakes:
that lag is in every latency it measures, so it is reported beside them.
Errors are any refused request, dropped connection, or a move whose push
never came. Results go to results/live.md (live-no-think.md with
``--think 0``); the goal (issue 29) is p99 under 200 ms and no error.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import json
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import websockets

from common import LoopLag, figure, free_port, http_client, markdown_table, ms, report, wait_until_up

SERVER = """
import sys, uvicorn
from kalah.web import create_app
from kalah.web.connections import HttpConnectionLimits, server_config
from kalah.web.live import LiveLimits
app = create_app(sys.argv[1], workers=1, pool="thread",
                 live_limits=LiveLimits(connections=100_000, games=100_000, challenges=100))
config = server_config(app, "127.0.0.1", int(sys.argv[2]), HttpConnectionLimits(per_address=100_000))
config.ws_ping_interval = None
uvicorn.Server(config).run()
"""


def start_server(
    directory: Path, library: str | None = None, log: str = "server.log"
) -> tuple[subprocess.Popen[bytes], str]:
    """A server on ``library`` (default: a new SQLite file in ``directory``), its log in ``directory``."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-c", SERVER, library or str(directory / "games.sqlite"), str(port)],
        stdout=subprocess.DEVNULL,
        stderr=(directory / log).open("wb"),
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    wait_until_up(process, url)
    return process, url


@dataclass
class Share:
    """What one player process measured: (send time, latency) of each move that reached the other screen."""

    moves: list[tuple[float, float]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    opening: list[float] = field(default_factory=list)  #: seconds from inviting to both seats connected
    all_open: float = 0.0  #: when the last of this process's tables opened (time.time())
    lag: list[float] = field(default_factory=list)  #: this process's event loop lag samples, seconds
    finished: list[float] = field(default_factory=list)  #: when each game played to its end ended (time.time())


@dataclass
class Run:
    """What every player of one process shares: the server, its HTTP client, the game, the thinking time,
    the deadline (``time.time()``) and where the measurements go; ``urls``: the server each seat plays through
    (two processes of one library, say; default: both ``url``)."""

    url: str
    http: httpx.AsyncClient
    variant: dict[str, int]
    think: tuple[float, float]
    until: float
    share: Share
    urls: tuple[str, str] | None = None

    def seat_url(self, seat: int) -> str:
        return self.urls[seat] if self.urls else self.url


class Game:
    """One game's shared bookkeeping: when each move was sent (both clocks, one process)."""

    def __init__(self) -> None:
        self.sent: dict[int, tuple[float, float]] = {}  # move number: (time.time(), perf_counter)
        self.seated = 0
        self.both_seated = asyncio.Event()
        self.over = False


async def player(run: Run, game_id: int, seat: int, token: str, game: Game, rng: random.Random) -> None:
    """Play one seat: wait for pushes, move when it is this seat's turn, time the opponent's moves' arrival."""
    url = run.seat_url(seat)
    ws_url = url.replace("http://", "ws://") + f"/api/games/{game_id}/live"
    try:
        async with websockets.connect(ws_url, max_size=2**20, ping_interval=None) as socket_:
            await socket_.send(json.dumps({"token": token}))
            moved_at = -1
            while True:
                try:  # no news comes to a seat whose opponent stopped at the deadline: stop there too
                    raw = await asyncio.wait_for(socket_.recv(), max(0.1, run.until + 2 - time.time()))
                except TimeoutError:
                    return
                message = json.loads(raw)
                if message["type"] == "hello":
                    game.seated += 1
                    if game.seated == 2:
                        game.both_seated.set()
                if message["type"] not in ("hello", "state"):
                    continue
                state = message["state"]
                number = state["moves"]
                if number in game.sent and state["last"] and state["last"]["player"] != seat and number > moved_at:
                    sent_at, began = game.sent.pop(number)
                    run.share.moves.append((sent_at, time.perf_counter() - began))
                if state["over"]:
                    game.over = True
                    return
                if time.time() > run.until:
                    return
                if state["to_move"] == seat and number > moved_at and all(message["live"]["seats_taken"]):
                    moved_at = number
                    move = rng.choice(state["legal_moves"])
                    if run.think[1] > 0:
                        await asyncio.sleep(rng.uniform(*run.think))
                    if time.time() > run.until:
                        return
                    game.sent[number + 1] = (time.time(), time.perf_counter())
                    answer = await run.http.post(
                        f"{url}/api/live/games/{game_id}/moves",
                        json={"move": move, "moves": number},
                        headers={"X-Seat-Token": token},
                    )
                    if answer.status_code != 200:
                        run.share.errors.append(f"move: {answer.status_code} {answer.text[:100]}")
                        return
    except (OSError, websockets.WebSocketException, httpx.HTTPError) as error:
        run.share.errors.append(f"{'move' if isinstance(error, httpx.HTTPError) else 'push'}: {error!r}")


async def one_game(run: Run, rng: random.Random, first: bool) -> bool:
    """Invite, claim and play one game to its end (or the deadline); False when it could not start. The
    ``first`` game of a table opens it: the table is open once both seats are connected (or it failed)."""
    began = time.perf_counter()
    try:
        started = await _play_one(run, rng, first, began)
    except httpx.HTTPError as error:
        run.share.errors.append(f"open: {error!r}")
        started = False
    if first and not started:  # a table that failed to open is open as far as waiting for it goes
        run.share.all_open = max(run.share.all_open, time.time())
    return started


async def _play_one(run: Run, rng: random.Random, first: bool, began: float) -> bool:
    """Invite, claim, connect both seats and play to the end; the first game of a table marks it open."""
    made = await run.http.post(f"{run.url}/api/live/games", json={"variant": run.variant})
    if made.status_code != 201:
        run.share.errors.append(f"create: {made.status_code}")
        return False
    seat = made.json()
    claimed = await run.http.post(
        f"{run.seat_url(1)}/api/live/games/{seat['game_id']}/claim", json={"invite": seat["invite"]}
    )
    if claimed.status_code != 200:
        run.share.errors.append(f"claim: {claimed.status_code}")
        return False
    game = Game()
    tokens = (seat["token"], claimed.json()["token"])
    players = [
        asyncio.ensure_future(player(run, seat["game_id"], n, tokens[n], game, random.Random(rng.random())))
        for n in (0, 1)
    ]
    seated = asyncio.ensure_future(game.both_seated.wait())
    await asyncio.wait([seated, *players], return_when=asyncio.FIRST_COMPLETED)
    if game.both_seated.is_set():
        run.share.opening.append(time.perf_counter() - began)
    seated.cancel()
    if first:
        run.share.all_open, first = max(run.share.all_open, time.time()), False
    await asyncio.gather(*players)
    if game.over:
        run.share.finished.append(time.time())
    unanswered = [number for number, (sent_at, _) in game.sent.items() if sent_at < run.until - 5]
    run.share.errors += [f"game {seat['game_id']}: no push of move {number}" for number in unanswered]
    return True


async def table(run: Run, rng: random.Random, delay: float) -> None:
    """Games one after the other at one table, from ``delay`` seconds on, until the deadline."""
    await asyncio.sleep(delay)
    first = True
    while time.time() < run.until:
        if not await one_game(run, rng, first):
            await asyncio.sleep(1)
        first = False


async def play_share(
    url: str,
    tables: list[float],
    variant: dict[str, int],
    seed: int,
    think: tuple[float, float],
    until: float,
    urls: tuple[str, str] | None = None,
) -> Share:
    share = Share()
    lag = LoopLag()
    lag.start()
    rng = random.Random(seed)
    connections = 2 * len(tables)
    async with http_client(url, max_connections=connections, max_keepalive_connections=connections) as http:
        run = Run(url, http, variant, think, until, share, urls)
        await asyncio.gather(*(table(run, random.Random(rng.random()), delay) for delay in tables))
    lag.stop()
    share.lag = lag.samples
    return share


def run_share(
    url: str,
    tables: list[float],
    variant: dict[str, int],
    seed: int,
    think: tuple[float, float],
    until: float,
    urls: tuple[str, str] | None = None,
) -> Share:
    """One player process: its tables, opened at the given delays."""
    return asyncio.run(play_share(url, tables, variant, seed, think, until, urls))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games under way at once")
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds measured once every table is open")
    parser.add_argument("--ramp", type=float, default=10.0, help="seconds over which the tables open")
    parser.add_argument("--processes", type=int, default=4, help="player processes")
    parser.add_argument("--pits", type=int, default=6)
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--think", default="1,3", help="a scripted player's thinking time, seconds: MIN,MAX (0: none)")
    args = parser.parse_args()
    low, _, high = args.think.partition(",")
    think = (float(low), float(high or low))
    variant = {"pits": args.pits, "seeds": args.seeds}
    processes = max(1, min(args.processes, args.games))
    delays = [args.ramp * n / args.games for n in range(args.games)]
    with tempfile.TemporaryDirectory() as directory:
        server, url = start_server(Path(directory))
        try:
            until = time.time() + args.ramp + args.seconds + 5
            with concurrent.futures.ProcessPoolExecutor(processes) as pool:
                futures = [
                    pool.submit(run_share, url, delays[n::processes], variant, args.seed + n, think, until)
                    for n in range(processes)
                ]
                shares = [future.result() for future in futures]
        finally:
            server.kill()
            server.wait()
        log = (Path(directory) / "server.log").read_text(errors="replace").splitlines()
    steady_from = max(share.all_open for share in shares)
    steady = [latency for share in shares for sent, latency in share.moves if sent >= steady_from]
    arriving = [latency for share in shares for sent, latency in share.moves if sent < steady_from]
    errors = [error for share in shares for error in share.errors]
    opening = [seconds for share in shares for seconds in share.opening]
    measured = until - steady_from

    def row(label: str, values: list[float], seconds: float) -> list[object]:
        return [
            label,
            len(values),
            f"{len(values) / max(seconds, 1e-9):.0f}",
            ms(values, digits=1),
            ms(values, 0.9, 1),
            ms(values, 0.99, 1),
            ms(values, 1.0, 1),
        ]

    table_text = markdown_table(
        ["moves sent", "moves", "moves/s", "p50 ms", "p90 ms", "p99 ms", "max ms"],
        [
            row(f"all {args.games} games under way ({measured:.0f} s)", steady, measured),
            row(f"while the tables opened ({args.ramp:g} s)", arriving, args.ramp),
        ],
    )
    lags = markdown_table(
        ["player process", "tables", "loop lag p50 ms", "p99 ms", "max ms"],
        [
            [n + 1, len(delays[n::processes]), ms(share.lag, digits=1), ms(share.lag, 0.99, 1), ms(share.lag, 1.0, 1)]
            for n, share in enumerate(shares)
        ],
    )
    notes = "\n".join(f"- {error}" for error in errors[:10])
    body = (
        f"{args.games} tables of Kalah({args.pits},{args.seeds}) at once between scripted players who think"
        f" {args.think} s before each move (uniformly drawn) and play a random legal move; a table starts its"
        f" next game when one ends. The tables open over {args.ramp:g} s, then all play for {args.seconds:g} s."
        f" The players run in {processes} processes beside the server (one process, uvicorn, one engine"
        " thread: no engine works in these games).\n\n"
        + table_text
        + f"\n\nErrors: {len(errors)}. Opening a table (invite, claim, both push connections):"
        f" p50 {ms(opening)} ms, p99 {ms(opening, 0.99)} ms.\n\n"
        + "How late each player process's own event loop woke (a lag there is in the latencies it measured):\n\n"
        + lags
        + ("\n\nFirst errors:\n" + notes if notes else "")
        + f"\n\nThe server's log: {len(log)} lines"
        + ("; the first:\n\n" + "\n".join(f"    {line[:160]}" for line in log[:5]) if log else ".")
        + "\n\nThe server and the players share this machine's two cores; timings on a busy machine read slower."
    )
    name = "live.md" if think[1] > 0 else "live-no-think.md"
    report(
        f"Live games: move to the other screen, {args.games} games of Kalah({args.pits},{args.seeds}) at once",
        body,
        name,
    )
    if name == "live.md" and args.games == 200:
        figure(
            "live-push",
            "`kalah serve`, 200 games between people at once: a move to the other screen",
            f"p50 {ms(steady, digits=1)} ms, p99 {ms(steady, 0.99, 1)} ms, {len(errors)} errors",
            name,
        )


if __name__ == "__main__":
    main()
