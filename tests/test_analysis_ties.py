"""Where several moves are worth the same, the hint, the analysis (command line and web) and the solver
name the same one: the lowest pit among them, as the search breaks ties, and their line begins with it."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from kalah import Position, solve
from kalah.analysis import analyse
from kalah.cli.terminal import hint_text
from kalah.search import search

#: Kalah(6,3), player 1 to move: a, b and c all keep +20 (the book's entry; the perfect player plays b).
BOOK_TIE = Position.from_dict(
    {"board": [[4, 0, 6, 4, 4, 3, 0], [3, 3, 3, 0, 4, 0, 2]], "to_move": 1, "variant": {"seeds": 3}}
)
#: Out of the book, solved: b and c keep +8 for player 1; the solver's table held c.
SOLVER_TIE = Position.from_dict({"board": [[0, 8, 5, 0, 1], [1, 2, 2, 0, 5]], "to_move": 1, "variant": {"seeds": 3}})

TIES = [(BOOK_TIE, "a", "b, c", "book"), (SOLVER_TIE, "b", "c", "solver")]


def kalah(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kalah.cli", *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("position, best, equal, source", TIES, ids=[source for *_, source in TIES])
def test_the_analysis_names_the_lowest_of_equal_moves_and_its_line_begins_with_it(position, best, equal, source):
    found = analyse(position, 2.0, threads=1)
    assert found.exact and found.source == source
    assert len(found.best_moves) > 1 and found.best_moves == sorted(found.best_moves)
    assert "abcdef"[found.best_move] == best and found.pv[0] == found.best_move
    assert {entry.move for entry in found.moves if entry.value == found.value} == set(found.best_moves)


@pytest.mark.parametrize("position, best, equal, source", TIES, ids=[source for *_, source in TIES])
def test_the_hint_and_the_analysis_name_the_same_move(position, best, equal, source):
    assert hint_text(position, 2.0).startswith(f"Hint: {best} (value ")
    assert hint_text(position, 2.0).endswith(f"; as good: {equal})")
    shown = kalah("analyse", "-p", position.to_json(), "-t", "2")
    assert shown.returncode == 0, shown.stderr
    assert f"Best move: {best} (as good: {equal})" in shown.stdout
    assert f"Principal variation: {best}" in shown.stdout
    data = json.loads(kalah("analyse", "-p", position.to_json(), "-t", "2", "--json").stdout)
    assert "abcdef"[data["best_move"]] == best and data["pv"][0] == data["best_move"]


@pytest.mark.parametrize("position, best, equal, source", TIES, ids=[source for *_, source in TIES])
def test_the_web_hint_and_panel_name_the_same_move(position, best, equal, source):
    from kalah.web.analysis import analyse as web_analyse

    answer = web_analyse(position.to_json(), 2.0)
    assert "abcdef"[answer["best_move"]] == best  # what the hint button shows and the panel marks best
    assert answer["pv_names"][0] == best  # the panel's "Best line"


def test_the_solvers_line_begins_with_its_first_best_move():
    for time in (None, 5.0):
        solved = solve(SOLVER_TIE, time, threads=1)
        assert solved.best_moves == [1, 2] and solved.pv[0] == 1
    shown = kalah("solve", "-p", SOLVER_TIE.to_json())
    assert "best moves: b, c" in shown.stdout and "principal variation: b " in shown.stdout


def test_the_search_breaks_ties_the_same_way():
    """The rule the analysis follows is the search's own: its best move is the lowest of equal moves."""
    found = search(SOLVER_TIE, "alphabeta", depth=30, move_values=True)
    equal = [entry.move for entry in found.moves if entry.value == found.value]
    assert found.exact and equal == [1, 2] and found.best_move == 1
