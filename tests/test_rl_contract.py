"""Gymnasium's, PettingZoo's and OpenSpiel's contracts, exactly (issue 46): per-env seeds, reset_mask,
errors for malformed actions, final_info, one autoreset mode per id, no episode that starts finished,
rgb_array and RecordVideo, action_masks, copies of every environment, undo_action; and the libraries'
own checkers on several variants."""

from __future__ import annotations

import copy
import pickle
import random
import warnings

import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import kalah.rl  # noqa: E402
from kalah import IllegalMoveError, Variant  # noqa: E402
from kalah.rl import EnvOptionError, KalahEnv  # noqa: E402
from kalah.rl.vector import KalahVectorEnv  # noqa: E402

VARIANTS = [Variant(6, 4), Variant(3, 2, empty_capture=True, pie_rule=True), Variant(7, 7, pie_rule=True)]
OPTIONS = [dict(pits=v.pits, seeds=v.seeds, empty_capture=v.empty_capture, pie_rule=v.pie_rule) for v in VARIANTS]
MALFORMED = [2.0, "1", np.array([1]), True, np.float32(1), None, [1]]


@pytest.mark.parametrize("opts", OPTIONS, ids=lambda o: str(Variant(**o)))
def test_the_libraries_checkers_pass_on_several_variants(opts):
    env = gymnasium.make("kalah/Kalah-v0", opponent="greedy", seat="random", render_mode="rgb_array", **opts)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker's warnings are failures too
        check_env(env.unwrapped)
    api_test(kalah.rl.env(**opts), num_cycles=200)
    seed_test(lambda: kalah.rl.env(**opts), num_cycles=200)


@pytest.mark.parametrize("opts", OPTIONS, ids=lambda o: str(Variant(**o)))
def test_openspiels_random_sim_test_passes_on_several_variants(opts):
    pyspiel = pytest.importorskip("pyspiel")
    import kalah.rl.openspiel  # noqa: F401

    parameters = ",".join(f"{key}={value}" for key, value in opts.items())
    pyspiel.random_sim_test(pyspiel.load_game(f"kalah({parameters})"), num_sims=20, serialize=True, verbose=False)


def _trail(env, actions_seed=0, steps=60):
    rng = np.random.default_rng(actions_seed)
    trail = []
    obs, info = env.reset(seed=[5, 9, 5])
    for _ in range(steps):
        actions = (rng.random(info["action_mask"].shape) * info["action_mask"]).argmax(1)
        obs, reward, terminated, _, info = env.step(actions)
        trail.append((obs.copy(), reward.copy(), terminated.copy()))
    return trail


def test_every_game_takes_its_own_seed():
    """reset(seed=[...]) seeds each game with its seed (it took only the first): the games seeded 5 play
    alike under the same actions, the one seeded 9 not; reset(seed=s) is seed=[s, s+1, ...]."""
    env = KalahVectorEnv(num_envs=3, opponent="greedy", seat="random")
    obs, info = env.reset(seed=[5, 9, 5])
    apart = False
    for _ in range(60):
        assert np.array_equal(obs[0], obs[2]) and env.games.seats()[0] == env.games.seats()[2]
        apart |= not np.array_equal(obs[0], obs[1]) or env.games.seats()[0] != env.games.seats()[1]
        obs, _, _, _, info = env.step(first_legal(info["action_mask"]))
    assert apart
    first, again = KalahVectorEnv(num_envs=3, seat="random"), KalahVectorEnv(num_envs=3, seat="random")
    assert np.array_equal(first.reset(seed=7)[0], again.reset(seed=[7, 8, 9])[0])
    for _ in range(20):
        actions = first_legal(first.action_masks())
        assert np.array_equal(first.step(actions)[0], again.step(actions)[0])
    with pytest.raises(ValueError, match="one per game"):
        env.reset(seed=[1, 2])


def first_legal(masks):
    """The lowest legal action of each row (0 where none is legal: a game that just ended)."""
    return np.array([np.flatnonzero(row)[0] if row.any() else 0 for row in masks], np.int64)


def test_a_seeded_game_plays_alike_in_any_batch():
    one, three = (
        KalahVectorEnv(num_envs=1, opponent="greedy", seat="random"),
        KalahVectorEnv(num_envs=3, opponent="greedy", seat="random"),
    )
    a, _ = one.reset(seed=[11])
    b, _ = three.reset(seed=[4, 11, 6])
    assert np.array_equal(a[0], b[1]) and one.games.seats()[0] == three.games.seats()[1]
    for _ in range(40):
        chosen = first_legal(one.action_masks())
        a = one.step(chosen)[0]
        b = three.step(
            np.repeat(chosen, 3) if three.action_masks()[:, chosen[0]].all() else first_legal(three.action_masks())
        )[0]
        assert np.array_equal(a[0], b[1])


def test_reset_mask_starts_only_the_games_it_marks():
    env = KalahVectorEnv(num_envs=4)
    env.reset(seed=0)
    for _ in range(3):
        env.step(env.sample_legal_actions())
    before = [env.games.position(i) for i in range(4)]
    mask = np.array([True, False, True, False])
    obs, info = env.reset(options={"reset_mask": mask})
    start = kalah.Position.start(Variant(6, 4))
    assert [env.games.position(i) for i in range(4)] == [start, before[1], start, before[3]]
    assert list(info["_action_mask"]) == list(mask)
    with pytest.raises(TypeError):
        env.reset(options={"reset_mask": [True, False, True, False]})
    with pytest.raises(ValueError):
        env.reset(options={"reset_mask": np.zeros(4, bool)})
    with pytest.raises(ValueError):
        env.reset(options={"reset_mask": np.ones(3, bool)})


@pytest.mark.parametrize("action", MALFORMED, ids=repr)
def test_malformed_actions_raise_instead_of_being_moves(action):
    env = KalahEnv()
    env.reset(seed=0)
    with pytest.raises((TypeError, ValueError)):
        env.step(action)
    vector = KalahVectorEnv(num_envs=2)
    vector.reset(seed=0)
    with pytest.raises((TypeError, ValueError)):
        vector.step([action, 0] if not isinstance(action, np.ndarray) else np.array([[1], [1]]))
    aec = kalah.rl.env()
    aec.reset()
    with pytest.raises((TypeError, ValueError)):
        aec.step(action)


def test_malformed_action_kinds():
    env = KalahEnv()
    env.reset(seed=0)
    for action in (2.0, "1", True):
        with pytest.raises(TypeError):
            env.step(action)
    with pytest.raises(ValueError):
        env.step(np.array([1]))
    vector = KalahVectorEnv(num_envs=2)
    vector.reset(seed=0)
    with pytest.raises(TypeError):
        vector.step(np.array([2.0, 1.0]))
    with pytest.raises(TypeError):
        vector.step(np.array([True, False]))
    with pytest.raises(ValueError):
        vector.step(np.array([[1], [2]]))
    # legal-typed but illegal: the documented illegal= rule, not an error
    assert env.step(np.int64(99))[4]["illegal_move"]
    strict = KalahEnv(illegal="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalMoveError):
        strict.step(-1)


def test_sync_and_the_batched_environment_autoreset_alike():
    """make_vec gives NEXT_STEP whichever way it vectorizes (the batched one was SAME_STEP, sync NEXT_STEP)."""
    modes = set()
    for mode in ("vector_entry_point", "sync"):
        env = gymnasium.make_vec("kalah/Kalah-v0", num_envs=2, vectorization_mode=mode, opponent="greedy")
        modes.add(env.metadata["autoreset_mode"])
        env.reset(seed=0)
        terminated = np.zeros(2, bool)
        while not terminated.any():
            obs, reward, terminated, _, info = env.step(first_legal(masks_of(env)))
        ended = int(np.flatnonzero(terminated)[0])
        obs, reward, terminated, _, info = env.step(np.zeros(2, np.int64))
        assert reward[ended] == 0 and not terminated[ended] and obs[ended].sum() == 48 and obs[ended][6] == 0
    assert modes == {AutoresetMode.NEXT_STEP}


def masks_of(env):
    """Each game's legal actions, from the batched environment or from the single ones a sync env holds."""
    unwrapped = env.unwrapped
    if isinstance(unwrapped, KalahVectorEnv):
        return unwrapped.action_masks()
    return np.stack([single.unwrapped.action_masks() for single in unwrapped.envs])


def test_same_step_info_has_final_info_as_gymnasium_gives_it():
    ours = KalahVectorEnv(num_envs=4, autoreset_mode=AutoresetMode.SAME_STEP, reward="margin")
    theirs = gymnasium.make_vec(
        "kalah/Kalah-v0",
        num_envs=4,
        vectorization_mode="sync",
        vector_kwargs={"autoreset_mode": AutoresetMode.SAME_STEP},
        reward="margin",
    )
    for env in (ours, theirs):
        env.reset(seed=1)
        while True:
            obs, reward, terminated, _, info = env.step(first_legal(masks_of(env)))
            if terminated.any():
                break
        assert {"final_obs", "_final_obs", "final_info", "_final_info"} <= set(info)
        assert list(info["_final_info"]) == list(terminated)
        final = info["final_info"]
        assert (final["margin"][terminated] == reward[terminated]).all() and list(final["_margin"]) == list(terminated)


@pytest.mark.parametrize("env_kind", ["single", "vector"])
def test_no_episode_starts_finished(env_kind):
    """Kalah(1,1) from seat 1: player 0's one move ends the game. It returned a finished game that any step
    scored -1; now a game that ends before the agent's first move is started again, and a seat that never
    moves is an error."""
    if env_kind == "single":
        env = KalahEnv(pits=1, seeds=1, seat="random")
        for seed in range(20):
            obs, info = env.reset(seed=seed)
            assert info["action_mask"].any() and info["seat"] == 0
        with pytest.raises(EnvOptionError, match="never gets a move"):
            KalahEnv(pits=1, seeds=1, seat=1).reset(seed=0)
    else:
        env = KalahVectorEnv(num_envs=16, pits=1, seeds=1, seat="random")
        obs, info = env.reset(seed=0)
        assert info["action_mask"].all()
        for _ in range(5):
            obs, reward, terminated, _, info = env.step(np.zeros(16, np.int64))
            assert terminated.all() or info["action_mask"].all()
        with pytest.raises(ValueError, match="never gets a move"):
            KalahVectorEnv(num_envs=2, pits=1, seeds=1, seat=1).reset(seed=0)


def test_rgb_array_pictures_and_record_video(tmp_path):
    pytest.importorskip("moviepy")
    env = gymnasium.make("kalah/Kalah-v0", render_mode="rgb_array", opponent="greedy")
    env = gymnasium.wrappers.RecordVideo(env, str(tmp_path), episode_trigger=lambda episode: True, disable_logger=True)
    obs, info = env.reset(seed=0)
    frame = env.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    done = False
    while not done:
        obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        done = terminated or truncated
    env.close()
    assert list(tmp_path.glob("*.mp4"))
    vector = KalahVectorEnv(num_envs=2, render_mode="rgb_array")
    vector.reset(seed=0)
    assert all(picture.shape == frame.shape for picture in vector.render())
    aec = kalah.rl.env(render_mode="rgb_array")
    aec.reset()
    assert aec.render().shape == frame.shape


def test_action_masks_where_sb3_contrib_looks_for_them():
    """MaskablePPO reads env.action_masks() (through Gymnasium's wrappers: get_wrapper_attr) or, on a vector
    environment, a row of masks per game."""
    env = gymnasium.make("kalah/Kalah-v0", pie_rule=True, seat=1)
    obs, info = env.reset(seed=0)
    masks = env.get_wrapper_attr("action_masks")()
    assert masks.dtype == bool and list(masks) == list(info["action_mask"].astype(bool))
    vector = KalahVectorEnv(num_envs=3)
    obs, info = vector.reset(seed=0)
    assert vector.action_masks().shape == (3, 6) and (vector.action_masks() == info["action_mask"].astype(bool)).all()


@pytest.mark.parametrize("opponent", ["random", "greedy", "pvs:depth=2", "mcts:playouts=30"])
def test_every_environment_copies_and_pickles(opponent):
    """Look-ahead as PettingZoo users do it: a copy steps on alone, and the original is untouched."""
    single = gymnasium.make("kalah/Kalah-v0", opponent=opponent, seat="random")
    obs, info = single.reset(seed=3)
    vector = KalahVectorEnv(num_envs=4, opponent=opponent, seat="random")
    vector.reset(seed=3)
    aec = kalah.rl.env(pie_rule=True)
    aec.reset()
    aec.step(2)
    for env in (single, vector, aec):
        twins = [copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
        if env is single:
            action = int(np.flatnonzero(info["action_mask"])[-1])
            steps = [twin.step(action)[:3] for twin in twins] + [env.step(action)[:3]]
        elif env is vector:
            actions = env.sample_legal_actions()
            steps = [twin.step(actions)[:3] for twin in twins] + [env.step(actions)[:3]]
        else:
            for twin in twins:
                twin.step(6)  # the swap, in the copies only
                assert twin.unwrapped.position != env.unwrapped.position
            assert env.agent_selection == "player_1"
            continue
        for step in steps[:2]:
            assert all(np.array_equal(a, b) for a, b in zip(step, steps[2], strict=True))


def test_openspiel_undo_action_takes_back_the_last_action():
    pyspiel = pytest.importorskip("pyspiel")
    import kalah.rl.openspiel  # noqa: F401

    game = pyspiel.load_game("kalah(pits=4,seeds=3,pie_rule=True)")
    rng = random.Random(4)
    for _ in range(10):
        state, seen = game.new_initial_state(), []
        while not state.is_terminal():
            seen.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
        for before in reversed(seen):
            last = state.full_history()[-1]
            state.undo_action(last.player, last.action)
            assert state.position == before.position and state.history() == before.history()
            assert str(state) == str(before) and state.current_player() == before.current_player()
        assert state.is_initial_state() and state.move_number() == 0
    state = game.new_initial_state()
    state.apply_action(1)
    with pytest.raises(pyspiel.SpielError):
        state.undo_action(0, 2)
