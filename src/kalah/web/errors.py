"""How the web API refuses a request: :class:`ApiError` (a status and a message), and the one mapping of the
library's errors to statuses, applied to every library call made off the event loop (:func:`in_thread`)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

from kalah.records import (
    DamagedGameError,
    GameNotFoundError,
    LibraryBusyError,
    LibraryError,
    StaleGameError,
)

T = TypeVar("T")


class ApiError(Exception):
    """A request the API refuses: answered as ``{"detail": message}`` with HTTP ``status``."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}


def busy(message: str, retry_after: int = 1) -> ApiError:
    """The server cannot take the request now (503); the client may try again after ``retry_after`` seconds."""
    return ApiError(503, message, {"Retry-After": str(retry_after)})


def invalid(message: str) -> ApiError:
    """A request that is well-formed but asks for something impossible (422)."""
    return ApiError(422, message)


def too_many(what: str, retry_after: int = 60) -> ApiError:
    """429: the client has too many of ``what``."""
    return ApiError(429, f"too many {what} from this address; try again later", {"Retry-After": str(retry_after)})


def api_error(error: LibraryError) -> ApiError:
    """The answer to a library error: a missing game is 404, a stale request 409, a damaged game 422, a
    locked, read-only or unreachable library 503."""
    if isinstance(error, GameNotFoundError):
        return ApiError(404, f"no game {error.game_id}")
    if isinstance(error, StaleGameError):
        return ApiError(409, str(error))
    if isinstance(error, DamagedGameError):
        return invalid(str(error))
    if isinstance(error, LibraryBusyError):
        return busy(str(error), retry_after=2)
    return busy(str(error), retry_after=5)


async def in_thread(function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run a call that reads or writes the library in a thread, its library errors answered by
    :func:`api_error`."""
    try:
        return await asyncio.to_thread(function, *args, **kwargs)
    except LibraryError as error:
        raise api_error(error) from None
