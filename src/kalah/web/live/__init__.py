"""Games between two people at two screens: seats and their tokens, push, clocks, watchers, the lobby.

:func:`install` adds it to the application of :func:`kalah.web.create_app`:
the routes (:mod:`.routes`), the guard that keeps the computer games' routes
off live games, and the service (:mod:`.service`) over the app's library.
"""

from __future__ import annotations

from typing import Any

from .lobby import Lobby
from .routes import LiveGuard, router
from .seats import SeatStore
from .service import LiveLimits, LiveService

__all__ = ["LiveLimits", "LiveService", "install"]


def install(app: Any, limits: LiveLimits | None = None, busy_timeout: float = 1.0) -> LiveService:
    """Add the live routes to ``app`` (whose ``state.library`` is set and whose ``state.service`` will be)."""
    library = app.state.library
    # the library's writers and the seats' take turns on one lock (they write one SQLite file)
    seats = SeatStore(library.path, busy_timeout, writer=getattr(library, "_writer", None))
    live = LiveService(lambda: app.state.service, seats, limits or LiveLimits())
    app.state.live = live
    app.state.lobby = Lobby(live)
    app.add_middleware(LiveGuard, live=live)
    app.include_router(router)
    return live
