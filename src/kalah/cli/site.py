"""``kalah site build DIR``: the board as a static site, which plays with no kalah process (docs/browser.md)."""

from __future__ import annotations

from pathlib import Path

import typer

from kalah.web.site import SiteError, build_site

from . import fail


def register(app: typer.Typer) -> None:
    """Add ``kalah site build`` to the command line."""
    group = typer.Typer(
        help="The board as a static site: the engine in the page, games kept in the browser.", no_args_is_help=True
    )
    app.add_typer(group, name="site")

    @group.command("build")
    def build(
        directory: Path = typer.Argument(
            ..., metavar="DIR", help="The folder to write the site into (new, empty, or an earlier site)."
        ),
    ) -> None:
        """Write the site into DIR: put it on any static host, or serve it with python -m http.server."""
        try:
            built = build_site(directory)
        except SiteError as error:
            fail(str(error))
            return
        except OSError as error:
            fail(f"cannot write the site into {directory}: {error.strerror or error}")
            return
        typer.echo(f"wrote {built.files} files ({built.bytes / 1e6:.1f} MB) into {built.directory}")
        typer.echo(f"try it: python -m http.server --directory {directory} 8000, then open http://127.0.0.1:8000/")
