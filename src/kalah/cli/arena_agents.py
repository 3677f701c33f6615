"""``kalah arena agents``: check submissions, and the teacher's clean-up of a class server's agents."""

from __future__ import annotations

from pathlib import Path

import typer

from .exit import fail

DB_OPTION = typer.Option(..., "--db", metavar="FILE", help="The class server's game library (its --db).")


def register(group: typer.Typer) -> None:
    """Add ``kalah arena agents`` to ``kalah arena``."""
    agents = typer.Typer(help="Check submitted agents; list, hide, rename, merge or remove a class server's agents.")
    agents.command("check")(check)
    agents.command("list")(list_command)
    agents.command("hide")(hide)
    agents.command("show")(show)
    agents.command("rename")(rename)
    agents.command("merge")(merge)
    agents.command("remove")(remove)
    group.add_typer(agents, name="agents")


def check(
    folder: Path = typer.Argument(..., metavar="DIR", help="The submissions: a folder with an agent.toml each."),
    build: bool = typer.Option(True, "--build/--no-build", help="Also build each agent in its sandbox."),
    build_time: float = typer.Option(300.0, "--build-time", metavar="SECONDS", help="Time for each build."),
) -> None:
    """Check the manifests of the submissions in DIR (and build each one in the sandbox, as the server would).

    A bad manifest is one line and exit code 2; a failed build is reported, and the exit code is 1.
    """
    import asyncio

    from kalah.classroom import ManifestError, SandboxError, SandboxLimits, read_submissions
    from kalah.classroom.check import build_all

    if build_time <= 0:
        fail(f"--build-time must be more than 0 seconds, got {build_time}")
    try:
        manifests = read_submissions(folder)
    except ManifestError as error:
        fail(str(error))
    if not build:
        for manifest in manifests:
            typer.echo(f"{manifest.name}: manifest ok")
        return
    try:
        results = asyncio.run(build_all(manifests, SandboxLimits(build_seconds=build_time)))
    except SandboxError as error:
        fail(str(error))
    for manifest, problem in results:
        typer.echo(f"{manifest.name}: {problem or 'built'}")
    if any(problem for _, problem in results):
        raise typer.Exit(1)


def _book(db: Path):
    from kalah.classroom import AgentBook

    if not db.is_file():
        fail(f"--db: no file {db}")
    return AgentBook(db)


def list_command(
    db: Path = DB_OPTION,
    page: int = typer.Option(1, "--page", metavar="N", help="Which 50 agents (1: the first)."),
) -> None:
    """List the agents: id, name, kind, games, and whether anonymous or hidden."""
    from kalah.classroom.moderation import list_agents

    if page < 1:
        fail(f"--page must be at least 1, got {page}")
    rows = list_agents(_book(db))
    shown = rows[(page - 1) * 50 : page * 50]
    width = max([len(row["name"]) for row in shown] + [4])
    typer.echo(f"{'id':>6}  {'name':<{width}}  {'kind':<5}  {'games':>6}  notes")
    for row in shown:
        notes = ", ".join(word for word in ("anonymous", "hidden") if row[word])
        typer.echo(f"{row['id']:>6}  {row['name']:<{width}}  {row['kind']:<5}  {row['games']:>6}  {notes}")
    if len(rows) > page * 50:
        typer.echo(f"(page {page} of {-(-len(rows) // 50)}: --page {page + 1} for more)")


def _changed(work) -> None:
    from kalah.classroom.moderation import ModerationError

    try:
        typer.echo(work())
    except ModerationError as error:
        fail(str(error))


def hide(
    agent_id: int = typer.Argument(..., metavar="ID"),
    db: Path = DB_OPTION,
) -> None:
    """Hide an agent: off the leaderboard, and its games count for nobody's rating."""
    from kalah.classroom import moderation

    _changed(lambda: f"hid {moderation.hide(_book(db), agent_id)} (#{agent_id}); ratings recomputed without it")


def show(
    agent_id: int = typer.Argument(..., metavar="ID"),
    db: Path = DB_OPTION,
) -> None:
    """Show a hidden agent again."""
    from kalah.classroom import moderation

    _changed(lambda: f"showing {moderation.hide(_book(db), agent_id, hidden=False)} (#{agent_id}) again")


def rename(
    agent_id: int = typer.Argument(..., metavar="ID"),
    name: str = typer.Argument(..., metavar="NAME"),
    db: Path = DB_OPTION,
) -> None:
    """Rename an agent (not to a name another token holds)."""
    from kalah.classroom import moderation

    _changed(lambda: f"renamed {moderation.rename(_book(db), agent_id, name)} (#{agent_id}) to {name}")


def merge(
    source: int = typer.Argument(..., metavar="FROM"),
    target: int = typer.Argument(..., metavar="INTO"),
    db: Path = DB_OPTION,
) -> None:
    """Merge agent FROM into agent INTO: its results become INTO's, and FROM is removed."""
    from kalah.classroom import moderation

    def work() -> str:
        names = moderation.merge(_book(db), source, target)
        return f"merged {names[0]} (#{source}) into {names[1]} (#{target}); ratings recomputed"

    _changed(work)


def remove(
    agent_id: int = typer.Argument(..., metavar="ID"),
    db: Path = DB_OPTION,
) -> None:
    """Remove an agent and its results (its games stay in the game library)."""
    from kalah.classroom import moderation

    def work() -> str:
        name, gone = moderation.remove(_book(db), agent_id)
        return f"removed {name} (#{agent_id}) and {gone} results; ratings recomputed"

    _changed(work)
