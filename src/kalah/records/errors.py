"""What can go wrong with the game library, whichever database holds it."""

from __future__ import annotations

from pathlib import Path

from kalah.rules import KalahError


class LibraryError(KalahError):
    """The game library cannot be opened or used, or has no such game (the subclasses say which)."""


class GameNotFoundError(LibraryError):
    """The library has no game with the id asked for (the web API answers 404), or could hold none: an id
    outside 1 to ``MAX_GAME_ID``, which the message says."""

    def __init__(self, game_id: int, where: str | Path, why: str = "") -> None:
        super().__init__(f"no game {game_id} in {where}" + (f": {why}" if why else ""))
        self.game_id = game_id


class LibraryNotFoundError(LibraryError):
    """A library opened only to be read is not there (it is never created empty for a reader)."""


class LibraryBusyError(LibraryError):
    """The library is locked by another program (or is read-only) longer than the library waits."""


class LibraryUnavailableError(LibraryBusyError):
    """The database server cannot be reached (or refused the connection): nothing was read or written."""


class LibraryInUseError(LibraryError):
    """Another server already serves this library, and the library allows only one (a SQLite file; one class
    server on any library): the message names the server that holds it."""


class StaleGameError(LibraryError):
    """A change made for a game as it was: the game has moved on since (another request, tab or server)."""


class DamagedGameError(LibraryError):
    """A stored game that cannot be read back (a damaged file): named, so that the rest stays usable."""
