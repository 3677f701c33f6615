"""This process's timers on the clocks of live games: at a running clock's deadline, its flag is looked at.

A timer only wakes the process; whether the flag falls is decided in the transaction that reads the clock
fresh under the game's row lock (``LiveService``), so that every process may keep a timer on a game and
the flag still falls once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

__all__ = ["FlagTimers"]

#: Seconds after a deadline a timer wakes: the clock's own arithmetic then finds the time out.
LATE = 0.005


class FlagTimers:
    """One timer per game at most; ``fall(game_id)`` runs on the event loop when one goes off."""

    def __init__(self, now: Callable[[], float], fall: Callable[[int], Coroutine[Any, Any, None]]) -> None:
        self._now = now
        self._fall = fall
        self._timers: dict[int, asyncio.TimerHandle] = {}

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._timers

    def games(self) -> set[int]:
        """The games this process keeps a timer on."""
        return set(self._timers)

    def arm(self, game_id: int, deadline: float, *, replace_timer: bool) -> None:
        """Look at the flag of ``game_id`` at ``deadline`` (on the clocks' time); a timer already set stays
        unless ``replace_timer``."""
        if game_id in self._timers:
            if not replace_timer:
                return
            self._timers.pop(game_id).cancel()
        loop = asyncio.get_running_loop()
        self._timers[game_id] = loop.call_later(
            max(0.0, deadline - self._now()) + LATE, lambda: loop.create_task(self._went_off(game_id))
        )

    async def _went_off(self, game_id: int) -> None:
        self._timers.pop(game_id, None)
        await self._fall(game_id)

    def disarm(self, game_id: int) -> None:
        """Cancel the timer of ``game_id``, if there is one."""
        timer = self._timers.pop(game_id, None)
        if timer is not None:
            timer.cancel()

    def disarm_all(self) -> None:
        """Cancel every timer (the server stops)."""
        for game_id in list(self._timers):
            self.disarm(game_id)
