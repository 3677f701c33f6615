"""Bad input gets a specific error that names the problem."""

import pytest

from kalah import IllegalMoveError, InvalidPositionError, InvalidVariantError, KalahError, Position, Variant


def test_error_hierarchy():
    assert issubclass(InvalidPositionError, KalahError)
    assert issubclass(IllegalMoveError, KalahError)
    assert issubclass(InvalidVariantError, KalahError)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"pits": 0}, "pits"),
        ({"pits": 13}, "pits"),
        ({"seeds": 0}, "seeds"),
        ({"seeds": 16}, "seeds"),
        ({"pits": "6"}, "integer"),
        ({"empty_capture": 1}, "true or false"),
    ],
)
def test_bad_variants(kwargs, message):
    with pytest.raises(InvalidVariantError, match=message):
        Variant(**kwargs)


def test_variant_range_of_the_issue():
    for pits in range(1, 9):
        for seeds in range(1, 13):
            assert Position.start(Variant(pits, seeds)).seeds_in_pits == 2 * pits * seeds


@pytest.mark.parametrize(
    "board, message",
    [
        ([[4] * 7], "2 rows"),
        ([[4] * 7, [4] * 6], "different lengths"),
        ([[4, 4, 4, 4, 4, -1, 0], [4] * 7], "negative"),
        ([[4, 4, 4, 4, 4, 4.5, 0], [4] * 7], "integer"),
        ([[4, 4, 4, 4, 4, True, 0], [4] * 7], "integer"),
        ("abc", "two rows"),
        ([[1], [1]], "pits and a store"),
        ([[600, 0], [401, 0]], "at most 1000"),
    ],
)
def test_bad_boards(board, message):
    with pytest.raises(InvalidPositionError, match=message):
        Position(board)


def test_board_that_does_not_fit_the_variant():
    with pytest.raises(InvalidPositionError, match="needs 6 pits"):
        Position([[4] * 5, [4] * 5], 0, Variant())


@pytest.mark.parametrize("to_move", [2, -1, "0", None, True])
def test_bad_side_to_move(to_move):
    with pytest.raises(InvalidPositionError, match="to_move"):
        Position([[4] * 7, [4] * 7], to_move)


@pytest.mark.parametrize(
    "text, message",
    [
        ("{", "not valid JSON"),
        ("[]", "JSON object"),
        ('{"to_move": 0}', "needs a 'board'"),
        ('{"board": [[4,4,4,4,4,4,0],[4,4,4,4,4,4,0]], "colour": 1}', "unknown position field"),
        ('{"board": [[4,4,4,4,4,4,0],[4,4,4,4,4,4,0]], "variant": {"pits": 5}}', "needs 5 pits"),
        ('{"board": [[4,4,4,4,4,4,0],[4,4,4,4,4,4,0]], "variant": {"seeds": 99}}', "seeds"),
        ('{"board": [[4,4,4,4,4,4,0],[4,4,4,4,4,4,0]], "variant": {"holes": 6}}', "unknown variant field"),
        ('{"board": [[4,4,4,4,4,4,0],[4,4,4,4,4,4,0]], "to_move": 3}', "to_move"),
    ],
)
def test_bad_json(text, message):
    with pytest.raises(InvalidPositionError, match=message):
        Position.from_json(text)


def test_json_without_variant_is_standard_with_the_boards_pits():
    position = Position.from_json('{"board": [[3,3,3,3,0],[3,3,3,3,0]], "to_move": 1}')
    assert position.variant.pits == 4 and not position.variant.empty_capture and position.to_move == 1
    standard = Position.from_json('{"board": [[4,4,4,4,4,4,0],[4,4,4,4,4,4,0]]}')
    assert standard == Position.start()


def test_json_shape():
    data = Position.start().to_dict()
    assert data == {
        "board": [[4, 4, 4, 4, 4, 4, 0], [4, 4, 4, 4, 4, 4, 0]],
        "to_move": 0,
        "variant": {"pits": 6, "seeds": 4, "empty_capture": False, "pie_rule": False},
    }


def test_positions_are_hashable_and_compare_by_value():
    a = Position.start().play(2)
    b = Position.start().play(2)
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != Position.start()


def test_typed_moves_read_letters_numbers_and_swap_only():
    from kalah.rules import parse_move

    start = Position.start()
    assert [parse_move(text, start) for text in ("a", "F", " 3 ", "6")] == [0, 5, 2, 5]
    for text in ("²", "٣", "1e3", "0", "7", "", "é", "swap"):  # no swap on the first move without the pie rule
        with pytest.raises(IllegalMoveError):
            parse_move(text, start)
