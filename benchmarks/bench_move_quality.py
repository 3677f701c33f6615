"""How good the moves of timed players are: the seeds each move loses against a deep search, along games.

    python benchmarks/bench_move_quality.py SPEC... [--games 60] [--reference 17] [--repeat 5]
    python benchmarks/bench_move_quality.py pvs:time=0.003,threads=1 pvs:time=0.003,threads=2 pvs:time=0.006,threads=1

A match tells which of two players is stronger, but needs thousands of games
to tell one point of score from another. This measure is much less noisy:
--games self-play games of ``pvs:time=0.003`` from the built-in openings of
Kalah(--pits,--seeds) give a fixed list of positions (those with a choice),
and a pvs search to --reference plies values every move of each (cached in
the user's cache directory: building it takes minutes). Each SPEC then plays
the positions of every game in order, as in a game (one player per game, so
its table and its time bank carry from move to move), and each of its moves
loses the reference value of the best move less that of the move played.
The SPECs take turns, --repeat times, so that a change of load falls on all
alike. Reported: the mean loss a move (with its standard error over the
repeats), the mean depth completed and the mean milliseconds a move.

For two threads against one at equal time, the share of the bound is
(loss of 1 thread - loss of 2 threads) / (loss of 1 thread - loss of 1
thread at twice the time): 1 is perfect scaling. No database is used (as on
a fresh install). Results go to results/move-quality.md.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

from platformdirs import user_cache_dir

from common import markdown_table, report
from kalah import Position, Variant, search
from kalah.arena import builtin_openings
from kalah.match import MoveEvent, Observer, play_game
from kalah.players import make_player

SELF_PLAY = "pvs:time=0.003,threads=1"


class _Positions(Observer):
    def __init__(self) -> None:
        self.before: list[Position] = []

    def move_played(self, event: MoveEvent) -> None:
        self.before.append(event.before)


def reference_games(variant: Variant, games: int, depth: int) -> list[list[dict]]:
    """For each game, its positions with a choice and every move's value at ``depth`` (cached)."""
    key = hashlib.sha256(f"{variant.name} {games} {depth} {SELF_PLAY}".encode()).hexdigest()[:16]
    cache = Path(user_cache_dir("kalah")) / f"move-quality-{key}.json"
    if cache.exists():
        return json.loads(cache.read_text())
    out = []
    for number, opening in enumerate(builtin_openings(variant, games), 1):
        seen = _Positions()
        play_game([make_player(SELF_PLAY), make_player(SELF_PLAY)], opening, observers=[seen])
        game = []
        for position in seen.before:
            if len(position.legal_moves()) > 1:
                result = search(position, "pvs", depth=depth, move_values=True)
                values = {str(entry.move): entry.value for entry in result.moves}
                game.append({"position": position.to_json(), "values": values})
        out.append(game)
        print(f"\rreference: game {number}/{games}", end="", file=sys.stderr)
    print(file=sys.stderr)
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps(out))
    return out


def play_along(spec: str, games: list[list[dict]]) -> dict[str, float]:
    """The mean loss, depth and milliseconds a move of ``spec`` over the positions of ``games``."""
    losses, depths, seconds = [], [], []
    for game in games:
        player = make_player(spec)
        for item in game:
            move = player.choose_move(Position.from_json(item["position"]))
            values = item["values"]
            losses.append(max(values.values()) - values[str(move)])
            depths.append(float(player.last_info.get("depth", 0)))  # type: ignore[arg-type]
            seconds.append(float(player.last_info.get("seconds", 0)))  # type: ignore[arg-type]
    return {"loss": statistics.fmean(losses), "depth": statistics.fmean(depths), "ms": 1000 * statistics.fmean(seconds)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("specs", nargs="+", metavar="SPEC")
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--reference", type=int, default=17, help="plies of the reference search")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--pits", type=int, default=6)
    parser.add_argument("--seeds", type=int, default=6)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    for spec in args.specs:
        make_player(spec)  # a bad spec is refused before minutes of work
    variant = Variant(args.pits, args.seeds)
    with tempfile.TemporaryDirectory() as empty:
        os.environ["KALAH_ENDGAME_DIR"] = empty  # no database, as on a fresh install
        games = reference_games(variant, args.games, args.reference)
        runs: dict[str, list[dict[str, float]]] = {spec: [] for spec in args.specs}
        for turn in range(args.repeat):
            for spec in args.specs:
                runs[spec].append(play_along(spec, games))
                print(f"\rrun {turn + 1}/{args.repeat}: {spec}", end=" " * 20, file=sys.stderr)
        print(file=sys.stderr)
    rows = []
    for spec, results in runs.items():
        loss = [r["loss"] for r in results]
        error = statistics.stdev(loss) / len(loss) ** 0.5 if len(loss) > 1 else 0.0
        rows.append(
            [
                f"`{spec}`",
                f"{statistics.fmean(loss):.4f} ± {error:.4f}",
                f"{statistics.fmean(r['depth'] for r in results):.2f}",
                f"{statistics.fmean(r['ms'] for r in results):.2f}",
            ]
        )
    positions = sum(len(game) for game in games)
    body = (
        f"{positions:,} positions with a choice from {args.games} self-play games of `{SELF_PLAY}` "
        f"({variant.name}, the built-in openings), every move valued by pvs to {args.reference} plies; each "
        f"player plays them game by game ({args.repeat} runs in turn, no database).\n\n"
        + markdown_table(["player", "seeds lost a move (± standard error)", "depth", "ms a move"], rows)
    )
    report("Move quality of timed players", body, None if args.no_write else "move-quality.md")


if __name__ == "__main__":
    main()
