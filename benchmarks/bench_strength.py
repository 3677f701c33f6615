"""Playing strength: a fixed round robin between the seed-style players, the
strong engines at 0.1 and 1 second per move, and perfect play where the
solver provides it; Elo ratings with 95% intervals.

    python benchmarks/bench_strength.py [--games N] [--jobs J] [--pits M --seeds S] [--db PATH]

Players that are not installed (no such player type) are left out and named
in the report. The games go to a game library (``--db``, default the user's library, as
for ``kalah arena``), so an interrupted run resumes where it stopped.
"""

from __future__ import annotations

import argparse
import sys
import time

from common import report

from kalah import Variant
from kalah.arena import Arena, builtin_openings, run_arena
from kalah.players import parse_spec, player_types
from kalah.records import GameLibrary

PLAYERS = [
    "minimax:depth=4,eval=seed",
    "alphabeta:depth=6,eval=seed",
    "pvs:time=0.1",
    "pvs:time=1",
    "perfect",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20, help="games per pairing (even)")
    parser.add_argument("--jobs", type=int, default=None, help="worker processes (default: all cores)")
    parser.add_argument("--pits", type=int, default=6)
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--db", default=None, help="game library (default: the user's, as kalah arena)")
    parser.add_argument("--player", action="append", help="replace the fixed list of players (repeatable)")
    args = parser.parse_args()

    variant = Variant(args.pits, args.seeds)
    known = player_types()
    wanted = args.player or PLAYERS
    players = [spec for spec in wanted if parse_spec(spec)[0] in known]
    missing = [spec for spec in wanted if spec not in players]
    if len(players) < 2:
        sys.exit(f"bench_strength: fewer than two of the players exist here (missing: {', '.join(missing)})")
    arena = Arena(players, variant, args.games, builtin_openings(variant, args.games // 2))
    library = GameLibrary(args.db)
    began = time.perf_counter()
    played = run_arena(arena, library, jobs=args.jobs,
                       progress=lambda done, total, task, result: print(f"\r{done}/{total} games", end="", file=sys.stderr))
    print(file=sys.stderr)
    seconds = time.perf_counter() - began
    results = arena.results(library)
    body = (f"{variant.name}, {args.games} games per pairing (the built-in balanced openings, each played from "
            f"both sides), {results.games_played} games; arena key `{arena.key}`; {played} games played in this run "
            f"in {seconds:.0f} s.\n\n" + results.markdown())
    body += ("\nElo: Bradley-Terry maximum likelihood (one virtual draw per pairing), mean 0; "
             "95% intervals from the normal approximation (see `kalah.arena.elo`).")
    if missing:
        body += f"\n\nNot available in this build, left out: {', '.join(f'`{spec}`' for spec in missing)}."
    report("Playing strength", body, "strength.md")


if __name__ == "__main__":
    main()
