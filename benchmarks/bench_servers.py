"""Games between people on one PostgreSQL library served by one process or by two: games a second, and how
soon a move reaches the other screen when the two screens are on different processes.

    python benchmarks/bench_servers.py [--games 200] [--seconds 60] [--ramp 10] [--think 1,3]
                                       [--fast-games 200] [--fast-tables 20] [--processes 4]

Starts a PostgreSQL server of its own (Debian's ``postgresql``, as the tests
do: tests/postgres_server.py) and, on a fresh database for each condition,
``kalah.web`` servers under uvicorn as ``kalah serve`` runs them (the
per-address caps raised: every scripted player comes from 127.0.0.1). The
players are bench_live.py's: scripted, a random legal move each, a push
connection per seat. Each condition runs twice:

- throughput: ``--fast-games`` games played to their end with no thinking,
  ``--fast-tables`` at once: games a second;
- latency: ``--games`` tables at once whose players think ``--think`` seconds
  before each move (as people do), for ``--seconds`` after they all opened:
  the time from the mover's POST to the opponent's push.

The conditions: one process (both seats through it), and two processes on
one library with seat 0 on the first and seat 1 on the second, so that every
move crosses from one process to the other (PostgreSQL's ``NOTIFY``). The
goal (issue 42): p99 under 150 ms across processes on this 2-core machine.
Results go to results/servers.md.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import sys
import tempfile
import time
from pathlib import Path

from bench_live import run_share, start_server
from common import figure, markdown_table, ms, report

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # the tests' PostgreSQL starter

from postgres_server import fresh_database
from postgres_server import start_server as start_postgres


def play(
    urls: tuple[str, str], tables: int, seconds: float, ramp: float, think: tuple[float, float], processes: int
) -> dict[str, list[float] | list[str] | float]:
    """Scripted players at ``tables`` tables, seat n through ``urls[n]``: what they measured."""
    delays = [ramp * n / tables for n in range(tables)]
    processes = max(1, min(processes, tables))
    began = time.time()
    until = began + ramp + seconds + (5 if think[1] > 0 else 0)
    with concurrent.futures.ProcessPoolExecutor(processes) as pool:
        futures = [
            pool.submit(run_share, urls[0], delays[n::processes], {"pits": 6, "seeds": 4}, 7 + n, think, until, urls)
            for n in range(processes)
        ]
        shares = [future.result() for future in futures]
    steady_from = max(share.all_open for share in shares)
    return {
        "steady": [latency for share in shares for sent, latency in share.moves if sent >= steady_from],
        "all": [latency for share in shares for _, latency in share.moves],
        "finished": [moment for share in shares for moment in share.finished],
        "errors": [error for share in shares for error in share.errors],
        "lag": [sample for share in shares for sample in share.lag],
        "began": began,
        "measured": until - steady_from,
    }


def condition(
    servers: int, postgres, directory: Path, args: argparse.Namespace
) -> tuple[dict[str, object], dict[str, object]]:
    """One condition (``servers`` processes on a fresh library): its throughput run and its latency run."""
    library = fresh_database(postgres)
    started = [start_server(directory, library, f"server-{servers}-{n}.log") for n in range(servers)]
    try:
        urls = (started[0][1], started[-1][1])
        low, _, high = args.think.partition(",")
        fast_seconds = args.fast_games / max(1, args.fast_tables) * 2.0  # generous: the games end it
        fast = play(urls, args.fast_tables, fast_seconds, 0.0, (0.0, 0.0), args.processes)
        slow = play(urls, args.games, args.seconds, args.ramp, (float(low), float(high or low)), args.processes)
    finally:
        for process, _ in started:
            process.kill()
            process.wait()
    return fast, slow


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="tables at once in the latency run")
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds measured once every table is open")
    parser.add_argument("--ramp", type=float, default=10.0, help="seconds over which the tables open")
    parser.add_argument("--think", default="1,3", help="a scripted player's thinking time, seconds: MIN,MAX")
    parser.add_argument("--fast-games", type=int, default=200, help="games played without thinking")
    parser.add_argument("--fast-tables", type=int, default=20, help="tables at once in the throughput run")
    parser.add_argument("--processes", type=int, default=4, help="player processes")
    args = parser.parse_args()
    rows, moves_rows, errors = [], [], []
    postgres = start_postgres()
    try:
        with tempfile.TemporaryDirectory() as folder:
            for servers in (1, 2):
                fast, slow = condition(servers, postgres, Path(folder), args)
                finished = sorted(fast["finished"])[: args.fast_games]  # type: ignore[arg-type]
                elapsed = (finished[-1] - fast["began"]) if finished else float("nan")  # type: ignore[operator]
                label = "one process" if servers == 1 else "two processes, seats on different processes"
                rows.append(
                    [
                        label,
                        len(finished),
                        f"{len(finished) / elapsed:.1f}" if finished else "-",
                        ms(fast["all"], digits=1),  # type: ignore[arg-type]
                        ms(fast["all"], 0.99, 1),  # type: ignore[arg-type]
                        len(fast["errors"]),  # type: ignore[arg-type]
                    ]
                )
                errors += [f"{label}: {error}" for error in [*fast["errors"], *slow["errors"]][:5]]  # type: ignore[misc]
                steady = slow["steady"]
                moves_rows.append(
                    [
                        label,
                        len(steady),  # type: ignore[arg-type]
                        ms(steady, digits=1),  # type: ignore[arg-type]
                        ms(steady, 0.9, 1),  # type: ignore[arg-type]
                        ms(steady, 0.99, 1),  # type: ignore[arg-type]
                        ms(steady, 1.0, 1),  # type: ignore[arg-type]
                        len(slow["errors"]),  # type: ignore[arg-type]
                        ms(slow["lag"], 0.99, 1),  # type: ignore[arg-type]
                    ]
                )
                if servers == 2:
                    across = (ms(steady, digits=1), ms(steady, 0.99, 1))  # type: ignore[arg-type]
                    throughput = rows[-1][2]
    finally:
        postgres.stop()
    body = (
        "Throughput: games of Kalah(6,4) played to their end with no thinking, "
        f"{args.fast_tables} tables at once, {args.fast_games} games.\n\n"
        + markdown_table(
            ["servers on one PostgreSQL library", "games", "games/s", "move p50 ms", "move p99 ms", "errors"], rows
        )
        + f"\n\nLatency: {args.games} tables at once, players thinking {args.think} s a move, measured for"
        f" {args.seconds:g} s after the tables opened over {args.ramp:g} s; a move's time from its POST to the"
        " opponent's push.\n\n"
        + markdown_table(
            ["servers", "moves", "p50 ms", "p90 ms", "p99 ms", "max ms", "errors", "players' loop lag p99 ms"],
            moves_rows,
        )
        + ("\n\nFirst errors:\n" + "\n".join(f"- {error}" for error in errors) if errors else "")
        + "\n\nEach server is one uvicorn process (kalah serve's configuration, one engine thread); PostgreSQL,"
        " the servers and the player processes share this machine's two cores."
    )
    report("Two server processes on one PostgreSQL library", body, "servers.md")
    if args.games == 200:
        figure(
            "servers-push",
            "two `kalah serve` processes on one PostgreSQL library, 200 games: a move to the other process's screen",
            f"p50 {across[0]} ms, p99 {across[1]} ms; {throughput} games/s without thinking",
            "servers.md",
        )


if __name__ == "__main__":
    main()
