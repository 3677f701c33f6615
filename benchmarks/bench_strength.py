"""Playing strength: a fixed round robin between the seed-style players, the
strong engines at 0.1 and 1 second per move, and perfect play where the
solver provides it; Elo ratings with 95% intervals.

    python benchmarks/bench_strength.py [--games N] [--jobs J] [--pits M --seeds S] [--db PATH]
    python benchmarks/bench_strength.py --baseline /work/baseline --pits 7 --seeds 7 --pie --player pvs:time=0.1
    python benchmarks/bench_strength.py --cmancala PATH [--time 0.5] [--games N] [--seeds S] [--player SPEC]

Players that are not installed (no such player type) are left out and named
in the report. With --cmancala, a match instead: --player (default
pvs:time=T) against CMancala at --time T seconds a move, one game from each
side of each built-in opening, equal wall-clock time a move; results to
results/match-cmancala-wallclock.md. The full match (several time controls, CPU time equalized,
parallel and resumable, Elo against a baseline) is benchmarks/bench_cmancala.py.
With --baseline DIR (a built checkout of an earlier version, e.g. the
pre-round commit), every pvs player also plays as that version's
``pvs-2026-11`` (shown as its ``exec:`` command) through ``exec:`` and ``kalah mankalah`` of DIR, so only in
Kalah(7,7) with the pie rule (the ManKalah variant, from its start). The games go to a game library (``--db``, default the user's library, as
for ``kalah arena``), so an interrupted run resumes where it stopped. Results go to
results/strength.md, or results/strength-baseline.md with --baseline.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time

from common import report
from kalah import Variant
from kalah.arena import Arena, builtin_openings, run_arena
from kalah.match import MoveEvent, Observer, play_game
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
    parser.add_argument("--pie", action="store_true", help="the pie rule (needed with --baseline: Kalah(7,7))")
    parser.add_argument("--baseline", metavar="DIR", help="an earlier built checkout: its pvs players join")
    parser.add_argument("--cmancala", metavar="PATH", help="match against a CMancala binary instead")
    parser.add_argument("--time", type=float, default=0.5, help="seconds a move for both sides in the match")
    args = parser.parse_args()
    if args.cmancala:
        match_cmancala(args)
        return

    variant = Variant(args.pits, args.seeds, pie_rule=args.pie)
    known = player_types()
    wanted = list(args.player or PLAYERS)
    if args.baseline:
        if (args.pits, args.seeds, args.pie) != (7, 7, True):
            sys.exit("bench_strength: --baseline plays through the ManKalah protocol: add --pits 7 --seeds 7 --pie")
        wanted += [baseline_spec(args.baseline, spec) for spec in wanted if spec.startswith("pvs:")]
    players = [spec for spec in wanted if parse_spec(spec)[0] in known]
    missing = [spec for spec in wanted if spec not in players]
    if len(players) < 2:
        sys.exit(f"bench_strength: fewer than two of the players exist here (missing: {', '.join(missing)})")
    arena = Arena(players, variant, args.games, builtin_openings(variant, args.games // 2))
    library = GameLibrary(args.db)
    began = time.perf_counter()
    played = run_arena(
        arena,
        library,
        jobs=args.jobs,
        progress=lambda done, total, task, result: print(f"\r{done}/{total} games", end="", file=sys.stderr),
    )
    print(file=sys.stderr)
    seconds = time.perf_counter() - began
    results = arena.results(library)
    body = (
        f"{variant.name}, {args.games} games per pairing (the built-in balanced openings, each played from "
        f"both sides), {results.games_played} games; arena key `{arena.key}`; {played} games played in this run "
        f"in {seconds:.0f} s.\n\n" + results.markdown()
    )
    body += (
        "\nElo: Bradley-Terry maximum likelihood (one virtual draw per pairing), mean 0; "
        "95% intervals from the normal approximation (see `kalah.arena.elo`)."
    )
    if missing:
        body += f"\n\nNot available in this build, left out: {', '.join(f'`{spec}`' for spec in missing)}."
    if args.baseline:
        body += (
            f"\n\nThe `exec:` player is the version checked out in `{args.baseline}` (commit "
            f"`{_commit(args.baseline)}`), playing through `kalah mankalah` in its own process."
        )
    report("Playing strength", body, "strength-baseline.md" if args.baseline else "strength.md")


def _commit(directory: str) -> str:
    import subprocess

    out = subprocess.run(["git", "-C", directory, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return out.stdout.strip() or "unknown"


def baseline_spec(directory: str, spec: str) -> str:
    """An exec: player running ``spec`` with the kalah of ``directory`` (the report shows its exec: command)."""
    command = (
        f"env PYTHONPATH={shlex.quote(directory)}/src {shlex.quote(sys.executable)} -m kalah.cli mankalah "
        f"--player {spec}"
    )
    return f"exec:{command}"


def match_cmancala(args: argparse.Namespace) -> None:
    """Our engine against CMancala at equal time per move (each side's own clock)."""
    from statistics import mean

    from cmancala import CMancalaPlayer
    from common import markdown_table
    from kalah.players import make_player

    variant = Variant(args.pits, args.seeds)
    spec = (args.player or [f"pvs:time={args.time:g}"])[0]
    theirs = CMancalaPlayer(args.cmancala, args.time)
    score, rows, ours_seconds, theirs_seconds = 0.0, [], [], []
    for number, opening in enumerate(builtin_openings(variant, args.games // 2)):
        for side in (0, 1):
            ours = make_player(spec)
            players = [ours, theirs] if side == 0 else [theirs, ours]
            timing = _Timing(side, ours_seconds, theirs_seconds)
            result = play_game(players, opening, observers=[timing])
            margin = result.margin if side == 0 else -result.margin
            score += 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
            rows.append([number + 1, "first" if side == 0 else "second", margin])
            print(f"\rgame {len(rows)}: ours {margin:+d}", end="", file=sys.stderr)
    print(file=sys.stderr)
    games = len(rows)
    body = (
        f"{variant.name}, `{spec}` against CMancala (`time {args.time:g}`, table 2^24, no book), {games} games "
        f"(the built-in openings, each from both sides).\n\n"
        f"Score of ours: {score:g} / {games} ({100 * score / games:.0f}%).  \n"
        f"Mean seconds a move by each side's own clock: ours {mean(ours_seconds):.3f}, "
        f"CMancala {mean(theirs_seconds):.3f} (it checks its clock only between iterations).\n\n"
        + markdown_table(["opening", "we moved", "our margin"], rows)
    )
    report("Match against CMancala", body, "match-cmancala-wallclock.md")  # match-cmancala.md: bench_cmancala.py


class _Timing(Observer):
    """Collects each side's thinking time by its own clock (our search's, CMancala's "Total time")."""

    def __init__(self, our_side: int, ours_seconds: list, theirs_seconds: list) -> None:
        self.our_side, self.ours_seconds, self.theirs_seconds = our_side, ours_seconds, theirs_seconds

    def move_played(self, event: MoveEvent) -> None:
        seconds = event.info.get("seconds")
        if seconds is not None:
            (self.ours_seconds if event.player == self.our_side else self.theirs_seconds).append(seconds)


if __name__ == "__main__":
    main()
