"""The batched environment: ``gymnasium.make_vec("kalah/Kalah-v0", num_envs=N)``.

N games against a built-in opponent stepped together in compiled code
(:class:`kalah.core.batch.BatchGames`) over NumPy arrays. Same observations,
actions and rewards as :class:`kalah.rl.KalahEnv`; the opponent is "random"
or "greedy" (both in C: a player spec would run Python per move, which is
what the single environment is for). A finished game starts again within
the same step (``autoreset_mode`` SAME_STEP): ``infos["final_obs"]`` and
``infos["margin"]`` hold its last observation and the agent's final margin
where ``infos["_final_obs"]`` is set. Legal actions: ``infos["action_mask"]``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from kalah.core.batch import OPPONENTS, BatchGames
from kalah.players.encoding import action_count, observation_size
from kalah.rules.svg import board_svg

from .options import EnvOptionError, board_space, check_render_mode, check_seat, options, text_board


class KalahVectorEnv(VectorEnv[np.ndarray, np.ndarray, np.ndarray]):
    """``num_envs`` games of one variant for one learning agent each (options as :class:`kalah.rl.KalahEnv`,
    but ``opponent`` is "random" or "greedy" and there is no ``illegal="raise"``: an illegal action loses)."""

    metadata = {"render_modes": ["ansi", "svg"], "autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        num_envs: int = 1,
        pits: int = 6,
        seeds: int = 4,
        empty_capture: bool = False,
        pie_rule: bool = False,
        opponent: str = "random",
        reward: str = "win",
        seat: int | str = 0,
        illegal: str = "loss",
        render_mode: str | None = None,
    ) -> None:
        self.options = options(pits, seeds, empty_capture, pie_rule, reward)
        self.variant = self.options.variant
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise EnvOptionError(f"num_envs must be a positive integer, got {num_envs!r}")
        if opponent not in OPPONENTS:
            raise EnvOptionError(
                f"the batched environment's opponent is one of {', '.join(OPPONENTS)} "
                f"(any player spec: the single environment), got {opponent!r}"
            )
        check_seat(seat)
        if illegal != "loss":
            raise EnvOptionError(
                f"the batched environment scores an illegal action as a loss (illegal='loss'), got {illegal!r}"
            )
        self.render_mode = check_render_mode(render_mode)
        self.num_envs = num_envs
        size, count = observation_size(self.variant), action_count(self.variant)
        self.single_observation_space = board_space(self.variant)
        self.single_action_space = spaces.Discrete(count)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.games = BatchGames(num_envs, self.variant, opponent, seat, self.options.reward == "margin")
        self._obs = np.zeros((num_envs, size), np.uint8)
        self._mask = np.zeros((num_envs, count), np.int8)
        self._reward = np.zeros(num_envs, np.float32)
        self._terminated = np.zeros(num_envs, np.uint8)
        self._final_obs = np.zeros((num_envs, size), np.uint8)
        self._margin = np.zeros(num_envs, np.int16)
        self._illegal = np.zeros(num_envs, np.uint8)
        self._truncated = np.zeros(num_envs, bool)
        self._started = False
        #: Moves played by the agents and the opponents since the environment was made (for benchmarks).
        self.moves_played = 0

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start every game. With ``seed``, the seats and the opponents' moves repeat exactly."""
        if isinstance(seed, list):
            seed = seed[0] if seed else None
        super().reset(seed=seed)  # seeds self.np_random, from which the compiled generator is drawn
        self.games.seed(int(self.np_random.integers(2**63)))
        self.games.reset(self._obs, self._mask)
        self._started = True
        return self._obs.copy(), {"action_mask": self._mask.copy(), "_action_mask": np.ones(self.num_envs, bool)}

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One action per game; finished games start again at once (see the module's docstring)."""
        if not self._started:
            raise EnvOptionError("call reset() before step()")
        actions = np.ascontiguousarray(actions, dtype=np.int64).reshape(-1)
        if actions.shape[0] != self.num_envs:
            raise EnvOptionError(f"expected {self.num_envs} actions, got {actions.shape[0]}")
        self.moves_played += self.games.step(
            actions, self._obs, self._mask, self._reward, self._terminated, self._final_obs, self._margin, self._illegal
        )
        ended = self._terminated.astype(bool)
        everywhere = np.ones(self.num_envs, bool)
        infos: dict[str, Any] = {
            "action_mask": self._mask.copy(),
            "_action_mask": everywhere,
            "final_obs": self._final_obs.copy(),
            "_final_obs": ended,
            "margin": self._margin.copy(),
            "_margin": ended,
            "illegal_move": self._illegal.astype(bool),
            "_illegal_move": ended,
        }
        return self._obs.copy(), self._reward.copy(), ended, self._truncated.copy(), infos

    def sample_legal_actions(self) -> np.ndarray:
        """A uniformly random legal action for every game, drawn in compiled code from the environment's
        generator (exploration and random baselines without a Python loop; ``action_space.sample()``
        ignores the rules)."""
        if not self._started:
            raise EnvOptionError("call reset() before sample_legal_actions()")
        actions = np.empty(self.num_envs, np.int64)
        self.games.random_actions(actions)
        return actions

    def render(self) -> tuple[Any, ...] | None:
        """Each game's board as text ("ansi") or SVG ("svg"), the agent's row at the bottom."""
        if self.render_mode is None:
            return None
        seats = self.games.seats()
        draw = (
            text_board if self.render_mode == "ansi" else (lambda position, bottom: board_svg(position, bottom=bottom))
        )
        return tuple(draw(self.games.position(i), seats[i]) for i in range(self.num_envs))
