"""The opponents of the learning environments (issue 46): the batched games' compiled searches and UCT
choose what the engine chooses, self-play in C and in the single environment, a callable on the batch,
a policy file, a player object, and greedy as a player spec."""

from __future__ import annotations

import random

import pytest

gymnasium = pytest.importorskip("gymnasium")

import numpy as np  # noqa: E402

import kalah  # noqa: E402
import kalah.rl  # noqa: E402
from helpers import AGREEMENT_VARIANTS  # noqa: E402
from kalah import Position, Variant  # noqa: E402
from kalah.players import make_player  # noqa: E402
from kalah.players.encoding import action_mask, move_of_action, observation  # noqa: E402
from kalah.players.greedy import greedy_moves  # noqa: E402
from kalah.players.policy import save_policy  # noqa: E402
from kalah.rl import EnvOptionError, KalahEnv  # noqa: E402
from kalah.rl.vector import KalahVectorEnv  # noqa: E402

VARIANTS = AGREEMENT_VARIANTS + [Variant(3, 2, empty_capture=True, pie_rule=True), Variant(8, 15), Variant(2, 1)]


def _positions(variant: Variant, count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        position = Position.start(variant)
        for _ in range(rng.randrange(60)):
            if position.is_over:
                break
            position = position.play(rng.choice(position.legal_moves()))
        if not position.is_over:
            found.append(position)
    return found


@pytest.mark.parametrize("variant", VARIANTS, ids=str)
@pytest.mark.parametrize("evaluation", ["strong", "store", "seed"])
def test_the_batched_search_chooses_the_engines_move(variant, evaluation):
    """Every exact algorithm at a depth returns depth-limited minimax values, the root's ties going to the
    lowest move: the compiled opponent's move is the engine's, whichever algorithm the spec names."""
    for depth in (1, 2, 3):
        games = KalahVectorEnv(
            pits=variant.pits,
            seeds=variant.seeds,
            empty_capture=variant.empty_capture,
            pie_rule=variant.pie_rule,
            opponent=f"alphabeta:depth={depth},eval={evaluation}",
        ).games
        for index, position in enumerate(_positions(variant, 40, depth)):
            algorithm = ("pvs", "alphabeta", "minimax", "scout", "mtdf")[index % 5]
            expected = kalah.search(position, algorithm, depth=depth, evaluation=evaluation).best_move
            assert games.opponent_move(position) == expected, (position, depth)


def test_the_batched_uct_chooses_the_engines_move():
    games = KalahVectorEnv(opponent="mcts:playouts=300").games
    mask = (1 << 64) - 1
    for index, position in enumerate(_positions(Variant(6, 4), 12, 5)):
        # the games' generator at `seed` gives UCT its first number (splitmix64) as the search's seed
        z = (index + 0x9E3779B97F4A7C15) & mask
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        z ^= z >> 31
        assert games.opponent_move(position, index) == kalah.search(position, "mcts", playouts=300, seed=z).best_move


def test_the_compiled_greedy_and_the_greedy_spec_agree():
    games = KalahVectorEnv(pie_rule=True, opponent="greedy").games
    player = make_player("greedy:seed=3")
    assert player.spec == "greedy:seed=3"
    for position in _positions(Variant(6, 4, pie_rule=True), 60, 9):
        allowed = greedy_moves(position)
        assert games.opponent_move(position, 7) in allowed
        assert player.choose_move(position) in allowed
        assert {games.opponent_move(position, seed) for seed in range(40)} == set(allowed)


def test_greedy_is_a_player_spec_everywhere(tmp_path):
    from kalah.arena import Arena, builtin_openings, run_arena
    from kalah.records import GameLibrary

    variant = Variant(6, 3)
    arena = Arena(["greedy", "random:seed=1"], variant, 4, builtin_openings(variant, 2))
    library = GameLibrary(tmp_path / "arena.sqlite")
    run_arena(arena, library, jobs=1)
    greedy = next(row for row in arena.results(library).players if row.spec == "greedy")
    assert greedy.games == 4 and greedy.wins >= 3
    env = gymnasium.make("kalah/Kalah-v0", opponent="greedy:seed=2")
    env.reset(seed=0)


@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_batched_self_play_shows_the_mover_and_follows_the_rules(mode):
    variant = Variant(4, 3, pie_rule=True)
    env = KalahVectorEnv(num_envs=6, pits=4, seeds=3, pie_rule=True, opponent="self", autoreset_mode=mode)
    obs, info = env.reset(seed=0)
    positions = [Position.start(variant)] * 6
    rng = np.random.default_rng(2)
    finished = 0
    for _ in range(120):
        for i, position in enumerate(positions):
            if position is None:
                continue
            assert info["seat"][i] == position.to_move
            assert list(obs[i]) == observation(position, position.to_move)
            assert list(info["action_mask"][i]) == action_mask(position, position.to_move)
        actions = (rng.random(info["action_mask"].shape) * info["action_mask"]).argmax(1)
        obs, reward, terminated, _, info = env.step(actions)
        for i, position in enumerate(positions):
            if position is None:
                positions[i] = Position.start(variant)
                continue
            after = position.play(move_of_action(int(actions[i]), variant))
            if terminated[i]:
                finished += 1
                mine = after.margin if position.to_move == 0 else -after.margin
                margin = info["final_info"]["margin"][i] if mode == "same_step" else info["margin"][i]
                assert margin == mine and reward[i] == np.sign(mine)
                positions[i] = Position.start(variant) if mode == "same_step" else None
                if mode == "next_step":
                    assert info["seat"][i] == position.to_move  # the final observation is the last mover's
            else:
                assert reward[i] == 0
                positions[i] = after
    assert finished >= 6


def test_single_self_play():
    env = KalahEnv(opponent="self", pits=3, seeds=2)
    obs, info = env.reset(seed=0)
    position = env.position
    while True:
        assert info["seat"] == position.to_move and list(obs) == observation(position, position.to_move)
        action = int(np.flatnonzero(info["action_mask"])[0])
        mover = position.to_move
        obs, reward, terminated, _, info = env.step(action)
        position = position.play(move_of_action(action, position.variant))
        if terminated:
            assert reward == np.sign(position.margin if mover == 0 else -position.margin)
            break


def _first_legal(observations, masks):
    return np.array([np.flatnonzero(row)[0] for row in masks], np.int64)


def test_a_callable_opponent_is_asked_once_a_round_for_the_batch():
    calls = []

    def opponent(observations, masks):
        calls.append(len(observations))
        assert observations.dtype == np.uint8 and masks.shape == (len(observations), 6)
        return _first_legal(observations, masks)

    env = KalahVectorEnv(num_envs=32, opponent=opponent, seat="random")
    obs, info = env.reset(seed=4)
    assert calls and max(calls) <= 32
    games = env.games
    for _ in range(40):
        before = [(games.position(i), games.seats()[i]) for i in range(32)]
        actions = env.sample_legal_actions()
        calls.clear()
        obs, reward, terminated, _, info = env.step(actions)
        assert len(calls) <= 4  # one call a round, a round for each extra turn of the opponent's
        for i, (position, seat) in enumerate(before):
            if position.is_over or terminated[i]:  # a game just ended or started again: not this check's
                continue
            expected = position.play(move_of_action(int(actions[i]), position.variant))
            while not expected.is_over and expected.to_move != seat:
                expected = expected.play(expected.legal_moves()[0])  # the callable's lowest legal action
            assert games.position(i) == expected


def test_a_callable_opponents_bad_answers_are_errors():
    env = KalahVectorEnv(num_envs=4, opponent=lambda o, m: np.full(len(o), 99), seat=1)
    with pytest.raises(kalah.IllegalMoveError):
        env.reset(seed=0)
    with pytest.raises(EnvOptionError, match="reset"):
        env.step(np.zeros(4, np.int64))
    env = KalahVectorEnv(num_envs=4, opponent=lambda o, m: np.zeros(len(o)), seat=1)
    with pytest.raises(TypeError):
        env.reset(seed=0)


def test_a_policy_file_and_a_player_as_opponents(tmp_path):
    rng = np.random.default_rng(0)
    save_policy(tmp_path / "agent.npz", Variant(6, 4), [(rng.normal(size=(14, 6)), np.zeros(6))])
    spec = f"policy:file={tmp_path / 'agent.npz'}"
    player = make_player(spec)
    expected = Position.start(Variant(6, 4))
    while expected.to_move == 0:  # the policy moves first: the agent sits at seat 1
        expected = expected.play(player.choose_move(expected))
    for opponent in (spec, player, player.network):
        env = KalahVectorEnv(num_envs=3, opponent=opponent, seat=1)
        env.reset(seed=0)
        assert [env.games.position(i) for i in range(3)] == [expected] * 3
    for opponent in (spec, player, lambda o, m: player.network.logits(o).argmax(1)):
        single = KalahEnv(opponent=opponent, seat=1)
        single.reset(seed=0)
        assert single.position == expected
    save_policy(tmp_path / "small.npz", Variant(4, 3), [(rng.normal(size=(10, 4)), np.zeros(4))])
    with pytest.raises(EnvOptionError, match="plays Kalah"):
        KalahVectorEnv(num_envs=2, opponent=f"policy:file={tmp_path / 'small.npz'}")
    with pytest.raises(EnvOptionError, match="plays Kalah"):
        KalahEnv(opponent=f"policy:file={tmp_path / 'small.npz'}")
