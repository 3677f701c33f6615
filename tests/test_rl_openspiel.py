"""Kalah as an OpenSpiel game: parameters, OpenSpiel's MCTS bot on it, and agreement with the built-in mancala."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")
pytest.importorskip("gymnasium")

import numpy as np  # noqa: E402
from open_spiel.python.algorithms import mcts  # noqa: E402

import kalah.rl.openspiel  # noqa: E402  (registers the game)
from kalah import InvalidVariantError, Position, Variant  # noqa: E402
from kalah.players.encoding import move_of_action  # noqa: E402
from kalah.rl import EnvOptionError  # noqa: E402

PITS = 6


def _mancala_cells(state) -> list[int]:
    """OpenSpiel's mancala board in our cell order: its index 0 is player 1's store, 1..6 player 0's pits,
    7 player 0's store, 8..13 player 1's pits (both rows in sowing order)."""
    board = [state.observation_tensor(0)[i] for i in range(2 * PITS + 2)]
    return [int(x) for x in board[1 : PITS + 2] + board[PITS + 2 :] + board[:1]]


def _mancala_action(action: int, player: int) -> int:
    return 1 + action if player == 0 else PITS + 2 + action


def _swept(cells: list[int]) -> list[int]:
    """The board after our end-of-game sweep (mancala leaves the seeds where they are and counts them)."""
    return [0] * PITS + [sum(cells[: PITS + 1])] + [0] * PITS + [sum(cells[PITS + 1 :])]


def test_kalah_6_4_agrees_with_openspiels_mancala_on_random_games():
    rng = random.Random(2026)
    ours_game, theirs_game = pyspiel.load_game("kalah"), pyspiel.load_game("mancala")
    for _ in range(300):
        ours, theirs = ours_game.new_initial_state(), theirs_game.new_initial_state()
        while not ours.is_terminal():
            assert not theirs.is_terminal()
            assert ours.current_player() == theirs.current_player()
            player = ours.current_player()
            assert [_mancala_action(a, player) for a in ours.legal_actions()] == theirs.legal_actions()
            assert list(ours.position.cells) == _mancala_cells(theirs)
            action = rng.choice(ours.legal_actions())
            ours.apply_action(action)
            theirs.apply_action(_mancala_action(action, player))
        assert theirs.is_terminal()
        assert list(ours.position.cells) == _swept(_mancala_cells(theirs))
        assert ours.returns() == theirs.returns()


@pytest.mark.parametrize("name", ["kalah(pits=4,seeds=3)", "kalah(pits=4,seeds=3,pie_rule=True,empty_capture=True)"])
def test_openspiels_mcts_bot_plays_any_variant(name):
    game = pyspiel.load_game(name)
    bot = mcts.MCTSBot(
        game, 2.0, 300, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)), random_state=np.random.RandomState(1)
    )
    rng = random.Random(3)
    score = 0.0
    for game_number in range(4):
        state = game.new_initial_state()
        bot_seat = game_number % 2
        while not state.is_terminal():
            action = bot.step(state) if state.current_player() == bot_seat else rng.choice(state.legal_actions())
            assert action in state.legal_actions()
            state.apply_action(action)
        score += state.returns()[bot_seat]
    assert score >= 2  # MCTS with 300 simulations beats random moves


def test_parameters_follow_the_variant_and_the_rules():
    game = pyspiel.load_game("kalah(pits=3,seeds=2,pie_rule=True,margin=True)")
    assert game.num_distinct_actions() == 4
    assert game.max_utility() == 12
    assert game.observation_tensor_shape() == [9]
    rng = random.Random(1)
    variant = Variant(3, 2, pie_rule=True)
    for _ in range(50):
        state, position = game.new_initial_state(), Position.start(variant)
        while not state.is_terminal():
            assert state.position == position
            action = rng.choice(state.legal_actions())
            position = position.play(move_of_action(action, variant))
            state.apply_action(action)
        assert state.returns() == [position.margin, -position.margin]


def test_bad_parameters():
    with pytest.raises(InvalidVariantError):
        pyspiel.load_game("kalah(pits=13)")
    with pytest.raises(EnvOptionError):
        kalah.rl.openspiel.KalahGame({"seeds": 3, "colour": 1})
