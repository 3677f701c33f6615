"""A final tournament played entirely by submitted agents, each in its sandbox: N agents, a round robin, unattended.

    python benchmarks/bench_classroom_agents.py [--agents 30] [--stage 6x6] [--move-time 1] [--depth 2]

Makes N submissions of docs/examples/kgp_minimax.py (standard library only, a search of --depth moves;
one in five at depth 1, so that the standings are not all alike), starts ``kalah arena serve --agents DIR
--tournament`` as a teacher would, and waits for the standings. Prints a Markdown table: agents, games,
forfeits, agents put out, wall time, games a second, the server's peak memory (RSS). Needs bubblewrap.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", type=int, default=30)
    parser.add_argument("--stage", default="6x6")
    parser.add_argument("--move-time", type=float, default=1.0)
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=3600.0)
    options = parser.parse_args()
    if shutil.which("bwrap") is None:
        print("needs bubblewrap (apt-get install bubblewrap)", file=sys.stderr)
        return 2
    work = Path(tempfile.mkdtemp(prefix="kalah-bench-agents-"))
    try:
        subs = work / "submissions"
        for index in range(options.agents):
            folder = subs / f"student-{index:02d}"
            folder.mkdir(parents=True)
            shutil.copy(EXAMPLES / "kgp_minimax.py", folder / "agent.py")
            depth = 1 if index % 5 == 4 else options.depth
            (folder / "agent.toml").write_text(
                f'name = "student-{index:02d}"\ntoken = "bench-token-{index:02d}"\n'
                f'run = "AGENT_DEPTH={depth} python3 agent.py"\n'
            )
        db, standings = work / "final.sqlite", work / "final"
        command = [
            sys.executable, "-m", "kalah.cli", "arena", "serve", "--port", str(free_port()),
            "--kgp-port", str(free_port()), "--db", str(db), "--agents", str(subs), "--tournament",
            "--stage", options.stage, "--move-time", str(options.move_time), "--standings", str(standings),
            "--log-file", str(work / "server.log"), "--log-level", "info",
        ]  # fmt: skip
        began = time.monotonic()
        server = subprocess.Popen(command, stderr=subprocess.DEVNULL)
        try:
            while not standings.with_suffix(".json").exists():
                if server.poll() is not None:
                    print(f"the server ended with {server.returncode}", file=sys.stderr)
                    return 1
                if time.monotonic() - began > options.timeout:
                    print("timed out", file=sys.stderr)
                    return 1
                time.sleep(1)
            seconds = time.monotonic() - began
        finally:
            server.terminate()
            server.wait(60)
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        data = json.loads(standings.with_suffix(".json").read_text())
        with sqlite3.connect(db) as connection:
            results = connection.execute("SELECT reason FROM kgp_results").fetchall()
            out = connection.execute("SELECT name, reason FROM kgp_submissions WHERE status = 'out'").fetchall()
        forfeits = sum(1 for (reason,) in results if reason.startswith("forfeit"))
        qualified = sum(1 for row in data["standings"] if row["qualified"])
        load = os.getloadavg()[0]
        print("| agents | qualified | games | forfeits | put out | wall time | games/s | server RSS | load |")
        print("|---|---|---|---|---|---|---|---|---|")
        print(
            f"| {options.agents} | {qualified} | {len(results)} | {forfeits} | {len(out)} | {seconds:.0f} s "
            f"| {len(results) / seconds:.1f} | {peak:.0f} MiB | {load:.1f} |"
        )
        for name, reason in out:
            print(f"out: {name}: {reason}")
        top = data["standings"][:3]
        print("top: " + ", ".join(f"{row['name']} {row['points']:g}" for row in top))
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
