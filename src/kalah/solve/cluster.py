"""A solve split over a Dask cluster: ``kalah.solve(position, cluster=ADDRESS)``.

The driver expands the position a few plies (the *split tree*: an extra turn
keeps the mover, a finished game is exact, transpositions share one node) and
runs MTD(f) over that tree itself. Each of its null-window tests, "is the
value at least g?", is decided from bounds on the frontier's leaves; the
leaves' own questions (the bar translated through the stores and the turns on
the way) are null-window tests of the compiled solver on the workers
(:func:`kalah.solve.leaf.leaf_test`). Leaves with the same pits seen from the
mover share one entry, since their pits value is the same.

The questions go out in the order a sequential alpha-beta would ask them, as
many at a time as the cluster has threads: what alpha-beta would have proven
first goes first, and the rest is speculation that keeps the workers busy; a
test that no question needs any more is cancelled (its worker stops within a
tenth of a second). A leaf goes back to the worker that tested it last, whose
table holds its proof. The proof of one leaf can be most of the work: a leaf
whose last test was costly, or one a worker is busy with while another
idles, is split one ply further and its children are tested instead (its own
running test still counts). Every answer is written to the checkpoint
(:mod:`kalah.solve.checkpoint`) before it is used, so a solve interrupted at
any point resumes without asking again what it had been told.
"""

from __future__ import annotations

import os
import time as _time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kalah.rules import Move, Position

from .bounds import ABOVE_EVERY_VALUE, BELOW_EVERY_VALUE, outside_in_steps, swap_open
from .checkpoint import Checkpoint, rules_key
from .dask_client import connect
from .databases import EndgameChoice
from .engine import DEFAULT_TT_LOG2, default_tt_log2
from .guess import guess_effort, heuristic_guess
from .leaf import DatabaseSpec, LeafAnswer, database_spec, leaf_test
from .result import SolveError, SolveResult

__all__ = ["CONNECT_SECONDS", "DEFAULT_SPLIT_PLIES", "ClusterReport", "solve_on_cluster"]

#: How long to wait for the scheduler before giving up.
CONNECT_SECONDS = 3.0
#: Plies of the split tree below the position (moves of an open pie rule come on top).
DEFAULT_SPLIT_PLIES = 2
#: A leaf whose test keeps a worker busy while others idle is split, down to this many plies below the frontier...
MAX_EXTRA_PLIES = 4
#: ... if it has at least this many seeds in the pits (smaller proofs are quicker than sending their parts).
MIN_SPLIT_SEEDS = 20
#: A leaf to be tested again whose last test took at least this share of the nodes so far (and at least
#: COSTLY_NODES) is split first.
COSTLY_SHARE = 0.25
COSTLY_NODES = 1_000_000

Pits = tuple[int, ...]


@dataclass
class ClusterReport:
    """How a distributed solve went: the split tree and the tests sent to the workers."""

    split_plies: int
    """Plies the position was expanded before the leaves."""
    leaves: int
    """Distinct leaves (positions with the same pits seen from the mover count once)."""
    from_checkpoint: int = 0
    """Leaves whose bounds the checkpoint already held when the solve started."""
    submitted: list[tuple[Pits, int]] = field(default_factory=list)
    """Every test sent to a worker, as (leaf pits, bar on its pits value), in order."""
    answered: int = 0
    """Tests whose answer came back (and went to the checkpoint)."""
    split: int = 0
    """Leaves split one ply further during the solve, to give idle workers parts of a long proof."""
    cancelled: int = 0
    """Tests cancelled while they ran or waited, because no question needed them any more."""


@dataclass(eq=False)
class _Node:
    position: Position
    children: list[tuple[Move, _Node, bool]] = field(default_factory=list)  # (move, child, same mover)
    exact: int | None = None  # a finished game's margin
    leaf: Pits | None = None  # a frontier leaf: its pits seen from the mover (kept when it is split later)
    diff: int = 0  # the mover's store minus the opponent's
    plies: int = 0  # plies left to the frontier: 0 at a leaf, -1 at the children of a split leaf, ...

    def split(self, nodes: dict[tuple[Position, int], _Node]) -> None:
        """Give a leaf its children (one ply deeper, keyed by their own depth: the tree stays acyclic)."""
        me = self.position.to_move
        for move in self.position.legal_moves():
            child = self.position.play(move)
            self.children.append((move, _split(child, self.plies - 1, nodes), child.to_move == me))


def _split(position: Position, plies: int, nodes: dict[tuple[Position, int], _Node]) -> _Node:
    """The split tree below ``position`` (shared nodes for transpositions at the same depth)."""
    key = (position, plies)
    if key in nodes:
        return nodes[key]
    node = nodes[key] = _Node(position, plies=plies)
    me = position.to_move
    node.diff = position.store(me) - position.store(1 - me)
    if position.is_over:
        node.exact = position.mover_margin
    elif plies <= 0 and not swap_open(position):
        node.leaf = tuple(position.pits(me)) + tuple(position.pits(1 - me))
    else:
        node.split(nodes)
    return node


class _Driver:
    """One distributed solve: the split tree, the leaves' bounds, the workers and the tests in flight."""

    def __init__(
        self,
        client: Any,
        root: _Node,
        nodes: dict[tuple[Position, int], _Node],
        rules: str,
        checkpoint: Checkpoint | None,
        database: DatabaseSpec,
        tt_log2: int,
        deadline: float | None,
        report: ClusterReport,
        progress: Callable[[int, int], None] | None,
    ):
        self.client = client
        self.root = root
        self.tree = nodes
        self.rules = rules
        self.checkpoint = checkpoint
        self.database = database
        self.tt_log2 = tt_log2
        self.deadline = deadline
        self.report = report
        self.progress = progress
        self.bounds: dict[Pits, tuple[int, int]] = {}
        self.flying: dict[Any, tuple[Pits, int, str]] = {}  # future -> (leaf, bar, worker)
        self.home: dict[Pits, str] = {}  # the worker that tested a leaf last
        from distributed import as_completed

        self.answers = as_completed(loop=client.loop)
        self.nodes = 0
        self.cost: dict[Pits, int] = {}  # the most nodes one test of a leaf took
        self.timed_out = False

    # --- bounds through the tree -----------------------------------------------------

    def leaf_bounds(self, pits: Pits) -> tuple[int, int]:
        seeds = sum(pits)
        return self.bounds.get(pits, (-seeds, seeds))

    def interval(self, node: _Node, memo: dict[int, tuple[int, int]]) -> tuple[int, int]:
        """Bounds on the node's value (the mover's final margin) from the leaves' bounds."""
        if node.exact is not None:
            return node.exact, node.exact
        own = (BELOW_EVERY_VALUE, ABOVE_EVERY_VALUE)
        if node.leaf is not None:
            lower, upper = self.leaf_bounds(node.leaf)
            own = (lower + node.diff, upper + node.diff)
            if not node.children:
                return own
        found = memo.get(id(node))
        if found is None:
            lower = upper = BELOW_EVERY_VALUE
            for _, child, same in node.children:
                low, high = self.interval(child, memo)
                if not same:
                    low, high = -high, -low
                lower, upper = max(lower, low), max(upper, high)
            # a split leaf: what its own tests proved holds as well as what its children prove
            found = memo[id(node)] = (max(lower, own[0]), min(upper, own[1]))
        return found

    def questions(
        self,
        node: _Node,
        bar: int,
        memo: dict[int, tuple[int, int]],
        out: dict[tuple[Pits, int], _Node],
        keep: set[tuple[Pits, int]],
    ) -> None:
        """The leaf tests that could decide "value(node) >= bar", in the order alpha-beta would ask them, into
        ``out``; into ``keep``, the tests of split leaves, which may still run but are not asked again."""
        lower, upper = self.interval(node, memo)
        if lower >= bar or upper < bar:
            return
        if node.leaf is not None:
            leaf_bar = bar - node.diff
            leaf_bar += (leaf_bar - sum(node.leaf)) % 2  # pits values have the parity of the seeds in the pits
            if not node.children:
                out.setdefault((node.leaf, leaf_bar), node)
                return
            keep.add((node.leaf, leaf_bar))

        def promise(entry: tuple[Move, _Node, bool]) -> tuple[int, int]:
            low, high = self.interval(entry[1], memo)
            return (high, low) if entry[2] else (-low, -high)

        for _, child, same in sorted(node.children, key=promise, reverse=True):
            self.questions(child, bar if same else 1 - bar, memo, out, keep)

    # --- the workers -----------------------------------------------------------------

    def remaining(self) -> float | None:
        return None if self.deadline is None else max(0.0, self.deadline - _time.monotonic())

    def idle(self) -> tuple[dict[str, int], Counter[str]]:
        """The cluster's worker threads now (workers may come and go) and how many of each run our tests."""
        threads = self.client.nthreads()
        if not threads:
            raise SolveError("the Dask cluster has no workers")
        return threads, Counter(address for _, _, address in self.flying.values())

    def free(self) -> bool:
        threads, used = self.idle()
        return any(count > used[address] for address, count in threads.items())

    def submit(self, wanted: dict[tuple[Pits, int], _Node]) -> None:
        threads, used = self.idle()
        busy = {leaf for leaf, _, _ in self.flying.values()}
        for (leaf, bar), node in wanted.items():
            free = [address for address, count in threads.items() if count > used[address]]
            if not free:
                return
            if leaf in busy:
                continue
            home = self.home.get(leaf, "")
            address = home if home in free else free[0]  # its last worker's table holds its proof
            future = self.client.submit(
                leaf_test,
                node.position,
                bar,
                self.database,
                self.tt_log2,
                self.remaining(),
                workers=[address],
                allow_other_workers=True,
                pure=False,
            )
            self.flying[future] = (leaf, bar, address)
            self.answers.add(future)
            used[address] += 1
            self.home[leaf] = address
            busy.add(leaf)
            self.report.submitted.append((leaf, bar))

    def receive(self) -> None:
        """Wait for at least one answer and take in every answer that is there.

        No timeout here: under a time budget every test carries its own deadline.
        """
        for future in self.answers.next_batch(block=True):
            if future not in self.flying:  # cancelled: no question needed it any more
                continue
            leaf, bar, _ = self.flying.pop(future)
            answer: LeafAnswer = future.result()
            if answer is None:
                self.timed_out = True
                continue
            self.take(leaf, answer)

    def take(self, leaf: Pits, answer: tuple[int, int, int]) -> None:
        lower, upper, nodes = answer
        self.nodes += nodes
        self.cost[leaf] = max(self.cost.get(leaf, 0), nodes)
        old_lower, old_upper = self.leaf_bounds(leaf)
        lower, upper = max(lower, old_lower), min(upper, old_upper)
        if lower > upper:  # two proofs that contradict each other: a checkpoint of some other solver?
            raise SolveError(
                f"contradictory bounds on the leaf {leaf}: {old_lower}..{old_upper} and {answer[0]}..{answer[1]}"
            )
        self.bounds[leaf] = (lower, upper)
        if self.checkpoint is not None:
            self.checkpoint.record(self.rules, leaf, lower, upper)
        self.report.answered += 1
        if self.progress is not None:
            self.progress(*self.interval(self.root, {}))

    def split_blocked(self, wanted: dict[tuple[Pits, int], _Node]) -> bool:
        """With a worker idle and every wanted leaf in a worker's hands, split the first such leaf one ply:
        its children's tests go to the idle workers while its own test runs on (the long proof of one
        leaf would otherwise keep the others waiting). True if a leaf was split."""
        if not self.free():
            return False
        for node in wanted.values():
            if node.plies > -MAX_EXTRA_PLIES and node.position.seeds_in_pits >= MIN_SPLIT_SEEDS:
                node.split(self.tree)
                self.report.split += 1
                return True
        return False

    def split_costly(self, wanted: dict[tuple[Pits, int], _Node]) -> bool:
        """Split a wanted leaf whose earlier test took a large share of the work so far, so that its next
        proof is shared among the workers instead of keeping one of them for all of it."""
        share = self.nodes * COSTLY_SHARE
        for (leaf, _), node in wanted.items():
            if (
                self.cost.get(leaf, 0) >= max(share, COSTLY_NODES)
                and leaf not in self.busy_leaves()
                and node.plies > -MAX_EXTRA_PLIES
                and node.position.seeds_in_pits >= MIN_SPLIT_SEEDS
            ):
                node.split(self.tree)
                self.report.split += 1
                return True
        return False

    def busy_leaves(self) -> set[Pits]:
        return {leaf for leaf, _, _ in self.flying.values()}

    def decide(self, tests: list[tuple[_Node, int]]) -> bool:
        """Ask the workers until every "value(node) >= bar" of ``tests`` is decided; False if the time ran out."""
        while True:
            memo: dict[int, tuple[int, int]] = {}
            wanted: dict[tuple[Pits, int], _Node] = {}
            keep: set[tuple[Pits, int]] = set()
            for node, bar in tests:
                self.questions(node, bar, memo, wanted, keep)
            if not wanted:
                return True
            if self.timed_out or self.remaining() == 0:
                self.timed_out = True
                return False
            if self.split_costly(wanted):
                continue
            self.cancel_unless(keep.union(wanted))
            self.submit(wanted)
            if self.split_blocked(wanted):
                continue
            if self.flying:
                self.receive()

    def cancel_unless(self, needed: set[tuple[Pits, int]]) -> None:
        """Cancel the tests in flight that no question needs any more (the worker stops within a moment)."""
        for future, (leaf, bar, _) in list(self.flying.items()):
            if (leaf, bar) not in needed:
                self.client.cancel([future])
                del self.flying[future]
                self.report.cancelled += 1

    def stop(self) -> None:
        self.client.cancel(list(self.flying))
        self.flying.clear()


def solve_on_cluster(
    position: Position,
    cluster: Any,
    *,
    time: float | None = None,
    endgame: EndgameChoice = "auto",
    tt_log2: int | None = None,
    best_moves: bool = True,
    checkpoint: str | os.PathLike[str] | None = None,
    split_plies: int = DEFAULT_SPLIT_PLIES,
    progress: Callable[[int, int], None] | None = None,
    connect_timeout: float = CONNECT_SECONDS,
) -> tuple[SolveResult, ClusterReport]:
    """Solve ``position`` on the Dask cluster ``cluster`` (an address or a ``distributed.Client``).

    The value is the one :func:`kalah.solve` finds on one machine; the best
    moves are found too (``best_moves``), the principal variation is not.
    ``checkpoint`` names a SQLite file that keeps every proven leaf bound: a
    solve started again with it resumes. ``split_plies`` is the depth of the
    split tree. ``progress(lower, upper)`` hears the bounds on the value after
    every answer of a worker. Returns the result and a :class:`ClusterReport`.

    Raises:
        SolveError: a bad ``split_plies`` or ``endgame``, an in-memory database, no Dask
            installed, a scheduler that cannot be reached or has no workers.
        kalah.solve.checkpoint.CheckpointError: the checkpoint cannot be read or written.
    """
    if isinstance(split_plies, bool) or not isinstance(split_plies, int) or not 0 <= split_plies <= 8:
        raise SolveError(f"split_plies must be an integer from 0 to 8, got {split_plies!r}")
    started = _time.perf_counter()
    variant = position.variant
    database, k = database_spec(position, endgame)
    nodes: dict[tuple[Position, int], _Node] = {}
    root = _split(position, split_plies, nodes)
    leaves = {node.leaf for node in nodes.values() if node.leaf is not None}
    report = ClusterReport(split_plies, len(leaves))
    store = Checkpoint(checkpoint) if checkpoint is not None else None
    client, ours = None, False
    driver = None
    try:
        rules = rules_key(variant.pits, variant.empty_capture)
        known = store.load(rules) if store is not None else {}
        client, ours = connect(cluster, connect_timeout)
        deadline = _time.monotonic() + time if time is not None else None
        seeds = max((sum(leaf) for leaf in leaves), default=0)
        # one table per worker thread, several on a machine: no larger than one solve's default alone
        table = tt_log2 or min(default_tt_log2(seeds, time), DEFAULT_TT_LOG2)
        driver = _Driver(client, root, nodes, rules, store, database, table, deadline, report, progress)
        driver.bounds = _resplit(nodes, known)
        report.from_checkpoint = len(driver.bounds)
        lower, upper = _mtdf(driver, position)
        value = lower if lower == upper else None
        moves: list[Move] = []
        move_bounds: dict[Move, tuple[int, int]] = {}
        if value is not None and best_moves and root.children:
            tests = [(child, value if same else 1 - value) for _, child, same in root.children]
            if driver.decide(tests):
                memo: dict[int, tuple[int, int]] = {}
                moves = [
                    move
                    for move, child, same in root.children
                    if (driver.interval(child, memo)[0] if same else -driver.interval(child, memo)[1]) >= value
                ]
        if value is None:
            memo = {}
            for move, child, same in root.children:
                low, high = driver.interval(child, memo)
                move_bounds[move] = (low, high) if same else (-high, -low)
    finally:
        if driver is not None:
            driver.stop()
        if ours and client is not None:
            client.close()
        if store is not None:
            store.close()
    result = SolveResult(
        value=value,
        lower=lower,
        upper=upper,
        best_moves=moves,
        pv=[],
        nodes=driver.nodes,
        seconds=_time.perf_counter() - started,
        endgame_seeds=k,
        move_bounds=move_bounds,
    )
    return result, report


def _resplit(
    nodes: dict[tuple[Position, int], _Node], known: dict[Pits, tuple[int, int]]
) -> dict[Pits, tuple[int, int]]:
    """Split again the leaves an earlier run had split (those with a child in the checkpoint); the bounds of
    the tree's leaves that the checkpoint holds."""
    leaves = [node for node in nodes.values() if node.leaf is not None]
    while leaves:
        node = leaves.pop()
        if node.children or node.plies <= -MAX_EXTRA_PLIES:
            continue
        for move in node.position.legal_moves():
            child = node.position.play(move)
            mover = child.to_move
            if tuple(child.pits(mover)) + tuple(child.pits(1 - mover)) in known:
                before = set(nodes)
                node.split(nodes)
                leaves += [nodes[key] for key in set(nodes) - before if nodes[key].leaf is not None]
                break
    return {node.leaf: known[node.leaf] for node in nodes.values() if node.leaf is not None and node.leaf in known}


def _mtdf(driver: _Driver, position: Position) -> tuple[int, int]:
    """MTD(f) over the split tree: null-window tests of the root until its bounds meet (or the time runs out)."""
    total = sum(position.cells)  # every final margin has the parity of the seeds in the game
    lower, upper = driver.interval(driver.root, {})
    remaining = driver.remaining()
    worth_a_guess = lower < upper and (remaining is None or remaining > 10 * guess_effort(position)[1])
    guess = heuristic_guess(position) if worth_a_guess else None
    g = 0 if guess is None else guess.value
    g = max(lower, min(upper, g))
    if (g - total) % 2:
        g += 1 if g < upper else -1
    if remaining is not None:
        # under a time budget, close in from outside: a bar far from the value is proven in a fraction
        # of the time of one near it, so a short budget still proves something (one bar at a time, each
        # spread over the workers, where one machine runs the two sides side by side)
        for step in outside_in_steps(position.seeds_in_pits):
            for bar in (g - step, g + step + 1):
                if lower < bar <= upper and not driver.decide([(driver.root, bar)]):
                    return driver.interval(driver.root, {})
                lower, upper = driver.interval(driver.root, {})
        g = max(lower, min(upper, g))
    while lower < upper:
        bar = g + 1 if g == lower else g
        if not driver.decide([(driver.root, bar)]):
            lower, upper = driver.interval(driver.root, {})
            break
        lower, upper = driver.interval(driver.root, {})
        g = lower if lower >= bar else upper
    return lower, upper
