"""``kalah.review.review``: every position of a game analysed, then every move judged."""

from __future__ import annotations

import time as _time
from collections.abc import Callable

from kalah.analysis import Analysis, AnalysisError, analyse
from kalah.records import GameRecord
from kalah.rules import Move, Outcome, Position, PovValue, move_name

from .classes import ESTIMATE_SLACK, classify
from .result import GameReview, ReviewedMove, ReviewError

__all__ = ["DEFAULT_TIME", "Progress", "review", "review_of_analyses"]

#: Seconds of analysis per position by default: a 40-move game takes at most about 16 s.
DEFAULT_TIME = 0.4
#: ``progress(done, total)``: positions analysed so far, positions in all.
Progress = Callable[[int, int], None]


def _move_value(analysis: Analysis, move: Move) -> tuple[float | int | None, bool]:
    for entry in analysis.moves:
        if entry.move == move:
            return entry.value, entry.exact
    return None, False


def _worse_result(entry: ReviewedMove) -> bool:
    """Whether the move turned the expected result against its player (a win into a draw or a loss, ...);
    an estimate within a seed of zero promises a draw."""
    if entry.value_before is None or entry.value_after is None:
        return False
    before = Outcome.expected(PovValue(entry.value_before, entry.player), draw_below=1)
    after = Outcome.expected(PovValue(entry.value_after, entry.player), draw_below=1)
    return entry.loss > 0 and after.score(entry.player) < before.score(entry.player)


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
        evaluation.append(None if value is None else PovValue(value, position.to_move).pov(0))
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
