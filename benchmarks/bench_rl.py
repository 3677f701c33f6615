"""Steps a second of the learning environments, Kalah(6,4), one core, side by side in one run.

    python benchmarks/bench_rl.py [--seconds S] [--num-envs N ...]

Rows: our batched environment (``gymnasium.make_vec("kalah/Kalah-v0",
num_envs=N)``, compiled), our Gymnasium environment stepped one game at a
time (``gymnasium.make``, with Gymnasium's default wrappers), OpenSpiel's
built-in ``mancala`` through its Python API (``legal_actions``,
``apply_action``), and our OpenSpiel game (``kalah``, a Python game). Every
row plays uniformly random legal moves for both sides, the agent's chosen
from the action mask in the same loop, so the choice is timed too. A step of
our environments is one decision of the agent, with the opponent's replies
inside it; an OpenSpiel step is one move. The fair comparison is therefore
moves a second (every move of either side counts once); both are shown.
"""

from __future__ import annotations

import argparse
import os
import random
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one core: NumPy must not spread out

import gymnasium
import numpy as np

import kalah.rl  # noqa: F401
from common import figure, markdown_table, report


def batched(env, rng, info, seconds: float) -> tuple[float, float, float, dict]:
    """Agent steps and moves a second of the batched environment, and its moves a second counting only the
    time inside ``step``. The random legal actions come from ``sample_legal_actions`` (compiled), or with
    ``rng`` from NumPy over the action masks."""
    n = env.num_envs
    steps, moves, inside, began = 0, env.moves_played, 0.0, time.perf_counter()
    while (elapsed := time.perf_counter() - began) < seconds:
        for _ in range(10):
            if rng is None:
                actions = env.sample_legal_actions()
            else:
                actions = (rng.random(info["action_mask"].shape, dtype=np.float32) * info["action_mask"]).argmax(1)
            before = time.perf_counter()
            obs, reward, terminated, truncated, info = env.step(actions)
            inside += time.perf_counter() - before
        steps += 10 * n
    moves = env.moves_played - moves
    return steps / elapsed, moves / elapsed, moves / inside, info


def single(env, rng, info, seconds: float) -> tuple[float, float, dict]:
    """Agent steps and moves a second of one Gymnasium environment stepped from Python."""
    steps, moves, began = 0, env.unwrapped.moves_played, time.perf_counter()
    while (elapsed := time.perf_counter() - began) < seconds:
        for _ in range(100):
            obs, reward, terminated, truncated, info = env.step(rng.choice(np.flatnonzero(info["action_mask"])))
            steps += 1
            if terminated:
                obs, info = env.reset()
    return steps / elapsed, (env.unwrapped.moves_played - moves) / elapsed, info


def openspiel(game, rng, seconds: float) -> float:
    """Moves a second of an OpenSpiel game through its Python API (a step is a move)."""
    moves, began = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - began) < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
    return moves / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=12.0, help="time per row, spread over the rounds")
    parser.add_argument(
        "--rounds",
        type=int,
        default=4,
        help="every row is measured in each round, in turn, and keeps its best round: "
        "a change of the machine's load then hits all rows alike",
    )
    parser.add_argument("--num-envs", type=int, nargs="+", default=[64, 1024, 4096])
    args = parser.parse_args()
    import pyspiel

    import kalah.rl.openspiel  # noqa: F401  (registers "kalah")

    share = args.seconds / args.rounds
    vectors = {}
    for n in args.num_envs:
        env = gymnasium.make_vec("kalah/Kalah-v0", num_envs=n)
        vectors[n] = [env, None, env.reset(seed=0)[1]]
    numpy_choice = max(args.num_envs)
    env = gymnasium.make_vec("kalah/Kalah-v0", num_envs=numpy_choice)
    vectors[-numpy_choice] = [env, np.random.default_rng(0), env.reset(seed=0)[1]]
    one = gymnasium.make("kalah/Kalah-v0")
    one_state = [one, random.Random(0), one.reset(seed=0)[1]]
    mancala, ours = pyspiel.load_game("mancala"), pyspiel.load_game("kalah")
    best: dict[str, tuple[float, ...]] = {}

    def keep(name: str, figures: tuple[float, ...]) -> None:
        if name not in best or figures[1] > best[name][1]:
            best[name] = figures

    for _ in range(args.rounds):
        rate = openspiel(mancala, random.Random(0), share)
        keep("mancala", (rate, rate))
        for n, state in vectors.items():
            steps, moves, inside, state[2] = batched(*state, share)
            keep(f"batched {n}", (steps, moves, inside))
        steps, moves, one_state[2] = single(*one_state, share)
        keep("single", (steps, moves))
        rate = openspiel(ours, random.Random(0), share)
        keep("ours", (rate, rate))

    reference = best["mancala"][1]
    rows = []
    for n in [*args.num_envs, -numpy_choice]:
        steps, moves, inside = best[f"batched {n}"]
        how = "actions drawn with NumPy from the masks" if n < 0 else "sample_legal_actions()"
        rows.append(
            [
                f"kalah.rl batched, num_envs={abs(n)}, {how}",
                f"{steps:,.0f}",
                f"{moves:,.0f}",
                f"{moves / reference:,.1f}x",
                f"{inside:,.0f} ({inside / reference:,.1f}x)",
            ]
        )
    steps, moves = best["single"]
    rows.append(
        [
            "kalah.rl single environment (gymnasium.make)",
            f"{steps:,.0f}",
            f"{moves:,.0f}",
            f"{moves / reference:,.2f}x",
            "",
        ]
    )
    rows.append(["OpenSpiel mancala (built-in C++, Python API)", f"{reference:,.0f}", f"{reference:,.0f}", "1x", ""])
    rate = best["ours"][1]
    rows.append(
        ["kalah.rl.openspiel game (a Python game)", f"{rate:,.0f}", f"{rate:,.0f}", f"{rate / reference:,.2f}x", ""]
    )
    top = max(args.num_envs, key=lambda n: best[f"batched {n}"][1])
    top_moves = best[f"batched {top}"][1]
    figure(
        "rl-steps",
        "learning environments, Kalah(6,4), random moves, one core",
        f"batched (num_envs={top}): {top_moves:,.0f} moves/s, {top_moves / reference:,.0f}x OpenSpiel's mancala "
        f"({reference:,.0f}); one Gymnasium env: {best['single'][1]:,.0f}",
        "rl.md",
    )
    body = markdown_table(
        [
            "environment",
            "agent steps/s",
            "moves/s (both sides)",
            "moves/s against OpenSpiel's mancala",
            "moves/s inside step() only",
        ],
        rows,
    )
    body += (
        f"\n\nRandom legal moves for both sides, chosen in the timed loop; one "
        f"core; each row the best of {args.rounds} rounds of {share:g} s, the rows taking turns. Goal: the "
        "batched environment at least 20 times OpenSpiel's mancala. The machine is shared with other work: "
        "figures vary with its load."
    )
    report("Learning environments: steps a second", body, "rl.md")


if __name__ == "__main__":
    main()
