"""The ReDoc page of the API with nothing fetched from the internet.

fastapi-offline bundles ReDoc's script, but the script's menu footer still
shows Redocly's logo from ``cdn.redoc.ly``: the page's policy blocks the
request, yet the browser asks (a console error, and a request a firewall
sees). This page serves the bundled script with the logo's address replaced
by an empty image, so nothing leaves the machine and nothing is refused."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_redoc_html
from fastapi.responses import HTMLResponse, Response
from starlette.datastructures import MutableHeaders

#: Where the bundled script says its logo is.
REMOTE_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"
#: An empty SVG in place of the logo (the link "API docs by Redocly" stays, as text).
NO_LOGO = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='0' height='0'/%3E"
SCRIPT_PATH = "/redoc-local.js"


@functools.lru_cache(maxsize=1)
def redoc_script() -> bytes:
    """fastapi-offline's ReDoc bundle, without the address of a remote logo (read once)."""
    import fastapi_offline

    bundle = Path(fastapi_offline.__file__).parent / "static" / "redoc.standalone.js"
    return bundle.read_text(encoding="utf-8").replace(REMOTE_LOGO, NO_LOGO).encode("utf-8")


def add_redoc(app: FastAPI, path: str = "/redoc") -> None:
    """Serve the ReDoc page at ``path`` with :func:`redoc_script` (give ``FastAPIOffline(redoc_url=None)``)."""

    @app.get(path, include_in_schema=False)
    async def redoc_page(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        return get_redoc_html(
            openapi_url=f"{root}{app.openapi_url}",
            title=f"{app.title} - ReDoc",
            redoc_js_url=f"{root}{SCRIPT_PATH}",
            with_google_fonts=False,
            redoc_favicon_url=f"{root}/static/favicon.svg",
        )

    @app.get(SCRIPT_PATH, include_in_schema=False)
    async def redoc_bundle() -> Response:
        return Response(redoc_script(), media_type="text/javascript", headers={"Cache-Control": "max-age=86400"})


class PagePolicy:
    """ASGI middleware: the pages at ``paths`` are answered with ``policy`` as their Content-Security-Policy.

    A plain ASGI class rather than ``@app.middleware("http")``: that one (Starlette's BaseHTTPMiddleware)
    runs every request of the server, not only these pages, through a task group and a memory stream,
    which took about a fifth of the event loop's busy time with 200 live games (py-spy)."""

    def __init__(self, app: Any, paths: Sequence[str], policy: str) -> None:
        self.app = app
        self.paths = frozenset(paths)
        self.policy = policy

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["path"] not in self.paths:
            await self.app(scope, receive, send)
            return

        async def with_policy(message: Any) -> None:
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message)["Content-Security-Policy"] = self.policy
            await send(message)

        await self.app(scope, receive, with_policy)
