"""Puzzles in the browser: ``GET /api/puzzles`` lists the shipped puzzles (kalah.puzzles) for the trainer.

The trainer (static/puzzles.js) picks puzzles near the player's rating, which
it keeps in the browser; the list carries each puzzle's solution, so the page
can judge an answer without asking the server.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Annotated, Any

from fastapi import APIRouter, Query

from kalah.puzzles import THEMES, shipped

from .errors import invalid
from .models import PuzzleOut

router = APIRouter()


@lru_cache(maxsize=1)
def _all() -> list[dict[str, Any]]:
    return [puzzle.to_dict() for puzzle in shipped()]


@router.get(
    "/api/puzzles",
    response_model=list[PuzzleOut],
    summary="The shipped puzzles (each: id, variant, position, solution, theme, difficulty)",
    responses={422: {"description": "an unknown theme"}},
)
async def list_puzzles(
    pits: Annotated[int | None, Query(ge=1, le=12)] = None,
    seeds: Annotated[int | None, Query(ge=1, le=15)] = None,
    theme: Annotated[str | None, Query(max_length=20)] = None,
) -> list[dict[str, Any]]:
    """The puzzles, optionally of one variant's pits and seeds and one theme."""
    if theme is not None and theme not in THEMES:
        raise invalid(f"unknown theme {theme!r}; themes: {', '.join(THEMES)}")
    return [
        item
        for item in _all()
        if (pits is None or item["variant"]["pits"] == pits)
        and (seeds is None or item["variant"]["seeds"] == seeds)
        and (theme is None or theme in item["theme"])
    ]
