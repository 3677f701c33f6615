"""The perfect player: self-play reaches the solved value; equal moves prefer the fastest win."""

from __future__ import annotations

from kalah import Position, Variant, solve
from kalah.players.spec import make_player, player_types


def test_perfect_is_registered():
    assert "perfect" in player_types()


def test_perfect_self_play_reaches_the_solved_value():
    for variant in (Variant(4, 3), Variant(3, 3, empty_capture=True)):
        start = Position.start(variant)
        value = solve(start, endgame=None).value
        players = [make_player("perfect:time=5"), make_player("perfect:time=5")]
        position = start
        while not position.is_over:
            position = position.play(players[position.to_move].choose_move(position))
        assert position.margin == value


def test_perfect_falls_back_to_search_when_out_of_time():
    player = make_player("perfect:time=0.05,fallback=0.1")
    move = player.choose_move(Position.start(Variant(6, 6)))
    assert move in Position.start(Variant(6, 6)).legal_moves()
    assert player.last_info["exact"] is False
