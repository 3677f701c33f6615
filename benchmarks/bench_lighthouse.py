"""Lighthouse's scores of the pages on its phone profile: performance, accessibility, best practices.

    python benchmarks/bench_lighthouse.py [--runs 3] [--lighthouse PATH] [--chromium /usr/bin/chromium]

Starts ``kalah serve`` in a fresh process on a fresh game library (one finished game between people in it,
so that the live page has a game to show), then runs Lighthouse (npm ``lighthouse``; by default the one
``.ci/run`` installs into ``~/.cache/kalah-ci-node``) with Debian's Chromium, headless and offline (the
pages load nothing from the internet), on its default mobile profile (a mid-range phone, simulated slow 4G
and a 4x slower CPU) for the board, the live game, the library, the puzzles and the lab. Each page is
measured ``--runs`` times in a fresh Chromium; the table gives each category's median score (0-100) and
the worst run's performance. The goal (issue 48): 100 for accessibility and best practices, at least 95
for performance. Results go to results/lighthouse.md; a performance score depends on the machine's load
(the simulated CPU is a multiple of this one's), so the machine's load is printed with it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from common import figure, free_port, markdown_table, report, wait_until_up

CATEGORIES = ("performance", "accessibility", "best-practices")
#: Seconds to wait after the server started, before the first measure.
SETTLE = 15
TOOLS = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "kalah-ci-node"
PAGES = [
    ("board", "/"),
    ("live game", "/live#/watch/{live}"),
    ("library", "/#/library"),
    ("puzzles", "/#/puzzles"),
    ("lab", "/lab"),
]


def a_finished_live_game(url: str) -> int:
    """A game between two people, played to its end through the API: its id."""
    client = httpx.Client(base_url=url, timeout=30)
    made = client.post("/api/live/games", json={"variant": {"pits": 4, "seeds": 3}, "name": "Ann"}).json()
    joined = client.post(f"/api/live/games/{made['game_id']}/claim", json={"invite": made["invite"], "name": "Bo"})
    tokens = {made["seat"]: made["token"], 1 - made["seat"]: joined.json()["token"]}
    state = client.get(f"/api/live/games/{made['game_id']}").json()["state"]
    while not state["over"]:
        move = next(m for m in state["legal_moves"] if m != "swap")
        answer = client.post(
            f"/api/live/games/{made['game_id']}/moves",
            json={"move": move, "moves": state["moves"]},
            headers={"X-Seat-Token": tokens[state["to_move"]]},
        )
        state = answer.json()["state"]
    return int(made["game_id"])


def lighthouse(binary: Path, chromium: str, url: str) -> dict[str, float]:
    """One Lighthouse run of ``url``: each category's score, 0-100."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "report.json"
        env = {**os.environ, "CHROME_PATH": chromium}
        subprocess.run(
            [
                str(binary),
                url,
                "--quiet",
                "--output=json",
                f"--output-path={out}",
                f"--only-categories={','.join(CATEGORIES)}",
                "--chrome-flags=--headless=new --no-sandbox --disable-gpu --no-first-run --disable-background-networking"
                f" --user-data-dir={folder}/profile",
            ],
            check=True,
            env=env,
            timeout=300,
        )
        data = json.loads(out.read_text())
    return {name: 100 * (data["categories"][name]["score"] or 0) for name in CATEGORIES}


def lighthouse_version(binary: Path) -> str:
    """The version of the Lighthouse at ``binary`` (node_modules/.bin/lighthouse), from its package.json."""
    package = binary.resolve().parents[1] / "package.json"
    try:
        return json.loads(package.read_text())["version"]
    except (OSError, ValueError, KeyError):
        return "(version unknown)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--lighthouse", type=Path, default=TOOLS / "node_modules/.bin/lighthouse")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    if not args.lighthouse.exists():
        raise SystemExit(f"no Lighthouse at {args.lighthouse}: npm install --prefix {TOOLS} lighthouse@12.2.3")
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        server = subprocess.Popen(
            [sys.executable, "-m", "kalah.cli", "serve", "--db", f"{folder}/games.sqlite", "--port", str(port)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            wait_until_up(server, url)
            live = a_finished_live_game(url)
            # The server starts its engine workers as it starts: on a small machine they take the CPU for some
            # seconds, which Lighthouse's simulated phone (a multiple of this CPU) would count against the first
            # page. Each page is served once, then the workers are given time to settle.
            for _, path in PAGES:
                httpx.get(url + path.split("#")[0], timeout=30)
            time.sleep(SETTLE)
            rows, worst = [], {}
            for name, path in PAGES:
                runs = [
                    lighthouse(args.lighthouse, args.chromium, url + path.format(live=live)) for _ in range(args.runs)
                ]
                medians = {c: statistics.median(run[c] for run in runs) for c in CATEGORIES}
                worst[name] = min(run["performance"] for run in runs)
                rows.append([name, *(f"{medians[c]:.0f}" for c in CATEGORIES), f"{worst[name]:.0f}"])
        finally:
            server.terminate()
            server.wait(timeout=30)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    body = markdown_table(
        ["page", "performance", "accessibility", "best practices", "performance, worst run"], rows
    ) + (
        f"\n\nLighthouse {lighthouse_version(args.lighthouse)}'s mobile profile, {args.runs} runs a page (medians);"
        f" the machine's load average after the runs: {load}."
    )
    report("Lighthouse on a phone: the pages' scores", body, "lighthouse.md")
    spans = {c: [float(row[1 + i]) for row in rows] for i, c in enumerate(CATEGORIES)}
    figure(
        "lighthouse",
        "Lighthouse's phone profile, five pages: performance / accessibility / best practices (goal ≥95 / 100 / 100)",
        " / ".join(f"{min(v):.0f}–{max(v):.0f}" if min(v) != max(v) else f"{min(v):.0f}" for v in spans.values()),
        "lighthouse.md",
    )


if __name__ == "__main__":
    main()
