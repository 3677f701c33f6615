"""Reviews in the browser: ``POST /api/games/{id}/review`` starts one, ``GET`` reads it (or its progress).

A review (:func:`kalah.review.review`) takes seconds, so it runs in a thread
of its own, off the event loop, on one core (the server shares the machine),
one review at a time: a second game's request while one runs gets 503. The
finished review is stored with the game in the library (with the move count
it was made for), so it is computed once; a game that has moved on since is
reviewed again. The page polls ``GET`` for the progress and the result.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Path, Query, Request

from kalah.records import GameLibrary
from kalah.records.library import DamagedGameError, LibraryBusyError, LibraryError
from kalah.review import review

from .service import ApiError, busy, invalid

#: Seconds of analysis a position in the browser's reviews: a 40-move game in about 12 s on one core.
REVIEW_SECONDS = 0.3
#: Reviews computed at once (each keeps one core busy).
MAX_RUNNING = 1

router = APIRouter()
T = TypeVar("T")
GameId = Annotated[int, Path(ge=1, le=2**62)]


@dataclass
class _Job:
    """A review under way: positions done of the total; the error that stopped it, if any."""

    moves: int
    done: int = 0
    total: int = 0
    error: str | None = None
    finished: bool = False


_JOBS: dict[tuple[int, int], _Job] = {}  # (id of the library object, game id) -> job
_LOCK = threading.Lock()


def _library(request: Request) -> GameLibrary:
    library: GameLibrary = request.app.state.library
    return library


async def _call(function: Callable[..., T], *args: Any) -> T:
    """A library call in a thread: no such game 404, a damaged one 422, a locked library 503."""
    try:
        return await asyncio.to_thread(function, *args)
    except DamagedGameError as error:
        raise invalid(str(error)) from None
    except LibraryBusyError as error:
        raise busy(str(error), retry_after=2) from None
    except LibraryError as error:
        text = str(error)
        raise (ApiError(404, text) if text.startswith("no game") else busy(text, retry_after=5)) from None


def _run(library: GameLibrary, game_id: int, key: tuple[int, int], job: _Job, seconds: float) -> None:
    """The thread's work: review the game as it was when asked, store the review, forget the job."""

    def heard(done: int, total: int) -> None:
        job.done, job.total = done, total

    try:
        record = library.record(game_id)
        record.moves = record.moves[: job.moves]
        data = review(record, seconds, threads=1, progress=heard).to_dict()
        library.save_review(game_id, job.moves, data)
    except Exception as error:
        job.error = str(error) or type(error).__name__
    finally:
        job.finished = True
        with _LOCK:
            if job.error is None:
                _JOBS.pop(key, None)


def _progress(job: _Job) -> dict[str, Any]:
    if job.error is not None:
        return {"status": "failed", "error": job.error}
    return {"status": "running", "done": job.done, "total": job.total or job.moves + 1}


@router.get(
    "/api/games/{game_id}/review",
    summary="A game's review: stored, under way (progress) or 404",
    responses={404: {"description": "no such game, or no review of it yet"}},
)
async def read_review(request: Request, game_id: GameId) -> dict[str, Any]:
    """``{"status": "done", "review": {...}}`` when a review of the game as it stands is stored;
    ``{"status": "running", "done", "total"}`` while one is computed; ``{"status": "failed", "error"}``."""
    library = _library(request)
    key = (id(library), game_id)
    with _LOCK:
        job = _JOBS.get(key)
    if job is not None and not job.finished:
        return _progress(job)
    stored = await _call(library.review, game_id)
    moves = len((await _call(library.record, game_id)).moves)
    if stored is not None and stored[0] == moves:
        return {"status": "done", "review": stored[1]}
    if job is not None and job.error is not None:
        return _progress(job)
    raise ApiError(404, f"game {game_id} has no review yet" + (" of its last moves" if stored is not None else ""))


@router.post(
    "/api/games/{game_id}/review",
    summary="Start reviewing a game (poll GET for the progress)",
    responses={
        404: {"description": "no such game"},
        422: {"description": "a game without moves"},
        503: {"description": "another review is under way: retry after the Retry-After seconds"},
    },
)
async def start_review(
    request: Request,
    game_id: GameId,
    seconds: Annotated[float, Query(gt=0, le=2, allow_inf_nan=False)] = REVIEW_SECONDS,
) -> dict[str, Any]:
    """Start a review of the game as it stands, unless one is stored or under way; answers as GET does."""
    library = _library(request)
    key = (id(library), game_id)
    record = await _call(library.record, game_id)
    if not record.moves:
        raise invalid(f"game {game_id} has no moves to review")
    stored = await _call(library.review, game_id)
    if stored is not None and stored[0] == len(record.moves):
        return {"status": "done", "review": stored[1]}
    with _LOCK:
        job = _JOBS.get(key)
        if job is not None and not job.finished:
            return _progress(job)
        if sum(not other.finished for other in _JOBS.values()) >= MAX_RUNNING:
            raise busy("another game is being reviewed; try again in a few seconds", retry_after=5)
        job = _JOBS[key] = _Job(moves=len(record.moves), total=len(record.moves) + 1)
    threading.Thread(
        target=_run, args=(library, game_id, key, job, seconds), name=f"review-{game_id}", daemon=True
    ).start()
    return _progress(job)
