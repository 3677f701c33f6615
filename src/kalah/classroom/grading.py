"""Exact grading of the agents' moves: every move judged against perfect play, where it can be proven.

Each finished game on a board the solver holds (up to 8 pits a side) is
reviewed by :func:`kalah.review.review` (the same judge as ``kalah review``):
each position analysed for a moment, exact where the book, the endgame
databases or the solver prove it. A move counts for the grade only when its
judgement is exact (``ReviewedMove.exact``) and it was a choice (not the only
legal move): per game and side the server keeps the decisions, how many were
judged exactly, the seeds they lost against the best move, how many were
best or good (at most 2 seeds lost) and how many were blunders (more than 8).
Per agent, summed over its games: accuracy (the share of exact decisions that
were best or good), seeds lost per exact decision, blunders. A second ranking
beside Elo: Elo says who wins, the grade how well each move was chosen.

Grading runs in one worker thread of its own, one game at a time, after the
game (never delaying a move); a queue longer than :data:`MAX_QUEUE` drops the
oldest game, and the log says so once.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from concurrent.futures import ThreadPoolExecutor

from kalah.records import GameLibrary, LibraryError
from kalah.review import review

from .agents import AgentBook, Grade

log = logging.getLogger(__name__)
#: Games waiting to be graded, at most (the oldest is dropped beyond).
MAX_QUEUE = 1000
#: The largest board graded (the solver's and the endgame databases' byte build).
MAX_PITS = 8


def grade_record(library: GameLibrary, game_id: int, seconds: float) -> list[Grade] | None:
    """The grades of both sides of a finished game (south first), or None when its board is too big."""
    record = library.record(game_id)
    if record.start.variant.pits > MAX_PITS:
        return None
    judged = review(record, seconds, threads=1)
    grades = []
    for side in (0, 1):
        moves = [entry for entry in judged.moves if entry.player == side and not entry.forced]
        exact = [entry for entry in moves if entry.exact]
        grades.append(
            Grade(
                decisions=len(moves),
                exact=len(exact),
                seeds_lost=float(sum(entry.loss for entry in exact)),
                good=sum(1 for entry in exact if entry.klass in ("best", "good")),
                blunders=sum(1 for entry in exact if entry.klass == "blunder"),
            )
        )
    return grades


class Grader:
    """Grades finished games one at a time in a thread of its own, and stores the grades in ``book``."""

    def __init__(self, library: GameLibrary, book: AgentBook, seconds: float) -> None:
        self.library, self.book, self.seconds = library, book, seconds
        self.queue: deque[tuple[int, int, int]] = deque()
        self.graded = 0
        self._wake = asyncio.Event()
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kalah-grader")
        self._dropping = False

    def add(self, game_id: int, south: int, north: int) -> None:
        """Grade this game when the worker gets to it."""
        if len(self.queue) >= MAX_QUEUE:
            self.queue.popleft()
            if not self._dropping:
                log.warning("grading is behind by %d games: the oldest are left ungraded", MAX_QUEUE)
            self._dropping = True
        self.queue.append((game_id, south, north))
        self._wake.set()

    async def run(self) -> None:
        """Grade queued games for ever (cancel the task to stop)."""
        loop = asyncio.get_running_loop()
        while True:
            if not self.queue:
                self._dropping = False
                self._wake.clear()
                await self._wake.wait()
                continue
            game_id, south, north = self.queue.popleft()
            try:
                grades = await loop.run_in_executor(self._executor, grade_record, self.library, game_id, self.seconds)
                if grades is not None:
                    await asyncio.to_thread(self.book.store_grades, game_id, (south, north), grades)
                    self.graded += 1
                    log.debug("game %d graded", game_id)
            except (LibraryError, OSError) as error:
                log.warning("game %d: cannot grade it (%s)", game_id, error)

    def close(self) -> None:
        """Stop the worker thread (a grade under way is dropped)."""
        self._executor.shutdown(wait=False, cancel_futures=True)
