"""Many games between people at once over the push API: how soon a move reaches the other screen.

    python benchmarks/bench_live.py [--games 200] [--think 1,3] [--pits 6] [--seeds 4] [--seed 1]

Starts a server (``kalah.web.create_app`` under uvicorn, as ``kalah serve``
runs it) in a fresh process on a fresh game library, with the per-address
caps raised (every scripted player comes from 127.0.0.1). Then ``--games``
games run at once, each between two scripted players: each player invites
or claims its seat (POST /api/live/games, /claim), holds a push connection
(/api/games/ID/live) and, when the pushed state says it is to move, thinks
for a time drawn uniformly from ``--think`` seconds (as a person would; 0: no
thinking, every game as fast as the server goes) and plays a random legal
move (POST .../moves with its seat token). The latency of a
move is the time from the mover sending its POST to the opponent's push
connection receiving the state with that move (one clock: one process).
Reports p50/p90/p99/max latency and errors (any refused request, dropped
connection or missing push). Results go to results/live.md (live-no-think.md
with ``--think 0``); the goal is p99 under 200 ms and no error.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

from common import markdown_table, report

SERVER = """
import sys, uvicorn
from kalah.web import create_app
from kalah.web.live import LiveLimits
app = create_app(sys.argv[1], workers=1, pool="thread",
                 live_limits=LiveLimits(connections=100_000, games=100_000, challenges=100))
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning", ws_ping_interval=None,
            timeout_keep_alive=60)
"""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(directory: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-c", SERVER, str(directory / "games.sqlite"), str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(url + "/api/info", timeout=1).status_code == 200:
                return process, url
        except httpx.HTTPError:
            pass
        if time.monotonic() > deadline or process.poll() is not None:
            process.kill()
            raise SystemExit("the server did not start")
        time.sleep(0.2)


class Game:
    """One game's shared bookkeeping: when each move was sent."""

    def __init__(self) -> None:
        self.sent: dict[int, float] = {}
        self.over = asyncio.Event()


async def player(
    url: str,
    http: httpx.AsyncClient,
    game_id: int,
    seat: int,
    token: str,
    game: Game,
    rng: random.Random,
    latencies: list[float],
    errors: list[str],
    think: tuple[float, float],
) -> None:
    """Play one seat: wait for pushes, move when it is this seat's turn, time the opponent's moves' arrival."""
    ws_url = url.replace("http://", "ws://") + f"/api/games/{game_id}/live"
    try:
        async with websockets.connect(ws_url, max_size=2**20, ping_interval=None) as socket_:
            await socket_.send(json.dumps({"token": token}))
            moved_at = -1
            async for raw in socket_:
                message = json.loads(raw)
                if message["type"] not in ("hello", "state"):
                    continue
                state = message["state"]
                number = state["moves"]
                if number in game.sent and state["last"] and state["last"]["player"] != seat and number > moved_at:
                    latencies.append(time.perf_counter() - game.sent[number])
                if state["over"]:
                    game.over.set()
                    return
                if state["to_move"] == seat and number > moved_at and all(message["live"]["seats_taken"]):
                    moved_at = number
                    move = rng.choice(state["legal_moves"])
                    if think[1] > 0:
                        await asyncio.sleep(rng.uniform(*think))
                    game.sent[number + 1] = time.perf_counter()
                    answer = await http.post(
                        f"{url}/api/live/games/{game_id}/moves",
                        json={"move": move, "moves": number},
                        headers={"X-Seat-Token": token},
                    )
                    if answer.status_code != 200:
                        errors.append(f"move: {answer.status_code} {answer.text[:100]}")
                        game.over.set()
                        return
    except (OSError, websockets.WebSocketException, httpx.HTTPError) as error:
        errors.append(f"push: {error!r}")
        game.over.set()


async def one_game(
    url: str,
    http: httpx.AsyncClient,
    variant: dict[str, int],
    rng: random.Random,
    latencies: list[float],
    errors: list[str],
    think: tuple[float, float],
) -> None:
    made = await http.post(f"{url}/api/live/games", json={"variant": variant})
    if made.status_code != 201:
        errors.append(f"create: {made.status_code}")
        return
    seat = made.json()
    claimed = await http.post(f"{url}/api/live/games/{seat['game_id']}/claim", json={"invite": seat["invite"]})
    if claimed.status_code != 200:
        errors.append(f"claim: {claimed.status_code}")
        return
    game = Game()
    await asyncio.gather(
        player(
            url, http, seat["game_id"], 0, seat["token"], game, random.Random(rng.random()), latencies, errors, think
        ),
        player(
            url,
            http,
            seat["game_id"],
            1,
            claimed.json()["token"],
            game,
            random.Random(rng.random()),
            latencies,
            errors,
            think,
        ),
    )


async def run(
    url: str, games: int, variant: dict[str, int], seed: int, think: tuple[float, float]
) -> tuple[list[float], list[str], float]:
    latencies: list[float] = []
    errors: list[str] = []
    rng = random.Random(seed)
    limits = httpx.Limits(max_connections=2 * games, max_keepalive_connections=2 * games)
    async with httpx.AsyncClient(limits=limits, timeout=60) as http:
        began = time.perf_counter()
        await asyncio.gather(*(one_game(url, http, variant, rng, latencies, errors, think) for _ in range(games)))
        return latencies, errors, time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--pits", type=int, default=6)
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--think", default="1,3", help="a scripted player's thinking time, seconds: MIN,MAX (0: none)")
    args = parser.parse_args()
    low, _, high = args.think.partition(",")
    think = (float(low), float(high or low))
    with tempfile.TemporaryDirectory() as directory:
        process, url = start_server(Path(directory))
        try:
            latencies, errors, seconds = asyncio.run(
                run(url, args.games, {"pits": args.pits, "seeds": args.seeds}, args.seed, think)
            )
        finally:
            process.kill()
            process.wait()
    ms = sorted(1000 * value for value in latencies)

    def quantile(q: float) -> float:
        return ms[min(len(ms) - 1, int(q * len(ms)))] if ms else float("nan")

    rows = [
        [
            args.games,
            args.think,
            len(ms),
            f"{len(ms) / seconds:.0f}",
            f"{statistics.median(ms) if ms else float('nan'):.1f}",
            f"{quantile(0.9):.1f}",
            f"{quantile(0.99):.1f}",
            f"{ms[-1] if ms else float('nan'):.1f}",
            len(errors),
        ]
    ]
    table = markdown_table(
        ["games at once", "think s", "moves", "moves/s", "p50 ms", "p90 ms", "p99 ms", "max ms", "errors"], rows
    )
    notes = "\n".join(f"- {error}" for error in errors[:10])
    report(
        f"Live games: move to the other screen, {args.games} games of Kalah({args.pits},{args.seeds}) at once",
        table
        + ("\n\nFirst errors:\n" + notes if notes else "")
        + "\n\nThe server and the players share this machine's cores; timings on a busy machine read slower.",
        "live.md" if think[1] > 0 else "live-no-think.md",
    )


if __name__ == "__main__":
    main()
