"""Other websites cannot act through a visitor's browser, nor frame the pages.

A page on another site can make the browser send requests here: a form
posted with no body, ``fetch(url, {mode: "no-cors", method: "POST"})``, an
``<img>`` pointing at an API route. The browser then says where the request
comes from: ``Origin`` on every POST, PUT, PATCH and DELETE, and
``Sec-Fetch-Site`` (Fetch Metadata) on every request of a current browser.
:class:`SameOriginOnly` refuses with 403, before the route runs:

- a request to ``/api/`` other than GET, HEAD and OPTIONS whose
  ``Sec-Fetch-Site`` is neither ``same-origin`` nor ``none`` (typed by the
  user), or, from a browser too old to send it, whose ``Origin`` is not this
  server (scheme aside: the host and port of the ``Host`` header; a proxy
  that rewrites Host is fine for current browsers);
- a GET to ``/api/`` that a browser marks ``cross-site`` and is not a
  navigation (an image, a script or a fetch of another site's page: it may
  start engine work; following a link stays possible).

A client that is not a browser (curl, a script, ``kalah`` itself, an agent)
sends neither header and is served as before. Every answer also carries
``X-Frame-Options: DENY`` and ``Content-Security-Policy: frame-ancestors
'none'`` (unless a policy is already set), so that no site can frame a page
and trick a click. It is cross-origin isolated too (``Cross-Origin-Opener-Policy: same-origin``,
``Cross-Origin-Embedder-Policy: require-corp``): the pages load nothing from elsewhere, and isolation
gives them SharedArrayBuffer, through which a page stops the engine it runs in a worker (docs/browser.md).

WebSockets are outside the browser's same-origin policy: any page may open
one to any server the visitor's machine reaches (its loopback, its local
network) and talk on it freely. The handshake always carries the page's
``Origin``, though, so a WebSocket route accepts a connection only when
:func:`socket_same_origin` agrees (no Origin, or this server's) and else
refuses it with :func:`deny_socket` (the push connections of ``kalah
serve``, the ``/socket`` of ``kalah arena serve``).
"""

from __future__ import annotations

import contextlib
import contextvars
import ipaddress
import json
import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from starlette.responses import JSONResponse

from .limits import ASGIApp, Message, Receive, Scope, Send

if TYPE_CHECKING:
    from starlette.websockets import WebSocket

#: Methods that change nothing (the routes that change something are POST and DELETE).
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: Values of Sec-Fetch-Site a state-changing request may carry.
SAME_ORIGIN_SITES = frozenset({b"same-origin", b"none"})
#: The policy that keeps every page out of other sites' frames.
FRAME_POLICY = "frame-ancestors 'none'"
DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}
#: Headers by which a proxy names the client it forwards for.
PROXY_HEADERS = ("x-forwarded-for", "forwarded", "x-real-ip")


def _host_and_port(netloc: str, scheme: str | None) -> tuple[str, int | None] | None:
    """``netloc`` ("host", "host:port", "[::1]:8000") as (host, port); port None when absent and the scheme
    unknown; None when it does not parse."""
    try:
        parts = urlsplit(f"//{netloc}")
        port = parts.port
    except ValueError:
        return None
    if not parts.hostname:
        return None
    if port is None and scheme is not None:
        port = DEFAULT_PORTS.get(scheme)
    return parts.hostname.lower(), port


def same_origin(origin: str, host: str) -> bool:
    """Whether the ``Origin`` header names the server the ``Host`` header addressed.

    The scheme is left aside (behind a proxy that ends TLS the server speaks
    plain HTTP); a Host without a port matches an origin on 80 or 443.
    """
    if origin == "null":  # sandboxed frames, file: pages, some redirects: nobody we know
        return False
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    if parts.scheme not in DEFAULT_PORTS or parts.path not in ("", "/") or parts.query or parts.username:
        return False
    sender = _host_and_port(parts.netloc, parts.scheme)
    server = _host_and_port(host, None)
    if sender is None or server is None or sender[0] != server[0]:
        return False
    return sender[1] == server[1] if server[1] is not None else sender[1] in (80, 443)


def socket_same_origin(headers: Mapping[str, str]) -> bool:
    """Whether a WebSocket handshake with these headers may be accepted: it names no ``Origin`` (a program:
    a browser always sends one) or names the server its ``Host`` addressed (:func:`same_origin`)."""
    origin = headers.get("origin")
    return origin is None or same_origin(origin, headers.get("host", ""))


#: Set in the task of a WebSocket refused with a denial response (read by :class:`_DeniedHandshake`).
_denied: contextvars.ContextVar[bool] = contextvars.ContextVar("kalah_socket_denied", default=False)
#: What uvicorn's websockets-sansio protocol logs at ERROR after every denial response: it never marks the
#: handshake complete there (uvicorn pull request 3138), though the client got its answer.
_INCOMPLETE_HANDSHAKE = "ASGI callable returned without completing handshake."


class _DeniedHandshake(logging.Filter):
    """Drops uvicorn's false "without completing handshake" error after a denial response of ours: a refusal
    is not a server fault, and anything that alerts on ERROR fired at every refused socket. The same error
    for any other socket (an app that returned without answering) is still logged."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (_denied.get() and record.getMessage() == _INCOMPLETE_HANDSHAKE)


_DENIAL_FILTER = _DeniedHandshake()


async def deny_socket(websocket: WebSocket, status: int, message: str) -> None:
    """Refuse a WebSocket before accepting it: an HTTP answer ``status`` with ``{"detail": message}`` where
    the server can send one (uvicorn can), else a close with code 4000 + ``status``."""
    with contextlib.suppress(Exception):
        if "websocket.http.response" in websocket.scope.get("extensions", {}):
            # uvicorn logs the error in this task, after the app returns: the context var is still set there.
            logging.getLogger("uvicorn.error").addFilter(_DENIAL_FILTER)  # once: a filter is added only once
            _denied.set(True)
            await websocket.send_denial_response(JSONResponse({"detail": message}, status_code=status))
            return
    await websocket.close(code=4000 + status, reason=message[:120])


def cross_site_reason(method: str, path: str, headers: dict[bytes, bytes]) -> str | None:
    """Why a request is refused as coming from another website, or None to serve it."""
    if not path.startswith("/api/"):
        return None
    site = headers.get(b"sec-fetch-site")
    if method in SAFE_METHODS:
        if site == b"cross-site" and headers.get(b"sec-fetch-mode") != b"navigate":
            return f"another website may not ask for {path}"
        return None
    if site is not None:  # the browser's own word (a page cannot set it): trusted, also behind a proxy
        if site in SAME_ORIGIN_SITES:
            return None
        return f"a page of another website (Sec-Fetch-Site: {site.decode('latin-1')[:40]}) may not {method} {path}"
    origin = headers.get(b"origin")  # older browsers: the Origin must name this server's Host
    if origin is not None:
        text = origin.decode("latin-1")
        if not same_origin(text, headers.get(b"host", b"").decode("latin-1")):
            return f"a page of another website ({text[:80]}) may not {method} {path}"
    return None


class SameOriginOnly:
    """ASGI middleware: requests from other websites are refused (403) before any route runs, and every
    answer forbids framing. See the module's documentation for the rules."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers", []))  # a repeated header: the last one counts
        reason = cross_site_reason(scope["method"], scope["path"], headers)
        if reason is not None:
            body = json.dumps({"detail": reason}).encode()
            await send(
                {
                    "type": "http.response.start",
                    "status": 403,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"content-length", str(len(body)).encode()),
                        *_page_headers([]),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": body})
            return

        async def framed(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + _page_headers(message.get("headers", []))
            await send(message)

        await self.app(scope, receive, framed)


#: Headers every answer carries unless it sets its own: no framing, and cross-origin isolation.
PAGE_HEADERS = (
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", FRAME_POLICY.encode()),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-embedder-policy", b"require-corp"),
)


def _page_headers(present: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    names = {name.lower() for name, _ in present}
    return [(name, value) for name, value in PAGE_HEADERS if name not in names]


def _loopback(host: str | None) -> bool:
    if host is None:
        return False
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def from_this_machine(client: str | None, headers: Mapping[str, str]) -> bool:
    """Whether a request comes from a browser or program on the server's own machine: its client address
    is loopback, its ``Host`` names loopback and it carries none of a proxy's ``PROXY_HEADERS``.

    The address alone is not enough: a reverse proxy on this machine connects from loopback for every
    client it serves, but it keeps the public name in ``Host`` (docs/deploy.md) and names the client in
    ``X-Forwarded-For``, so either keeps those clients out, also when the proxy is not trusted with
    ``--forwarded-allow-ips`` (the address uvicorn reports is then the proxy's own)."""
    if not _loopback(client) or any(name in headers for name in PROXY_HEADERS):
        return False
    parsed = _host_and_port(headers.get("host", ""), None)
    return parsed is not None and _loopback(parsed[0])
