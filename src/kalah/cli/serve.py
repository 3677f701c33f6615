"""``kalah serve``: the browser board on a local web server."""

from __future__ import annotations

import threading
import webbrowser
from pathlib import Path

import typer


def register(app: typer.Typer) -> None:
    @app.command()
    def serve(
        host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on."),
        port: int = typer.Option(8000, "--port", help="Port to listen on."),
        db: Path = typer.Option(None, "--db", help="The game library (SQLite); default: games.sqlite in the user's data directory."),
        open_browser: bool = typer.Option(False, "--open", help="Open the board in a web browser."),
        workers: int = typer.Option(2, "--workers", min=1, max=16, help="Worker processes for computer moves and analysis."),
    ) -> None:
        """Play, watch, analyse and replay games in the browser; every game is kept in the library."""
        import uvicorn

        from kalah.cli import fail
        from kalah.records import GameLibrary, default_library_path
        from kalah.web import create_app

        if not 0 < port < 65536:
            fail(f"--port must be between 1 and 65535, got {port}")
        path = db or default_library_path()
        GameLibrary(path)  # a library that cannot be opened is a one-line error (KalahError), before the server starts
        application = create_app(path, workers=workers)
        url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '') else host}:{port}/"
        typer.echo(f"kalah: the board is at {url} (library {path}); Ctrl-C stops the server")
        if open_browser:
            threading.Timer(1.0, webbrowser.open, args=(url,)).start()
        uvicorn.run(application, host=host, port=port, log_level="warning")
