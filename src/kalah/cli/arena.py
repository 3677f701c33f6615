"""``kalah arena``: a round robin between players, stored in the game library, with Elo ratings."""

from __future__ import annotations

from pathlib import Path

import typer

from kalah.rules.wording import plural

from .exit import fail, interrupted


def register(app: typer.Typer) -> None:
    """Add ``kalah arena`` (and ``kalah arena serve``, the KGP class server) to the command line."""
    from .arena_serve import serve

    group = typer.Typer(
        help="Tournaments between players (kalah arena -p A -p B), and the KGP class server (kalah arena serve)."
    )
    group.callback(invoke_without_command=True)(arena)
    group.command("serve")(serve)
    from .arena_agents import register as register_agents

    register_agents(group)
    app.add_typer(group, name="arena")


def arena(
    context: typer.Context,
    player: list[str] = typer.Option(
        [], "--player", "-p", metavar="SPEC", help="A player spec, e.g. random or pvs:time=0.1 (give two or more)."
    ),
    games: int = typer.Option(
        100,
        "--games",
        "-n",
        metavar="N",
        help="Games per pairing, even (each opening is played from both sides), at most 100,000.",
    ),
    jobs: int | None = typer.Option(
        None, "--jobs", "-j", metavar="N", help="Local worker processes (default: all cores)."
    ),
    cluster: str | None = typer.Option(
        None,
        "--cluster",
        metavar="ADDRESS",
        help="Address of a Dask scheduler, e.g. tcp://host:8786, to play the games there.",
    ),
    openings: Path | None = typer.Option(
        None, "--openings", metavar="FILE", help="JSON file: a list of positions or move lists from the start."
    ),
    random_plies: int | None = typer.Option(
        None, "--random-plies", metavar="N", help="Openings of K random plies from the start (seeded)."
    ),
    pits: int = typer.Option(6, "--pits", metavar="N", help="Pits per side (1-12)."),
    seeds: int = typer.Option(4, "--seeds", metavar="N", help="Seeds per pit at the start (1-15)."),
    empty_capture: bool = typer.Option(False, "--empty-capture", help="Capture even when the opposite pit is empty."),
    pie_rule: bool = typer.Option(False, "--pie-rule", help="Player 1 may swap sides after the first move."),
    db: str | None = typer.Option(
        None,
        "--db",
        metavar="FILE|URL",
        help="Game library to store the games and resume from: a SQLite file or postgresql://USER@HOST/DATABASE.",
    ),
    json_file: Path | None = typer.Option(
        None, "--json", metavar="FILE", help="Also write the standings and pairings as JSON to this file."
    ),
    csv_file: Path | None = typer.Option(
        None, "--csv", metavar="FILE", help="Also write the standings as CSV to this file."
    ),
) -> None:
    """Play a round robin, store every game, and print scores and Elo ratings with 95% intervals.

    Run the same command again with the same --db to resume an interrupted match.
    """
    if context.invoked_subcommand is not None:
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from kalah.arena import (
        MAX_GAMES,
        Arena,
        builtin_openings,
        check_cluster,
        check_players,
        load_openings,
        random_openings,
        run_arena,
    )
    from kalah.records import GameLibrary
    from kalah.rules import Variant

    from .options import check_output_path

    check_output_path(json_file, "--json")
    check_output_path(csv_file, "--csv")
    if openings is not None and random_plies is not None:
        fail("give --openings or --random-plies, not both")
    if games < 2 or games % 2 or games > MAX_GAMES:
        fail(
            f"--games must be an even number from 2 to {MAX_GAMES:,} (each opening is played from both sides),"
            f" got {games}"
        )
    if jobs is not None and jobs < 1:
        fail(f"--jobs must be at least 1, got {jobs}")
    variant = Variant(pits=pits, seeds=seeds, empty_capture=empty_capture, pie_rule=pie_rule)
    if len(player) < 2:
        fail(f"an arena needs at least two --player options, got {len(player)}")
    check_players(list(player), variant)  # before the openings: a mistyped player is told at once, not after them
    count = games // 2
    if openings is not None:
        positions = load_openings(openings, variant)
        positions = [positions[i % len(positions)] for i in range(count)]
    elif random_plies is not None:
        positions = random_openings(variant, count, random_plies)
    else:
        positions = builtin_openings(variant, count)
    match = Arena(list(player), variant, games, positions)
    if cluster is not None:
        check_cluster(cluster)  # unreachable: the error alone, before any table, bar or library file
    library = GameLibrary(db)
    console = Console(stderr=True)
    already = match.total_games - match.missing_count(library)
    typer.echo(
        f"arena {match.key}: {plural(len(match.players), 'player')}, {variant.name},"
        f" {plural(games, 'game')} per pairing, {plural(match.total_games, 'game')}; library {library.where}"
        + (f" ({already} already played)" if already else ""),
        err=True,
    )
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=False,
    )
    try:
        with progress:
            bar = progress.add_task("games", total=match.total_games, completed=already)
            run_arena(
                match,
                library,
                jobs=jobs,
                cluster=cluster,
                progress=lambda done, total, task, result: progress.update(bar, completed=already + done),
            )
    except KeyboardInterrupt:
        stored = match.total_games - match.missing_count(library)
        interrupted(
            f"{stored} of the {plural(match.total_games, 'game')} stored in {library.where}; "
            "run the same command again to resume"
        )
    results = match.results(library)
    show_results(results)
    write_results(results, json_file, csv_file)


def player_labels(specs: list[str]) -> dict[str, str]:
    """Short names for the tables: each player's own name (``pvs (0.1s, strong)``), numbered where two
    players share one; the legend below the tables gives every spec in full."""
    from kalah.players import make_player

    names = {}
    for spec in specs:
        try:
            names[spec] = make_player(spec).name
        except Exception:
            names[spec] = spec
    counts: dict[str, int] = {}
    for name in names.values():
        counts[name] = counts.get(name, 0) + 1
    seen: dict[str, int] = {}
    labels = {}
    for spec in specs:
        name = names[spec]
        if counts[name] > 1:
            seen[name] = seen.get(name, 0) + 1
            name = f"{name} #{seen[name]}"
        labels[spec] = name
    return labels


def show_results(results) -> None:
    """Print an arena's standings and pairings as tables: players by name, with a legend of their specs
    below, and the forfeits (games lost by breaking the rules, failing or running out of time) with their
    reasons."""
    from rich.console import Console
    from rich.table import Table

    console = Console()
    specs = [row.spec for row in results.players]
    label = player_labels(specs)
    # A long name wraps over lines rather than vanishing into "…"; the number columns always keep their width.
    widest = min(20, max(len(name) for name in label.values()))
    standing_width = max(8, min(widest, console.width - 68))
    pair_width = max(8, min(widest, (console.width - 50) // 2))
    forfeited = sum(row.forfeits for row in results.players)
    note = f", {forfeited} lost by forfeit" if forfeited else ""
    table = Table(title=f"Arena: {results.games_played} of {results.games_planned} games{note}")
    for column in ("player", "games", "wins", "draws", "losses", "score", "Elo", "95% interval"):
        table.add_column(
            column,
            justify="left" if column == "player" else "right",
            no_wrap=column != "player",
            min_width=standing_width if column == "player" else None,
        )
    for row in results.players:
        table.add_row(
            label[row.spec],
            str(row.games),
            str(row.wins),
            str(row.draws),
            str(row.losses),
            f"{100 * row.score:.1f}%",
            f"{row.rating.elo:+.0f}",
            f"{row.rating.low:+.0f} .. {row.rating.high:+.0f}",
        )
    console.print(table)
    pairs = Table(title="Pairings (wins, draws, losses of the first)")
    for column in ("first", "second", "games", "wins", "draws", "losses", "score"):
        pairs.add_column(
            column,
            justify="left" if column in ("first", "second") else "right",
            no_wrap=column not in ("first", "second"),
            min_width=pair_width if column in ("first", "second") else None,
        )
    for pair in results.pairs:
        pairs.add_row(
            label.get(pair.first, pair.first),
            label.get(pair.second, pair.second),
            str(pair.games),
            str(pair.wins),
            str(pair.draws),
            str(pair.losses),
            f"{100 * pair.score:.1f}%",
        )
    console.print(pairs)
    if results.forfeits:
        # A table of its own (the standings are as wide as a terminal allows): who forfeited, how often, why.
        why = Table(title="Forfeits (games lost by breaking the rules, failing or running out of time)")
        why.add_column("player", min_width=pair_width)
        why.add_column("games", justify="right", no_wrap=True)
        why.add_column("reason")
        for spec, reason, games in results.forfeits:
            why.add_row(label.get(spec, spec), str(games), reason)
        console.print(why)
    console.print("Players:")
    for spec in specs:
        console.print(f"  {label[spec]}: {spec}", soft_wrap=True, markup=False, highlight=False)


def write_results(results, json_file: Path | None, csv_file: Path | None) -> None:
    """The standings (and for JSON the pairings) in files, written atomically."""
    import csv
    import io
    import json

    from kalah.records import write_atomic

    if json_file is not None:
        write_atomic(json_file, json.dumps(results.to_dict(), indent=2) + "\n")
    if csv_file is not None:
        text = io.StringIO()
        writer = csv.writer(text)
        writer.writerow(
            ["player", "games", "wins", "draws", "losses", "forfeits", "score", "elo", "elo_low", "elo_high"]
        )
        for row in results.players:
            writer.writerow(
                [
                    row.spec,
                    row.games,
                    row.wins,
                    row.draws,
                    row.losses,
                    row.forfeits,
                    f"{row.score:.4f}",
                    f"{row.rating.elo:.1f}",
                    f"{row.rating.low:.1f}",
                    f"{row.rating.high:.1f}",
                ]
            )
        write_atomic(csv_file, text.getvalue())
