"""A static site of the board: ``kalah site build DIR`` (docs/browser.md).

The pages of ``kalah serve`` (``static/``), marked ``<html data-site="static">``, with what the server gave
them written as files: the board's style (``static/board.json``), the levels and player types
(``static/site.json``), the shipped puzzles (``static/puzzles.json``) and the opening books
(``static/engine/data/``). The engine runs in the page (WebAssembly), the games are kept in the browser
(``static/localapi.js``), so no kalah process is needed: any static file server will do. A web app manifest
and a service worker (``sw.js``, with every file of the site) make it work offline after the first visit;
``_headers`` asks hosts that read it (Netlify, Cloudflare Pages) for the headers that isolate the pages.

Layout::

    DIR/index.html            the board (play, library, replay, review, puzzles)
    DIR/lab/index.html        the lab
    DIR/lab/mcts/index.html   the lab's MCTS page
    DIR/static/...            the modules, styles, the engine and the data files
    DIR/manifest.webmanifest, DIR/sw.js, DIR/_headers

The directory is written whole beside its place and then put there, so that a failed build leaves nothing
half written; a directory that is not empty is replaced only when it holds an earlier site.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import Any

from kalah.book import data_directory as book_directory
from kalah.players import player_types
from kalah.puzzles import shipped as shipped_puzzles
from kalah.rules import KalahError
from kalah.version import __version__

from .levels import LEVELS, default_level

__all__ = ["PAGES", "SiteBuilt", "SiteError", "build_site"]

STATIC = Path(str(files("kalah.web") / "static"))
BOARD_STYLE = Path(str(files("kalah.rules") / "board.json"))
#: The marker of a site this command wrote (in ``static/site.json``): only such a directory is replaced.
SITE_FORMAT = "kalah-site"
#: The pages: where each goes in the site, from which file of ``static/``.
PAGES = {"index.html": "index.html", "lab/index.html": "lab.html", "lab/mcts/index.html": "lab/mcts.html"}
#: Files of ``static/`` a site leaves out: the pages of games between people (they need a server), the pages
#: copied above, and the service worker's source (written at the root).
LEFT_OUT = {"live.html", "live.js", "liveview.js", "lobby.js", "clocktext.js", "live.css"}
LEFT_OUT |= set(PAGES.values()) | {"site/sw.js"}


class SiteError(KalahError):
    """A site that cannot be written where asked."""


@dataclass(frozen=True)
class SiteBuilt:
    """What :func:`build_site` wrote."""

    directory: Path
    """The site's directory."""
    files: int
    """Files written."""
    bytes: int
    """Their size, together."""


def _page(html: str, depth: int) -> str:
    """A page of ``static/`` as the site's page ``depth`` folders below the root: marked static, its addresses
    relative, with the manifest and the service worker's registration."""
    up = "../" * depth or "./"
    html = html.replace('<html lang="en">', '<html lang="en" data-site="static">', 1)
    html = html.replace('"/static/', f'"{up}static/')
    for page, place in (('"/lab/mcts"', f'"{up}lab/mcts/"'), ('"/lab"', f'"{up}lab/"'), ('"/"', f'"{up}"')):
        html = html.replace(f"href={page}", f"href={place}")
    head = (
        f'<link rel="manifest" href="{up}manifest.webmanifest">\n'
        f'<script type="module" src="{up}static/site/offline.js"></script>\n</head>'
    )
    return html.replace("</head>", head, 1)


def _site_json() -> dict[str, Any]:
    """What the pages learn from ``GET /api/info`` on a server: the levels, the player types, the version."""
    return {
        "format": SITE_FORMAT,
        "version": __version__,
        "levels": [{"name": lv.name, "spec": lv.spec, "summary": lv.summary, "available": True} for lv in LEVELS],
        "default_level": default_level().name,
        "player_types": [
            {"name": kind.name, "summary": kind.summary, "options": kind.options}
            for kind in player_types(include_external=False).values()
        ],
    }


def _manifest() -> dict[str, Any]:
    return {
        "name": "Kalah",
        "short_name": "Kalah",
        "description": "Play, analyse and study Kalah in the browser: the engine runs in the page.",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#8a5a2b",
        "icons": [{"src": "static/favicon.svg", "sizes": "any", "type": "image/svg+xml"}],
    }


#: Headers for hosts that read a _headers file: the pages isolated (SharedArrayBuffer: a page stops its engine
#: at once), as kalah serve sends them.
HEADERS = "/*\n  Cross-Origin-Opener-Policy: same-origin\n  Cross-Origin-Embedder-Policy: require-corp\n"


def _write(root: Path, relative: str, data: bytes | str) -> None:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)


def _check_target(directory: Path) -> None:
    """Refuse a target that is a file, or a folder that holds something else than an earlier site."""
    if directory.resolve() in (Path.cwd().resolve(), Path(directory.resolve().anchor)):
        raise SiteError(f"{directory} is the current folder (or the root): give a folder of its own for the site")
    if directory.exists() and not directory.is_dir():
        raise SiteError(f"{directory} is not a folder")
    if directory.is_dir() and any(directory.iterdir()):
        try:
            described = json.loads((directory / "static" / "site.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            described = None
        if not isinstance(described, dict) or described.get("format") != SITE_FORMAT:
            raise SiteError(f"{directory} is not empty and holds no site of kalah: give a new or empty folder")
    parent = directory.resolve().parent
    if not parent.is_dir():
        raise SiteError(f"the folder {parent} does not exist")
    if not os.access(parent, os.W_OK):
        raise SiteError(f"cannot write in the folder {parent}")


def build_site(directory: str | os.PathLike[str]) -> SiteBuilt:
    """Write the static site into ``directory`` (see the module's documentation).

    Raises:
        SiteError: ``directory`` is a file, the current folder, or a folder that is neither empty nor an earlier
            site, or its parent folder is missing or not writable.
    """
    target = Path(directory).resolve()
    _check_target(target)
    parent = target.resolve().parent
    building = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".building", dir=parent))
    try:
        for path in sorted(STATIC.rglob("*")):
            relative = path.relative_to(STATIC).as_posix()
            if path.is_file() and relative not in LEFT_OUT and "__pycache__" not in relative:
                _write(building, f"static/{relative}", path.read_bytes())
        for place, source in PAGES.items():
            _write(building, place, _page((STATIC / source).read_text(encoding="utf-8"), place.count("/")))
        _write(building, "static/board.json", BOARD_STYLE.read_bytes())
        _write(building, "static/site.json", json.dumps(_site_json(), indent=1))
        _write(building, "static/puzzles.json", json.dumps([p.to_dict() for p in shipped_puzzles()]))
        for book in sorted(book_directory().glob("*.book.json.gz")):
            _write(building, f"static/engine/data/{book.name}", book.read_bytes())
        _write(building, "manifest.webmanifest", json.dumps(_manifest(), indent=1))
        _write(building, "_headers", HEADERS)
        site_files = sorted(p.relative_to(building).as_posix() for p in building.rglob("*") if p.is_file())
        cached = ["./", *(name for name in site_files if name != "_headers"), "sw.js"]
        digest = hashlib.sha256()
        for name in site_files:
            digest.update(name.encode() + b"\0" + (building / name).read_bytes())
        worker = (STATIC / "site" / "sw.js").read_text(encoding="utf-8")
        worker = worker.replace('"@VERSION@"', json.dumps(digest.hexdigest()[:16]))
        worker = worker.replace('["@FILES@"]', json.dumps(cached))
        _write(building, "sw.js", worker)
        _replace(target, building)
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    written = [p for p in target.rglob("*") if p.is_file()]
    return SiteBuilt(target, len(written), sum(p.stat().st_size for p in written))


def _replace(target: Path, built: Path) -> None:
    """Put the built folder in the target's place (an earlier site goes, once the new one is there)."""
    if not target.exists():
        built.rename(target)
        return
    old = target.with_name(f".{target.name}.old")
    shutil.rmtree(old, ignore_errors=True)
    target.rename(old)
    built.rename(target)
    shutil.rmtree(old, ignore_errors=True)
