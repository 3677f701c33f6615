"""seen_by, the one helper that turns a value to another side's point of view."""

from hypothesis import given
from hypothesis import strategies as st

from kalah.rules import seen_by


def test_a_finished_games_margin_for_each_side():
    assert seen_by(4, player=0) == 4
    assert seen_by(4, player=1) == -4
    assert seen_by(-3, player=1, holder=1) == -3
    assert seen_by(-3, player=0, holder=1) == 3


@given(st.integers(-100, 100), st.sampled_from([0, 1]), st.sampled_from([0, 1]))
def test_turning_a_value_there_and_back_gives_it_again(value, player, holder):
    assert seen_by(seen_by(value, player, holder), holder, player) == value
