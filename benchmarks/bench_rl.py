"""Steps a second of the learning environments, Kalah(6,4), one core, side by side in one run.

    python benchmarks/bench_rl.py [--seconds S] [--rounds R] [--num-envs N ...]

Rows: our batched environment (``gymnasium.make_vec("kalah/Kalah-v0",
num_envs=N)``, compiled) against each kind of opponent: random, greedy, the
search ``pvs:depth=2`` (a depth-2 alpha-beta in C, the engine's moves),
UCT (``mcts:playouts=100``), a callable (a NumPy network over the batch), and
itself (``opponent="self"``: self-play, both seats the learner); our Gymnasium
environment stepped one game at a time (``gymnasium.make``, with Gymnasium's
default wrappers); OpenSpiel's built-in ``mancala`` through its Python API
(``legal_actions``, ``apply_action``) and our OpenSpiel game (``kalah``, a
Python game). The learner's actions are uniformly random legal ones, drawn in
the timed loop (``sample_legal_actions``, compiled, unless the row says NumPy).

Times are the process's CPU seconds (``time.process_time``), not the wall
clock: everything runs on one thread, and on a shared machine the wall clock
counts the other work too (a row measured while another program ran would
lose to the row measured before it). A learner step is one decision of the
agent, with the opponent's replies inside it; an OpenSpiel step is one move. Moves a second (every move of either side
counts once) compare the environments fairly; learner steps a second say what a
training loop gets. Goals (issue 46): against ``pvs:depth=2`` at least a million
learner steps a second at 4,096 games, self-play at least 20 times OpenSpiel's
``mancala``.
"""

from __future__ import annotations

import argparse
import os
import random
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")  # one core: NumPy must not spread out
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import gymnasium
import numpy as np

import kalah.rl  # noqa: F401
from common import figure, markdown_table, report

#: CPU seconds of this process: one thread does all the work (see the module's docstring).
clock = time.process_time


def batched(env, rng, seconds: float) -> tuple[float, float, float]:
    """Learner steps and moves a second of the batched environment, and moves a second counting only the
    time inside ``step``. The random legal actions come from ``sample_legal_actions`` (compiled), or with
    ``rng`` from NumPy over the action masks."""
    n = env.num_envs
    steps, moves, inside, began = 0, env.moves_played, 0.0, clock()
    while (elapsed := clock() - began) < seconds:
        for _ in range(10):
            if rng is None:
                actions = env.sample_legal_actions()
            else:
                masks = env.action_masks()
                actions = (rng.random(masks.shape, dtype=np.float32) * masks).argmax(1)
            before = clock()
            env.step(actions)
            inside += clock() - before
        steps += 10 * n
    moves = env.moves_played - moves
    return steps / elapsed, moves / elapsed, moves / inside


def single(env, rng, info, seconds: float) -> tuple[float, float, dict]:
    """Learner steps and moves a second of one Gymnasium environment stepped from Python."""
    steps, moves, began = 0, env.unwrapped.moves_played, clock()
    while (elapsed := clock() - began) < seconds:
        for _ in range(100):
            obs, reward, terminated, truncated, info = env.step(rng.choice(np.flatnonzero(info["action_mask"])))
            steps += 1
            if terminated:
                obs, info = env.reset()
    return steps / elapsed, (env.unwrapped.moves_played - moves) / elapsed, info


def openspiel(game, rng, seconds: float) -> float:
    """Moves a second of an OpenSpiel game through its Python API (a step is a move)."""
    moves, began = 0, clock()
    while (elapsed := clock() - began) < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
    return moves / elapsed


class Network:
    """A small NumPy policy (14 inputs, 64 hidden units, 6 outputs) answering for the whole batch."""

    def __init__(self) -> None:
        rng = np.random.default_rng(0)
        self.w0, self.w1 = rng.normal(0, 0.3, (14, 64)).astype(np.float32), rng.normal(0, 0.3, (64, 6))
        self.w1 = self.w1.astype(np.float32)

    def __call__(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        hidden = np.maximum(observations.astype(np.float32) @ self.w0, 0)
        return np.where(masks.astype(bool), hidden @ self.w1, -np.inf).argmax(1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=16.0, help="time per row, spread over the rounds")
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
    largest = max(args.num_envs)
    rows: dict[str, tuple[object, object]] = {}  # name: (environment, NumPy generator or None)
    for n in args.num_envs:
        rows[f"random, num_envs={n}"] = (gymnasium.make_vec("kalah/Kalah-v0", num_envs=n), None)
    rows[f"random, num_envs={largest}, actions drawn with NumPy from the masks"] = (
        gymnasium.make_vec("kalah/Kalah-v0", num_envs=largest),
        np.random.default_rng(0),
    )
    for opponent in ("greedy", "pvs:depth=2", "self"):
        rows[f"{opponent}, num_envs={largest}"] = (
            gymnasium.make_vec("kalah/Kalah-v0", num_envs=largest, opponent=opponent, seat="random"),
            None,
        )
    rows["mcts:playouts=100, num_envs=256"] = (
        gymnasium.make_vec("kalah/Kalah-v0", num_envs=256, opponent="mcts:playouts=100", seat="random"),
        None,
    )
    rows[f"a NumPy network (callable), num_envs={largest}"] = (
        gymnasium.make_vec("kalah/Kalah-v0", num_envs=largest, opponent=Network(), seat="random"),
        None,
    )
    for env, _ in rows.values():
        env.reset(seed=0)
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
        for name, (env, rng) in rows.items():
            keep(name, batched(env, rng, share))
        steps, moves, one_state[2] = single(*one_state, share)
        keep("single", (steps, moves))
        rate = openspiel(ours, random.Random(0), share)
        keep("ours", (rate, rate))

    reference = best["mancala"][1]
    table = []
    for name in rows:
        steps, moves, inside = best[name]
        table.append(
            [
                f"kalah.rl batched against {name}",
                f"{steps:,.0f}",
                f"{moves:,.0f}",
                f"{moves / reference:,.1f}x",
                f"{inside:,.0f} ({inside / reference:,.1f}x)",
            ]
        )
    steps, moves = best["single"]
    table.append(["kalah.rl single environment (gymnasium.make)", f"{steps:,.0f}", f"{moves:,.0f}", "", ""])
    table[-1][3] = f"{moves / reference:,.2f}x"
    table.append(["OpenSpiel mancala (built-in C++, Python API)", f"{reference:,.0f}", f"{reference:,.0f}", "1x", ""])
    rate = best["ours"][1]
    table.append(
        ["kalah.rl.openspiel game (a Python game)", f"{rate:,.0f}", f"{rate:,.0f}", f"{rate / reference:,.2f}x", ""]
    )
    selfplay = best[f"self, num_envs={largest}"][1]
    search = best[f"pvs:depth=2, num_envs={largest}"][0]
    figure(
        "rl-steps",
        "learning environments, Kalah(6,4), random learner moves, one core",
        f"self-play (num_envs={largest}): {selfplay:,.0f} moves/s, {selfplay / reference:,.0f}x OpenSpiel's "
        f"mancala ({reference:,.0f}); against pvs:depth=2: {search:,.0f} learner steps/s; "
        f"one Gymnasium env: {best['single'][1]:,.0f} moves/s",
        "rl.md",
    )
    body = markdown_table(
        [
            "environment",
            "learner steps/s",
            "moves/s (both sides)",
            "moves/s against OpenSpiel's mancala",
            "moves/s inside step() only",
        ],
        table,
    )
    body += (
        f"\n\nRandom legal learner moves, chosen in the timed loop; one core, CPU seconds of the process; each row the "
        f"best of {args.rounds} "
        f"rounds of {share:g} s, the rows taking turns. Goals: against pvs:depth=2 at least 1,000,000 learner "
        f"steps a second at {largest} games ({search:,.0f}: {'met' if search >= 1e6 else 'NOT met'}); self-play at "
        f"least 20 times OpenSpiel's mancala ({selfplay / reference:,.0f}x: "
        f"{'met' if selfplay >= 20 * reference else 'NOT met'}). The machine is shared with other work: figures "
        "vary with its load."
    )
    report("Learning environments: steps a second", body, "rl.md")


if __name__ == "__main__":
    main()
