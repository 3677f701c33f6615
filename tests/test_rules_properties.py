"""Invariants of the rules, on random positions of random variants."""

from hypothesis import given, settings

from helpers import arbitrary_positions, reachable_positions
from kalah import SWAP, Position


def total(position: Position) -> int:
    return sum(position.cells)


@settings(max_examples=300, deadline=None)
@given(reachable_positions())
def test_seeds_are_conserved(position):
    assert total(position) == position.variant.total_seeds
    for move in position.legal_moves():
        assert total(position.play(move)) == position.variant.total_seeds


@settings(max_examples=300, deadline=None)
@given(arbitrary_positions())
def test_seeds_are_conserved_on_any_board(position):
    for move in position.legal_moves():
        assert total(position.play(move)) == total(position)


@settings(max_examples=300, deadline=None)
@given(arbitrary_positions())
def test_legal_moves_exist_exactly_when_not_over(position):
    assert bool(position.legal_moves()) == (not position.is_over)


@settings(max_examples=300, deadline=None)
@given(reachable_positions())
def test_every_legal_move_gives_a_valid_position(position):
    for move in position.legal_moves():
        after = position.play(move)
        assert all(count >= 0 for count in after.cells)
        assert after.to_move in (0, 1)
        if move != SWAP:  # a swap exchanges the rows, stores included
            assert after.store(0) >= position.store(0) and after.store(1) >= position.store(1)
        if after.is_over:
            assert sum(after.pits(0)) == sum(after.pits(1)) == 0, "a finished game's pits are swept"
        # A valid position survives its own validation.
        assert Position(after.board, after.to_move, after.variant) == after


@settings(max_examples=300, deadline=None)
@given(reachable_positions())
def test_json_round_trips(position):
    assert Position.from_json(position.to_json()) == position
    assert hash(Position.from_json(position.to_json())) == hash(position)
    assert Position.from_dict(position.to_dict()) == position


@settings(max_examples=200, deadline=None)
@given(arbitrary_positions())
def test_json_round_trips_on_any_board(position):
    assert Position.from_json(position.to_json()) == position


@settings(max_examples=200, deadline=None)
@given(reachable_positions())
def test_positions_are_immutable(position):
    board = position.board
    board[0][0] += 5
    assert position.board != board
