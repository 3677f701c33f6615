"""Hand-made positions for every rule of RULES.md."""

import pytest

from kalah import SWAP, IllegalMoveError, Position, Variant


def pos(row0, row1, to_move=0, **flags):
    return Position([row0, row1], to_move, Variant(pits=len(row0) - 1, **flags))


def test_start_position():
    start = Position.start()
    assert start.board == [[4, 4, 4, 4, 4, 4, 0], [4, 4, 4, 4, 4, 4, 0]]
    assert start.to_move == 0
    assert start.legal_moves() == [0, 1, 2, 3, 4, 5]
    assert not start.is_over and start.scores is None


def test_plain_sowing_passes_to_the_opponent():
    after = Position.start().play(0)
    assert after.board == [[0, 5, 5, 5, 5, 4, 0], [4, 4, 4, 4, 4, 4, 0]]
    assert after.to_move == 1


def test_sowing_into_own_store_gives_an_extra_turn():
    after = Position.start().play(2)  # C: D, E, F, store
    assert after.board == [[4, 4, 0, 5, 5, 5, 1], [4, 4, 4, 4, 4, 4, 0]]
    assert after.to_move == 0


def test_player_one_extra_turn_keeps_player_one_to_move():
    after = pos([4] * 6 + [0], [4, 4, 4, 4, 4, 4, 0], to_move=1).play(2)
    assert after.board == [[4] * 6 + [0], [4, 4, 0, 5, 5, 5, 1]]
    assert after.to_move == 1


def test_opponents_store_is_skipped():
    # F holds 10: own store, the opponent's six pits, (their store skipped), A, B, C.
    # C was empty, so its seed captures the 2 in d (opposite C).
    before = pos([0, 0, 0, 0, 0, 10, 0], [1, 1, 1, 1, 1, 1, 5])
    after = before.play(5)
    assert after.board == [[1, 1, 0, 0, 0, 0, 4], [2, 2, 2, 0, 2, 2, 5]]
    assert after.store(1) == 5  # untouched
    assert after.to_move == 1


def test_lap_of_thirteen_sows_into_the_emptied_pit_and_captures_there():
    # 13 seeds from A: B-F, store, a-f, then A itself, which was emptied: a capture.
    before = pos([13, 0, 0, 0, 0, 0, 0], [1, 1, 1, 1, 1, 1, 0])
    after = before.play(0)
    # A's last seed and the 2 in f (opposite A) go to the store.
    assert after.board == [[0, 1, 1, 1, 1, 1, 4], [2, 2, 2, 2, 2, 0, 0]]
    assert after.to_move == 1


def test_lap_of_more_than_thirteen():
    # 15 seeds from A: a full lap (13 places including A), then B and C again.
    before = pos([15, 0, 0, 0, 0, 0, 0], [1, 1, 1, 1, 1, 1, 0])
    after = before.play(0)
    assert after.board == [[1, 2, 2, 1, 1, 1, 1], [2, 2, 2, 2, 2, 2, 0]]
    assert after.to_move == 1


def test_lap_of_thirty_in_a_small_variant():
    # Kalah(2, .): a lap is 5 places; 11 seeds from A are two laps and one more.
    before = pos([11, 0, 0], [0, 1, 0])
    after = before.play(0)
    assert after.board == [[2, 3, 2], [2, 3, 0]]


def test_capture_with_seeds_opposite():
    # A has 1 seed: it lands in the empty B; opposite B is e (index 4) with 3.
    before = pos([1, 0, 2, 2, 2, 2, 0], [1, 1, 1, 1, 3, 1, 0])
    after = before.play(0)
    assert after.board == [[0, 0, 2, 2, 2, 2, 4], [1, 1, 1, 1, 0, 1, 0]]
    assert after.to_move == 1


def test_no_capture_when_opposite_is_empty():
    before = pos([1, 0, 2, 2, 2, 2, 0], [1, 1, 1, 1, 0, 1, 0])
    after = before.play(0)
    assert after.board == [[0, 1, 2, 2, 2, 2, 0], [1, 1, 1, 1, 0, 1, 0]]


def test_empty_capture_variant_takes_the_lone_seed():
    before = pos([1, 0, 2, 2, 2, 2, 0], [1, 1, 1, 1, 0, 1, 0], empty_capture=True)
    after = before.play(0)
    assert after.board == [[0, 0, 2, 2, 2, 2, 1], [1, 1, 1, 1, 0, 1, 0]]


def test_no_capture_on_the_opponents_side():
    # The last seed lands in an empty pit of the opponent: nothing happens.
    before = pos([1, 0, 0, 0, 0, 2, 0], [0, 1, 1, 1, 1, 1, 0])
    after = before.play(5)
    assert after.board == [[1, 0, 0, 0, 0, 0, 1], [1, 1, 1, 1, 1, 1, 0]]


def test_player_one_captures():
    # Player 1's pit a (index 0) with 1 seed lands in b; opposite b is E (index 4).
    before = pos([1, 1, 1, 1, 5, 1, 0], [1, 0, 1, 1, 1, 1, 0], to_move=1)
    after = before.play(0)
    assert after.board == [[1, 1, 1, 1, 0, 1, 0], [0, 0, 1, 1, 1, 1, 6]]
    assert after.to_move == 0


def test_game_ends_when_the_mover_empties_their_side():
    # Player 0 plays its last seed into the store: the game ends at once, and
    # player 1's pits are swept into player 1's store.
    before = pos([0, 0, 0, 0, 0, 1, 20], [1, 2, 3, 0, 0, 1, 10])
    after = before.play(5)
    assert after.is_over
    assert after.board == [[0, 0, 0, 0, 0, 0, 21], [0, 0, 0, 0, 0, 0, 17]]
    assert after.scores == (21, 17) and after.margin == 4 and after.winner == 0
    assert after.legal_moves() == []


def test_game_ends_after_player_ones_move_too():
    before = pos([2, 0, 0, 0, 0, 0, 20], [0, 0, 0, 0, 0, 1, 10], to_move=1)
    after = before.play(5)
    assert after.is_over
    assert after.board == [[0, 0, 0, 0, 0, 0, 22], [0, 0, 0, 0, 0, 0, 11]]
    assert after.winner == 0


def test_game_ends_when_a_capture_empties_the_opponents_side():
    before = pos([1, 0, 0, 0, 0, 0, 10], [0, 0, 0, 0, 3, 0, 10])
    after = before.play(0)  # lands in B, captures e's 3: player 1 has nothing left
    assert after.is_over
    assert after.board == [[0, 0, 0, 0, 0, 0, 14], [0, 0, 0, 0, 0, 0, 10]]


def test_draw():
    before = pos([0, 0, 0, 0, 0, 1, 10], [0, 0, 0, 0, 0, 1, 10])
    after = before.play(5)
    assert after.is_over and after.scores == (11, 11) and after.winner is None and after.margin == 0


def test_pie_rule_first_move_earns_no_extra_turn():
    variant = Variant(6, 4, pie_rule=True)
    after = Position.start(variant).play(2)  # would be an extra turn without the pie rule
    assert after.board == [[4, 4, 0, 5, 5, 5, 1], [4, 4, 4, 4, 4, 4, 0]]
    assert after.to_move == 1
    assert after.legal_moves() == [0, 1, 2, 3, 4, 5, SWAP]


def test_pie_rule_swap_exchanges_sides_and_player_zero_moves():
    variant = Variant(7, 7, pie_rule=True)
    first = Position.start(variant).play(0)
    assert first.board == [[0, 8, 8, 8, 8, 8, 8, 1], [7, 7, 7, 7, 7, 7, 7, 0]]
    swapped = first.play(SWAP)
    assert swapped.board == [[7, 7, 7, 7, 7, 7, 7, 0], [0, 8, 8, 8, 8, 8, 8, 1]]
    assert swapped.to_move == 0
    assert SWAP not in swapped.legal_moves()


def test_swap_only_as_player_ones_first_action():
    variant = Variant(6, 4, pie_rule=True)
    first = Position.start(variant).play(0)
    second = first.play(0)
    assert SWAP not in second.legal_moves()
    with pytest.raises(IllegalMoveError, match="swap"):
        second.play(SWAP)
    with pytest.raises(IllegalMoveError, match="pie rule is off"):
        Position.start().play(0).play(SWAP)
    with pytest.raises(IllegalMoveError):
        Position.start(variant).play(SWAP)


def test_later_moves_into_the_store_still_earn_extra_turns_with_the_pie_rule():
    variant = Variant(6, 4, pie_rule=True)
    position = Position.start(variant).play(0).play(2)  # player 1's C reaches its store
    assert position.to_move == 1


@pytest.mark.parametrize(
    "move, message",
    [(6, "does not exist"), (-1, "does not exist"), (1.5, "pit index"), ("x", "pit index"), (True, "pit index")],
)
def test_illegal_moves_are_named(move, message):
    with pytest.raises(IllegalMoveError, match=message):
        Position.start().play(move)


def test_move_from_an_empty_pit():
    with pytest.raises(IllegalMoveError, match="empty"):
        Position.start().play(2).play(2)


def test_move_in_a_finished_game():
    over = pos([0, 0, 0, 0, 0, 0, 30], [0, 0, 0, 0, 0, 0, 18])
    with pytest.raises(IllegalMoveError, match="over"):
        over.play(0)
