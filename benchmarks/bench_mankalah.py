"""Our ManKalah agent (``kalah mankalah``) against public ManKalah bots, refereed by ManKalah itself.

    python benchmarks/bench_mankalah.py --jars DIR [--move-time 0.2] [--agent "kalah mankalah ..."]

DIR holds the referee ``ManKalah.jar`` and the bots to meet, each a ``*.jar``
run as ``java -jar BOT.jar`` (for instance the referee and the test agents of
a public course repository: MKRefAgent.jar, the course's reference agent, and
students' agents; they are not ours to ship, so bring your own copy). Every bot
plays two games against our agent, one from each side, Kalah(7,7) with the pie
rule as the referee runs it. Our agent is the default ``kalah mankalah`` player
(pvs with the strong evaluation, its time managed for the match) with
``--move-time`` seconds at most a move. The referee decides and scores every
game; results go to results/mankalah.md. Needs Java.
"""

from __future__ import annotations

import argparse
import re
import shlex
import subprocess
import sys
from pathlib import Path

from common import figure, markdown_table, report


def referee(jar: Path, south: str, north: str, timeout: float) -> dict:
    """One game: who won, the winner's margin, and each side's milliseconds a move, as the referee says."""
    out = subprocess.run(
        ["java", "-jar", str(jar), south, north], capture_output=True, text=True, timeout=timeout, cwd=jar.parent
    )
    flags = [line.split() for line in out.stdout.strip().splitlines()[-2:]]
    winner = re.search(r"WINNER: Player (\d)", out.stderr)
    score = re.search(r"SCORE: (-?\d+)", out.stderr)
    if len(flags) != 2 or not all(len(f) == 2 for f in flags):
        raise RuntimeError(f"the referee gave no result; its output ends with:\n{out.stdout[-400:]}{out.stderr[-800:]}")
    return {
        "winner": int(winner.group(1)) if winner else None,
        "score": int(score.group(1)) if score else 0,
        "ms": [int(flags[0][1]), int(flags[1][1])],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jars", required=True, help="directory with ManKalah.jar and the bots (*.jar)")
    parser.add_argument("--move-time", type=float, default=0.2, help="our agent's most seconds a move")
    parser.add_argument("--agent", help="our agent's command (default: kalah mankalah with --move-time)")
    parser.add_argument("--timeout", type=float, default=1800.0, help="seconds allowed for one game")
    args = parser.parse_args()

    directory = Path(args.jars).expanduser().resolve()
    jar = directory / "ManKalah.jar"
    if not jar.is_file():
        sys.exit(f"bench_mankalah: no ManKalah.jar in {directory}")
    bots = sorted(path for path in directory.glob("*.jar") if path.name != "ManKalah.jar")
    if not bots:
        sys.exit(f"bench_mankalah: no bot (*.jar besides ManKalah.jar) in {directory}")
    ours = args.agent or f"{shlex.quote(sys.executable)} -m kalah.cli mankalah --move-time {args.move_time:g}"
    rows, points = [], 0.0
    for bot in bots:
        theirs = f"java -jar {shlex.quote(bot.name)}"
        for our_side in ("South", "North"):
            south, north = (ours, theirs) if our_side == "South" else (theirs, ours)
            game = referee(jar, south, north, args.timeout)
            us = 1 if our_side == "South" else 2
            result = "draw" if game["winner"] is None else "won" if game["winner"] == us else "lost"
            points += {"won": 1.0, "draw": 0.5, "lost": 0.0}[result]
            margin = 0 if game["winner"] is None else game["score"] if result == "won" else -game["score"]
            rows.append([bot.stem, our_side, result, f"{margin:+d}", game["ms"][us - 1], game["ms"][2 - us]])
            print(f"\r{len(rows)} games", end="", file=sys.stderr)
    print(file=sys.stderr)
    games = len(rows)
    body = (
        f"Our agent: `{ours}`; {len(bots)} bots, {games} games (each bot from both sides), refereed by "
        f"ManKalah (Kalah(7,7), pie rule).\n\nOur score: {points:g} / {games}.\n\n"
        + markdown_table(["bot", "we played", "result", "our margin", "our ms a move", "bot's ms a move"], rows)
        + "\n\nMilliseconds a move as the referee measured them (the agent's process included)."
    )
    report("ManKalah agent against public bots", body, "mankalah.md")
    figure(
        "mankalah",
        f"ManKalah agent (at most {args.move_time:g} s a move) against {len(bots)} public bots, both sides",
        f"{points:g} / {games} ({', '.join(bot.stem for bot in bots)})",
        "mankalah.md",
    )


if __name__ == "__main__":
    main()
