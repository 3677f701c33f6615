"""Reviews in the browser: ``POST /api/games/{id}/review`` starts one, ``GET`` reads it (or its progress).

A review (as :func:`kalah.review.review`) analyses every position of a game,
which takes seconds to minutes, so the server never runs it as one piece of
work. Each position's analysis is an engine job of its own, run by the same
fair scheduler as computer moves, analyses and traces
(:mod:`kalah.web.scheduler`), under the key of the client that asked for the
review. So a review holds at most one engine slot at a time, for at most one
position's seconds; between two positions every other client's waiting jobs
get their turn first (the reviewing client has used the engines lately), and
the last free slot stays with light clients, so nobody waits behind a
review, and two clients' reviews share the engines position by position. A
review runs in the niced engine workers, not in the server's process.

Bounds (the review's analyses are made from the end of the game back, as
kalah.review does, and assembled by :func:`kalah.review.review_of_analyses`):

- engine time: a review asks for at most REVIEW_ENGINE_SECONDS in all. Each
  position gets the ``seconds`` asked (at most MAX_SECONDS, and the server's
  ``--max-move-seconds``), shrunk to REVIEW_ENGINE_SECONDS over the number of
  positions when the game is long: a 457-move game at 2 s a position would
  have run 15 minutes; it gets 0.13 s a position. A game so long that a
  position would get under MIN_POSITION_SECONDS (2,999 moves) is refused
  with 422.
- one review under way per client (REVIEWS_PER_CLIENT, then 429), at most
  MAX_REVIEWS on the server (then 503);
- a review still unfinished after REVIEW_WALL_SECONDS (the engines were
  that busy) fails, and so does one whose jobs the scheduler refused
  REFUSALS times in a row.

Deleting the game cancels its review (the position being analysed finishes
in its worker and is thrown away), and so does stopping the server. The
finished review is stored with the game in the library (with the move count
it was made for), so it is computed once; a game that has moved on since is
reviewed again. The page polls ``GET`` for the progress and the result.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

from fastapi import APIRouter, Depends, Query, Request
from starlette.requests import HTTPConnection

from kalah.records import GameRecord
from kalah.review import review_of_analyses

from .analysis import review_position
from .clients import client_of
from .dependencies import Service
from .errors import ApiError, busy, in_thread, invalid
from .models import GameId, ReviewStatusOut
from .scheduler import Refused

if TYPE_CHECKING:
    from kalah.analysis import Analysis

    from .service import GameService

#: Seconds of analysis a position in the browser's reviews unless the client asks: a 40-move game in
#: about 12 s of one engine.
REVIEW_SECONDS = 0.3
#: The most seconds a position a client may ask for.
MAX_SECONDS = 2.0
#: Engine seconds one review may ask for in all: the seconds of a position shrink to fit (see above).
REVIEW_ENGINE_SECONDS = 60.0
#: The least seconds a position gets; a longer game than REVIEW_ENGINE_SECONDS allows at this is refused.
MIN_POSITION_SECONDS = 0.02
#: Reviews one client may have under way, and the server in all.
REVIEWS_PER_CLIENT = 1
MAX_REVIEWS = 16
#: A review that has not finished this long after it started (waiting for engines included) fails.
REVIEW_WALL_SECONDS = 600.0
#: Refusals of the scheduler in a row (429, 503: busy engines, an overrun) after which a review fails.
REFUSALS = 20
#: Failed reviews remembered for GET (the oldest are forgotten first).
FAILURES_KEPT = 100

router = APIRouter()
T = TypeVar("T")


def position_seconds(asked: float, positions: int) -> float:
    """The seconds each of ``positions`` positions is analysed for: ``asked``, shrunk so that all of them
    together ask for at most REVIEW_ENGINE_SECONDS.

    >>> position_seconds(0.3, 41), position_seconds(2.0, 458)
    (0.3, 0.13100436681222707)
    """
    return min(asked, REVIEW_ENGINE_SECONDS / max(1, positions))


@dataclass
class _Job:
    """A review under way: positions done of the total, each analysed for ``seconds``."""

    client: str
    moves: int
    seconds: float
    total: int
    done: int = 0
    task: asyncio.Task[None] | None = field(default=None, repr=False)


class Reviews:
    """The reviews under way on one server (``app.state.reviews``), and those that failed lately."""

    def __init__(self) -> None:
        self._running: dict[int, _Job] = {}  # game id: its review under way
        self._failed: OrderedDict[int, str] = OrderedDict()  # game id: why its last review failed

    def running(self, game_id: int) -> _Job | None:
        """The game's review under way, if any."""
        return self._running.get(game_id)

    def failure(self, game_id: int) -> str | None:
        """Why the game's last review failed, if it did (and no review of it has started since)."""
        return self._failed.get(game_id)

    def of(self, client: str) -> list[int]:
        """The games whose reviews ``client`` has under way."""
        return [game_id for game_id, job in self._running.items() if job.client == client]

    def start(self, service: GameService, game_id: int, client: str, record: GameRecord, seconds: float) -> _Job:
        """Start reviewing ``record`` (game ``game_id``) for ``client``, ``seconds`` a position: 429 when the
        client has its reviews under way, 503 when the server has MAX_REVIEWS."""
        mine = self.of(client)
        if len(mine) >= REVIEWS_PER_CLIENT:
            raise ApiError(
                429,
                f"this client already has a review under way (game {mine[0]}); start the next when it is done",
                {"Retry-After": "5"},
            )
        if len(self._running) >= MAX_REVIEWS:
            raise busy(f"the server is making {len(self._running)} reviews; try again in a minute", retry_after=30)
        positions = len(record.moves) + 1
        each = position_seconds(min(seconds, service.move_seconds), positions)
        job = self._running[game_id] = _Job(client, len(record.moves), each, positions)
        self._failed.pop(game_id, None)
        job.task = asyncio.get_running_loop().create_task(self._review(service, game_id, job, record))
        return job

    def cancel(self, game_id: int) -> None:
        """Stop the game's review, if one is under way (the game was deleted)."""
        job = self._running.pop(game_id, None)
        self._failed.pop(game_id, None)
        if job is not None and job.task is not None:
            job.task.cancel()

    async def stop(self) -> None:
        """Cancel every review (the server is stopping) and wait until they have let go of the engines."""
        tasks = [job.task for job in self._running.values() if job.task is not None]
        self._running.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _review(self, service: GameService, game_id: int, job: _Job, record: GameRecord) -> None:
        try:
            analyses: list[Analysis] = []
            began, deadline = time.perf_counter(), time.monotonic() + REVIEW_WALL_SECONDS
            # from the end back: the late positions are proven at once (kalah.review says why)
            for position in reversed(list(record.positions())):
                analyses.append(await self._analyse(service, job, position.to_json(), deadline))
                job.done += 1
            analyses.reverse()
            made = review_of_analyses(record, analyses, job.seconds, seconds=time.perf_counter() - began)
            await asyncio.to_thread(service.library.save_review, game_id, job.moves, made.to_dict())
        except Exception as error:
            self._fail(game_id, job, str(error) or type(error).__name__)
        finally:
            if self._running.get(game_id) is job:
                del self._running[game_id]

    async def _analyse(self, service: GameService, job: _Job, position_json: str, deadline: float) -> Analysis:
        refusals = 0
        while True:
            if time.monotonic() > deadline:
                raise TimeoutError(
                    f"the engines were too busy: the review was not done within {REVIEW_WALL_SECONDS:g} s; try later"
                )
            try:
                return await service.engines.run(job.client, review_position, position_json, job.seconds)
            except Refused as refusal:  # the client's other jobs, or everyone's, fill the engines: wait
                refusals += 1
                if refusals >= REFUSALS:
                    raise RuntimeError(refusal.message) from None
                await asyncio.sleep(refusal.retry_after)

    def _fail(self, game_id: int, job: _Job, error: str) -> None:
        if self._running.get(game_id) is not job:
            return  # cancelled (the game was deleted): nobody asks about it
        self._failed[game_id] = error
        while len(self._failed) > FAILURES_KEPT:
            self._failed.popitem(last=False)


def reviews_of(connection: HTTPConnection) -> Reviews:
    """The reviews under way on this server (``app.state.reviews``), as a dependency of the routes."""
    reviews: Reviews = connection.app.state.reviews
    return reviews


def _progress(job: _Job) -> dict[str, Any]:
    return {"status": "running", "done": job.done, "total": job.total, "seconds_per_position": job.seconds}


@router.get(
    "/api/games/{game_id}/review",
    summary="A game's review: stored, under way (progress) or 404",
    response_model=ReviewStatusOut,
    response_model_exclude_none=True,
    responses={404: {"description": "no such game, or no review of it yet"}},
)
async def read_review(
    game_id: GameId, service: Service, reviews: Annotated[Reviews, Depends(reviews_of)]
) -> dict[str, Any]:
    """``{"status": "done", "review": {...}}`` when a review of the game as it stands is stored;
    ``{"status": "running", "done", "total", "seconds_per_position"}`` while one is computed;
    ``{"status": "failed", "error"}``."""
    library = service.library
    job = reviews.running(game_id)
    if job is not None:
        return _progress(job)
    stored = await in_thread(library.review, game_id)
    moves = len((await in_thread(library.record, game_id)).moves)
    if stored is not None and stored[0] == moves:
        return {"status": "done", "review": stored[1]}
    failure = reviews.failure(game_id)
    if failure is not None:
        return {"status": "failed", "error": failure}
    raise ApiError(404, f"game {game_id} has no review yet" + (" of its last moves" if stored is not None else ""))


@router.post(
    "/api/games/{game_id}/review",
    summary="Start reviewing a game (poll GET for the progress)",
    response_model=ReviewStatusOut,
    response_model_exclude_none=True,
    responses={
        404: {"description": "no such game"},
        409: {"description": "a game between people still being played: reviewed once it is over"},
        422: {"description": "a game without moves, or too long to review"},
        429: {"description": "this client has a review under way: retry after the Retry-After seconds"},
        503: {"description": "the server has its most reviews under way: retry after the Retry-After seconds"},
    },
)
async def start_review(
    request: Request,
    game_id: GameId,
    service: Service,
    reviews: Annotated[Reviews, Depends(reviews_of)],
    seconds: Annotated[
        float,
        Query(
            gt=0,
            le=MAX_SECONDS,
            allow_inf_nan=False,
            description=f"seconds a position; shrunk so that a review asks for at most {REVIEW_ENGINE_SECONDS:g}"
            " engine seconds in all",
        ),
    ] = REVIEW_SECONDS,
) -> dict[str, Any]:
    """Start a review of the game as it stands, unless one is stored or under way; answers as GET does."""
    library = service.library
    record = await service.check_analysable(game_id)  # 409 for a game between people under way
    if not record.moves:
        raise invalid(f"game {game_id} has no moves to review")
    stored = await in_thread(library.review, game_id)
    if stored is not None and stored[0] == len(record.moves):
        return {"status": "done", "review": stored[1]}
    job = reviews.running(game_id)
    if job is not None:
        return _progress(job)
    most = int(REVIEW_ENGINE_SECONDS / MIN_POSITION_SECONDS) - 1  # moves: a position more
    if len(record.moves) > most:
        raise invalid(
            f"game {game_id} has {len(record.moves)} moves; the server reviews games of at most {most} moves"
            f" (each position gets at least {MIN_POSITION_SECONDS:g} s of {REVIEW_ENGINE_SECONDS:g} s in all);"
            " kalah review reviews any game on your own machine"
        )
    job = reviews.start(service, game_id, client_of(request), record, seconds)
    return _progress(job)
