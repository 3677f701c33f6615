"""gzip for the pages' own files: their HTML, modules, styles and the list of puzzles.

On a phone's network the page's modules were sent as they are (Lighthouse counted 122 KiB that gzip saves on
the board page alone). Only what every visitor gets alike is compressed: the static files, the pages and the
shipped puzzles. Answers that hold a secret (a seat's token, a leave token) next to what a client sent are
not, so that their compressed size never tells anything about the secret (BREACH).
"""

from __future__ import annotations

from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

#: Paths whose answers are compressed: a prefix (ending in "/") or a whole path.
PUBLIC = ("/static/", "/", "/live", "/lab", "/lab/mcts", "/api/puzzles")


class CompressPublic:
    """ASGI middleware: the answers to GET requests for ``PUBLIC`` paths go through Starlette's GZipMiddleware
    (for clients that accept gzip, bodies of 1 KB and more); every other request passes as it is."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.gzip = GZipMiddleware(app, minimum_size=1000)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope.get("method") in ("GET", "HEAD") and _public(scope["path"]):
            await self.gzip(scope, receive, send)
        else:
            await self.app(scope, receive, send)


def _public(path: str) -> bool:
    return any(path.startswith(p) if p.endswith("/") and p != "/" else path == p for p in PUBLIC)
