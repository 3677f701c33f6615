"""Strength against CMancala at several time controls, its CPU time equalized to ours.

    python benchmarks/bench_cmancala.py --cmancala /work/cmancala/Mancala \\
        [--seeds 6 4] [--time 0.1 0.5 2] [--games 40] [--jobs 2] [--threads 1] \\
        [--player 'pvs:time={time}'] [--baseline DIR] [--books] [--endgame-dir DIR] [--fresh] [--report-only]

For each seeds per pit (Kalah(6,S)) and each time a move T, ``--games`` games
(even): the built-in balanced openings (every position after two plies,
most balanced first; ``kalah.arena.builtin_openings``), each played once from
each seat. Our player is ``--player`` with ``{time}`` replaced by T (default
``pvs:time=T``: the players' time management, at most T a move on average),
searching on ``--threads`` threads (``KALAH_THREADS``). With ``--baseline DIR``
(a built checkout of an earlier version) the same games are played by that
version's player as well, and the report gives the Elo difference. Our
player probes the largest endgame database of the variant's pits in the data
directory (or ``--endgame-dir``): K=20 answers about half of a Kalah(6,6)
game's moves exactly, K=28 (3.25 GiB, ``kalah endgame build -k 28``) more;
the report names the K, and it is part of the games' key.

CPU equalization: each game runs in its own process, which plays our side
and drives CMancala through its text interface as a child process: by
default one CMancala process for the whole game (``--cmancala-mode
session``: its table, allocated and cleared by a depth-1 search before the
game, is kept from move to move as ours is), or a fresh one a move
(``fresh``: its table is lost and cleared every move). Our CPU time per move is
the process's own (``getrusage(RUSAGE_SELF)`` around the move: all search
threads). CMancala's is its process's, read from ``/proc/PID/stat`` before and
after the move (to the 10 ms clock tick; over a game's dozens of moves the
ticks average out), or with ``fresh`` its finished child's
(``RUSAGE_CHILDREN`` before and after) less the CPU of a move that only
starts it and clears its table (a depth-1 search, measured at the start of
each game: about 0.06 s with 2^24 entries).

Before each CMancala move its ``time`` setting is chosen so that its mean CPU
per move in this game so far, this move included, equals ours: the CPU it
still needs for that, divided by its CPU per second of ``time`` so far (it
checks its clock only between iterations, and a busy machine gives it less
than a second of CPU a second), at most four times our mean (and its time
within ten times T). Its first move before ours gets T. When it is ahead
(its clock is checked only between iterations, and with the table kept from
the last move an iteration can take many times its budget) its next moves
get the shortest time, 1 ms, until it is even again (held at a quarter of our
mean, as at first, it stayed further ahead). Both means count every move, our
instant ones too (forced, from the book, proven by the endgame database), as
with equal clocks a move. It cannot always get even: late in a game most of
our moves are answered at once by the database, and its shortest search
still costs more than our mean. Over a game it gets 1.2 to 1.4 times our CPU a
move in Kalah(6,6) (at 0.5 s, K=20 and K=28: 1.18 and 1.35; with the quarter
1.20 and 1.53), and 1.6 to 3.2 in Kalah(6,4),
where the database answers almost all of our moves: the report shows both
sides' mean CPU per move and their ratio, which favours CMancala. CPU time
rather than the wall clock also keeps the comparison fair on a machine that
other work is using.

Scores count a draw as half. The 95% interval of a score is Wilson's (draws
as halves), its Elo the logistic one with the interval mapped through the
same function; the difference of two engines' Elo against CMancala has the
interval of the two standard errors combined (normal approximation).

Every finished game is kept in ``results/match-cmancala.json`` (written
atomically after each game, under a lock so that runs of other conditions can
go at the same time; the key holds the sources' commit, the player, the
threads, the database, the books and CMancala's binary and mode), so a
stopped run resumes where it stopped
and the report (``results/match-cmancala.md``) is redrawn after each game
from what is there: partial results are always at hand. ``--fresh`` forgets
the kept games of the conditions asked for; ``--report-only`` only redraws.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import math
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from cmancala import MIN_SECONDS
from common import RESULTS, commit_of, figure, markdown_table, report

HERE = Path(__file__).resolve().parent
RESULTS_FILE = RESULTS / "match-cmancala.json"
Z95 = 1.959963984540054


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cmancala", metavar="PATH", default="/work/cmancala/Mancala", help="CMancala binary")
    parser.add_argument("--seeds", type=int, nargs="+", default=[6, 4], help="seeds per pit: Kalah(6,S)")
    parser.add_argument("--time", type=float, nargs="+", default=[0.1, 0.5, 2.0], help="seconds a move")
    parser.add_argument("--games", type=int, default=40, help="games per condition (even: both seats)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="games at once (processes)")
    parser.add_argument("--threads", type=int, default=1, help="our search threads (KALAH_THREADS)")
    parser.add_argument("--player", default="pvs:time={time}", help="our player; {time} is replaced by T")
    parser.add_argument("--baseline", metavar="DIR", help="an earlier built checkout: its player plays too")
    parser.add_argument("--books", action="store_true", help="both sides use their opening books")
    parser.add_argument("--cache", type=int, default=24, help="CMancala's table: 2^N entries")
    parser.add_argument(
        "--cmancala-mode",
        choices=["session", "fresh"],
        default="session",
        help="one CMancala process a game (its table kept between moves) or a fresh one a move",
    )
    parser.add_argument("--endgame-dir", help="our endgame databases (KALAH_ENDGAME_DIR; default: the data directory)")
    parser.add_argument("--fresh", action="store_true", help="forget the kept games of these conditions")
    parser.add_argument("--report-only", action="store_true", help="only redraw the report from kept games")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(play_one(json.loads(args.worker))))
        return
    if args.games < 2 or args.games % 2:
        sys.exit("bench_cmancala: --games must be even and at least 2 (each opening from both seats)")
    if not args.report_only and not os.access(args.cmancala, os.X_OK):
        sys.exit(f"bench_cmancala: no CMancala binary at {args.cmancala}")
    kept = load_results()
    engines = [("ours", str(HERE.parent))] + ([("baseline", args.baseline)] if args.baseline else [])
    conditions = [
        condition(label, directory, args, seeds, seconds)
        for label, directory in engines
        for seeds in args.seeds
        for seconds in args.time
    ]
    if args.fresh:
        keys = {c["key"] for c in conditions}
        with results_lock():
            kept = [game for game in load_results() if game["key"] not in keys]
            save_results(kept)
    described = {c["key"]: {k: c[k] for k in FIELDS if k in c} for c in conditions}
    for game in kept:  # games kept before their condition was written with them
        game.setdefault("condition", described.get(game["key"]))
    if not args.report_only:
        run(conditions, args, kept)
    write_report(kept, conditions)
    write_figure(kept, [c for c in conditions if c["engine"] == "ours"], args.player)


FIELDS = (
    "engine",
    "commit",
    "player",
    "threads",
    "seeds",
    "time",
    "books",
    "cache",
    "cmancala",
    "endgame",
    "mode",
    "equalize",
)


def condition(label: str, directory: str, args: argparse.Namespace, seeds: int, seconds: float) -> dict:
    """One engine at one variant and time control, with the key its kept games are found by."""
    spec = args.player.replace("{time}", f"{seconds:g}")
    fields = {
        "engine": label,
        "commit": commit_of(directory),
        "player": spec,
        "threads": args.threads,
        "seeds": seeds,
        "time": seconds,
        "books": args.books,
        "cache": args.cache,
        "cmancala": binary_digest(args.cmancala) if os.path.exists(args.cmancala) else "?",
        "endgame": _database_k(seeds, args.endgame_dir),  # the largest database there: our player probes it
    }
    if args.cmancala_mode != "fresh":  # (the games of the first runs, one process a move, keep their key)
        fields["mode"] = args.cmancala_mode
    fields["equalize"] = "even"  # its next moves get 1 ms while it is ahead (not a quarter of our mean)
    key = hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()[:16]
    return {**fields, "key": key, "directory": directory, "binary": args.cmancala, "endgame_dir": args.endgame_dir}


def binary_digest(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12]


def load_results() -> list[dict]:
    if not RESULTS_FILE.exists():
        return []
    return json.loads(RESULTS_FILE.read_text())["games"]


@contextlib.contextmanager
def results_lock():
    """Hold the results file's lock: runs at the same time (other conditions) add their games, not
    overwrite each other's."""
    import fcntl

    RESULTS.mkdir(exist_ok=True)
    folder = os.open(RESULTS, os.O_RDONLY)  # the folder's lock: no lock file to leave behind
    try:
        fcntl.flock(folder, fcntl.LOCK_EX)
        yield
    finally:
        os.close(folder)


def keep_game(game: dict, kept: list[dict]) -> None:
    """Add ``game`` to the file (read again under the lock) and ``kept`` becomes the file's games."""
    with results_lock():
        games = load_results()
        if (game["key"], game["game"]) not in {(g["key"], g["game"]) for g in games}:
            games.append(game)
        save_results(games)
    kept[:] = games


def save_results(games: list[dict]) -> None:
    from kalah.atomic import write_atomic

    text = json.dumps({"format": "kalah-cmancala-match", "games": games}, indent=0)
    write_atomic(RESULTS_FILE, text + "\n")


def run(conditions: list[dict], args: argparse.Namespace, kept: list[dict]) -> None:
    """Play the games not kept yet, ``--jobs`` at a time, keeping each and redrawing the report."""
    done = {(game["key"], game["game"]) for game in kept}
    tasks = [
        {**c, "game": number} for c in conditions for number in range(args.games) if (c["key"], number) not in done
    ]
    print(f"{len(tasks)} games to play ({len(done)} kept)", file=sys.stderr)
    began = time.perf_counter()
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {pool.submit(worker, task): task for task in tasks}
        for count, future in enumerate(as_completed(futures), start=1):
            task = futures[future]
            try:
                game = future.result()
            except RuntimeError as error:
                print(f"\ngame {task['game']} of {task['engine']} failed: {error}", file=sys.stderr)
                continue
            keep_game(game, kept)
            write_report(kept, conditions, quiet=True)
            print(
                f"\r{count}/{len(tasks)} games, {time.perf_counter() - began:.0f} s; last: {game['engine']} "
                f"Kalah(6,{game['seeds']}) {game['time']:g}s margin {game['margin']:+d}   ",
                end="",
                file=sys.stderr,
            )
    print(file=sys.stderr)


def worker(task: dict) -> dict:
    """Play one game in a fresh process with the engine's checkout first on the path."""
    environment = dict(os.environ, KALAH_THREADS=str(task["threads"]))
    if task.get("endgame_dir"):
        environment["KALAH_ENDGAME_DIR"] = task["endgame_dir"]
    environment["PYTHONPATH"] = os.pathsep.join([str(Path(task["directory"]) / "src"), str(HERE)])
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--worker", json.dumps(task)],
        capture_output=True,
        text=True,
        env=environment,
    )
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip().splitlines()[-1] if out.stderr.strip() else f"exit {out.returncode}")
    return json.loads(out.stdout.strip().splitlines()[-1])


# --- one game, in the worker process ---------------------------------------------------------


def play_one(task: dict) -> dict:
    import resource

    from cmancala import CMancalaPlayer, CMancalaSession
    from kalah import Variant
    from kalah.arena import builtin_openings
    from kalah.match import play_game

    variant = Variant(6, task["seeds"])
    # Open (and checksum) our endgame database before the game: once per process, not a move's thinking
    # (K=28 takes a second or two to check).
    endgame_k = _database_k(task["seeds"], task.get("endgame_dir"))
    number = task["game"]
    opening = builtin_openings(variant, number // 2 + 1)[number // 2]
    our_seat = number % 2
    ours = with_book(task["player"], task["books"])
    if task.get("mode") == "session":
        theirs = CMancalaSession(task["binary"], task["time"], task["cache"], book=task["books"], warm=opening)
        overhead = 0.0  # its table was cleared once, before the game
    else:
        theirs = CMancalaPlayer(task["binary"], task["time"], task["cache"], book=task["books"])
        overhead = theirs.overhead(opening)
    clock = {"ours": [], "theirs": [], "budget": [], "depth_ours": [], "depth_theirs": [], "proven": 0}

    class Ours:
        name, spec, is_computer = ours.name, ours.spec, True

        def choose_move(self, position):
            before = resource.getrusage(resource.RUSAGE_SELF)
            move = ours.choose_move(position)
            after = resource.getrusage(resource.RUSAGE_SELF)
            clock["ours"].append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
            self.last_info = getattr(ours, "last_info", {})
            clock["proven"] += bool(self.last_info.get("exact"))
            if self.last_info.get("depth") is not None:
                clock["depth_ours"].append(self.last_info["depth"])
            return move

    class Theirs:
        name, spec, is_computer = theirs.name, theirs.spec, True

        def choose_move(self, position):
            theirs.seconds = equalized_budget(clock["ours"], clock["theirs"], clock["budget"], task["time"])
            move = theirs.choose_move(position)
            clock["theirs"].append(max(0.0, theirs.last_info["cpu"] - overhead))
            clock["budget"].append(theirs.last_info["budget"])
            depth = theirs.last_info.get("depth")
            if depth is not None and depth < 200:  # (a move from its book reports no search depth)
                clock["depth_theirs"].append(depth)
            self.last_info = theirs.last_info
            return move

    players = [Ours(), Theirs()] if our_seat == 0 else [Theirs(), Ours()]
    try:
        result = play_game(players, opening)
    finally:
        if hasattr(theirs, "close"):
            theirs.close()
    margin = result.margin if our_seat == 0 else -result.margin
    mean = lambda values: sum(values) / len(values) if values else 0.0  # noqa: E731
    return {
        "key": task["key"],
        "condition": {k: task[k] for k in FIELDS if k in task},
        "game": number,
        "engine": task["engine"],
        "seeds": task["seeds"],
        "time": task["time"],
        "seat": our_seat,
        "margin": margin,
        "moves_ours": len(clock["ours"]),
        "moves_theirs": len(clock["theirs"]),
        "cpu_ours": round(sum(clock["ours"]), 4),
        "cpu_theirs": round(sum(clock["theirs"]), 4),
        "depth_ours": round(mean(clock["depth_ours"]), 2),
        "depth_theirs": round(mean(clock["depth_theirs"]), 2),
        "overhead_theirs": round(overhead, 4),
        "endgame_k": endgame_k,
        "proven_ours": clock["proven"],
    }


def _database_k(seeds: int, directory: str | None = None) -> int | None:
    """K of the endgame database our player probes (the largest on disk for Kalah(6,S)), or None."""
    from kalah import Variant
    from kalah.endgame import locate

    database = locate(Variant(6, seeds), directory)
    return database.max_seeds if database is not None else None


def with_book(spec: str, books: bool):
    """Our player with its opening book on or off as CMancala's (a version whose players have no
    ``book`` option plays without one)."""
    from kalah.players import PlayerSpecError, make_player, parse_spec

    if "book" in parse_spec(spec)[1]:
        return make_player(spec)
    try:
        return make_player(spec + ("," if ":" in spec else ":") + ("book=on" if books else "book=off"))
    except PlayerSpecError:
        return make_player(spec)


def equalized_budget(ours: list[float], theirs: list[float], budgets: list[float], nominal: float) -> float:
    """CMancala's ``time`` for its next move: what brings its mean CPU per move to ours (see the docstring).

    >>> equalized_budget([], [], [], 0.5)
    0.5
    >>> round(equalized_budget([0.4, 0.4], [0.3], [0.3], 0.5), 3)  # it used 0.3 of 0.3: now 0.5 to reach 0.4
    0.5
    >>> round(equalized_budget([0.4], [0.6], [0.3], 0.5), 3)  # 0.2 CPU to go at 2 CPU s a second of time
    0.1
    >>> round(equalized_budget([0.4], [1.0], [0.5], 0.5), 3)  # ahead already: the shortest time
    0.001
    """
    if not ours:
        return nominal
    target = sum(ours) / len(ours)
    if target <= 0:
        return nominal
    rate = sum(theirs) / sum(budgets) if theirs and sum(budgets) > 0 and sum(theirs) > 0 else 1.0
    wanted = target * (len(theirs) + 1) - sum(theirs)
    wanted = min(wanted, 4 * target)
    # (a starved process, little CPU a second, never waits for ever)
    return min(max(wanted / rate, MIN_SECONDS), 10 * nominal)


# --- the report ------------------------------------------------------------------------------


def wilson(score: float, games: int) -> tuple[float, float]:
    """Wilson's 95% interval of a proportion ``score`` of ``games``."""
    if games == 0:
        return 0.0, 1.0
    z2 = Z95 * Z95
    centre = (score + z2 / (2 * games)) / (1 + z2 / games)
    half = Z95 * math.sqrt(score * (1 - score) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def elo(score: float) -> float:
    """The logistic Elo difference of a score (clipped away from 0 and 1 so that it stays finite)."""
    score = min(max(score, 0.001), 0.999)
    return -400 * math.log10(1 / score - 1)


def summary(games: list[dict]) -> dict:
    n = len(games)
    points = sum(1.0 if g["margin"] > 0 else 0.5 if g["margin"] == 0 else 0.0 for g in games)
    score = points / n
    low, high = wilson(score, n)
    ours_moves = sum(g["moves_ours"] for g in games)
    theirs_moves = sum(g["moves_theirs"] for g in games)
    # The standard error of the Elo from the score's (delta method), for differences of two engines.
    spread = math.sqrt(max(score * (1 - score), 0.25 / n) / n)
    slope = 400 / math.log(10) / max(score * (1 - score), 1e-3)
    return {
        "n": n,
        "wins": sum(g["margin"] > 0 for g in games),
        "draws": sum(g["margin"] == 0 for g in games),
        "losses": sum(g["margin"] < 0 for g in games),
        "points": points,
        "score": score,
        "low": low,
        "high": high,
        "elo": elo(score),
        "elo_se": slope * spread,
        "cpu_ours": sum(g["cpu_ours"] for g in games) / max(ours_moves, 1),
        "cpu_theirs": sum(g["cpu_theirs"] for g in games) / max(theirs_moves, 1),
        "depth_ours": sum(g["depth_ours"] for g in games) / n,
        "depth_theirs": sum(g["depth_theirs"] for g in games) / n,
        "proven": sum(g.get("proven_ours", 0) for g in games) / max(ours_moves, 1),
        "k": sorted({str(g.get("endgame_k")) for g in games}),
    }


def write_figure(kept: list[dict], conditions: list[dict], player: str) -> None:
    """The README's row: our score at each variant and time kept with the settings of this run's first
    condition (the same sources, ``player`` template, database, threads, books and CMancala), whichever
    run played them."""
    if not conditions:
        return
    same = ("engine", "commit", "threads", "books", "cache", "cmancala", "endgame", "mode", "equalize")
    first = conditions[0]
    kept_conditions = {
        g["key"]: {**g["condition"], "key": g["key"]}
        for g in kept
        if g.get("condition")
        and all(g["condition"].get(f) == first.get(f) for f in same)
        and g["condition"]["player"] == player.replace("{time}", f"{g['condition']['time']:g}")
    }
    parts = []
    for c in sorted(kept_conditions.values(), key=lambda c: (-c["seeds"], c["time"])):
        games = [g for g in kept if g["key"] == c["key"]]
        if games:
            s = summary(games)
            parts.append(
                f"Kalah(6,{c['seeds']}) {c['time']:g} s: {100 * s['score']:.0f}% "
                f"[{100 * s['low']:.0f}, {100 * s['high']:.0f}] ({s['n']})"
            )
    if parts:
        k = sorted({str(c["endgame"]) for c in conditions})
        figure(
            "match-cmancala",
            f"our player (1 thread, K={', '.join(k)}) against CMancala, CPU time a move equalized: score "
            "[95% interval] (games)",
            "; ".join(parts),
            "match-cmancala.md",
        )


def write_report(kept: list[dict], conditions: list[dict], quiet: bool = False) -> None:
    """Redraw the report: every condition of the kept games (those of this run first)."""
    rows, by_condition = [], {}
    known = {c["key"]: c for c in conditions}
    for game in kept:
        if game.get("condition") and game["key"] not in known:
            known[game["key"]] = {**game["condition"], "key": game["key"]}
    for c in known.values():
        games = [g for g in kept if g["key"] == c["key"]]
        if not games:
            continue
        same = (c["seeds"], c["time"], c["books"], c["threads"], c["endgame"], c.get("mode", "fresh"))
        s = by_condition[(c["engine"], *same)] = summary(games)
        rows.append(
            [
                c["engine"],
                f"`{c['player']}` ({c['commit']}, K={c['endgame']}, {c['threads']} thread"
                + ("s" if c["threads"] > 1 else "")
                + (", books" if c["books"] else "")
                + (", CMancala a process a move" if c.get("mode", "fresh") == "fresh" else "")
                + ")",
                f"Kalah(6,{c['seeds']})",
                f"{c['time']:g}",
                s["n"],
                f"{s['wins']}-{s['draws']}-{s['losses']}",
                f"**{100 * s['score']:.1f}%** [{100 * s['low']:.1f}, {100 * s['high']:.1f}]",
                f"{s['elo']:+.0f} [{elo(s['low']):+.0f}, {elo(s['high']):+.0f}]",
                f"{s['cpu_ours']:.3f} / {s['cpu_theirs']:.3f} ({s['cpu_theirs'] / max(s['cpu_ours'], 1e-9):.2f})",
                f"{s['depth_ours']:.1f} / {s['depth_theirs']:.1f}",
                f"{100 * s['proven']:.0f}% (K={', '.join(s['k'])})",
            ]
        )
    if not rows:
        return
    body = (
        "Our engine against CMancala (one thread, table 2^"
        f"{conditions[0]['cache']}; both sides' opening books only where the row says `books`) from the "
        "built-in balanced openings, each from both seats, CMancala's CPU time per move equalized to ours "
        "(method in the script's docstring). K: our endgame database.\n\n"
        + markdown_table(
            [
                "engine",
                "player (sources' commit, K, threads)",
                "variant",
                "s a move",
                "games",
                "W-D-L",
                "score [95% Wilson]",
                "Elo vs CMancala [95%]",
                "CPU s a move: ours / CMancala (ratio)",
                "mean depth: ours / CMancala",
                "our moves proven (database)",
            ],
            rows,
        )
    )
    differences = []
    for (engine, seeds, seconds, *rest), s in by_condition.items():
        base = by_condition.get(("baseline", seeds, seconds, *rest))
        if engine == "ours" and base:
            diff, se = s["elo"] - base["elo"], math.hypot(s["elo_se"], base["elo_se"])
            books, threads, k, mode = rest
            differences.append(
                [
                    f"Kalah(6,{seeds})",
                    f"{seconds:g}",
                    f"K={k}, {threads} thread{'s' if threads > 1 else ''}{', books' if books else ''}"
                    + (", CMancala a process a move" if mode == "fresh" else ""),
                    f"{s['n']} + {base['n']}",
                    f"{diff:+.0f} [{diff - Z95 * se:+.0f}, {diff + Z95 * se:+.0f}]",
                ]
            )
    if differences:
        body += "\n\nElo of ours minus the baseline's, both against CMancala:\n\n" + markdown_table(
            ["variant", "s a move", "settings", "games", "Elo difference [95%]"], differences
        )
    body += "\n\nGames kept in `benchmarks/results/match-cmancala.json`; a stopped run resumes with the same command."
    if quiet:
        from kalah.atomic import write_atomic

        write_atomic(RESULTS / "match-cmancala.md", report_text("Strength against CMancala", body))
    else:
        report("Strength against CMancala", body, "match-cmancala.md")


def report_text(title: str, body: str) -> str:
    """The report as ``common.report`` writes it, without printing it (redrawn after every game)."""
    import contextlib
    import io

    with contextlib.redirect_stdout(io.StringIO()):
        return report(title, body, None)


if __name__ == "__main__":
    main()
