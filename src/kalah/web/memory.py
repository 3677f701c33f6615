"""The cycle collector of a long-running server: few and short pauses of the event loop.

CPython's cycle collector holds every thread of the process while it runs,
and a full collection walks every object the collector tracks. With 200 live
games (benchmarks/bench_live.py) the server's heap holds about 175,000 such
objects, 68,000 of them made at start (the imports, the app); with the
default thresholds (700, 10, 10) a full collection came every few seconds
and took 180-450 ms on a busy machine (timed with ``gc.callbacks``): the
longest stalls of the moves pushed to the other screen. So when the server
starts, the objects that live as long as it does are frozen (``gc.freeze``:
no collection walks them again) and the youngest generation is collected
after 10,000 new objects rather than 700, which makes full collections
about 300 times rarer; a young collection of 10,000 objects takes about a
millisecond. The settings are put back when the server stops (tests start
many servers in one process).
"""

from __future__ import annotations

import gc

#: Collection thresholds while the server runs: new objects before a young collection, young collections
#: before a middle one, middle ones before a full one (CPython's default: 700, 10, 10).
SERVER_THRESHOLDS = (10_000, 20, 20)


class QuietCollector:
    """Freeze what lives now and raise the thresholds (:meth:`settle`); :meth:`restore` undoes both. Servers
    of one process (tests run several at once) share the settings: the last to stop puts them back."""

    _settled = 0  # servers of this process that have settled and not restored
    _before: tuple[int, int, int] = gc.get_threshold()

    def __init__(self, thresholds: tuple[int, int, int] = SERVER_THRESHOLDS) -> None:
        self.thresholds = thresholds
        self._mine = False

    def settle(self) -> None:
        """Collect once, freeze the survivors (the server's long-lived objects), then raise the thresholds."""
        if self._mine:
            return
        self._mine = True
        if QuietCollector._settled == 0:
            QuietCollector._before = gc.get_threshold()
        QuietCollector._settled += 1
        gc.collect()
        gc.freeze()
        gc.set_threshold(*self.thresholds)

    def restore(self) -> None:
        """Once the last server stops: the thresholds as they were, and frozen objects collectable again."""
        if not self._mine:
            return
        self._mine = False
        QuietCollector._settled -= 1
        if QuietCollector._settled == 0:
            gc.set_threshold(*QuietCollector._before)
            gc.unfreeze()
