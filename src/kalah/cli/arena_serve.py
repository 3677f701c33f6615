"""``kalah arena serve``: the class server for KGP agents (practice pairing, tournaments, web pages)."""

from __future__ import annotations

from pathlib import Path

import typer

from kalah.cli.serve import bind_problem

from .exit import fail

LOG_LEVELS = ("debug", "info", "warning", "error")


def serve(
    host: str = typer.Option(
        "127.0.0.1", "--host", metavar="ADDRESS", help="Address to listen on (0.0.0.0: every interface, for a class)."
    ),
    port: int = typer.Option(
        8080,
        "--port",
        metavar="PORT",
        help="Port of the web pages, the JSON API and the WebSocket at /socket (0: any free port).",
    ),
    kgp_port: int = typer.Option(
        2671, "--kgp-port", metavar="PORT", help="Port for agents over plain TCP (0: any free port)."
    ),
    db: str | None = typer.Option(
        None,
        "--db",
        metavar="FILE|URL",
        help="Game library for the games, agents and results: a SQLite file or postgresql://USER@HOST/DATABASE.",
    ),
    pits: int = typer.Option(6, "--pits", metavar="N", help="Pits per side (1-12)."),
    seeds: int = typer.Option(6, "--seeds", metavar="N", help="Seeds per pit at the start (1-15)."),
    move_time: float = typer.Option(
        5.0,
        "--move-time",
        metavar="SECONDS",
        help="Seconds an agent has for a move; then a random move is played for it.",
    ),
    max_per_address: int = typer.Option(
        64,
        "--max-per-address",
        metavar="N",
        help="Open connections allowed from one address (an IPv6 client: its /64), KGP and web pages each.",
    ),
    new_tokens_per_minute: int = typer.Option(
        60,
        "--new-tokens-per-minute",
        metavar="N",
        help="Tokens never seen before allowed from one address a minute (against guessing).",
    ),
    new_anonymous_per_minute: int = typer.Option(
        60,
        "--new-anonymous-per-minute",
        metavar="N",
        help="New anonymous agents (no token) allowed from one address a minute.",
    ),
    tournament: bool = typer.Option(
        False, "--tournament", help="Play a tournament instead of practice (see --field, --stage)."
    ),
    field_size: int = typer.Option(
        2, "--field", metavar="N", help="Tournament: agents (with tokens) to wait for before it starts."
    ),
    wait: float = typer.Option(
        60.0, "--wait", metavar="SECONDS", help="Tournament: seconds to wait for the field once one agent is there."
    ),
    stage: list[str] = typer.Option(
        [],
        "--stage",
        metavar="PITSxSEEDS",
        help="Tournament: a round-robin stage PITSxSEEDS (repeatable; default 6x6).",
    ),
    games_per_pairing: int = typer.Option(
        2, "--games-per-pairing", metavar="N", help="Tournament: games per pair and stage (even: both sides)."
    ),
    swiss: int = typer.Option(
        0,
        "--swiss",
        metavar="ROUNDS",
        help="Tournament: Swiss rounds a stage instead of a round robin (0: round robin).",
    ),
    standings: Path | None = typer.Option(
        None, "--standings", metavar="PATH", help="Tournament: write the final standings to PATH.csv and PATH.json."
    ),
    event: str = typer.Option(
        "tournament",
        "--event",
        metavar="NAME",
        help="Tournament: its name in the database; started again with the same --db and --event, it resumes.",
    ),
    agents: Path | None = typer.Option(
        None,
        "--agents",
        metavar="DIR",
        help="Build and run the submitted agents in DIR (a folder with an agent.toml each), sandboxed.",
    ),
    agent_memory: int = typer.Option(2048, "--agent-memory", metavar="MB", help="A submitted agent's memory."),
    agent_cpu: int = typer.Option(
        3600, "--agent-cpu", metavar="SECONDS", help="CPU time of each of a submitted agent's processes."
    ),
    agent_processes: int = typer.Option(
        64, "--agent-processes", metavar="N", help="Processes and threads of a submitted agent."
    ),
    agent_build_time: float = typer.Option(
        300.0, "--agent-build-time", metavar="SECONDS", help="Time for a submitted agent's build."
    ),
    grade: float = typer.Option(
        0.0,
        "--grade",
        metavar="SECONDS",
        help="Grade every finished game's moves against perfect play (boards of up to 8 pits), analysing each "
        "position this long (0: no grading).",
    ),
    show_anonymous: bool = typer.Option(
        False, "--show-anonymous", help="Show agents without a token on the leaderboard (left off by default)."
    ),
    log_level: str = typer.Option(
        "info", "--log-level", metavar="LEVEL", help="What the log says: debug, info, warning or error."
    ),
    log_file: Path | None = typer.Option(
        None, "--log-file", metavar="FILE", help="Write the log to FILE (appended) instead of standard error."
    ),
) -> None:
    """Serve KGP agents: practice pairing with built-in bots from random to strong, or a tournament.

    Agents connect over TCP (--kgp-port) or a WebSocket (ws://HOST:PORT/socket),
    identified by a token (kept hashed) and a name, or are run by the server
    from their submissions (--agents DIR). Pages at http://HOST:PORT/.
    """
    import asyncio

    from kalah.classroom import (
        Agents,
        ManifestError,
        SandboxError,
        SandboxLimits,
        ServerConfig,
        SessionLimits,
        read_submissions,
    )
    from kalah.classroom import serve as run
    from kalah.classroom.tournament import Tournament, parse_stage
    from kalah.records import LibraryError
    from kalah.rules import Variant

    for name, value in (("--port", port), ("--kgp-port", kgp_port)):
        if not 0 <= value <= 65535:
            fail(f"{name} must be a port number (0-65535), got {value}")
    if not 0 < move_time <= 600:
        fail(f"--move-time must be more than 0 and at most 600 seconds, got {move_time}")
    if max_per_address < 1:
        fail(f"--max-per-address must be at least 1, got {max_per_address}")
    if new_tokens_per_minute < 1:
        fail(f"--new-tokens-per-minute must be at least 1, got {new_tokens_per_minute}")
    if new_anonymous_per_minute < 1:
        fail(f"--new-anonymous-per-minute must be at least 1, got {new_anonymous_per_minute}")
    if field_size < 2:
        fail(f"--field must be at least 2, got {field_size}")
    if games_per_pairing < 2 or games_per_pairing % 2:
        fail(f"--games-per-pairing must be a positive even number, got {games_per_pairing}")
    if swiss < 0:
        fail(f"--swiss must be 0 or more, got {swiss}")
    if wait < 0:
        fail(f"--wait must be 0 or more, got {wait}")
    if not tournament:
        for given, name in ((stage, "--stage"), (swiss, "--swiss"), (standings, "--standings")):
            if given:
                fail(f"{name} needs --tournament")
    if not 0 <= grade <= 60:
        fail(f"--grade must be 0 to 60 seconds a position, got {grade}")
    if log_level.lower() not in LOG_LEVELS:
        fail(f"--log-level must be one of {', '.join(LOG_LEVELS)}, got {log_level!r}")
    for name, value in (("--agent-memory", agent_memory), ("--agent-cpu", agent_cpu)):
        if value < 1:
            fail(f"{name} must be at least 1, got {value}")
    if agent_processes < 4:
        fail(f"--agent-processes must be at least 4 (the sandbox and its relay count too), got {agent_processes}")
    if agent_build_time <= 0:
        fail(f"--agent-build-time must be more than 0 seconds, got {agent_build_time}")
    if not event.strip() or len(event) > 100:
        fail(f"--event must be a name of 1 to 100 characters, got {event!r}")
    if log_file is not None and not log_file.parent.is_dir():
        fail(f"--log-file: no directory {log_file.parent}")
    submitted = None
    if agents is not None:
        try:
            from kalah.classroom.sandbox import bwrap

            bwrap()
            manifests = read_submissions(agents)
        except (ManifestError, SandboxError) as error:
            fail(str(error))
        submitted = Agents(
            manifests,
            None,
            SandboxLimits(
                memory_mb=agent_memory,
                cpu_seconds=agent_cpu,
                processes=agent_processes,
                build_seconds=agent_build_time,
            ),
        )
    if port and port == kgp_port:
        fail(f"--port and --kgp-port must differ, both are {port}")
    # Both listeners are tried before anything starts: uvicorn, finding its port taken, exits the process
    # from inside the event loop (a traceback and exit 3, not one line).
    for name, value in (("--port", port), ("--kgp-port", kgp_port)):
        problem = bind_problem(host, value, name)
        if problem:
            fail(problem)
    variant = Variant(pits=pits, seeds=seeds)
    stages = [parse_stage(text) for text in stage] or [variant]
    if standings is not None and not standings.parent.is_dir():
        fail(f"--standings: no directory {standings.parent}")
    config = ServerConfig(
        variant=variant,
        move_time=move_time,
        show_anonymous=show_anonymous,
        grade_seconds=grade,
        limits=SessionLimits(
            max_per_address=max_per_address,
            new_tokens_per_minute=new_tokens_per_minute,
            new_anonymous_per_minute=new_anonymous_per_minute,
        ),
    )
    play = None
    if tournament:
        play = Tournament(
            field_size, stages, games_per_pairing, wait=wait, swiss_rounds=swiss, standings=standings, event=event
        )

    def ready(listening, server) -> None:
        typer.echo(
            f"kalah arena serve: pages http://{listening.host}:{listening.port}/, WebSocket "
            f"ws://{listening.host}:{listening.port}/socket, TCP {listening.host}:{listening.kgp_port}; "
            f"{'tournament' if tournament else 'practice'}, {variant.name}, {move_time:g} s a move; "
            f"library {server.library.where}" + (f"; {len(submitted.manifests)} submitted agents" if submitted else ""),
            err=True,
        )

    from kalah.classroom.log import configure
    from kalah.web.connections import raise_file_limit, sigterm_as_ctrl_c

    configure(log_level, log_file)
    raise_file_limit()  # slow clients are closed by the timeouts; until then each holds a file
    try:
        with sigterm_as_ctrl_c():  # kill, systemctl stop: the same clean stop, and exit code 0
            asyncio.run(run(config, db, host, port, kgp_port, ready=ready, tournament=play, agents=submitted))
    except OSError as error:
        fail(f"cannot listen: {error.strerror or error}")
    except LibraryError as error:
        fail(str(error))
    except KeyboardInterrupt:
        typer.echo("kalah arena serve: stopped", err=True)
