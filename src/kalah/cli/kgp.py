"""``kalah kgp``: play any player on a Kalah Game Protocol server (TCP or WebSocket)."""

from __future__ import annotations

import typer

from kalah.rules.wording import plural

from .exit import fail


def register(app: typer.Typer) -> None:
    """Add ``kalah kgp`` to the command line."""
    app.command("kgp")(kgp)


def _summary(report) -> str:
    """Why the run stopped and what it played, once: ``played 3 games: won 2, lost 1 (84 decisions)``.
    When the games asked for were played, that is the reason, and the count is not said twice."""
    known = [f"{kind} {report.outcomes[kind]}" for kind in ("won", "drew", "lost") if report.outcomes.get(kind)]
    unknown = report.games - sum(report.outcomes.values())
    if known and unknown:
        known.append(f"{unknown} with no result told")  # the opponent ended it on a server that says none
    played = f"played {plural(report.games, 'game')}" + (f": {', '.join(known)}" if known else "")
    decisions = plural(report.decisions, "decision")
    return f"{played} ({decisions})" if report.all_played else f"{report.reason} ({played}; {decisions})"


def kgp(
    server: str = typer.Argument(
        ..., metavar="SERVER", help="host:port for TCP (go-kgp listens on 2671), or a ws:// or wss:// URL."
    ),
    player: str = typer.Option(
        "pvs:time=1", "--player", "-p", metavar="SPEC", help="The player spec that plays, e.g. pvs:depth=12."
    ),
    name: str | None = typer.Option(
        None, "--name", envvar="KGP_NAME", metavar="NAME", help="The agent's name (env KGP_NAME)."
    ),
    authors: str | None = typer.Option(
        None, "--authors", envvar="KGP_AUTHORS", metavar="TEXT", help="Its authors (env KGP_AUTHORS)."
    ),
    description: str | None = typer.Option(
        None, "--description", envvar="KGP_DESCRIPTION", metavar="TEXT", help="What it does (env KGP_DESCRIPTION)."
    ),
    token: str | None = typer.Option(
        None,
        "--token",
        envvar="KGP_TOKEN",
        show_default=False,
        metavar="SECRET",
        help="Secret that keeps the agent's identity and rating (env KGP_TOKEN; never printed).",
    ),
    games: int | None = typer.Option(
        None, "--games", "-n", metavar="N", help="Stop after this many games (default: play on)."
    ),
    mode: str = typer.Option(
        "freeplay",
        "--mode",
        metavar="MODE",
        help="freeplay (play moves) or eval (answer each state with a value).",
    ),
    retries: int = typer.Option(
        8,
        "--retries",
        metavar="N",
        help="Times to try again after a failed attempt to connect (in a row) before giving up; 0: give up at once.",
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Say only why it stopped."),
) -> None:
    """Connect to a KGP server and play freeplay with PLAYER: each finished search depth sends a better move.

    Reconnects with growing pauses when the connection drops, and ends saying why.
    """
    from kalah.kgp import ClientOptions, KgpError, parse_server, run_client
    from kalah.players import make_player

    try:
        parse_server(server)
    except KgpError as error:
        fail(str(error))
    if games is not None and games < 1:
        fail(f"--games must be at least 1, got {games}")
    if mode not in ("freeplay", "eval"):
        fail(f"--mode must be freeplay or eval, got {mode!r}")
    if retries < 0:
        fail(f"--retries must be 0 or more, got {retries}")
    if token is not None and not token.strip():
        fail("--token must not be empty")
    chosen = make_player(player)
    if not getattr(chosen, "is_computer", False):
        fail(f"player {player!r} needs a person at a board; a KGP agent plays computer players only")
    options = ClientOptions(
        server,
        name=name,
        authors=authors,
        description=description,
        token=token,
        games=games,
        mode=mode,
        retries=retries,
    )

    def events(kind: str, text: str) -> None:
        if not quiet or kind == "retry":
            typer.echo(f"kalah kgp: {text}", err=True)

    try:
        report = run_client(chosen, options, events)
    except KeyboardInterrupt:
        typer.echo("kalah kgp: stopped: interrupted", err=True)
        raise typer.Exit(130) from None
    if report.refused:  # the URL is wrong or the server turns this client away: bad input, not a lost connection
        fail(report.reason)
    typer.echo(f"kalah kgp: stopped: {_summary(report)}", err=True)
    if not report.ok:
        raise typer.Exit(1)
