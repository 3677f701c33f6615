"""Reaching a Dask cluster for a solve: its address checked, a client made and its first worker awaited."""

from __future__ import annotations

from typing import Any

from .result import SolveError

__all__ = ["check_address", "connect"]


def check_address(address: str) -> None:
    """Refuse an address Dask could not even try (a Client half made from one dies noisily later).

    Raises:
        SolveError: ``address`` is not one Dask could reach (its scheme unknown, or no host and port).
    """
    from distributed.comm.addressing import parse_address, parse_host_port
    from distributed.comm.registry import backends

    try:
        scheme, location = parse_address(address)
        if scheme not in backends:
            raise ValueError(f"unknown scheme {scheme!r}; Dask knows {', '.join(sorted(backends))}")
        if scheme in ("tcp", "tls", "ws", "wss"):
            parse_host_port(location)
    except ValueError as error:
        raise SolveError(f"{address!r} is not a Dask scheduler address like tcp://HOST:PORT ({error})") from None


def connect(cluster: Any, timeout: float) -> tuple[Any, bool]:
    """A Client for ``cluster`` (an address, or a Client that is used as it is) and whether it is ours to close.

    Raises:
        SolveError: Dask is not installed; the address is not one; the scheduler cannot be reached within
            ``timeout`` seconds, or has no worker by then.
    """
    if not isinstance(cluster, str):
        return cluster, False
    try:
        from distributed import Client
    except ImportError:
        raise SolveError("a cluster solve needs the Dask scheduler: pip install 'kalah[cluster]'") from None
    check_address(cluster)
    try:
        client = Client(cluster, timeout=f"{timeout}s", set_as_default=False)
    except (OSError, TimeoutError, ValueError) as error:
        raise SolveError(f"cannot reach the Dask cluster at {cluster}: {error}") from None
    try:
        client.wait_for_workers(1, timeout=timeout)
    except TimeoutError:
        client.close()
        raise SolveError(f"the Dask cluster at {cluster} has no workers (waited {timeout:g} s)") from None
    return client, True
