"""The exact solver: ``kalah.solve(position, time=None, ...)``.

The value of a position is the final margin (the mover's total minus the
opponent's) under perfect play by both sides. The search runs in compiled code
(``kalah.core.solver``, csrc/solve.c): MTD(f) driven null-window alpha-beta
over the seeds in the pits (the stores only add their difference, so one table
entry serves every distribution of the stores), with a large transposition
table shared by several threads (tests side by side, :mod:`kalah.solve.parallel`,
and ABDADA within a test), bounds from the seeds left, move ordering (table
move, extra turns, immediate gains, the opponent's replies) and
endgame-database probes. The first MTD(f) guess comes from a short heuristic search.

``endgame="auto"`` uses the largest database of the variant found in
:func:`kalah.endgame.default_directory`, or else computes a small one in
memory (kept for the rest of the process); ``None`` solves without one.
With ``time`` the solve stops after that many seconds and reports what it
proved (``lower <= value <= upper``).
"""

from __future__ import annotations

import os
import shutil
import threading
import time as _time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Collection, Hashable, Literal, Union

from kalah import endgame as eg
from kalah.core import solver as core
from kalah.endgame import EndgameDatabase
from kalah.rules import KalahError, Move, Position, Variant

from .parallel import SideBySide

__all__ = ["MAX_EXACT_SEEDS", "SolveError", "SolveResult", "clear_cache", "planned_max_seeds", "prepare_endgame", "solve"]

#: Above this many seeds in the pits an unlimited solve is refused (give ``time``).
MAX_EXACT_SEEDS = 60
#: The longest time budget a solve takes, in seconds (30 days): a larger one is a typing slip.
MAX_SOLVE_TIME = 30 * 86400.0
#: 2^26 entries of 8 bytes (core.TABLE_ENTRY_BYTES), 512 MiB, from 45 seeds up, however large the proof:
#: Kalah(6,5)'s value took 9% more nodes than with 4 GiB (2^29) but a quarter less time, as the table and
#: a K=28 database (3.3 GiB) then fit in the reach of the processor's TLB on huge pages; in five minutes
#: of Kalah(6,6) with K=30 it searched 1.6 times the nodes a second of an 8 GiB table (2^30) and answered
#: the same tests in two thirds of the time (docs/solve.md).
DEFAULT_TT_LOG2 = 26
TABLE_ENTRIES_PER_SECOND = 4_000_000  # about what a solve fills: a time budget's table is no larger
#: Positions of the endgame table that ``endgame="auto"`` computes in memory when none is on disk.
AUTO_TABLE_POSITIONS = 100_000_000


class SolveError(KalahError, ValueError):
    """A solve that cannot be done as asked (bad options, too large without a time budget)."""


@dataclass(frozen=True)
class SolveResult:
    """What the solver proved about a position, from the side to move's point of view.

    >>> kalah.solve(kalah.Position.start(kalah.Variant(4, 2))).describe()
    '+6'
    """

    value: int | None
    """The exact final margin (the mover's total minus the opponent's) under perfect play, or None if only bounds were proven."""
    lower: int
    """The value is at least this (equal to ``value`` when solved)."""
    upper: int
    """The value is at most this (equal to ``value`` when solved)."""
    best_moves: list[Move] = field(default_factory=list)
    """Every move that keeps the value, in pit order (empty when only bounds were proven)."""
    pv: list[Move] = field(default_factory=list)
    """A line of perfect play from the position, the first best move first."""
    nodes: int = 0
    """Positions the solver visited."""
    seconds: float = 0.0
    """Wall-clock time of the solve, database loading included."""
    endgame_seeds: int | None = None
    """K of the endgame database that was probed, or None when none was used."""
    unproven_best_move: Move | None = None
    """When the value was not proven in time: the best move of a short heuristic search (not proven)."""
    move_bounds: dict[Move, tuple[int, int]] = field(default_factory=dict)
    """When the value was not proven in time: for root moves searched in the time left, the bounds
    proven on each one's value (lower == upper: that move's value is proven)."""

    @property
    def exact(self) -> bool:
        """True when the value is proven exactly (``value`` is not None)."""
        return self.value is not None

    def describe(self) -> str:
        """``+8``, or a bound such as ``at least +4`` / ``between -2 and +6``."""
        if self.value is not None:
            return f"{self.value:+d}"
        return f"between {self.lower:+d} and {self.upper:+d}"

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape of ``kalah solve --json``."""
        return {
            "value": self.value,
            "exact": self.exact,
            "lower": self.lower,
            "upper": self.upper,
            "best_moves": list(self.best_moves),
            "pv": list(self.pv),
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "endgame_seeds": self.endgame_seeds,
            "unproven_best_move": self.unproven_best_move,
            "move_bounds": [{"move": move, "lower": lower, "upper": upper}
                            for move, (lower, upper) in self.move_bounds.items()],
        }


# --- the compiled engines, one per pit count and capture rule ----------------------


class _Engine:
    def __init__(self, pits: int, empty_capture: bool, tt_log2: int):
        self.core = core
        self.pits = pits
        self.empty_capture = empty_capture
        self.solver = core.Solver(pits, empty_capture, tt_log2)
        self.database: EndgameDatabase | None = None
        self.lock = threading.Lock()

    def attach(self, database: EndgameDatabase | None) -> None:
        if database is not self.database:
            self.database = database
            self.solver.set_endgame(database.table if database is not None else None)


_ENGINES: dict[tuple[int, bool], _Engine] = {}
#: What ``solve(..., endgame=...)`` takes: ``"auto"`` (or True) finds or builds a database, None (or False)
#: uses none, a path loads that file, an EndgameDatabase is used as it is.
EndgameChoice = Union[Literal["auto"], bool, None, str, "os.PathLike[str]", EndgameDatabase]

_MEMORY_DATABASES: dict[tuple[int, bool], EndgameDatabase] = {}
_RESIDENT_DATABASES: dict[tuple[Any, ...], EndgameDatabase] = {}
#: Solves with at least this many seeds more than a database file's K probe a private
#: copy of it on huge pages (see EndgameDatabase.in_memory): long solves, where it pays.
RESIDENT_MARGIN = 20


def clear_cache() -> None:
    """Free the solvers' tables and the databases computed in memory."""
    _ENGINES.clear()
    _MEMORY_DATABASES.clear()
    _RESIDENT_DATABASES.clear()


def default_tt_log2(seeds_on_board: int, time: float | None = None) -> int:
    """The table size (log2 of entries) for a solve of this many seeds: small problems get small tables.

    Under a time budget the table is no larger than the search can fill (a
    few million entries a second): a big table costs its page faults.
    """
    log2 = _size_tt_log2(seeds_on_board)
    if time is not None:
        while log2 > 20 and 1 << (log2 - 1) >= time * TABLE_ENTRIES_PER_SECOND:
            log2 -= 1
    return log2


def _size_tt_log2(seeds_on_board: int) -> int:
    if seeds_on_board <= 24:
        return 19
    if seeds_on_board <= 36:
        return 23
    if seeds_on_board <= 44:
        return 25
    return DEFAULT_TT_LOG2


def _physical_memory() -> int | None:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None


def _engine(
    pits: int, empty_capture: bool, tt_log2: int | None, seeds_on_board: int = 48, time: float | None = None
) -> _Engine:
    key = (pits, empty_capture)
    engine = _ENGINES.get(key)
    wanted = tt_log2 or default_tt_log2(seeds_on_board, time)
    if engine is None or engine.solver.tt_log2 < wanted or (tt_log2 is not None and engine.solver.tt_log2 != wanted):
        _ENGINES.pop(key, None)
        engine = _ENGINES[key] = _Engine(pits, empty_capture, wanted)
    return engine


def auto_max_seeds(pits: int, seeds_on_board: int, time: float | None = None) -> int | None:
    """K of the in-memory table that ``endgame="auto"`` computes, or None when none pays off.

    Under a time budget the table may take at most a quarter of it (at a
    conservative 4 million positions a second).
    """
    from kalah.endgame import table_positions

    if seeds_on_board <= 40:
        return None
    budget = AUTO_TABLE_POSITIONS if time is None else min(AUTO_TABLE_POSITIONS, int(time * 1_000_000))
    best = None
    for k in range(8, min(seeds_on_board - 4, 40) + 1):
        if table_positions(pits, k) > budget:
            break
        best = k
    return best


# --- the database a long solve builds once and keeps ---------------------------------

#: K of the database that :func:`prepare_endgame` builds, by the seeds in the pits at the start of the
#: solve: (at least this many seeds, K). Kalah(6,5) (60 seeds) gets K=28: about 3.3 GiB packed.
BUILD_PLAN = ((56, 28), (49, 24), (41, 20))
#: The smallest K worth a file (below it ``endgame="auto"`` computes a table in memory in seconds).
MIN_BUILT_SEEDS = 16
BUILD_MEMORY_SHARE = 0.75  # of the available memory, for the build (packed values and the layer being built)
SOLVE_MEMORY_SHARE = 0.9   # of the available memory, for the solve (packed values and the solver's table)
DISK_MARGIN = 1 << 30      # bytes left free on the disk after the file is written


def _available_memory() -> int | None:
    return eg.available_memory() or _physical_memory()


def _free_disk(directory: Path) -> int | None:
    folder = directory
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return None


def planned_max_seeds(pits: int, seeds_on_board: int, *, memory: int | None = None, disk: int | None = None,
                      solver_bytes: int = 0) -> int | None:
    """K of the database that :func:`prepare_endgame` builds for a solve of this many seeds, or None.

    K comes from the seeds (:data:`BUILD_PLAN`), then shrinks until the build
    (:func:`kalah.endgame.build_memory`) fits in ``BUILD_MEMORY_SHARE`` of
    ``memory``, the solve (the packed values and ``solver_bytes`` of solver
    table) in ``SOLVE_MEMORY_SHARE`` of it, and the file in ``disk`` less
    ``DISK_MARGIN`` (None: not limited). None when under :data:`MIN_BUILT_SEEDS`.
    """
    wanted = next((k for least, k in BUILD_PLAN if seeds_on_board >= least), None)
    if wanted is None:
        return None
    for k in range(wanted, MIN_BUILT_SEEDS - 1, -1):
        packed = eg.table_bytes(pits, k)
        if memory is not None and (eg.build_memory(pits, k) > BUILD_MEMORY_SHARE * memory
                                   or packed + solver_bytes > SOLVE_MEMORY_SHARE * memory):
            continue
        if disk is not None and packed + eg.HEADER.size > disk - DISK_MARGIN:
            continue
        return k
    return None


def prepare_endgame(
    position: Position | Variant,
    max_seeds: int | None = None,
    *,
    directory: str | os.PathLike[str] | None = None,
    threads: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    on_build: Callable[[int, Path, int], None] | None = None,
) -> EndgameDatabase | None:
    """The database that a solve of ``position`` should probe, built into ``directory`` if it is not there yet.

    ``directory`` defaults to :func:`kalah.endgame.default_directory`, where
    ``solve(..., endgame="auto")`` looks. K is ``max_seeds``, or else
    :func:`planned_max_seeds` for the seeds in the pits (from a variant: at the
    start), the memory available now and the free disk. A database there with
    at least that K is reused; otherwise the build runs on ``threads`` threads,
    resuming an interrupted one, and calls ``on_build(K, path, bytes)`` before it
    starts and ``progress(done, total)`` (positions) as it goes. Returns None
    when no database is planned (few seeds: the solve computes a small table
    in memory). :func:`solve` never builds a file by itself: call this first.
    """
    if isinstance(position, Variant):
        position = Position.start(position)
    variant = position.variant
    folder = Path(directory) if directory is not None else eg.default_directory()
    memory = _available_memory()
    if max_seeds is None:
        solver_bytes = core.TABLE_ENTRY_BYTES << _size_tt_log2(position.seeds_in_pits)
        k = planned_max_seeds(variant.pits, position.seeds_in_pits, memory=memory, disk=_free_disk(folder),
                              solver_bytes=solver_bytes)
        if k is None:
            return None
    else:
        if isinstance(max_seeds, bool) or not isinstance(max_seeds, int) or not 0 <= max_seeds <= 40:
            raise SolveError(f"the endgame database's K must be an integer from 0 to 40, got {max_seeds!r}")
        k = max_seeds
        needed = eg.build_memory(variant.pits, k)
        if memory is not None and needed > memory:
            raise SolveError(f"the endgame database of {variant.pits} pits up to K={k} needs {needed / 2**30:.1f} GiB"
                             f" of memory to build; {memory / 2**30:.1f} GiB is available")
    found = eg.locate(variant, folder)
    if found is not None and found.max_seeds >= k:
        return found
    path = eg.database_path(variant, k, folder)
    if on_build is not None:
        on_build(k, path, eg.table_bytes(variant.pits, k) + eg.HEADER.size)
    return eg.build(variant, k, path=path, threads=threads, progress=progress)


def _database(position: Position, endgame: EndgameChoice, threads: int, time: float | None = None) -> EndgameDatabase | None:
    database = _chosen_database(position, endgame, threads, time)
    if database is None or database.resident or position.seeds_in_pits < database.max_seeds + RESIDENT_MARGIN:
        return database
    key = (database.path, database.pits, database.empty_capture, database.max_seeds)
    if key not in _RESIDENT_DATABASES:
        _RESIDENT_DATABASES.clear()  # one private copy at a time: they can be gigabytes
        _RESIDENT_DATABASES[key] = database.in_memory()
    return _RESIDENT_DATABASES[key]


def _chosen_database(position: Position, endgame: EndgameChoice, threads: int, time: float | None = None) -> EndgameDatabase | None:
    variant = position.variant
    if endgame is None or endgame is False:
        return None
    if isinstance(endgame, eg.EndgameDatabase):
        if not endgame.covers(variant):
            raise SolveError(f"the endgame database {endgame.describe()} does not cover {variant.name}")
        return endgame
    if isinstance(endgame, (str, os.PathLike)) and endgame != "auto":
        database = eg.load(endgame)
        if not database.covers(variant):
            raise SolveError(f"the endgame database {database.describe()} does not cover {variant.name}")
        return database
    if endgame == "auto" or endgame is True:
        found = eg.locate(variant)
        key = (variant.pits, variant.empty_capture)
        memory = _MEMORY_DATABASES.get(key)
        if found is not None and (memory is None or found.max_seeds >= memory.max_seeds):
            return found
        k = auto_max_seeds(variant.pits, position.seeds_in_pits, time)
        if memory is not None and (k is None or memory.max_seeds >= k):
            return memory
        if k is None:
            return found
        memory = _MEMORY_DATABASES[key] = eg.build_in_memory(variant, k, threads=threads)
        return memory
    raise SolveError(f"endgame must be 'auto', None, a path or an EndgameDatabase, got {endgame!r}")


# --- values of positions -------------------------------------------------------------


#: Positions with at least this many seeds in the pits get a heuristic first guess for MTD(f).
GUESS_MIN_SEEDS = 30
GUESS_DEPTH = 16
GUESS_SECONDS = 0.5  # at most, for the guess's search
#: From this many seeds on a solve takes minutes, and the guess gets a deeper search: on Kalah(6,5) depth 16
#: says +7.5 (so +8), depths 21 to 23 say +9 to +9.75 (so +10, the value; depth 22 takes 4 s in a fresh
#: process), and the tests from +10 take 40% fewer nodes than those from +8.
DEEP_GUESS_SEEDS = 56
DEEP_GUESS_DEPTH = 22
DEEP_GUESS_SECONDS = 6.0


def _guess_effort(position: Position) -> tuple[int, float]:
    """The depth and the seconds (at most) of the heuristic search that gives ``position``'s first guess."""
    if position.seeds_in_pits >= DEEP_GUESS_SEEDS:
        return DEEP_GUESS_DEPTH, DEEP_GUESS_SECONDS
    return GUESS_DEPTH, GUESS_SECONDS


#: The best move of the last guess's search per position (at most a few kept): a timed solve that
#: proves no value reports it, marked unproven.
_LAST_GUESS: dict[Position, Move | None] = {}


def heuristic_guess(position: Position, threads: int | None = None) -> int | None:
    """A first guess of the value for MTD(f): a short heuristic search (a fraction of a second; a few
    seconds from :data:`DEEP_GUESS_SEEDS` on) on ``threads`` threads (default one).

    Each MTD(f) probe costs a full null-window proof; starting near the true
    value saves the climb from 0 (on Kalah(6,4): four probes of the seven). The
    guess only orders the probes: the result is proven whatever it is.
    """
    if position.seeds_in_pits < GUESS_MIN_SEEDS or position.is_over:
        return None
    from kalah.search import search

    depth, seconds = _guess_effort(position)
    result = search(position, "pvs", depth=depth, time=seconds, move_values=False, threads=threads)
    if result.value is None:
        return None
    _LAST_GUESS[position] = result.best_move
    return round(result.value)


#: The share of a timed solve's budget for bounds on the position's value; the rest goes to its
#: moves one by one, so that moves whose value is found in time are reported proven.
ROOT_SHARE = 0.7


def _root_move_bounds(run: _Run, position: Position, lower: int, upper: int) -> dict[Move, tuple[int, int]]:
    """Bounds on each root move's value, in the time left (the likely best move first)."""
    moves = position.legal_moves()
    guess = _LAST_GUESS.get(position)
    if guess in moves:
        moves.remove(guess)
        moves.insert(0, guess)
    found: dict[Move, tuple[int, int]] = {}
    deadline = run.deadline
    for index, move in enumerate(moves):
        now = run.engine.core.now()
        # Every move gets an equal share of the time left, so that each one is bounded; once the time
        # is gone a move still gets the bounds its stores and seeds prove (a search stopped at once).
        if deadline and now < deadline:
            run.deadline = now + (deadline - now) / (len(moves) - index)
        low, high = run.move_interval(position, move)
        found[move] = (max(low, -10**6), min(high, upper))  # no move is worth more than the position
    run.deadline = deadline
    return found


def _outside_in_steps(seeds: int) -> list[int]:
    """The distances from the guess at which a timed solve tests the value first, outside in: half the
    seeds in play, then halving (Kalah(6,4): 24, 12, 6, 3)."""
    steps, step = [], seeds // 2
    while step >= 2:
        steps.append(step)
        step //= 2
    return steps


def _mtdf_bars(lower: int, upper: int, e: int, slots: int, running: Collection[int]) -> list[int]:
    """The bars of MTD(f)'s next tests ("is the value at least bar?") around the estimate ``e``, to start now.

    The value is ``e`` when it is at least ``e`` and not at least ``e + 2``:
    one test at a time, the first of these not yet known is MTD(f)'s own.
    With two side by side, a fresh pair spans a gap, ``e`` and ``e + 4``, so that
    one pair settles a guess short by one step too; the bar between comes
    next, on the table of proofs on both sides of it (proofs on one side of the
    value at nearby bars share much of their tree: on Kalah(6,5), with the
    table of the proof that the value is at least +8, the test at +10 took half
    a second).
    """
    needed = [bar for bar in (e, e + 2) if lower < bar <= upper]
    if slots == 1:
        return needed[:1]
    if len(needed) == 2 and not running and e + 4 <= upper:
        needed[1] = e + 4
    return [bar for bar in needed if bar not in running]


def _narrowed(lower: int, upper: int, value: int, bar: int, seeds: int) -> tuple[int, int]:
    """The bounds after a null-window test at ``bar`` answered ``value`` (fail-soft), with the parity
    of the seeds in the pits (every value has it)."""
    if value >= bar:
        lower = max(lower, value)
    else:
        upper = min(upper, value)
    if (lower - seeds) % 2:
        lower += 1
    if (upper - seeds) % 2:
        upper -= 1
    return lower, upper


def _swap_open(position: Position) -> bool:
    """Whether the pie rule's swap is still to be decided: the value then depends on flags a search ignores."""
    return position.variant.pie_rule and (position.is_first_move or position.swap_available)


#: A null-window test to run: the mover's-view pits, beta, and whether the answer is negated (the test is
#: on the opponent's value).
_PendingTest = tuple[list[int], int, bool]


class _Run:
    """One call of solve: the engine, the deadline and the nodes spent."""

    def __init__(self, engine: _Engine, threads: int, deadline: float):
        self.engine = engine
        self.threads = threads
        self.deadline = deadline  # on the core clock; 0 = none
        self.nodes = 0
        self.timed_out = False
        self.on_bounds: Callable[[int, int], None] | None = None  # told the root's bounds as they are proven

    def _tests(self) -> SideBySide[Any]:
        return SideBySide(self.engine.solver, self.threads, self.deadline)

    def _view(self, position: Position) -> tuple[list[int], int, int]:
        """The mover's-view pits, the store difference and the seeds in the pits."""
        me = position.to_move
        pits = list(position.pits(me)) + list(position.pits(1 - me))
        return pits, position.store(me) - position.store(1 - me), sum(pits)

    def _exact_small(self, position: Position) -> int | None:
        """The value when it needs no search: a finished game or a database hit."""
        if position.is_over:
            return position.mover_margin
        database = self.engine.database
        if database is not None and position.seeds_in_pits <= database.max_seeds:
            return database.value(position)
        return None

    def plain_interval(self, position: Position, guess: int | None = None, report: bool = False,
                       until_lower: bool = False) -> tuple[int, int]:
        """Bounds on a position's value without pie-rule flags, by MTD(f): the value, or with ``until_lower``
        the bounds once a test has proven a lower bound (its tests then one at a time)."""
        small = self._exact_small(position)
        if small is not None:
            return small, small
        # A deep guess is most often the value, and then MTD(f)'s own tests, one at a time on every thread, are
        # the least work (Kalah(6,5): 469 million nodes from +10, against 591 million with a pair +10, +14);
        # a shallow one may be a step short, which a pair of tests side by side covers in one round.
        depth, seconds = _guess_effort(position)
        one_at_a_time = False
        if guess is None and (not self.deadline or self.deadline - self.engine.core.now() > 10 * seconds):
            guess = heuristic_guess(position, self.threads)  # nothing else runs yet: every thread
            one_at_a_time = guess is not None and depth > GUESS_DEPTH
        one_at_a_time = one_at_a_time or until_lower
        pits, diff, seeds = self._view(position)
        lower, upper = -seeds, seeds
        g = 0 if guess is None else max(lower, min(upper, guess - diff))
        if (g - seeds) % 2:
            g += 1 if g < upper else -1
        if self.deadline:
            lower, upper, finished = self._outside_in(pits, seeds, g, lower, upper, diff if report else None)
            if not finished:
                return lower + diff, upper + diff
            g = max(lower, min(upper, g))
        out_of_time = False
        with self._tests() as tests:
            while lower < upper and (tests.running or not out_of_time):
                if not out_of_time:
                    for bar in [bar for bar in tests.running if not lower < bar <= upper]:
                        tests.cancel(bar)  # an answer made it needless
                    bars = _mtdf_bars(lower, upper, g, 1 if one_at_a_time else tests.slots, tests.running)[:tests.free]
                    alone = len(bars) + len(tests.running) == 1
                    for bar in bars:
                        tests.start(bar, pits, bar - 1, bar, alone=alone)
                    tests.widen()
                bar, value = tests.wait()
                if value is None:  # the deadline: the others meet it too, and what they proved first counts
                    out_of_time = self.timed_out = True
                    continue
                lower, upper = _narrowed(lower, upper, value, bar, seeds)
                g = max(lower, min(upper, value))
                if report and self.on_bounds is not None:
                    self.on_bounds(lower + diff, upper + diff)
                if until_lower and value >= bar:
                    break
        self.nodes += tests.nodes
        return lower + diff, upper + diff

    def _outside_in(self, pits: list[int], seeds: int, g: int, lower: int, upper: int,
                    report_diff: int | None) -> tuple[int, int, bool]:
        """Bounds from null-window tests at bars closing in on the guess ``g`` from outside, under a time budget.

        A bar far from the value is proven in a fraction of the time of one
        near it, so the bounds tighten step by step, and a budget too short for
        the value still ends with proven bounds better than the trivial ones.
        The two sides close in independently, side by side where there are two
        slots: on Kalah(6,6) a test above the value can take far longer than
        the next one below it, and one side must not wait for the other. A
        side out of bars leaves the other test every thread. With one slot
        the sides take turns.
        The bounds, and False when the deadline stopped a test.
        """
        steps, finished = _outside_in_steps(seeds), True
        # Is the value at least bar? Each side ends with MTD(f)'s first test on its side of the guess.
        sides = [[g - step for step in steps] + [g], [g + step + 1 for step in steps] + [g + 2]]
        with self._tests() as tests:
            while True:
                for side in sides:
                    while side and not (lower < side[0] <= upper):
                        if side[0] in tests.running:
                            tests.cancel(side[0])  # an answer made it needless
                        side.pop(0)
                waiting = [side[0] for side in sides if side and side[0] not in tests.running]
                free = tests.free
                for bar in waiting[:free]:
                    tests.start(bar, pits, bar - 1, bar, alone=len(waiting) + len(tests.running) == 1)
                if not tests.running:
                    break
                if len(waiting) <= free:
                    tests.widen()  # no other test waits: the one left gets every thread
                bar, value = tests.wait()
                if value is None:  # the deadline: the other test meets it too; what was proven stands
                    finished, self.timed_out = False, True
                    break
                lower, upper = _narrowed(lower, upper, value, bar, seeds)
                answered = next(side for side in sides if side and side[0] == bar)
                answered.pop(0)
                sides.remove(answered)
                sides.append(answered)  # one slot: the sides take turns
                if report_diff is not None and self.on_bounds is not None:
                    self.on_bounds(lower + report_diff, upper + report_diff)
        self.nodes += tests.nodes
        return lower, upper, finished

    def _at_least_test(self, position: Position, target: int) -> bool | tuple[list[int], int]:
        """Whether the value is at least ``target`` when that needs no search, else the search's pits and beta."""
        small = self._exact_small(position)
        if small is not None:
            return small >= target
        pits, diff, seeds = self._view(position)
        beta = target - diff
        if beta <= -seeds:
            return True
        if beta > seeds:
            return False
        return pits, beta

    def run_tests(self, tests: dict[Hashable, _PendingTest]) -> dict[Hashable, bool | None]:
        """The answers of independent tests "is the value of pits at least beta?" (negated where asked),
        side by side; None for those the deadline stopped."""
        answers: dict[Hashable, bool | None] = {}
        waiting = list(tests)
        out_of_time = False
        with self._tests() as side:
            while waiting or side.running:
                while waiting and side.free:
                    key = waiting.pop(0)
                    pits, beta, _ = tests[key]
                    side.start(key, pits, beta - 1, beta, alone=not waiting and not side.running)
                if not waiting and not out_of_time:
                    side.widen()
                key, value = side.wait()
                answers[key] = None if value is None else (value >= tests[key][1]) != tests[key][2]
                if value is None:  # the deadline: no more tests start; those running meet it too
                    out_of_time = self.timed_out = True
                    answers.update({key: None for key in waiting})
                    waiting.clear()
        self.nodes += side.nodes
        return answers

    # --- positions with the pie rule's flags -------------------------------------

    def interval(self, position: Position, report: bool = False) -> tuple[int, int]:
        if _swap_open(position):
            lower, upper = -(10**6), -(10**6)
            for move in position.legal_moves():
                lo, hi = self.move_interval(position, move)
                lower, upper = max(lower, lo), max(upper, hi)
            return lower, upper
        return self.plain_interval(position, report=report)

    def move_interval(self, position: Position, move: Move) -> tuple[int, int]:
        """Bounds on the value of playing ``move``, for the mover of ``position``."""
        child = position.play(move)
        lo, hi = self.interval(child)
        if child.to_move == position.to_move:
            return lo, hi
        return -hi, -lo

    def move_at_least(self, position: Position, move: Move, target: int) -> bool | None:
        test = self._move_test(position, move, target)
        return self.run_tests({move: test})[move] if isinstance(test, tuple) else test

    def _move_test(self, position: Position, move: Move, target: int) -> bool | None | _PendingTest:
        """Whether playing ``move`` is worth at least ``target`` when that needs no search (None: a timeout in
        a pie-rule position's search), else the test to run."""
        child = position.play(move)
        if _swap_open(child):
            lo, hi = self.move_interval(position, move)
            return True if lo >= target else False if hi < target else None
        if child.to_move == position.to_move:
            test = self._at_least_test(child, target)
            return test if isinstance(test, bool) else (*test, False)
        test = self._at_least_test(child, -target + 1)  # child value > -target?
        return (not test) if isinstance(test, bool) else (*test, True)

    def best_moves(self, position: Position, value: int) -> list[Move] | None:
        """The moves worth ``value``."""
        moves = position.legal_moves()
        answers = self._move_answers(position, {move: value for move in moves})
        if any(answer is None for answer in answers.values()):
            return None
        return [move for move in moves if answers[move]]

    def _move_answers(self, position: Position, bars: dict[Move, int]) -> dict[Hashable, bool | None]:
        """Whether each move is worth at least its bar (None: stopped by the deadline). Each test is
        independent, so those that need a search run side by side, in the order of ``bars``."""
        answers: dict[Hashable, bool | None] = {}
        pending: dict[Hashable, _PendingTest] = {}
        for move, bar in bars.items():
            test = self._move_test(position, move, bar)
            if isinstance(test, tuple):
                pending[move] = test
            else:
                answers[move] = test
        answers.update(self.run_tests(pending))
        return answers

    def value_and_best_moves(self, position: Position, report: bool = False) -> tuple[int, list[Move]]:
        """The exact value of a position without pie-rule flags, and its best moves.

        Once a test has proven the value at least L, MTD(f) would prove that
        no move is worth L + 2, then the best moves would prove that each move
        but the best is worth less than L: every other move's bound twice.
        Tests on the moves prove both at once: the best move against L + 2,
        every other against L (Kalah(6,5): 399 million nodes against 469).
        """
        lower, upper = self.plain_interval(position, report=report, until_lower=True)
        if lower == upper:
            return lower, self.best_moves(position, lower) or []
        moves = position.legal_moves()
        hint = self.engine.solver.lookup(self._view(position)[0])
        likely = hint[2] if hint is not None and hint[2] in moves else None  # the move that proved the lower bound
        # Every value has the parity of the seeds in play, so bounds move in steps of 2.
        bounds = {move: [-(10**6), upper] for move in moves}
        heard = (lower, upper)
        while True:
            above = [move for move in moves if bounds[move][1] >= lower]
            if len(above) == 1:  # the only move that can be worth the proven lower bound is worth it
                bounds[above[0]][0] = max(bounds[above[0]][0], lower)
            upper = max(high for _, high in bounds.values())
            if report and self.on_bounds is not None and (lower, upper) != heard:
                heard = (lower, upper)
                self.on_bounds(lower, upper)
            bars = {move: lower + 2 if low >= lower or move == likely else lower
                    for move in above for low, high in [bounds[move]] if not low == high == lower}
            likely = None  # taken on trust for one round only: were it wrong, the moves' answers show it
            if not bars:
                return lower, [move for move in moves if bounds[move][0] == lower]
            hard_first = sorted(bars, key=lambda move: bars[move] == lower)  # the tests above L
            answers = self._move_answers(position, {move: bars[move] for move in hard_first})
            for move, bar in bars.items():
                answer = answers[move]
                assert answer is not None  # only a deadline leaves a test unanswered
                self._bound(bounds[move], bar, answer)
            lower = max([lower] + [low for low, _ in bounds.values()])

    @staticmethod
    def _bound(bounds: list[int], bar: int, at_least: bool) -> None:
        if at_least:
            bounds[0] = max(bounds[0], bar)
        else:
            bounds[1] = min(bounds[1], bar - 2)

    def principal_variation(self, position: Position, value: int, limit: int = 400) -> list[Move]:
        line: list[Move] = []
        while not position.is_over and len(line) < limit:
            candidates = position.legal_moves()
            if not _swap_open(position):
                pits, _, _ = self._view(position)
                hint = self.engine.solver.lookup(pits)
                if hint is not None and hint[2] in candidates:
                    candidates.remove(hint[2])
                    candidates.insert(0, hint[2])
            chosen = None
            for move in candidates:
                good = self.move_at_least(position, move, value)
                if good is None:
                    return line
                if good:
                    chosen = move
                    break
            if chosen is None:  # cannot happen with a true value; stop rather than loop
                return line
            child = position.play(chosen)
            line.append(chosen)
            if child.to_move != position.to_move:
                value = -value
            position = child
        return line


def _threads(threads: int | None) -> int:
    if threads is None:
        return max(1, min(os.cpu_count() or 1, 8))
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise SolveError(f"threads must be a positive integer, got {threads!r}")
    return min(threads, 16)


def solve(
    position: Position | None = None,
    time: float | None = None,
    *,
    threads: int | None = None,
    endgame: EndgameChoice = "auto",
    tt_log2: int | None = None,
    best_moves: bool = True,
    pv: bool = True,
    progress: Callable[[int, int], None] | None = None,
    cluster: Any = None,
    checkpoint: str | os.PathLike[str] | None = None,
) -> SolveResult:
    """Solve ``position`` (default: the start of standard Kalah) exactly.

    ``time`` limits the seconds spent; when it runs out the result carries the
    proven bounds (``value`` is None). ``threads`` (default: every core) search
    in parallel. ``endgame``: ``"auto"``, ``None``, a database file or an
    :class:`kalah.endgame.EndgameDatabase`. ``tt_log2`` sizes the table
    (2^n entries of 8 bytes). ``progress(lower, upper)`` is called with the
    bounds on the value proven so far, after each null-window test (not for
    pie-rule positions whose swap is still open). Returns a :class:`SolveResult`.

    ``cluster`` (a Dask scheduler's address or a ``distributed.Client``)
    splits the solve over the cluster's workers (:mod:`kalah.solve.cluster`;
    ``threads`` is then one per worker thread, ``pv`` is not computed, and
    ``progress`` hears the bounds after every worker's answer); ``checkpoint``
    names its SQLite file of proven bounds, from which a stopped solve resumes.
    """
    if position is None:
        position = Position.start()
    if not isinstance(position, Position):
        raise SolveError(f"solve needs a kalah.Position, got {type(position).__name__}")
    if time is not None:
        if isinstance(time, bool) or not isinstance(time, (int, float)) or not time > 0:
            raise SolveError(f"time must be a positive number of seconds, got {time!r}")
        if time > MAX_SOLVE_TIME:
            raise SolveError(f"time must be at most {MAX_SOLVE_TIME:,.0f} seconds (30 days), got {time:g}")
    elif position.seeds_in_pits > MAX_EXACT_SEEDS:
        raise SolveError(
            f"{position.variant.name} with {position.seeds_in_pits} seeds in the pits is too large to solve exactly "
            f"here (the limit without a time budget is {MAX_EXACT_SEEDS}); give a time budget to get proven bounds"
        )
    if tt_log2 is not None and (isinstance(tt_log2, bool) or not isinstance(tt_log2, int) or not 10 <= tt_log2 <= 34):
        raise SolveError(f"tt_log2 must be an integer from 10 to 34, got {tt_log2!r}")
    threads = _threads(threads)
    if cluster is not None:
        from .cluster import solve_on_cluster

        return solve_on_cluster(position, cluster, time=time, endgame=endgame, tt_log2=tt_log2, best_moves=best_moves,
                                checkpoint=checkpoint, progress=progress)[0]
    if checkpoint is not None:
        raise SolveError("a checkpoint is kept only by a solve on a cluster (give cluster=)")
    started = _time.perf_counter()
    variant = position.variant
    engine = _engine(variant.pits, variant.empty_capture, tt_log2, position.seeds_in_pits, time)
    with engine.lock:
        deadline = engine.core.now() + time if time is not None else 0.0
        database = _database(position, endgame, threads, time)
        engine.attach(database)
        run = _Run(engine, threads, deadline)
        run.on_bounds = progress
        if time is not None and not position.is_over:
            run.deadline = engine.core.now() + ROOT_SHARE * time  # the rest for the root moves one by one
        moves: list[Move] = []
        together = best_moves and not time and not position.is_over and not _swap_open(position)
        if together:
            lower, moves = run.value_and_best_moves(position, report=True)
            upper = lower
        else:
            lower, upper = run.interval(position, report=True)
        run.deadline = deadline
        value = lower if lower == upper else None
        move_bounds: dict[Move, tuple[int, int]] = {}
        if value is None and deadline and not position.is_over:
            move_bounds = _root_move_bounds(run, position, lower, upper)
            run.timed_out = True
            # The position is worth its best move: what the moves proved (every one is bounded) bounds it too.
            lower = max(lower, max(low for low, _ in move_bounds.values()))
            upper = min(upper, max(high for _, high in move_bounds.values()))
            value = lower if lower == upper else None
        line: list[Move] = []
        if value is not None and not position.is_over:
            if best_moves and not together:
                found = run.best_moves(position, value)
                moves = found if found is not None else []
            if pv:
                line = run.principal_variation(position, value)
            if not moves and line:
                moves = [line[0]]
        guess_move = _LAST_GUESS.pop(position, None) if value is None else None
        _LAST_GUESS.clear()
        seconds = _time.perf_counter() - started
    return SolveResult(
        value=value,
        lower=lower,
        upper=upper,
        best_moves=moves,
        pv=line,
        nodes=run.nodes,
        seconds=seconds,
        endgame_seeds=database.max_seeds if database is not None else None,
        unproven_best_move=guess_move,
        move_bounds=move_bounds,
    )
