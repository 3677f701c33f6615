"""The big build of the core (16-bit cells, up to 12 pits: csrc/board.h with KALAH_BIG) agrees with the
reference, and every search engine on it with brute force; kalah.core.builds sends each board to its build."""

from __future__ import annotations

import random
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kalah
from helpers import agree_on_random_games, random_game_positions, scattered_position
from kalah import InvalidPositionError, Position, Variant
from kalah.core import CoreGame, big_board, big_search, board, builds, random_playouts
from kalah.core import search as byte_search
from kalah.search import EXACT_ALGORITHMS, SearchError, search
from kalah.solve import SolveError
from test_search_decisions import brute_force, units

#: The FAU tournament's big stages, an odd size, and the edges of the range (Kalah(12,15) holds 360 seeds).
BIG_VARIANTS = [
    Variant(12, 12),
    Variant(10, 10),
    Variant(9, 3),
    Variant(12, 15, pie_rule=True),
    Variant(11, 1, empty_capture=True),
]
MOVES_PER_VARIANT = 100_000


def play_along(reference: Position, moves: list, core) -> None:
    """Play ``moves`` on the reference and on the core, checking every step."""
    for move in moves:
        assert core.legal_moves() == reference.legal_moves(), reference
        reference = reference.play(move)
        core.play(move)
        assert core.cells == reference.cells and core.to_move == reference.to_move, (move, reference)
        assert core.is_over == reference.is_over


@pytest.mark.parametrize("variant", BIG_VARIANTS, ids=str)
def test_big_build_agrees_with_reference_on_random_games(variant):
    agree_on_random_games(variant, MOVES_PER_VARIANT, big_board.CoreGame)


@st.composite
def big_boards(draw):
    """Any board of 1 to 12 pits, up to 1,000 seeds (the rules' limit), reachable or not."""
    pits = draw(st.integers(1, 12))
    big = draw(st.integers(0, 1000 // (2 * pits + 2)))
    rows = [draw(st.lists(st.integers(0, big), min_size=pits + 1, max_size=pits + 1)) for _ in range(2)]
    variant = Variant(pits=pits, empty_capture=draw(st.booleans()))
    return Position(rows, draw(st.integers(0, 1)), variant)


@settings(max_examples=300, deadline=None)
@given(position=big_boards(), seed=st.integers(0, 2**32 - 1))
def test_any_board_plays_alike_in_the_core_and_the_reference(position, seed):
    core = CoreGame(position)
    assert isinstance(core, big_board.CoreGame if builds.needs_big(position) else board.CoreGame)
    rng = random.Random(seed)
    line, reference = [], position
    while reference.legal_moves() and len(line) < 40:
        line.append(rng.choice(reference.legal_moves()))
        reference = reference.play(line[-1])
    play_along(position, line, core)


@settings(max_examples=100, deadline=None)
@given(
    pits=st.integers(9, 12),
    seeds=st.integers(1, 15),
    empty=st.booleans(),
    pie=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
    plies=st.integers(0, 80),
)
def test_reachable_big_positions_agree(pits, seeds, empty, pie, seed, plies):
    variant = Variant(pits, seeds, empty_capture=empty, pie_rule=pie)
    position = random_game_positions(variant, random.Random(seed), plies)
    core = CoreGame(position)  # the pie rule's flags are read from the board, as in the byte build
    assert core.legal_moves() == position.legal_moves()
    assert core.position() == position


def test_each_board_goes_to_the_build_that_holds_it():
    assert not builds.needs_big(Position.start(Variant(8, 15)))  # 240 seeds in bytes
    assert builds.needs_big(Position.start(Variant(9, 1)))
    heavy = Position([[200, 0, 0], [56, 1, 0]], 0, Variant(2, 1))  # 257 seeds on 2 pits
    assert builds.needs_big(heavy) and isinstance(CoreGame(heavy), big_board.CoreGame)
    assert CoreGame(heavy).play(0) is False and CoreGame(heavy.play(0)).cells == heavy.play(0).cells
    # the byte build refuses what it cannot hold rather than write past its cells
    with pytest.raises(InvalidPositionError, match="beyond this build"):
        board.CoreGame(Position.start(Variant(12, 12)))
    with pytest.raises(InvalidPositionError, match="beyond this build"):
        byte_search.Engine(10).search(Position.start(Variant(9, 2)), 1, 0, 1, 1)


def test_big_playouts_are_reproducible_and_count_every_game():
    start = Position.start(Variant(12, 12))
    first = random_playouts(start, 2000, seed=5)
    assert first == random_playouts(start, 2000, seed=5) and sum(first) == 2000
    assert first != random_playouts(start, 2000, seed=6)
    over = Position([[0] * 12 + [150], [0] * 12 + [138]], 0, Variant(12, 12))
    assert random_playouts(over, 10) == (10, 0, 0)


def big_positions(variant: Variant, count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        position = random_game_positions(variant, rng, rng.randrange(0, 60))
        if not position.is_over:
            found.append(position)
    return found


@pytest.mark.parametrize(
    "variant", [Variant(12, 12), Variant(10, 10, empty_capture=True), Variant(9, 3, pie_rule=True)], ids=str
)
@pytest.mark.parametrize("kind", ["store", "seed", "strong"])
def test_every_algorithm_agrees_with_brute_force_on_big_boards(variant, kind):
    for position in big_positions(variant, 4, zlib.crc32(f"{variant}{kind}".encode())):
        value, best_move, values = brute_force(position, 3, kind)
        for algorithm in EXACT_ALGORITHMS:
            result = search(position, algorithm, depth=3, evaluation=kind, move_values=False)
            assert units(result.value) == value, (algorithm, position)
            assert result.best_move == best_move, (algorithm, position)
        full = search(position, "pvs", depth=3, evaluation=kind, move_values=True)
        assert {m.move: units(m.value) for m in full.moves} == values


def test_a_heavy_small_board_searches_in_the_big_build_like_brute_force():
    rng = random.Random(11)
    for _ in range(4):
        position = scattered_position(rng, Variant(6, 4), 300, stores=20)  # 300 seeds or more: past a byte
        value, best_move, _ = brute_force(position, 3, "strong")
        for algorithm in EXACT_ALGORITHMS:
            result = search(position, algorithm, depth=3, evaluation="strong")
            assert (units(result.value), result.best_move) == (value, best_move), (algorithm, position)


@pytest.mark.parametrize("variant", [Variant(12, 12), Variant(10, 10)], ids=str)
def test_exact_algorithms_agree_deeper_on_big_boards(variant):
    rng = random.Random(variant.pits)
    for position in big_positions(variant, 5, 3):
        depth = rng.randrange(4, 6)
        results = [search(position, a, depth=depth, evaluation="strong") for a in EXACT_ALGORITHMS]
        assert len({(r.value, r.best_move) for r in results}) == 1, (position, depth)
        assert len({tuple((m.move, m.value) for m in r.moves) for r in results}) == 1
        # several threads give the same fixed-depth answer (lazy SMP in the big build)
        threaded = search(position, "pvs", depth=depth, evaluation="strong", threads=2)
        assert (threaded.value, threaded.best_move) == (results[0].value, results[0].best_move)


def test_the_big_build_answers_a_byte_board_as_the_byte_build_does():
    # the same sources under KALAH_BIG: the values and moves of every algorithm are those of the byte build
    for position in big_positions(Variant(6, 4), 6, 17):
        for algorithm in range(5):
            byte = byte_search.Engine(16).search(position, algorithm, 2, 1, 6)
            big = big_search.Engine(16).search(position, algorithm, 2, 1, 6)
            assert (byte["value"], byte["best_move"], byte["moves"]) == (big["value"], big["best_move"], big["moves"])


def test_timed_search_and_mcts_play_legal_moves_on_a_big_board():
    position = big_positions(Variant(12, 12), 1, 8)[0]
    timed = search(position, time=0.3)
    assert timed.best_move in position.legal_moves() and timed.stats.depth >= 1
    uct = search(position, "mcts", playouts=3000, seed=1)
    assert uct.best_move in position.legal_moves() and uct.stats.playouts == 3000
    again = search(position, "mcts", playouts=3000, seed=1)  # the same seed, the same tree
    assert (again.best_move, again.extra["visits"]) == (uct.best_move, uct.extra["visits"])


def test_the_solver_and_the_trace_name_their_limits():
    big = Position.start(Variant(12, 12))
    with pytest.raises(SolveError, match="8 pits a side and 255 seeds"):
        kalah.solve(big, time=1.0)
    with pytest.raises(SearchError, match="8 pits a side and 255 seeds"):
        kalah.trace(big, "alphabeta", 2)
    # the analysis is then the heuristic search's
    analysis = kalah.analyse(big, time=0.3)
    assert not analysis.exact and analysis.best_moves[0] in big.legal_moves()
