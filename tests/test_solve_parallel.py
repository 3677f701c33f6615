"""Null-window tests side by side (kalah.solve.parallel) and the MTD(f) schedule that uses them."""

from __future__ import annotations

import _thread
import random
import threading
import time
import types

import pytest

from helpers import scattered_position
from kalah import Position, Variant
from kalah.core.solver import Solver, StopFlag, now
from kalah.solve import clear_cache
from kalah.solve.bounds import mtdf_bars as _mtdf_bars
from kalah.solve.engine import engine_for as _engine
from kalah.solve.parallel import SideBySide
from kalah.solve.run import Run as _Run
from test_solve_truth import brute

# Standard Kalah's start: a null-window test of it runs for minutes without a database.
BIG = [6] * 12


def test_one_slot_tests_the_bar_of_mtdf():
    assert _mtdf_bars(-10, 10, 4, 1, ()) == [4]  # the estimate is above the lower bound: is the value at least 4?
    assert _mtdf_bars(4, 10, 4, 1, ()) == [6]  # it is the lower bound: is the value above it?
    assert _mtdf_bars(-10, 4, 4, 1, ()) == [4]


def test_a_fresh_pair_spans_a_gap_around_the_estimate():
    assert _mtdf_bars(-10, 10, 4, 2, ()) == [4, 8]
    assert _mtdf_bars(-10, 6, 4, 2, ()) == [4, 6]  # no room for the gap
    assert _mtdf_bars(-10, 4, 4, 2, ()) == [4]  # only the side below the upper bound is open


def test_the_bar_between_two_answers_follows_and_nothing_runs_twice():
    # At least 4 was proven while the test at 8 runs: is it at least 6?
    assert _mtdf_bars(4, 10, 4, 2, (8,)) == [6]
    # ... and once at least 6 is proven too, only the running test is needed.
    assert _mtdf_bars(6, 10, 6, 2, (8,)) == []
    assert _mtdf_bars(-10, 10, 4, 2, (4,)) == [6]


def _solver() -> Solver:
    return Solver(6, False, 16)


def test_two_tests_side_by_side_answer_as_each_alone():
    pits = [2, 0, 3, 1, 0, 2, 1, 2, 0, 1, 3, 1]
    alone = {beta: _solver().search(pits, beta - 1, beta, 1)[0] >= beta for beta in (-4, 0, 4)}
    with SideBySide(_solver(), threads=2, deadline=0.0) as tests:
        assert tests.slots == 2
        tests.start(-4, pits, -5, -4)
        tests.start(0, pits, -1, 0)
        assert tests.free == 0
        answers = dict(tests.wait() for _ in range(2))
        tests.start(4, pits, 3, 4, alone=True)
        answers.update([tests.wait()])
    assert {beta: value >= beta for beta, value in answers.items()} == alone
    assert tests.nodes > 0


def test_a_cancelled_test_stops_at_once_and_its_nodes_count():
    with SideBySide(_solver(), threads=2, deadline=0.0) as tests:
        tests.start("big", BIG, 3, 4)
        tests.start("small", [1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0], 0, 1)
        assert tests.wait()[0] == "small"
        time.sleep(0.2)
        tests.cancel("big")
        started = time.perf_counter()
    assert time.perf_counter() - started < 2
    assert tests.nodes > 1000  # the big test's nodes before it stopped


def test_a_search_stopped_before_it_began_searches_no_node():
    # A fresh table: its first nodes would each fault in a page; a stop requested already ends it at once.
    stop = StopFlag()
    stop.request()
    assert Solver(6, False, 24).search(BIG, 3, 4, 1, 0.0, stop) == (0, True, 0)


def test_a_stop_on_a_cold_table_is_seen_within_64_nodes_a_thread():
    solver, stop = Solver(6, False, 28), StopFlag()  # 4 GiB of table, all of it still to be faulted in
    answer: list = []
    thread = threading.Thread(target=lambda: answer.append(solver.search(BIG, 3, 4, 2, 0.0, stop)))
    thread.start()
    time.sleep(0.05)
    stop.request()
    asked = time.perf_counter()
    thread.join(30)
    assert not thread.is_alive() and time.perf_counter() - asked < 1
    (_, aborted, nodes) = answer[0]
    assert aborted and nodes > 0


def test_a_test_left_alone_is_restarted_on_every_thread():
    with SideBySide(_solver(), threads=2, deadline=0.0) as tests:
        tests.start("big", BIG, 3, 4)
        assert tests.running["big"].threads == 1
        tests.widen()
        assert tests.running["big"].threads == 2
        tests.cancel("big")


def test_the_deadline_stops_a_test_and_it_answers_none():
    solver = _solver()  # allocated before the clock starts

    with SideBySide(solver, threads=2, deadline=now() + 0.3) as tests:
        tests.start("big", BIG, 3, 4, alone=True)
        assert tests.wait() == ("big", None)


def test_ctrl_c_while_waiting_stops_every_test():
    before = threading.active_count()
    timer = threading.Timer(0.3, _thread.interrupt_main)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        with SideBySide(_solver(), threads=2, deadline=0.0) as tests:
            tests.start(1, BIG, 3, 4)
            tests.start(2, BIG, 5, 6)
            tests.wait()
    timer.join()
    assert not tests.running and threading.active_count() == before


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_mtdf_side_by_side_finds_the_value_from_any_guess(threads):
    """Every first guess, far below, right and far above, leads the schedule (pairs, cancels, restarts) to the value."""
    clear_cache()
    rng = random.Random(41 + threads)
    variant = Variant(pits=4, seeds=1)
    engine = _engine(variant.pits, variant.empty_capture, 18)
    for _ in range(4):
        position = scattered_position(rng, variant, 10)
        expected = brute(position)
        for guess in range(expected - 12, expected + 13, 3):
            engine.solver.clear()  # each guess from an empty table, so every path is searched
            run = _Run(engine, threads, 0.0)
            assert run.plain_interval(position, guess=guess) == (expected, expected), (position, guess)


class ScriptedSolver:
    """Stands in for the compiled solver: answers "at least bar?" about a known value after a set time per bar,
    fail-soft at the bar (a bound, not the value), and records each search's bar and threads."""

    def __init__(self, value: int, seconds: dict[int, float]):
        self.value = value
        self.seconds = seconds
        self.calls: list[tuple[int, int]] = []
        self.lock = threading.Lock()

    def search(self, pits, alpha, beta, threads, deadline, stop):
        with self.lock:
            self.calls.append((beta, threads))
        end = time.monotonic() + self.seconds.get(beta, 0.01)
        while time.monotonic() < end:
            if stop.requested or (deadline and now() > deadline):
                return 0, True, 1
            time.sleep(0.002)
        return (beta if self.value >= beta else beta - 2), False, 1


def _scripted_run(
    value: int, seconds: dict[int, float], deadline: float = 0.0, threads: int = 2
) -> tuple[_Run, ScriptedSolver]:
    solver = ScriptedSolver(value, seconds)
    engine = types.SimpleNamespace(solver=solver, database=None, core=types.SimpleNamespace(now=now))
    return _Run(engine, threads, deadline), solver  # type: ignore[arg-type]


START = Position.start(Variant(6, 1))  # 12 seeds in the pits: even values from -12 to +12


def test_a_guess_short_by_one_step_takes_one_pair_then_the_bar_between():
    run, solver = _scripted_run(6, {4: 0.05, 8: 0.6, 6: 0.05})
    assert run.plain_interval(START, guess=4) == (6, 6)
    # at least 4 and at least 8 side by side; at least 6 beside the running 8; then 8 alone on both threads
    assert sorted(solver.calls[:2]) == [(4, 1), (8, 1)]
    assert solver.calls[2:] == [(6, 1), (8, 2)]


def test_a_guess_too_high_cancels_the_needless_test_and_goes_down_alone():
    run, solver = _scripted_run(2, {4: 0.05, 8: 5.0, 2: 0.05})
    started = time.perf_counter()
    assert run.plain_interval(START, guess=4) == (2, 2)
    assert time.perf_counter() - started < 2  # the test at 8 was stopped once below 4 was proven
    assert sorted(solver.calls[:2]) == [(4, 1), (8, 1)]
    assert solver.calls[2:] == [(2, 2)]


def test_out_of_time_the_bounds_proven_before_count_and_nothing_more_starts():
    run, solver = _scripted_run(6, {4: 0.05, 8: 30.0, 6: 0.05})
    # The deadline on MTD(f)'s tests alone (a timed solve first closes in from outside, not tested here).
    deadline = now() + 1.0
    run._tests = lambda: SideBySide(solver, 2, deadline)  # type: ignore[method-assign]
    lower, upper = run.plain_interval(START, guess=4)
    assert (lower, upper) == (6, 12) and run.timed_out
    assert len(solver.calls) == 4  # 4 and 8, then 6, then 8 again on both threads until the deadline


def test_under_a_budget_each_side_closes_in_without_waiting_for_the_other():
    # 12 seeds, guess 0: bars 6 and 3 seeds out on each side, then MTD(f)'s first test on that side (0 and 2).
    # The test above at 7 runs past the deadline; the side below goes on beside it to the guess, and then the
    # test above gets both threads.
    run, solver = _scripted_run(0, {7: 30.0}, deadline=now() + 1.0)
    assert run.plain_interval(START, guess=0) == (0, 12)
    assert run.timed_out
    assert sorted(solver.calls[:2]) == [(-6, 1), (7, 1)]
    assert solver.calls[2:] == [(-3, 1), (0, 1), (7, 2)]


def test_under_a_budget_on_one_thread_the_sides_take_turns():
    run, solver = _scripted_run(0, {}, deadline=now() + 20.0, threads=1)
    assert run.plain_interval(START, guess=0) == (0, 0)
    # below 7 comes back as at most 5, so at most 4; then at least -3 (-2), below 4 (2), at least 0, below 2
    assert solver.calls == [(-6, 1), (7, 1), (-3, 1), (4, 1), (0, 1), (2, 1)]


def test_under_a_budget_an_answer_on_one_side_stops_the_needless_tests_of_the_other():
    # Not at least -6 comes back as at most -8 (fail-soft): every bar above is needless, also the running 7.
    run, solver = _scripted_run(-8, {-6: 0.05, 7: 30.0}, deadline=now() + 20.0)
    started = time.perf_counter()
    assert run.plain_interval(START, guess=0) == (-8, -8)
    assert time.perf_counter() - started < 2
    assert sorted(solver.calls[:2]) == [(-6, 1), (7, 1)]
    assert solver.calls[2:] == [(-8, 2)]  # MTD(f) from the bound: at least -8, alone on both threads


def test_out_of_time_the_tests_still_running_have_no_answer():
    run, solver = _scripted_run(0, {1: 0.05, 2: 30.0, 3: 30.0}, deadline=now() + 0.5)
    answers = run.run_tests({"a": ([1] * 12, 1, False), "b": ([1] * 12, 2, False), "c": ([1] * 12, 3, True)})
    assert answers == {"a": False, "b": None, "c": None}
    # c took a's place beside b; after the deadline no test started again
    assert sorted(solver.calls[:2]) == [(1, 1), (2, 1)] and solver.calls[2:] == [(3, 1)]


def test_a_step_with_another_deadline_shares_the_solves_state():
    """What one step of a solve passes to the next is in one SolveState (no module global, no restored
    deadline): a Run with another deadline counts into the same nodes and sees the same guesses."""
    from kalah.solve.run import SolveState

    engine = _engine(4, False, 16)
    run = _Run(engine, 1, 0.0)
    later = run.until(engine.core.now() + 60.0)
    assert isinstance(run.state, SolveState) and later.state is run.state
    assert run.deadline == 0.0 and later.deadline > 0.0
    lower, upper = later.plain_interval(Position.start(Variant(4, 3)))
    assert lower == upper and run.nodes == later.nodes > 0


def test_a_timed_solve_reports_its_own_guess_as_the_unproven_move():
    from kalah import solve

    position = Position.start(Variant(6, 4))  # without a database far too large for the time: only bounds
    # (the guess runs when the root's share of the time is ten times the guess's half second)
    result = solve(position, time=8.0, threads=1, endgame=None, best_moves=False, pv=False)
    assert result.value is None and result.unproven_best_move in position.legal_moves()


@pytest.mark.parametrize("seeds, seconds", [(4, 1.0), (6, 2.0)])
def test_a_budget_too_short_for_the_full_guess_still_reports_an_unproven_move(seeds, seconds):
    from kalah import solve

    # Kalah(6,4)'s guess takes up to 0.5 s and Kalah(6,6)'s 6 s: budgets under ten times that get a guess
    # in a tenth of the budget instead, so that the solve still says which move it would play.
    position = Position.start(Variant(6, seeds))
    started = time.perf_counter()
    result = solve(position, time=seconds, threads=1, endgame=None, best_moves=False, pv=False)
    assert result.value is None and result.unproven_best_move in position.legal_moves()
    assert time.perf_counter() - started < seconds + 2
