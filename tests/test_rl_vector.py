"""The batched environment (compiled): gymnasium.make_vec returns it, its games follow kalah.Position,
its built-in opponents play the moves they should, autoreset, seeding, illegal actions and errors."""

from __future__ import annotations

import pytest

gymnasium = pytest.importorskip("gymnasium")

import numpy as np  # noqa: E402

import kalah.rl  # noqa: E402, F401
from helpers import AGREEMENT_VARIANTS  # noqa: E402
from kalah import InvalidVariantError, Position, Variant  # noqa: E402
from kalah.players.encoding import action_mask, move_of_action, observation  # noqa: E402
from kalah.rl import EnvOptionError  # noqa: E402
from kalah.rl.vector import KalahVectorEnv  # noqa: E402


def _greedy_moves(position: Position) -> list:
    """The moves the greedy opponent may choose: most seeds in its store right after, an extra turn as half a seed."""
    me = position.to_move

    def score(move):
        after = position.play(move)
        return 2 * after.store(me) + (after.to_move == me and not after.is_over)

    best = max(score(move) for move in position.legal_moves())
    return [move for move in position.legal_moves() if score(move) == best]


def _opponent_outcomes(position: Position, seat: int, opponent: str) -> set[Position]:
    """Every position the opponent can leave the agent in (its turns, extra ones included, played out)."""
    if position.is_over or position.to_move == seat:
        return {position}
    moves = _greedy_moves(position) if opponent == "greedy" else position.legal_moves()
    return set().union(*(_opponent_outcomes(position.play(move), seat, opponent) for move in moves))


def _start_outcomes(variant: Variant, seat: int, opponent: str) -> set[Position]:
    return _opponent_outcomes(Position.start(variant), seat, opponent)


@pytest.mark.parametrize("variant", AGREEMENT_VARIANTS + [Variant(3, 2, empty_capture=True, pie_rule=True)], ids=str)
@pytest.mark.parametrize("opponent", ["random", "greedy"])
@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_batched_games_follow_the_rules(variant, opponent, mode):
    env = gymnasium.make_vec(
        "kalah/Kalah-v0",
        num_envs=8,
        vectorization_mode="vector_entry_point",
        seat="random",
        opponent=opponent,
        reward="margin",
        autoreset_mode=mode,
        pits=variant.pits,
        seeds=variant.seeds,
        empty_capture=variant.empty_capture,
        pie_rule=variant.pie_rule,
    )
    assert isinstance(env, KalahVectorEnv)
    games = env.games
    rng = np.random.default_rng(1)
    obs, info = env.reset(seed=3)
    finished = 0
    for i in range(env.num_envs):
        assert games.position(i) in _start_outcomes(variant, games.seats()[i], opponent)
    ended = np.zeros(env.num_envs, bool)
    for _ in range(150):
        before = [(games.position(i), games.seats()[i]) for i in range(env.num_envs)]
        for i, (position, seat) in enumerate(before):
            assert list(obs[i]) == observation(position, seat) and info["seat"][i] == seat
            assert list(info["action_mask"][i]) == action_mask(position, seat)
        actions = (rng.random(info["action_mask"].shape) * info["action_mask"]).argmax(1)
        obs, reward, terminated, truncated, info = env.step(actions)
        assert not truncated.any()
        for i, (position, seat) in enumerate(before):
            if ended[i]:  # the next step after the end: a new game, the action ignored
                assert games.position(i) in _start_outcomes(variant, games.seats()[i], opponent)
                assert not terminated[i] and reward[i] == 0
                continue
            outcomes = _opponent_outcomes(position.play(move_of_action(int(actions[i]), variant)), seat, opponent)
            if terminated[i]:
                finished += 1
                last = info["final_obs"][i] if mode == "same_step" else obs[i]
                end = next(p for p in outcomes if list(last) == observation(p, seat))
                assert end.is_over
                margin = info["final_info"]["margin"][i] if mode == "same_step" else info["margin"][i]
                assert reward[i] == margin == (end.margin if seat == 0 else -end.margin)
                if mode == "same_step":
                    assert games.position(i) in _start_outcomes(variant, games.seats()[i], opponent)
                else:
                    assert games.position(i) == end and not info["action_mask"][i].any()
            else:
                assert games.position(i) in outcomes and reward[i] == 0
        ended = terminated if mode == "next_step" else np.zeros(env.num_envs, bool)
    assert finished >= 8


def test_seeding_repeats_and_the_win_reward():
    def run(seed):
        env = KalahVectorEnv(num_envs=16, seat="random", opponent="greedy")
        rng = np.random.default_rng(0)
        obs, info = env.reset(seed=seed)
        trail = [obs]
        for _ in range(100):
            obs, reward, terminated, _, info = env.step((rng.random((16, 6)) * info["action_mask"]).argmax(1))
            assert set(np.unique(reward[terminated])) <= {-1.0, 0.0, 1.0}
            assert (np.sign(info["margin"][terminated]) == reward[terminated]).all()
            assert (info["_margin"] == terminated).all()
            trail += [obs, reward, env.games.seats()]
        return trail

    first, again, other = run(5), run(5), run(6)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=False))
    assert not all(np.array_equal(a, b) for a, b in zip(first, other, strict=False))


def test_an_illegal_action_loses_and_the_game_starts_again():
    env = KalahVectorEnv(num_envs=2, reward="margin", autoreset_mode="same_step")
    env.reset(seed=0)
    obs, reward, terminated, _, info = env.step([2, 7])  # C is fine (an extra turn); 7 is out of range
    assert list(terminated) == [False, True] and list(info["final_info"]["illegal_move"]) == [False, True]
    assert reward[1] == -48 and info["final_info"]["margin"][1] == -48
    assert list(obs[1]) == [4] * 6 + [0] + [4] * 6 + [0]  # the new game
    obs, reward, terminated, _, info = env.step([2, 0])  # C again: empty now
    assert terminated[0] and info["final_info"]["illegal_move"][0] and reward[0] == -48
    later = KalahVectorEnv(num_envs=1, reward="margin")  # next-step: the game ends, the next step starts one
    later.reset(seed=0)
    obs, reward, terminated, _, info = later.step([-1])
    assert terminated[0] and info["illegal_move"][0] and reward[0] == -48 and info["margin"][0] == -48
    obs, reward, terminated, _, info = later.step([0])
    assert not terminated[0] and reward[0] == 0 and list(obs[0]) == [4] * 6 + [0] + [4] * 6 + [0]


def test_the_greedy_opponent_beats_random_play():
    env = KalahVectorEnv(num_envs=256, opponent="greedy", seat="random")
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=1)
    results = []
    for _ in range(200):
        obs, reward, terminated, _, info = env.step((rng.random((256, 6)) * info["action_mask"]).argmax(1))
        results += list(reward[terminated])
    assert len(results) > 300 and np.mean(results) < -0.5


@pytest.mark.parametrize(
    "kwargs, error",
    [
        (dict(num_envs=0), EnvOptionError),
        (dict(num_envs=True), EnvOptionError),
        (dict(opponent="pvs:time=0.1"), EnvOptionError),
        (dict(opponent="pvs:depth=13"), EnvOptionError),
        (dict(opponent="random:seed=1"), EnvOptionError),
        (dict(opponent="perfect"), EnvOptionError),
        (dict(opponent="human"), EnvOptionError),
        (dict(autoreset_mode="disabled"), EnvOptionError),
        (dict(seat="both"), EnvOptionError),
        (dict(illegal="raise"), EnvOptionError),
        (dict(reward="score"), EnvOptionError),
        (dict(seeds=0), InvalidVariantError),
    ],
)
def test_bad_options(kwargs, error):
    with pytest.raises(error):
        KalahVectorEnv(**{"num_envs": 2, **kwargs})


def test_step_before_reset_and_wrong_action_counts():
    env = KalahVectorEnv(num_envs=3)
    with pytest.raises(EnvOptionError, match="reset"):
        env.step([0, 0, 0])
    env.reset(seed=0)
    with pytest.raises(ValueError, match="3 actions"):
        env.step([0, 0])


def test_render():
    env = KalahVectorEnv(num_envs=2, render_mode="ansi", pits=4, seeds=3)
    env.reset(seed=0)
    boards = env.render()
    assert len(boards) == 2 and "A  B  C  D" in boards[0]


def test_sampled_actions_are_legal_and_cover_every_legal_action():
    env = KalahVectorEnv(num_envs=64, pie_rule=True, seat="random")
    with pytest.raises(EnvOptionError, match="reset"):
        env.sample_legal_actions()
    obs, info = env.reset(seed=0)
    seen = np.zeros_like(info["action_mask"])
    for _ in range(200):
        actions = env.sample_legal_actions()
        playing = info["action_mask"].any(1)  # the others just ended: the next step starts them again
        assert info["action_mask"][np.arange(64), actions][playing].all()
        seen[np.arange(64), actions] = 1
        obs, reward, terminated, _, info = env.step(actions)
        assert not info["illegal_move"].any()
    assert seen[:, :6].all() and seen[:, 6].any()  # the swap too, where it was legal
