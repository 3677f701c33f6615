"""kalah.analyse: exact values agree with the solver and brute force; an estimate is never labelled exact."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

import kalah
from helpers import random_game_positions, scattered_position
from kalah import Position, Variant
from kalah.analysis import AnalysisError, analyse
from test_solve_truth import brute, brute_move_value

ISSUE_POSITION = "[[0,0,1,2,0,3,20],[1,0,0,2,1,0,18]]"


def test_the_issues_example_is_c_at_minus_two_exact():
    analysis = kalah.analyse(Position(json.loads(ISSUE_POSITION), 0), time=2.0)
    assert analysis.exact and analysis.value == -2 and analysis.best_moves == [2]
    assert all(entry.exact for entry in analysis.moves)
    assert {entry.move: entry.value for entry in analysis.moves}[2] == -2


@pytest.mark.parametrize("pits, empty_capture", [(3, False), (4, False), (4, True), (5, False)])
def test_exact_values_agree_with_brute_force(pits, empty_capture):
    rng = random.Random(pits * 10 + empty_capture)
    variant = Variant(pits=pits, seeds=1, empty_capture=empty_capture)
    for _ in range(12):
        position = scattered_position(rng, variant, rng.randint(2, 9))
        analysis = analyse(position, time=2.0, threads=1)
        assert analysis.exact and analysis.value == brute(position), position
        assert set(analysis.best_moves) == {
            m for m in position.legal_moves() if brute_move_value(position, m) == analysis.value
        }
        for entry in analysis.moves:
            assert entry.exact and entry.value == brute_move_value(position, entry.move), (position, entry)


def test_exact_values_agree_with_solve_along_games():
    rng = random.Random(30)
    for plies in (6, 12, 20, 30):
        position = random_game_positions(Variant(6, 3), rng, plies)
        analysis = analyse(position, time=10.0, threads=1)  # returns once proven: the time is for a busy machine
        if position.is_over:
            assert analysis.exact and analysis.value == position.mover_margin and analysis.source == "rules"
            continue
        solved = kalah.solve(position, threads=1)
        assert analysis.exact and analysis.value == solved.value and set(analysis.best_moves) == set(solved.best_moves)
        assert all(entry.exact for entry in analysis.moves if entry.move in solved.best_moves)
        for entry in analysis.moves:
            child = position.play(entry.move)
            value = kalah.solve(child, threads=1, best_moves=False, pv=False).value
            if entry.exact:  # (another move's proof may miss its share of the time on a loaded machine)
                assert entry.value == (value if child.to_move == position.to_move else -value)


def test_the_book_answers_the_start():
    analysis = analyse(Position.start(), time=1.0)
    book = kalah.book.lookup(Position.start())
    assert analysis.source == "book" and analysis.exact and analysis.value == book.value
    assert analysis.best_moves == list(book.best_moves) and len(analysis.moves) == 6
    # the line goes on through the book while it holds the positions, each move keeping the value
    assert len(analysis.pv) > 1 and analysis.pv[0] == analysis.best_move
    position = Position.start()
    for move in analysis.pv:
        entry = kalah.book.lookup(position)
        assert entry is not None and move in entry.best_moves
        position = position.play(move)


def test_an_estimate_is_never_labelled_exact():
    # Kalah(6,6) after a few moves: far from any proof in a fraction of a second.
    rng = random.Random(7)
    position = random_game_positions(Variant(6, 6), rng, 3)
    analysis = analyse(position, time=0.3, threads=1)
    assert not analysis.exact and analysis.source == "search" and analysis.depth
    for entry in analysis.moves:
        if entry.exact:  # only a proof may say so: check it
            child = position.play(entry.move)
            value = kalah.solve(child, threads=1, best_moves=False, pv=False).value
            assert entry.value == (value if child.to_move == position.to_move else -value)
        else:
            assert entry.source == "search"


def test_a_finished_game_is_its_margin():
    position = Position([[0, 0, 0, 0, 10], [0, 0, 0, 0, 6]], 1)
    analysis = analyse(position)
    assert analysis.exact and analysis.value == -4 and analysis.moves == [] and analysis.source == "rules"


@pytest.mark.parametrize("bad", [0, -1, True, "1"])
def test_bad_time_is_refused(bad):
    with pytest.raises(AnalysisError, match="time"):
        analyse(Position.start(), time=bad)


def test_not_a_position_is_refused():
    with pytest.raises(AnalysisError, match="Position"):
        analyse("[[1]]")  # type: ignore[arg-type]


def test_cli_marks_exact_values():
    run = subprocess.run(
        [sys.executable, "-m", "kalah.cli", "analyse", "-p", ISSUE_POSITION, "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["best_moves"] == [2] and data["value"] == -2 and data["exact"] is True
    table = subprocess.run(
        [sys.executable, "-m", "kalah.cli", "analyse", "-p", ISSUE_POSITION],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "Best move: C, value -2, exact" in table.stdout


def test_the_web_panel_gets_an_exact_flag_per_value():
    from kalah.web.analysis import analyse as panel

    small = panel(Position(json.loads(ISSUE_POSITION), 0).to_json(), 1.0)
    assert small["exact"] and small["value"] == -2 and small["best_move"] == 2 and small["pv_names"][0] == "C"
    assert [(m["move"], m["value"], m["exact"]) for m in small["moves"]] == [
        (2, -2, True),
        (3, -4, True),
        (5, -6, True),
    ]
    big = panel(random_game_positions(Variant(6, 6), random.Random(7), 3).to_json(), 0.3)
    assert not big["exact"] and big["depth"] and not any(m["exact"] for m in big["moves"])


def test_an_estimate_is_the_same_every_time():
    # A search for the time left went as deep as the machine let it: the same position was estimated at
    # -15.5 once and -30 the next time (issue 48). Another process's load must not change it either.
    import threading

    position = Position.start(Variant(8, 6))
    rng = random.Random(48)
    for _ in range(6):
        position = position.play(rng.choice(position.legal_moves()))
    first = kalah.analyse(position, time=0.5)
    assert not first.exact
    stop = threading.Event()

    def load() -> None:
        while not stop.is_set():
            kalah.search(position, depth=9)

    busy = [threading.Thread(target=load) for _ in range(2)]
    for thread in busy:
        thread.start()
    try:
        again = kalah.analyse(position, time=0.5)
    finally:
        stop.set()
        for thread in busy:
            thread.join()
    assert (again.value, again.depth, again.best_moves) == (first.value, first.depth, first.best_moves)
    assert [(m.move, m.value) for m in again.moves] == [(m.move, m.value) for m in first.moves]
