"""Who a client is, for every per-client share of a server: one key from one address.

The address is the one uvicorn gives the request (behind a trusted proxy,
``--forwarded-allow-ips``, the one the proxy forwarded), so every limit
counts people the same way, proxy or not. IPv4 counts as it is; IPv6 by its
/64 network, which one host is usually given whole (and could otherwise
change at every request); an IPv4 address mapped into IPv6 as IPv4.
"""

from __future__ import annotations

import ipaddress

from starlette.requests import HTTPConnection  # at run time: FastAPI reads the annotation of client_of

#: The key of a client whose address is not known.
UNKNOWN = "addr:unknown"


def client_key(host: str | None) -> str:
    """The key of the client at ``host``: ``addr:`` and its address, or its /64 network for IPv6."""
    if not host:
        return UNKNOWN
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:  # not an address (a test client's name, a Unix socket): the name is the key
        return f"addr:{host[:100]}"
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return f"addr:{address.ipv4_mapped}"
        return f"addr:{ipaddress.IPv6Network((address, 64), strict=False)}"
    return f"addr:{address}"


def client_of(connection: HTTPConnection) -> str:
    """The key of the client of a request or a WebSocket."""
    return client_key(connection.client.host if connection.client else None)
