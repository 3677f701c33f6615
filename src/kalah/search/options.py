"""What a search may be asked: the algorithms, the evaluations, the limits, and their checks."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import Any, Literal, cast

from kalah.core.search import MAX_DEPTH, MAX_THREADS
from kalah.rules import KalahError

__all__ = [
    "ALGORITHMS",
    "AlgorithmName",
    "Bound",
    "DEFAULT_DEPTH",
    "EVALUATIONS",
    "EXACT_ALGORITHMS",
    "EvaluationName",
    "Limit",
    "MAX_DEPTH",
    "MAX_PLAYOUTS",
    "MAX_THREADS",
    "MAX_TIME",
    "PRACTICAL_ALGORITHMS",
    "SearchError",
    "check_algorithm",
    "check_depth",
    "check_evaluation",
    "check_threads",
    "check_time",
    "default_threads",
    "one_of",
]

#: How much is known about a root move's value (see :class:`MoveValue`).
Bound = Literal["exact", "lower", "upper", "unknown", "estimate"]
#: The name of a search algorithm (one of ``ALGORITHMS``).
AlgorithmName = Literal["minimax", "alphabeta", "scout", "pvs", "mtdf", "mcts"]
#: The name of an evaluation at the depth limit (one of ``EVALUATIONS``).
EvaluationName = Literal["strong", "store", "seed"]

EXACT_ALGORITHMS: tuple[AlgorithmName, ...] = ("minimax", "alphabeta", "scout", "pvs", "mtdf")
ALGORITHMS: tuple[AlgorithmName, ...] = EXACT_ALGORITHMS + ("mcts",)
#: The engines that may use every technique (the others stay as the textbooks write them).
PRACTICAL_ALGORITHMS: tuple[AlgorithmName, ...] = ("pvs", "mtdf")
EVALUATIONS: tuple[EvaluationName, ...] = ("strong", "store", "seed")
DEFAULT_DEPTH = 8
#: The longest a search may be given, in seconds (a day): a larger budget is a typing slip, and a
#: deadline beyond it would overflow the engine's clock arithmetic to no purpose.
MAX_TIME = 86400.0
#: The most playouts an MCTS search may be asked for (minutes of work; the engine counts them in a C long).
MAX_PLAYOUTS = 100_000_000


class SearchError(KalahError, ValueError):
    """Bad search parameters: an unknown algorithm or evaluation, a bad depth or time."""


@dataclass(frozen=True)
class Limit:
    """When a search stops, as one object (python-chess's ``engine.Limit``): ``search(position, limit=...)``.

    The same limits are also plain parameters of :func:`kalah.search`; give
    them one way or the other. A limit left None does not limit.

    >>> kalah.search(kalah.Position.start(), limit=kalah.Limit(depth=4)).depth
    4
    """

    depth: int | None = None
    """The depth in moves (progressive deepening stops there)."""
    time: float | None = None
    """Seconds for the whole search: the hard limit."""
    soft_time: float | None = None
    """With ``time``: past this many seconds a search stops after an iteration once its best move is stable."""
    playouts: int | None = None
    """MCTS only: the random games to play."""


def check_algorithm(name: Any) -> AlgorithmName:
    """``algorithm`` if it is one of ``ALGORITHMS`` (any case, spaces around), else a SearchError naming them.

    Raises:
        SearchError: ``name`` is not one of ``ALGORITHMS``.
    """
    return cast(AlgorithmName, one_of(name, ALGORITHMS, "algorithm"))


def check_evaluation(name: Any) -> EvaluationName:
    """``evaluation`` if it is one of ``EVALUATIONS`` (any case, spaces around), else a SearchError naming them.

    Raises:
        SearchError: ``name`` is not one of ``EVALUATIONS``.
    """
    return cast(EvaluationName, one_of(name, EVALUATIONS, "evaluation"))


def one_of(name: Any, accepted: tuple[str, ...], what: str) -> str:
    """``name`` in lower case without spaces around if it is one of ``accepted``, else a SearchError naming them.

    Raises:
        SearchError: ``name`` is not one of ``accepted``.
    """
    if not isinstance(name, str) or name.strip().lower() not in accepted:
        raise SearchError(f"unknown {what} {name!r}; accepted: {', '.join(accepted)}")
    return name.strip().lower()


def check_depth(depth: Any) -> int | None:
    """``depth`` as a depth limit (1 to :data:`MAX_DEPTH`), else a SearchError.

    Raises:
        SearchError: ``depth`` is not a whole number from 1 to MAX_DEPTH.
    """
    if depth is None:
        return None
    if isinstance(depth, bool) or not isinstance(depth, int):
        raise SearchError(f"depth must be a whole number of moves (1 or more), got {depth!r}")
    if depth < 1:
        raise SearchError(f"depth must be at least 1, got {depth}")
    if depth > MAX_DEPTH:
        raise SearchError(f"depth must be at most {MAX_DEPTH} (the engine's deepest line), got {depth}")
    return depth


def check_time(time: Any) -> float | None:
    """``time`` as positive seconds up to :data:`MAX_TIME` (None stays None), else a SearchError.

    Raises:
        SearchError: ``time`` is not a positive number of seconds up to MAX_TIME.
    """
    if time is None:
        return None
    if isinstance(time, bool) or not isinstance(time, (int, float)) or math.isnan(time):
        raise SearchError(f"time must be a number of seconds, got {time!r}")
    if time <= 0:
        raise SearchError(f"time must be a positive number of seconds, got {time}")
    if time > MAX_TIME:
        raise SearchError(f"time must be at most {MAX_TIME:g} seconds (a day), got {time:g}")
    return float(time)


def check_threads(threads: Any) -> int:
    """``threads`` as a whole number from 1 to MAX_THREADS, or a SearchError naming the problem.

    Raises:
        SearchError: ``threads`` is not a whole number from 1 to ``MAX_THREADS``.
    """
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= MAX_THREADS:
        raise SearchError(f"threads must be a whole number from 1 to {MAX_THREADS}, got {threads!r}")
    return threads


def default_threads() -> int:
    """Threads of a timed search: ``KALAH_THREADS`` if set, else the cores this process may use.

    Worker processes that already fill the cores (the web server's engine
    workers, an arena's games) set ``KALAH_THREADS=1``.

    Raises:
        SearchError: ``KALAH_THREADS`` is set to something else than a whole number from 1
            to ``MAX_THREADS``.
    """
    setting = os.environ.get("KALAH_THREADS", "").strip()
    if setting:
        try:
            return check_threads(int(setting))
        except ValueError:
            raise SearchError(
                f"KALAH_THREADS must be a whole number from 1 to {MAX_THREADS}, got {setting!r}"
            ) from None
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(MAX_THREADS, cores))
