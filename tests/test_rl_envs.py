"""The Gymnasium and PettingZoo environments of kalah.rl: their libraries' checkers, the rules of
kalah.Position on random games, options, errors, rewards, rendering and seeding."""

from __future__ import annotations

import random
import warnings

import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

import kalah.rl  # noqa: E402
from helpers import AGREEMENT_VARIANTS  # noqa: E402
from kalah import IllegalMoveError, InvalidVariantError, Position, Variant  # noqa: E402
from kalah.players import make_player  # noqa: E402
from kalah.players.encoding import action_mask, move_of_action, observation  # noqa: E402
from kalah.rl import EnvOptionError, KalahEnv  # noqa: E402

OPTIONS = [
    dict(pits=v.pits, seeds=v.seeds, empty_capture=v.empty_capture, pie_rule=v.pie_rule) for v in AGREEMENT_VARIANTS
]


@pytest.mark.parametrize("pie_rule", [False, True])
def test_gymnasium_checker_passes(pie_rule):
    env = gymnasium.make("kalah/Kalah-v0", pie_rule=pie_rule, opponent="pvs:depth=2", seat="random")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker's warnings are failures too
        check_env(env.unwrapped, skip_render_check=True)
    check_env(KalahEnv(pits=4, seeds=3, render_mode="ansi"))


@pytest.mark.parametrize("pie_rule", [False, True])
def test_pettingzoo_api_test_passes(pie_rule):
    api_test(kalah.rl.env(pie_rule=pie_rule), num_cycles=300)
    api_test(kalah.rl.env(pits=3, seeds=2, empty_capture=True, pie_rule=pie_rule), num_cycles=300)


@pytest.mark.parametrize("opts", OPTIONS, ids=lambda o: str(Variant(**o)))
def test_aec_env_follows_the_rules_on_random_games(opts):
    rng = random.Random(31)
    env = kalah.rl.env(**opts)
    variant = Variant(**opts)
    for _ in range(30):
        env.reset()
        position = Position.start(variant)
        while True:
            for seat, agent in enumerate(env.possible_agents):
                seen = env.observe(agent)
                assert list(seen["observation"]) == observation(position, seat)
                assert list(seen["action_mask"]) == action_mask(position, seat)
            agent = env.agent_selection
            if env.terminations[agent]:
                break
            assert agent == f"player_{position.to_move}"  # an extra turn: the same agent again
            action = rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]).tolist())
            env.step(action)
            position = position.play(move_of_action(action, variant))
        assert position.is_over
        margin = position.margin
        assert env.rewards == {"player_0": np.sign(margin), "player_1": -np.sign(margin)}
        assert env.unwrapped.position == position


@pytest.mark.parametrize("opts", OPTIONS, ids=lambda o: str(Variant(**o)))
def test_gymnasium_env_follows_the_rules_on_random_games(opts):
    """The opponent is a deterministic search, so the test can play its moves on the reference too."""
    rng = random.Random(32)
    variant = Variant(**opts)
    env = gymnasium.make("kalah/Kalah-v0", opponent="alphabeta:depth=2", seat="random", reward="margin", **opts)
    opponent = make_player("alphabeta:depth=2")
    for game in range(20):
        obs, info = env.reset(seed=game)
        seat = info["seat"]
        position = Position.start(variant)

        def opponent_moves(position, seat=seat):
            while not position.is_over and position.to_move != seat:
                position = position.play(opponent.choose_move(position))
            return position

        position = opponent_moves(position)
        total = 0.0
        while True:
            assert list(obs) == observation(position, seat)
            assert list(info["action_mask"]) == action_mask(position, seat)
            if position.is_over:
                break
            action = rng.choice(np.flatnonzero(info["action_mask"]).tolist())
            obs, reward, terminated, truncated, info = env.step(action)
            total += reward
            position = opponent_moves(position.play(move_of_action(action, variant)))
            assert terminated == position.is_over and not truncated
        assert total == (position.margin if seat == 0 else -position.margin) == info["margin"]


def test_seeding_makes_runs_repeatable():
    def run(seed):
        env = gymnasium.make("kalah/Kalah-v0", opponent="random", seat="random")
        actions = random.Random(5)
        trail = []
        obs, info = env.reset(seed=seed)
        for _ in range(200):
            action = actions.choice(np.flatnonzero(info["action_mask"]).tolist())
            obs, reward, terminated, _, info = env.step(action)
            trail.append((info["seat"], obs.tobytes(), reward))
            if terminated:
                obs, info = env.reset()
        return trail

    assert run(7) == run(7)
    assert run(7) != run(8)


def test_win_reward_and_the_agents_seat():
    env = gymnasium.make("kalah/Kalah-v0", seat=1, opponent="minimax:depth=1")
    obs, info = env.reset(seed=0)
    assert info["seat"] == 1
    assert list(obs) != [4] * 6 + [0] + [4] * 6 + [0]  # the opponent has moved first
    assert obs.sum() == 48
    rewards = []
    while True:
        obs, reward, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        rewards.append(reward)
        if terminated:
            break
    assert rewards[:-1] == [0.0] * (len(rewards) - 1)
    assert rewards[-1] == np.sign(info["margin"])


def test_illegal_actions():
    env = KalahEnv()
    env.reset(seed=0)
    env.step(2)  # C: the last seed in the store, the agent moves again with C empty
    obs, reward, terminated, _, info = env.step(2)
    assert (reward, terminated, info["illegal_move"]) == (-1.0, True, True)
    assert not info["action_mask"].any()
    with pytest.raises(IllegalMoveError, match="reset"):
        env.step(0)
    strict = KalahEnv(illegal="raise", reward="margin")
    strict.reset(seed=0)
    strict.step(2)
    with pytest.raises(IllegalMoveError, match="not legal"):
        strict.step(2)
    with pytest.raises(IllegalMoveError):
        strict.step(6)  # the swap's index, without the pie rule
    margin = KalahEnv(reward="margin")
    margin.reset(seed=0)
    margin.step(2)
    assert margin.step(2)[1] == -48.0


def test_the_swap_is_an_action_with_the_pie_rule():
    env = kalah.rl.env(pie_rule=True)
    env.reset()
    assert env.action_space("player_1").n == 7
    env.step(2)  # the first move earns no extra turn under the pie rule
    assert env.agent_selection == "player_1"
    assert env.observe("player_1")["action_mask"][6] == 1
    before = env.observe("player_0")["observation"].copy()
    env.step(6)
    assert env.agent_selection == "player_0"
    after = env.observe("player_0")["observation"]
    assert list(after) == list(before[7:]) + list(before[:7])  # the rows exchanged


@pytest.mark.parametrize(
    "kwargs, error",
    [
        (dict(pits=0), InvalidVariantError),
        (dict(seeds=16), InvalidVariantError),
        (dict(pie_rule="yes"), InvalidVariantError),
        (dict(reward="score"), EnvOptionError),
        (dict(seat=2), EnvOptionError),
        (dict(seat=True), EnvOptionError),
        (dict(illegal="ignore"), EnvOptionError),
        (dict(opponent="nobody"), EnvOptionError),
        (dict(opponent="human"), EnvOptionError),
        (dict(opponent=3), EnvOptionError),
        (dict(render_mode="human"), EnvOptionError),
    ],
)
def test_bad_options_raise_the_projects_errors(kwargs, error):
    with pytest.raises(error):
        KalahEnv(**kwargs)


def test_bad_aec_options():
    with pytest.raises(EnvOptionError):
        kalah.rl.env(reward="seeds")
    with pytest.raises(InvalidVariantError):
        kalah.rl.raw_env(pits=13)
    with pytest.raises(EnvOptionError, match="up to 8 pits a side and 255 seeds"):
        kalah.rl.raw_env(pits=9)  # a Kalah(9,4) the rules allow, the byte observations do not
    with pytest.raises(EnvOptionError):
        kalah.rl.raw_env(render_mode="video")


def test_render_text_and_svg():
    env = KalahEnv(pits=4, seeds=3, render_mode="ansi", seat=1, opponent="minimax:depth=1")
    env.reset(seed=0)
    text = env.render()
    assert "a  b  c  d" in text and "D  C  B  A" in text and "player 1 to move" in text
    svg = KalahEnv(render_mode="svg")
    svg.reset(seed=0)
    assert svg.render().startswith("<svg")
    aec = kalah.rl.env(render_mode="ansi")
    aec.reset()
    assert "player 0 to move" in aec.render()
