"""The KGP wire format and board literals (kalah.kgp.wire, kalah.kgp.board)."""

from __future__ import annotations

import pytest

from kalah.kgp import (
    MAX_LINE,
    Board,
    KgpError,
    KgpSyntaxError,
    UnsupportedBoardError,
    Word,
    board_from_position,
    format_command,
    move_from_wire,
    move_to_wire,
    parse_board,
    parse_line,
    position_from_board,
)
from kalah.rules import Position, Variant


def test_commands_of_the_specification_parse():
    assert parse_line("kgp 1 0 1\r\n").name == "kgp"
    assert parse_line("kgp 1 0 1").args == (1, 0, 1)
    state = parse_line("4 state <3,0,0,3,3,3,3,3,3>")
    assert (state.id, state.ref, state.name) == (4, None, "state")
    assert state.args == (Board(0, 0, (3, 3, 3), (3, 3, 3)),)
    stop = parse_line("6@4 stop")
    assert (stop.id, stop.ref, stop.name) == (6, 4, "stop")
    move = parse_line("@8 move 3")
    assert (move.id, move.ref, move.args) == (None, 8, (3,))
    assert parse_line('set info:name "with \\"quotes\\" in"').args == (Word("info:name"), 'with "quotes" in')
    assert parse_line("eval -.5").args == (-0.5,)
    assert parse_line("mode freeplay").text(0) == "freeplay"


@pytest.mark.parametrize(
    "line",
    [
        "",
        "   ",
        "@ move 1",
        "move 1,2",
        'set a "unclosed',
        "state <3,0,0,1>",
        "move\x00 1",
        "é",
        "x" * (MAX_LINE + 1),
        "1@2@3 move 1",
    ],
)
def test_bad_lines_are_refused_with_a_reason(line):
    with pytest.raises(KgpSyntaxError):
        parse_line(line)


def test_too_many_arguments_are_refused():
    with pytest.raises(KgpSyntaxError, match="at most"):
        parse_line("ok" + " 1" * 100)


def test_format_quotes_strings_and_round_trips():
    line = format_command("set", Word("info:name"), 'a "b" \\ c', id=3, ref=1)
    assert line == '3@1 set info:name "a \\"b\\" \\\\ c"'
    assert parse_line(line).args[1] == 'a "b" \\ c'
    assert parse_line(format_command("eval", 1.5, ref=7)).args == (1.5,)


def test_board_literal_matches_the_specification_example():
    board = parse_board("<3,10,2,1,2,3,4,2,0>")
    assert (board.south_store, board.north_store, board.south, board.north) == (10, 2, (1, 2, 3), (4, 2, 0))
    assert str(board) == "<3,10,2,1,2,3,4,2,0>"
    with pytest.raises(KgpSyntaxError):
        parse_board("<3,10,2,1,2,3,4,2>")


def test_positions_and_boards_convert_both_ways(rng):
    for _ in range(200):
        variant = Variant(rng.randint(1, 8), rng.randint(1, 6))
        position = Position.start(variant)
        for _ in range(rng.randint(0, 30)):
            if position.is_over:
                break
            position = position.play(rng.choice(position.legal_moves()))
        board = board_from_position(position)
        back = position_from_board(parse_board(str(board)), variant)
        # the mover is always south: the same position seen from the mover's side
        assert back.pits(0) == position.pits(position.to_move) and back.store(1) == position.store(1 - position.to_move)
        if position.to_move == 0:
            assert back == position
        for move in back.legal_moves():
            assert move_from_wire(move_to_wire(move), back) == move


def test_sowing_on_a_kgp_board_follows_kgp_order():
    # South sows into its own pits, its store, then north's pits from north's first pit (pykgp's Board.sow)
    # (pit 3's five seeds: store, north 1-3, south 1, capturing north 3; south is then empty and the game ends)
    position = position_from_board(parse_board("<3,0,0,0,0,5,1,1,1>"))
    assert position.play(2).board == [[0, 0, 0, 4], [0, 0, 0, 4]]


def test_boards_of_the_fau_stages_are_positions():
    for size in (8, 10, 12):
        position = position_from_board(parse_board(f"<{size},0,0," + ",".join([str(size)] * 2 * size) + ">"))
        assert position.board == Position.start(Variant(size, size)).board and position.variant.pits == size
        assert board_from_position(position.play(0)) == parse_board(
            f"<{size},1,0," + ",".join(["0"] + [str(size + 1)] * (size - 1) + [str(size)] * size) + ">"
        )


def test_boards_beyond_the_core_are_refused_clearly():
    with pytest.raises(UnsupportedBoardError, match="13 pits a side are not supported"):
        position_from_board(parse_board("<13," + ",".join(["0", "0"] + ["12"] * 26) + ">"))
    with pytest.raises(UnsupportedBoardError, match="a board of 1200 seeds is not supported"):
        position_from_board(parse_board("<12," + ",".join(["0", "0"] + ["50"] * 24) + ">"))
    with pytest.raises(KgpError):
        move_from_wire(4, position_from_board(parse_board("<3,0,0,0,0,5,1,1,1>")))
