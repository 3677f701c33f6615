"""``kalah serve``: the browser board on a local web server."""

from __future__ import annotations

import errno
import ipaddress
import socket
import threading
import webbrowser
from typing import Any

import typer

#: Addresses that mean "every interface".
_ANY = ("0.0.0.0", "::", "")


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def exposure_warning(
    host: str, port: int, allow_exec: bool, allowed_hosts: list[str], *, allow_delete: bool = False
) -> str | None:
    """What a server bound to ``host`` exposes to other machines, or None on loopback."""
    if _is_loopback(host):
        return None
    lines = [
        f"kalah: warning: listening on {host or '*'}:{port}, reachable from other machines:"
        " anyone who reaches it can play, read and import games in the library and use the engines' CPU time"
        + ("" if allow_delete else " (games are deleted only from this machine)")
    ]
    if allow_delete:
        lines.append("kalah: warning: --allow-delete: anyone who reaches it can delete any game in the library")
    if allow_exec:
        lines.append(
            "kalah: warning: --allow-exec: anyone who reaches it can run any program on this machine"
            " as this user (exec: players) and read files (replay:file=)"
        )
    if host in _ANY and not allowed_hosts:
        lines.append(
            "kalah: warning: only requests addressed to localhost are answered; add the name or address"
            " people type in their browser with --allowed-host NAME (or --allowed-host '*' for any)"
        )
    return "\n".join(lines)


def forwarded_ips_problem(text: str) -> str | None:
    """Why ``--forwarded-allow-ips`` is not a comma-separated list of addresses, networks or '*', or None.
    uvicorn keeps an item it cannot read as a literal client name, which no real proxy matches: a typo
    would silently trust nobody (or, with a name, whatever sends it)."""
    items = [item.strip() for item in text.split(",")]
    if items == [""]:
        return None  # no proxy is trusted
    for item in items:
        if item == "*":
            continue
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError:
            return f"--forwarded-allow-ips {item!r}: not an IP address, a network (10.0.0.0/8) or '*'"
    return None


def bind_problem(host: str, port: int, option: str = "--port") -> str | None:
    """Why the server could not listen on ``host``:``port`` (a name that does not resolve, a port in use,
    an address not of this machine), or None. Checked by binding a socket and closing it at once, as
    uvicorn binds (with SO_REUSEADDR), so that the announcement of the address is never a lie.
    ``option`` is the command's option that gives the port, named in the advice."""
    try:
        addresses = socket.getaddrinfo(host.strip("[]") or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as error:
        return f"--host {host}: not an address or a name that resolves ({getattr(error, 'strerror', None) or error})"
    family, kind, protocol, _, address = addresses[0]
    with socket.socket(family, kind, protocol) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                return f"port {port} is already in use on {host}; give another with {option}"
            if error.errno in (errno.EACCES, errno.EPERM):
                return f"port {port} needs privileges this user lacks; give one from 1024 up with {option}"
            return f"cannot listen on {host}:{port}: {error.strerror or error}"
    return None


def register(app: typer.Typer) -> None:
    """Add ``kalah serve`` to the command line."""

    @app.command()
    def serve(
        host: str = typer.Option(
            "127.0.0.1", "--host", metavar="ADDRESS", help="Address to listen on (0.0.0.0: every interface)."
        ),
        port: int = typer.Option(8000, "--port", metavar="PORT", help="Port to listen on."),
        db: str = typer.Option(
            None,
            "--db",
            metavar="FILE|URL",
            help="The game library: a SQLite file (default: games.sqlite in the user's data directory; one server"
            " at a time) or a PostgreSQL database, postgresql://USER@HOST/DATABASE (any number of servers).",
        ),
        open_browser: bool = typer.Option(False, "--open", help="Open the board in a web browser."),
        workers: int = typer.Option(
            2, "--workers", min=1, max=16, metavar="N", help="Worker processes for computer moves and analysis."
        ),
        allow_exec: bool = typer.Option(
            False,
            "--allow-exec",
            help="Let clients name players that run programs or read files on this machine (exec:, replay:file=)."
            " Anyone who can reach the server can then run any command as you: only on a trusted network.",
        ),
        allow_delete: bool = typer.Option(
            False,
            "--allow-delete",
            help="Let clients of other machines delete games (by default only a browser on this machine may):"
            " anyone who can reach the server can then empty the library.",
        ),
        allowed_host: list[str] = typer.Option(
            None,
            "--allowed-host",
            metavar="NAME",
            help="A name or address the server answers to besides localhost (repeatable; '*' for any).",
        ),
        max_move_seconds: float = typer.Option(
            5.0,
            "--max-move-seconds",
            metavar="SECONDS",
            help="Engine time per computer move, whatever the player's spec asks (a perfect or pvs:time=60 player"
            " thinks at most this long).",
        ),
        max_library_mb: int = typer.Option(
            2048,
            "--max-library-mb",
            metavar="MB",
            help="New games and imports are refused (507) once the library file is this large.",
        ),
        connections_per_address: int = typer.Option(
            64,
            "--client-connections",
            metavar="N",
            help="Connections one client address may hold open (an IPv6 client: its /64). Behind a NAT or a"
            " proxy a whole class is one address: raise it.",
        ),
        games_per_minute: int = typer.Option(
            60,
            "--games-per-minute",
            metavar="N",
            help="New games one client address may store a minute (imports: half as many).",
        ),
        forwarded_allow_ips: str = typer.Option(
            "127.0.0.1",
            "--forwarded-allow-ips",
            metavar="ADDRESSES",
            help="Addresses of reverse proxies whose X-Forwarded-For and X-Forwarded-Proto are believed (comma"
            " separated): the per-address limits then count the people behind the proxy (docs/deploy.md).",
        ),
    ) -> None:
        """Play, watch, analyse and replay games in the browser; every game is kept in the library."""
        import uvicorn

        from kalah.records import GameLibrary
        from kalah.records.claim import claim_library, describe_holder
        from kalah.web import LOOPBACK_HOSTS, create_app
        from kalah.web.connections import HttpConnectionLimits, raise_file_limit, server_config, sigterm_as_ctrl_c

        from .exit import fail

        if not 0 < port < 65536:
            fail(f"--port must be between 1 and 65535, got {port}")
        if not 0.05 <= max_move_seconds <= 600:
            fail(f"--max-move-seconds must be from 0.05 to 600, got {max_move_seconds:g}")
        if not 1 <= max_library_mb <= 10**7:
            fail(f"--max-library-mb must be from 1 to 10000000, got {max_library_mb}")
        if not 1 <= connections_per_address <= 100_000:
            fail(f"--client-connections must be from 1 to 100000, got {connections_per_address}")
        if not 1 <= games_per_minute <= 1_000_000:
            fail(f"--games-per-minute must be from 1 to 1000000, got {games_per_minute}")
        problem = forwarded_ips_problem(forwarded_allow_ips)
        if problem:
            fail(problem)
        extra_hosts = [name.strip().lower() for name in allowed_host or []]
        for name in extra_hosts:
            # An empty name was dropped in silence, and one with a space or a slash (a URL) never matches
            # a Host header: either way the server did not answer to what the user meant.
            if not name or any(char.isspace() or char in "/\\" for char in name):
                fail(f"--allowed-host {name!r}: a host name or address, without spaces, scheme or path")
            if "*" in name[1:] or (name.startswith("*") and name != "*" and not name.startswith("*.")):
                fail(f"--allowed-host {name!r}: a name, an address, '*.example.org' or '*'")
        hosts = list(LOOPBACK_HOSTS) + extra_hosts
        if host not in _ANY and not _is_loopback(host):
            hosts.append(f"[{host}]" if ":" in host else host)  # the address it listens on is a name it answers to
        problem = bind_problem(host, port)
        if problem:
            fail(problem)
        # A library that cannot be opened, or that another server holds, is one line before the server starts;
        # without --db the user's own library is made in a folder of its own, also on the first run of a new
        # machine. The hold lasts until this process ends (the system releases it however it ends).
        shown = "127.0.0.1" if host in _ANY else f"[{host}]" if ":" in host else host
        url = f"http://{shown}:{port}/"
        opened = GameLibrary(db, busy_timeout=5)
        claim = claim_library(opened.database, "board server", describe_holder("kalah serve", url))
        where = opened.where
        opened.close()  # the server opens its own: this one would stay open until the garbage collector's turn
        application = create_app(
            db if db is not None else opened.path,
            workers=workers,
            allow_exec=allow_exec,
            allow_delete=allow_delete,
            allowed_hosts=hosts,
            move_seconds=max_move_seconds,
            max_library_bytes=max_library_mb * 2**20,
            games_per_minute=games_per_minute,
            imports_per_minute=max(1, games_per_minute // 2),
            claim=False,  # held here, for the life of the process
        )
        warning = exposure_warning(host, port, allow_exec, extra_hosts, allow_delete=allow_delete)
        if warning:
            typer.echo(warning, err=True)
        server_ready = threading.Event()
        threading.Thread(target=_announce, args=(server_ready, url, where, open_browser), daemon=True).start()
        raise_file_limit()  # slow clients are closed by the timeouts; until then each holds a file
        server = uvicorn.Server(
            server_config(application, host, port, HttpConnectionLimits(per_address=connections_per_address))
        )
        server.config.forwarded_allow_ips = forwarded_allow_ips  # read when the server starts (Config.load)
        _tell_when_started(server, server_ready)
        try:
            with sigterm_as_ctrl_c():  # kill, systemctl stop: the same clean stop, and exit code 0
                server.run()
        except KeyboardInterrupt:
            pass
        finally:
            claim.release()
        if not server.started:  # uvicorn said why (the port is taken, say)
            raise typer.Exit(3)
        typer.echo("kalah serve: stopped", err=True)


def _tell_when_started(server: Any, ready: threading.Event) -> None:
    """Set ``ready`` once ``server`` answers: uvicorn sets ``started`` after its sockets listen and the
    application has started, which the server's own startup hook cannot see from inside."""
    started = server.startup

    async def startup(sockets: Any = None) -> None:
        await started(sockets=sockets)
        if server.started:
            ready.set()

    server.startup = startup


def _announce(ready: threading.Event, url: str, where: str, open_browser: bool) -> None:
    """Say where the board is once the server answers there (a browser opened earlier found nothing)."""
    ready.wait()
    typer.echo(f"kalah: the board is at {url} (library {where}); Ctrl-C stops the server")
    if open_browser:
        webbrowser.open(url)
