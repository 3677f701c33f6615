"""Thinking about one position for a KGP server: better and better moves until done or stopped.

A search player (``pvs``, ``alphabeta``, ... but not ``mcts``) deepens one
depth at a time and reports the best move of each finished iteration, so a
server that stops it early still has its best decision so far; every other
player (``random``, ``mcts``, ``perfect``, ``exec:``) reports its one move.
The thinking runs in a worker thread; :meth:`Thinker.interrupt` may be called from
any thread. A player with ``choose_move_until(position, stop)`` (``perfect``,
``exec:``) is stopped mid-move too: it returns None soon after the decision's
``stopped`` event is set (and its ``interrupt()``, when it has one, is called).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from kalah.core.builds import Engine
from kalah.core.search import MAX_DEPTH
from kalah.endgame import oracle_for
from kalah.players import Player
from kalah.players.engines import SearchPlayer
from kalah.rules import Move, Position
from kalah.search import check_algorithm, check_evaluation, search

#: Called with each better move (and the search's value for the mover, when there is one).
Report = Callable[[Move, "float | int | None"], None]
#: The depth a search player goes to when it has neither depth nor time (a server's stop ends it).
OPEN_DEPTH = MAX_DEPTH
#: ``mode eval`` with a player that does not search: this search gives the values.
EVAL_ALGORITHM = "pvs"


class Thinker:
    """Runs one player's decisions, one position at a time."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self._stopped = threading.Event()
        self._engine: Engine | None = None
        self._lock = threading.Lock()  # one decision at a time: the player and its engine are not shared

    def interrupt(self) -> None:
        """Ask a search under way to return now (call it again until :meth:`think` has returned: a search
        that had not started yet did not see it). Set the decision's ``stopped`` event first."""
        if self._engine is not None:
            self._engine.stop()
        interrupt = getattr(self.player, "interrupt", None)
        if interrupt is not None:
            interrupt()

    def think(self, position: Position, report: Report, stopped: threading.Event, evaluate: bool = False) -> None:
        """Decide ``position`` (its mover is ours), calling ``report`` with each better move until the decision
        is done or ``stopped`` is set; blocks."""
        with self._lock:
            self._stopped = stopped
            searcher = self.player if isinstance(self.player, SearchPlayer) else None
            if searcher is not None and searcher.algorithm != "mcts":
                self._deepen(position, report, searcher.algorithm, searcher.evaluation, searcher.depth, searcher.time)
            elif evaluate:
                self._deepen(position, report, EVAL_ALGORITHM, "strong", None, None)
            else:
                until = getattr(self.player, "choose_move_until", None)
                move = until(position, stopped) if until is not None else self.player.choose_move(position)
                if move is not None and not self._stopped.is_set():
                    report(move, None)

    def _deepen(
        self,
        position: Position,
        report: Report,
        algorithm: str,
        evaluation: str,
        depth: int | None,
        seconds: float | None,
    ) -> None:
        if self._engine is None:
            self._engine = Engine(20)
        oracle = oracle_for(position.variant)
        started = time.monotonic()
        for target in range(1, (depth or OPEN_DEPTH) + 1):
            left = None if seconds is None else seconds - (time.monotonic() - started)
            if self._stopped.is_set() or (left is not None and left <= 0):
                return
            result = search(
                position,
                check_algorithm(algorithm),
                depth=target,
                time=left,
                evaluation=check_evaluation(evaluation),
                engine=self._engine,
                keep_table=target > 1,
                move_values=False,
                oracle=oracle,
                threads=1 if left is None else None,
            )
            if self._stopped.is_set() or result.best_move is None or result.stats.depth < target:
                return
            report(result.best_move, result.value)
            if result.exact:  # proven: deeper iterations cannot change it
                return
