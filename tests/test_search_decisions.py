"""The five exact algorithms agree with each other and with a brute-force negamax."""

from __future__ import annotations

import functools
import random
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kalah
from helpers import random_game_positions
from kalah import SWAP, Position, Variant
from kalah.search import EXACT_ALGORITHMS, search

VARIANTS = [
    Variant(6, 4),
    Variant(6, 6),
    Variant(4, 3),
    Variant(4, 3, empty_capture=True),
    Variant(6, 4, empty_capture=True),
    Variant(5, 4, pie_rule=True),
    Variant(7, 7, pie_rule=True),
]

UNIT = 100


# --- a brute-force reference on the readable rules --------------------------------


def _chances(position: Position, player: int) -> tuple[int, int]:
    m = position.variant.pits
    ring = 2 * m + 1
    own, opp = position.pits(player), position.pits(1 - player)
    extra = best = 0
    for i, seeds in enumerate(own):
        if not seeds:
            continue
        if seeds % ring == m - i:
            extra += 1
        if seeds < ring:
            place, lapped = i + seeds, 0
            if place >= ring:
                place, lapped = place - ring, 1
            if place < m and own[place] == 0:
                facing = opp[m - 1 - place] + lapped
                if facing or position.variant.empty_capture:
                    best = max(best, facing + 1)
    return extra, best


def evaluate(position: Position, kind: str) -> int:
    """The evaluations of csrc/evaluate.h, rewritten from their documentation."""
    me = position.to_move
    if position.is_over:
        margin = position.margin
        return UNIT * (margin if me == 0 else -margin)
    diff = position.store(me) - position.store(1 - me)
    if kind == "store":
        return UNIT * diff
    if kind == "seed":
        in_pits = position.seeds_in_pits
        total = in_pits + position.store(0) + position.store(1)
        return int(UNIT * diff * total / in_pits)  # truncation toward zero, as in C
    extra, capture = _chances(position, me)
    _, opp_capture = _chances(position, 1 - me)
    value = 4 * diff + sum(position.pits(me)) - sum(position.pits(1 - me)) + 3 * extra + 3 * capture - 2 * opp_capture
    return value * (UNIT // 4)


def negamax(position: Position, depth: int, kind: str) -> int:
    if position.is_over or depth == 0:
        return evaluate(position, kind)
    best = None
    for move in position.legal_moves():
        child = position.play(move)
        v = negamax(child, depth - 1, kind)
        v = v if child.to_move == position.to_move else -v
        best = v if best is None or v > best else best
    return best


def brute_force(position: Position, depth: int, kind: str) -> tuple[int, object, dict]:
    values = {}
    for move in position.legal_moves():
        child = position.play(move)
        v = negamax(child, depth - 1, kind)
        values[move] = v if child.to_move == position.to_move else -v
    best = max(values.values())
    best_move = next(move for move in position.legal_moves() if values[move] == best)  # pits ascending, swap last
    return best, best_move, values


def positions(variant: Variant, count: int, seed: int) -> list[Position]:
    """``count`` unfinished positions after 0 to 39 random moves."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        position = random_game_positions(variant, rng, rng.randrange(0, 40))
        if not position.is_over:
            found.append(position)
    return found


def units(value) -> int:
    return round(value * UNIT)


# --- tests ------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS, ids=str)
def test_exact_algorithms_agree_on_value_and_move(variant):
    rng = random.Random(variant.pits * 100 + variant.seeds)
    for position in positions(variant, 40, zlib.crc32(variant.name.encode())):
        depth = rng.randrange(1, 7)
        evaluation = rng.choice(["store", "seed", "strong"])
        results = [search(position, a, depth=depth, evaluation=evaluation, move_values=False) for a in EXACT_ALGORITHMS]
        answers = {(r.value, r.best_move) for r in results}
        assert len(answers) == 1, (position, depth, evaluation, [(r.algorithm, r.value, r.best_move) for r in results])
        assert all(r.stats.depth == depth or r.exact for r in results)


@pytest.mark.parametrize("variant", VARIANTS, ids=str)
def test_every_move_value_agrees_with_minimax(variant):
    for position in positions(variant, 12, 99):
        reference = search(position, "minimax", depth=4, evaluation="store")
        for algorithm in EXACT_ALGORITHMS[1:]:
            result = search(position, algorithm, depth=4, evaluation="store", move_values=True)
            assert [(m.move, m.value) for m in result.moves] == [(m.move, m.value) for m in reference.moves]
            assert result.best_move == reference.best_move


@pytest.mark.parametrize(
    "variant", [Variant(4, 3), Variant(4, 3, empty_capture=True), Variant(3, 3, pie_rule=True), Variant(6, 4)], ids=str
)
@pytest.mark.parametrize("kind", ["store", "seed", "strong"])
def test_against_brute_force_negamax(variant, kind):
    for position in positions(variant, 15, 5):
        depth = 3
        value, best_move, values = brute_force(position, depth, kind)
        for algorithm in EXACT_ALGORITHMS:
            result = search(position, algorithm, depth=depth, evaluation=kind, move_values=False)
            assert units(result.value) == value, (algorithm, position)
            assert result.best_move == best_move, (algorithm, position)
        full = search(position, "pvs", depth=depth, evaluation=kind, move_values=True)
        assert {m.move: units(m.value) for m in full.moves} == values


def test_swap_is_searched_and_tie_broken_last():
    variant = Variant(5, 4, pie_rule=True)
    position = Position.start(variant).play(0)
    assert SWAP in position.legal_moves()
    value, best_move, values = brute_force(position, 3, "store")
    for algorithm in EXACT_ALGORITHMS:
        result = search(position, algorithm, depth=3, evaluation="store")
        assert result.best_move == best_move
        assert {m.move: units(m.value) for m in result.moves} == values


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    depth=st.integers(1, 5),
    pits=st.integers(2, 6),
    seeds=st.integers(1, 5),
    empty=st.booleans(),
    pie=st.booleans(),
)
def test_property_same_decisions(seed, depth, pits, seeds, empty, pie):
    variant = Variant(pits, seeds, empty_capture=empty, pie_rule=pie)
    position = positions(variant, 1, seed)[0]
    results = [search(position, a, depth=depth, evaluation="strong", move_values=False) for a in EXACT_ALGORITHMS]
    assert len({(r.value, r.best_move) for r in results}) == 1


@functools.cache
def solve(position: Position) -> int:
    """The exact final margin for the side to move, by full negamax (small boards only)."""
    if position.is_over:
        margin = position.margin
        return margin if position.to_move == 0 else -margin
    best = None
    for move in position.legal_moves():
        child = position.play(move)
        v = solve(child)
        v = v if child.to_move == position.to_move else -v
        best = v if best is None or v > best else best
    return best


@pytest.mark.parametrize("algorithm", EXACT_ALGORITHMS)
def test_proven_values_are_the_game_values(algorithm):
    variant = Variant(3, 2)
    start = Position.start(variant)
    truth = solve(start)
    result = search(start, algorithm, depth=40, evaluation="strong")
    assert result.exact and result.value == truth and isinstance(result.value, int)
    for position in positions(Variant(4, 2), 10, 3):
        truth = solve(position)
        result = search(position, algorithm, depth=60)
        assert result.exact and result.value == truth


def test_finished_game_has_exact_value_and_no_move():
    position = Position([[0, 0, 0, 10], [1, 0, 0, 7]], 0, Variant(3, 3))
    result = kalah.search(position, "pvs", depth=3)
    assert result.best_move is None and result.exact and result.value == 2
