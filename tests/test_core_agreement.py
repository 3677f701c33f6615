"""The compiled core agrees with the reference on every move of many random games."""

import random

import pytest

from helpers import AGREEMENT_VARIANTS, agree_on_random_games
from kalah import Position, Variant
from kalah.core import CoreGame, random_playouts

MOVES_PER_VARIANT = 100_000


@pytest.mark.parametrize("variant", AGREEMENT_VARIANTS, ids=str)
def test_core_agrees_with_reference_on_random_games(variant):
    agree_on_random_games(variant, MOVES_PER_VARIANT)


@pytest.mark.parametrize(
    "variant",
    [Variant(1, 1), Variant(2, 15, empty_capture=True), Variant(8, 15, pie_rule=True), Variant(3, 12)],
    ids=str,
)
def test_core_agrees_at_the_edges_of_the_variant_range(variant):
    rng = random.Random(7)
    for _ in range(300):
        reference = Position.start(variant)
        core = CoreGame(reference)
        while reference.legal_moves():
            move = rng.choice(reference.legal_moves())
            reference = reference.play(move)
            core.play(move)
            assert core.cells == reference.cells and core.to_move == reference.to_move


def test_core_reads_pie_rule_state_from_the_board():
    variant = Variant(7, 7, pie_rule=True)
    first = Position.start(variant).play(3)
    assert CoreGame(first).legal_moves() == first.legal_moves()
    assert "swap" in CoreGame(first).legal_moves()
    start_core = CoreGame(Position.start(variant))
    start_core.play(2)  # lands in... whatever: the pie rule gives no extra turn
    assert start_core.to_move == 1


def test_playouts_are_reproducible_and_count_every_game():
    start = Position.start()
    first = random_playouts(start, 2000, seed=5)
    assert first == random_playouts(start, 2000, seed=5)
    assert sum(first) == 2000
    assert first != random_playouts(start, 2000, seed=6)


def test_playouts_from_a_finished_position():
    over = Position([[0] * 6 + [30], [0] * 6 + [18]])
    assert random_playouts(over, 10, seed=1) == (10, 0, 0)


def test_core_refuses_illegal_moves():
    from kalah import IllegalMoveError

    core = CoreGame()
    with pytest.raises(IllegalMoveError):
        core.play(9)
    core.play(0)
    with pytest.raises(IllegalMoveError):
        core.play("swap")
