"""Games between two people at two screens: seats and their tokens, push, clocks, watchers, the lobby.

:func:`install` adds it to the application of :func:`kalah.web.create_app`:
the routes (:mod:`.routes`) and the service (:mod:`.service`) over the app's
library; the app's lifespan calls :func:`start` and :func:`stop`. The routes
of games against the computer refuse live games themselves
(:class:`kalah.web.service.GameService`).
"""

from __future__ import annotations

from typing import Any

from .limits import LiveLimits
from .lobby import Lobby
from .routes import router
from .service import LiveService
from .store import LiveStore
from .upkeep import Upkeep

__all__ = ["LiveLimits", "LiveService", "install", "start", "stop"]


def install(app: Any, limits: LiveLimits | None = None) -> LiveService:
    """Add the live routes to ``app`` (whose ``state.library`` is set and whose ``state.service`` will be)."""
    store = LiveStore(app.state.library.database)
    live = LiveService(lambda: app.state.service, store, limits or LiveLimits())
    app.state.live = live
    app.state.lobby = Lobby(live)
    app.state.live_upkeep = Upkeep(live, app.state.lobby)
    app.include_router(router)
    return live


async def start(app: Any) -> None:
    """As the server starts: its secrets' salt read, its heartbeat, the change feed, every running flag armed."""
    live: LiveService = app.state.live
    await live.start()
    await app.state.live_upkeep.start()
    await live.restore()


async def stop(app: Any) -> None:
    """As the server stops: its timers, heartbeat, presence and feed go."""
    live: LiveService = app.state.live
    live.disarm_all()
    await app.state.live_upkeep.stop()
    await live.feed.stop()
