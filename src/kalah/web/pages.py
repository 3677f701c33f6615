"""The pages' HTML as served: each with a ``<link rel="modulepreload">`` for every module its script imports.

A page's modules import each other a few levels deep (main.js, game.js, pageboard.js, board.js, geometry.js,
then style.js's fetch of board.json): on a phone's network each level waited a round trip for the one above
it. Told every module at once, the browser fetches them side by side. The links are made from the modules'
own import statements when a page is first served, so a new import needs nothing written by hand.
"""

from __future__ import annotations

import re
from functools import cache
from importlib.resources import files
from pathlib import PurePosixPath

from fastapi.responses import HTMLResponse

STATIC = files("kalah.web") / "static"
#: The page's main module, as its HTML names it.
_ENTRY = re.compile(r'<script type="module" src="/static/([\w./-]+)"></script>')
#: A module's static imports ("import ... from './x.js'" and "import './x.js'").
_IMPORT = re.compile(r'^\s*import\s+(?:[^;]*?\s+from\s+)?"(\.{1,2}/[\w./-]+)";', re.M)
#: What every board fetches as it starts (style.js) and the board's styles (style.css imports them).
_ALSO = (
    '<link rel="preload" href="/static/board.json" as="fetch" crossorigin="anonymous">',
    '<link rel="preload" href="/static/board.css" as="style">',
)
#: What a page asks the server for as it starts, by page: not in the HTML files, which `kalah site build`
#: also makes into pages of a site that has no server to ask.
_API = {"index.html": ('<link rel="preload" href="/api/info" as="fetch" crossorigin="anonymous">',)}


def module_graph(entry: str) -> list[str]:
    """Every module ``entry`` (a path under static/) imports, directly or not, itself first; in the order
    found."""
    seen: list[str] = []
    todo = [entry]
    while todo:
        name = todo.pop(0)
        if name in seen:
            continue
        seen.append(name)
        text = STATIC.joinpath(*name.split("/")).read_text(encoding="utf-8")
        folder = PurePosixPath(name).parent
        for spec in _IMPORT.findall(text):
            parts: list[str] = []
            for part in (folder / spec).parts:
                if part == "..":
                    parts.pop()
                elif part != ".":
                    parts.append(part)
            todo.append("/".join(parts))
    return seen


@cache
def page_html(name: str) -> str:
    """The page ``name`` (an HTML file under static/) with its preloads in its head."""
    html = STATIC.joinpath(*name.split("/")).read_text(encoding="utf-8")
    found = _ENTRY.search(html)
    if found is None:
        return html
    links = [f'<link rel="modulepreload" href="/static/{module}">' for module in module_graph(found.group(1))]
    return html.replace("</head>", "\n".join([*links, *_ALSO, *_API.get(name, ()), "</head>"]), 1)


def page(name: str) -> HTMLResponse:
    """The answer for page ``name``."""
    return HTMLResponse(page_html(name))
