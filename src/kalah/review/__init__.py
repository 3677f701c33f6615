"""Review of a whole game: ``kalah.review.review(record, time=...)``.

Every position of the game is analysed with :func:`kalah.analysis.analyse`
(exact where the book, the endgame databases or the solver prove it, a
search's estimate elsewhere). For each move the review gives the value
before it, the best moves, the value of the move played and the seeds it
lost against the best, all from the mover's point of view, and a class:

============  =============================================
class         seeds lost (``loss``)
============  =============================================
best          0 (the move keeps the value)
good          at most 2 (one seed each way)
inaccuracy    at most 4
mistake       at most 8
blunder       more than 8
============  =============================================

Thresholds are in :data:`CLASSES`. A move is ``exact`` when both values it
was judged by are proven. Over the game the review gives an evaluation graph
(player 0's point of view, before each move and at the end), each player's
accuracy (the share of their decisions, moves with a choice, classed best or
good) and average loss, and the turning points: the moves that turned the
expected result against their player (a win into a draw or a loss, a draw
into a loss; an estimate within a seed of zero counts as a draw).
"""

from __future__ import annotations

import time as _time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kalah.analysis import Analysis, AnalysisError, analyse
from kalah.records import GameRecord
from kalah.rules import KalahError, Move, Position, move_name

__all__ = [
    "CLASSES",
    "DEFAULT_TIME",
    "FORMAT",
    "GameReview",
    "ReviewError",
    "ReviewedMove",
    "classify",
    "review",
    "review_of_analyses",
]

FORMAT = "kalah-review"
#: Seconds of analysis per position by default: a 40-move game takes at most about 16 s.
DEFAULT_TIME = 0.4
#: (class, the largest loss in seeds it takes), from the best move down; a larger loss is a blunder.
CLASSES: tuple[tuple[str, float], ...] = (
    ("best", 0.0),
    ("good", 2.0),
    ("inaccuracy", 4.0),
    ("mistake", 8.0),
    ("blunder", float("inf")),
)
#: An estimate's loss under this many seeds counts as none: two searches of one depth differ by noise.
ESTIMATE_SLACK = 0.5
#: ``progress(done, total)``: positions analysed so far, positions in all.
Progress = Callable[[int, int], None]


class ReviewError(KalahError, ValueError):
    """A review that cannot be made (not a record, a bad time) or read back (a damaged stored review)."""


def classify(loss: float) -> str:
    """The class of a move that lost ``loss`` seeds against the best (see :data:`CLASSES`).

    >>> classify(0), classify(2), classify(3), classify(6), classify(10)
    ('best', 'good', 'inaccuracy', 'mistake', 'blunder')
    """
    for name, most in CLASSES:
        if loss <= most:
            return name
    return CLASSES[-1][0]


@dataclass(frozen=True)
class ReviewedMove:
    """One move of the game as the review judged it; values in seeds from the mover's point of view."""

    number: int
    """The move's number in the game, from 1 (every sowing counts, extra turns too)."""
    pair: int
    """The number of the move pair (player 0's decision and player 1's reply share one), from 1. Kept
    for readers of the JSON; the command line and the pages number every move (``number``)."""
    player: int
    """Who played it: 0 or 1."""
    move: Move
    """The pit played (``0..pits-1``) or ``"swap"``."""
    name: str
    """The move in pit letters: ``A``-``F`` for player 0, ``a``-``f`` for player 1."""
    board: list[list[int]]
    """The board before the move: each player's pits, then store."""
    value_before: float | int | None
    """The value of the position before the move (what the best move keeps)."""
    value_after: float | int | None
    """The value of the move played."""
    best_moves: list[Move]
    """The best moves of the position (every one when exact)."""
    loss: float | int
    """Seeds the move lost against the best: ``value_before - value_after``, never below 0."""
    klass: str
    """``best``, ``good``, ``inaccuracy``, ``mistake`` or ``blunder`` (``class`` in JSON)."""
    exact: bool
    """True when both values are proven and so are every other move's, so ``loss`` and ``best_moves`` are exact."""
    forced: bool
    """True when it was the only legal move (no decision: not counted in accuracy)."""
    move_values: list[dict[str, Any]] = field(default_factory=list)
    """Every legal move's value for the mover, as ``{"move", "value", "exact"}`` (value None where the analysis
    had none): a better move than the one played is one of higher value, best or not."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of one entry of ``moves`` in ``kalah review --json``."""
        return {
            "number": self.number,
            "pair": self.pair,
            "player": self.player,
            "move": self.move,
            "name": self.name,
            "board": self.board,
            "value_before": self.value_before,
            "value_after": self.value_after,
            "best_moves": list(self.best_moves),
            "loss": self.loss,
            "class": self.klass,
            "exact": self.exact,
            "forced": self.forced,
            "move_values": [dict(entry) for entry in self.move_values],
        }


@dataclass(frozen=True)
class GameReview:
    """The review of a whole game (:func:`review`)."""

    variant: dict[str, Any]
    """The game's variant, as in its record."""
    players: list[str]
    """The two players' names."""
    moves: list[ReviewedMove]
    """Every move of the game, in order."""
    evaluation: list[float | int | None]
    """The value before each move and at the end, from player 0's point of view (the graph)."""
    exact: list[bool]
    """For each point of ``evaluation``: whether it is proven."""
    accuracy: list[float | None]
    """Per player: the percentage of their decisions classed best or good (None: no decision)."""
    average_loss: list[float | None]
    """Per player: the seeds lost per decision, on average (None: no decision)."""
    turning_points: list[int]
    """Numbers of the moves that turned the expected result against their player (see the module's docstring)."""
    seconds_per_position: float
    """The time each position was analysed for."""
    final: dict[str, Any] = field(default_factory=dict)
    """The position after the last move: ``{"board": ..., "to_move": ..., "over": ...}``."""
    seconds: float = 0.0
    """Wall-clock time of the review."""
    extra: dict[str, Any] = field(default_factory=dict)
    """What the review was made from: ``{"moves": N}`` (the game's length when it was reviewed)."""

    def counts(self, player: int) -> dict[str, int]:
        """How many of ``player``'s moves fell in each class."""
        found = {name: 0 for name, _ in CLASSES}
        for entry in self.moves:
            if entry.player == player:
                found[entry.klass] += 1
        return found

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of ``kalah review --json`` (and of the stored review)."""
        return {
            "format": FORMAT,
            "version": 1,
            "variant": self.variant,
            "players": self.players,
            "moves": [entry.to_dict() for entry in self.moves],
            "evaluation": self.evaluation,
            "exact": self.exact,
            "accuracy": self.accuracy,
            "average_loss": self.average_loss,
            "turning_points": self.turning_points,
            "classes": {name: (None if most == float("inf") else most) for name, most in CLASSES},
            "counts": [self.counts(0), self.counts(1)],
            "seconds_per_position": self.seconds_per_position,
            "seconds": round(self.seconds, 3),
            "game_moves": len(self.moves),
            "final": self.final,
        }


def _move_value(analysis: Analysis, move: Move) -> tuple[float | int | None, bool]:
    for entry in analysis.moves:
        if entry.move == move:
            return entry.value, entry.exact
    return None, False


def _outcome(value: float | int | None) -> int | None:
    """-1, 0 or 1: a loss, a draw or a win for the mover; an estimate within a seed of zero is a draw."""
    if value is None:
        return None
    return 0 if abs(value) < 1 else (1 if value > 0 else -1)


def _worse_result(entry: ReviewedMove) -> bool:
    """Whether the move turned the expected result against its player (a win into a draw or a loss, ...)."""
    before, after = _outcome(entry.value_before), _outcome(entry.value_after)
    return before is not None and after is not None and entry.loss > 0 and after < before


def review(
    record: GameRecord, time: float = DEFAULT_TIME, *, threads: int | None = None, progress: Progress | None = None
) -> GameReview:
    """Review every move of ``record``, analysing each position for ``time`` seconds.

    ``threads``: for the solver and the search (default: every usable core).
    ``progress(done, total)`` hears each position analysed. Raises
    :class:`ReviewError` for a bad argument.
    """
    if not isinstance(record, GameRecord):
        raise ReviewError(f"review needs a kalah GameRecord, got {type(record).__name__}")
    if isinstance(time, bool) or not isinstance(time, (int, float)) or not time > 0:
        raise ReviewError(f"time must be a positive number of seconds, got {time!r}")
    started = _time.perf_counter()
    positions: list[Position] = list(record.positions())
    total = len(positions)
    analyses: list[Analysis | None] = [None] * total
    # From the end back: the late positions are proven at once, and the solver's table they leave helps
    # prove the earlier ones.
    for done, index in enumerate(reversed(range(total)), 1):
        try:
            analyses[index] = analyse(positions[index], time, threads=threads)
        except AnalysisError as error:  # pragma: no cover - the positions of a checked record are valid
            raise ReviewError(str(error)) from None
        if progress is not None:
            progress(done, total)
    made = [analysis for analysis in analyses if analysis is not None]
    return review_of_analyses(record, made, time, seconds=_time.perf_counter() - started)


def review_of_analyses(
    record: GameRecord, analyses: list[Analysis], time: float, *, seconds: float = 0.0
) -> GameReview:
    """The review of ``record`` from the analyses of its positions (``record.positions()``, in order),
    each made for ``time`` seconds; ``seconds``: how long they took in all.

    :func:`review` analyses the positions itself; a caller that analyses them elsewhere (the web
    server, a position at a time in its engine workers) assembles the review with this. Raises
    :class:`ReviewError` when the analyses are not one per position.
    """
    positions: list[Position] = list(record.positions())
    if len(analyses) != len(positions) or not all(isinstance(entry, Analysis) for entry in analyses):
        raise ReviewError(f"a review needs one analysis per position ({len(positions)}), got {len(analyses)}")
    reviewed: list[ReviewedMove] = []
    pair, last_player = 0, None
    for number, recorded in enumerate(record.moves, 1):
        before = positions[number - 1]
        analysis = analyses[number - 1]
        assert analysis is not None
        if last_player is None or (recorded.player == 0 and last_player != 0):
            pair += 1
        last_player = recorded.player
        value_after, move_exact = _move_value(analysis, recorded.move)
        forced = len(before.legal_moves()) == 1
        # Exact: both values proven and the best moves complete (every move's value proven), so that the
        # loss and the list of best moves can both be trusted.
        exact = analysis.exact and move_exact and all(entry.exact for entry in analysis.moves)
        loss: float | int = 0
        if recorded.move in analysis.best_moves:  # keeps the value (exact), or the search's own choice
            value_after = analysis.value if value_after is None else value_after
        elif analysis.value is not None and value_after is not None:
            loss = max(analysis.value - value_after, 0)
            if not exact and loss < ESTIMATE_SLACK:
                loss = 0
            if exact:  # not a best move of a proof: every value has the parity of the seeds in play
                loss = max(loss, 2)
            loss = int(loss) if float(loss).is_integer() else round(float(loss), 2)
        reviewed.append(
            ReviewedMove(
                number=number,
                pair=pair,
                player=recorded.player,
                move=recorded.move,
                name=move_name(recorded.player, recorded.move),
                board=[list(row) for row in before.board],
                value_before=analysis.value,
                value_after=value_after,
                best_moves=list(analysis.best_moves),
                loss=0 if forced else loss,
                klass="best" if forced else classify(loss),
                exact=exact,
                forced=forced,
                move_values=[
                    {"move": entry.move, "value": entry.value, "exact": entry.exact} for entry in analysis.moves
                ],
            )
        )
    evaluation: list[float | int | None] = []
    proven: list[bool] = []
    for position, analysis in zip(positions, analyses, strict=False):
        assert analysis is not None
        value = analysis.value
        evaluation.append(None if value is None else (value if position.to_move == 0 else -value))
        proven.append(analysis.exact)
    turning = [entry.number for entry in reviewed if _worse_result(entry)]
    accuracy: list[float | None] = []
    average_loss: list[float | None] = []
    for player in (0, 1):
        decisions = [entry for entry in reviewed if entry.player == player and not entry.forced]
        if not decisions:
            accuracy.append(None)
            average_loss.append(None)
            continue
        good = sum(1 for entry in decisions if entry.klass in ("best", "good"))
        accuracy.append(round(100 * good / len(decisions), 1))
        average_loss.append(round(sum(float(entry.loss) for entry in decisions) / len(decisions), 2))
    return GameReview(
        variant=record.variant.to_dict(),
        players=[player.name for player in record.players],
        moves=reviewed,
        evaluation=evaluation,
        exact=proven,
        accuracy=accuracy,
        average_loss=average_loss,
        turning_points=turning,
        seconds_per_position=float(time),
        final={
            "board": [list(row) for row in positions[-1].board],
            "to_move": positions[-1].to_move,
            "over": positions[-1].is_over,
        },
        seconds=seconds,
        extra={"moves": len(record.moves)},
    )
