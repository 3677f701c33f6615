"""One word for a game's result (``Outcome``) and one for a value's point of view (``PovValue``): the
rules' types, the KGP's ``game:result`` pair, the class server's and the arena's tables made from them."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kalah.arena.schedule import ArenaResults
from kalah.classroom.agents import outcome_of
from kalah.kgp.wire import GameResult, format_game_result, parse_game_result
from kalah.rules import KalahError, Outcome, Position, PovValue, Variant
from kalah.rules.outcome import WORDS

values = st.one_of(st.integers(-100, 100), st.floats(-100, 100, allow_nan=False))


@given(values, st.sampled_from([0, 1]))
def test_a_value_is_its_own_players_and_the_negation_the_others(value, player):
    pov = PovValue(value, player)
    assert pov.pov(player) == value
    assert pov.pov(1 - player) == -value
    assert PovValue(pov.pov(1 - player), 1 - player).pov(player) == value  # a round trip of views


def test_a_point_of_view_is_a_player():
    with pytest.raises(KalahError, match="player 0 or 1"):
        PovValue(3, 2)


def test_the_margin_of_the_mover_is_player_0s_margin_seen_by_the_mover():
    over = Position([[0, 0, 0, 20], [1, 2, 0, 13]], to_move=1, variant=Variant(3, 6))
    assert over.margin == 20 - 16 and over.mover_margin == -4  # player 1 moves (none left), player 0 won by 4


@pytest.mark.parametrize(
    ("value", "player", "draw_below", "winner"),
    [(4, 1, 0, 1), (-4, 1, 0, 0), (0, 0, 0, None), (0.5, 0, 1, None), (-0.99, 1, 1, None), (1, 1, 1, 1)],
)
def test_a_value_promises_a_result(value, player, draw_below, winner):
    assert Outcome.expected(PovValue(value, player), draw_below).winner == winner


@pytest.mark.parametrize("winner", [0, 1, None])
def test_the_words_and_scores_of_an_outcome_agree(winner):
    outcome = Outcome(winner)
    for player in (0, 1):
        assert {"won": 1.0, "drew": 0.5, "lost": 0.0}[outcome.word(player)] == outcome.score(player)
        assert outcome.score(player) + outcome.score(1 - player) == 1.0
    assert WORDS == ("won", "drew", "lost")


@given(st.sampled_from([0, 1, None]), st.sampled_from([0, 1]), st.integers(0, 999), st.integers(0, 999))
def test_game_result_is_read_back_as_the_told_agent_sees_it(winner, player, score0, score1):
    text = format_game_result(42, Outcome(winner), (score0, score1), player)
    told = parse_game_result(text)
    assert told is not None and told.game_id == "42"
    assert told.outcome.word(0) == Outcome(winner).word(player)  # the told agent is player 0
    assert told.scores == ((score0, score1) if player == 0 else (score1, score0))


def test_game_result_is_the_class_servers_text():
    assert format_game_result(7, Outcome(0), (40, 32), player=0) == "7 win 40-32"
    assert format_game_result(7, Outcome(0), (40, 32), player=1) == "7 loss 32-40"
    assert format_game_result(9, Outcome(None), (36, 36), player=1) == "9 draw 36-36"
    assert parse_game_result("7 loss 32-40") == GameResult("7", Outcome(1), (32, 40))


@pytest.mark.parametrize(
    "text", ["", "7 win", "7 won 40-32", "7 win 40-", "7 win 40:32", "7 win ²-1", "7 win 40-32 more", "7 win -1-3"]
)
def test_any_other_game_result_is_not_read(text):
    assert parse_game_result(text) is None


@pytest.mark.parametrize(
    ("score", "reason", "winner", "termination"),
    [
        (1.0, "40-32", 0, "board"),
        (0.0, "30-42", 1, "board"),
        (0.5, "36-36", None, "board"),
        (0.0, "forfeit: south disconnected (gone)", 1, "forfeit"),
    ],
)
def test_a_class_servers_stored_result_reads_as_an_outcome(score, reason, winner, termination):
    assert outcome_of({"score": score, "reason": reason}) == Outcome(winner, termination)


def test_the_arenas_tables_count_each_game_for_both_of_its_players():
    outcomes = [(0, 1, Outcome(0)), (1, 0, Outcome(0)), (0, 1, Outcome(None)), (2, 0, Outcome.decided(0, "forfeit"))]
    results = ArenaResults.from_outcomes(["a", "b", "c"], outcomes, 4)
    rows = {row.spec: (row.wins, row.draws, row.losses) for row in results.players}
    assert rows == {"a": (2, 1, 1), "b": (1, 1, 1), "c": (0, 0, 1)}
    pairs = {(pair.first, pair.second): (pair.wins, pair.draws, pair.losses) for pair in results.pairs}
    assert pairs == {("a", "b"): (1, 1, 1), ("a", "c"): (1, 0, 0)}
