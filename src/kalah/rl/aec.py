"""The PettingZoo AEC environment: two learning agents, ``player_0`` and ``player_1``.

As in PettingZoo's classic games, ``env()`` wraps ``raw_env`` (an illegal
action ends the game with the illegal-move reward, an action outside the
space is an error, and the calls must come in order). The agent to move is
``agent_selection``: after an extra turn it is the same agent again. With
the pie rule, ``player_1`` may answer the first move with the swap action
``m``; the agents keep their names and exchange rows, as in ``kalah.Position``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from kalah.core.board import CoreGame
from kalah.players.encoding import action_count, action_of_move, move_of_action
from kalah.rules import IllegalMoveError, Position
from kalah.rules.svg import board_svg

from .options import board_space, check_render_mode, checked_action, options, text_board
from .picture import board_picture

AGENTS = ["player_0", "player_1"]


def env(**kwargs: Any) -> AECEnv:
    """The AEC environment with PettingZoo's standard wrappers (the options are those of :class:`raw_env`),
    and outermost one that refuses an action that is no integer with TypeError (the others would take
    ``True`` for 1 or fail inside)."""
    wrapped: AECEnv = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=wrapped.options.loss_reward)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return IntegerActions(wrappers.OrderEnforcingWrapper(wrapped))


class IntegerActions(wrappers.BaseWrapper):
    """Refuses actions that are not integers (ActionTypeError, a TypeError) before the wrappers inside see
    them; ``None`` stays the action of an agent whose game is over."""

    def step(self, action: Any) -> None:
        """Check the action, then step the environment inside."""
        agent = self.agent_selection
        if action is not None or not (self.terminations.get(agent) or self.truncations.get(agent)):
            action = checked_action(action)
        super().step(action)


class raw_env(AECEnv):
    """Kalah for two agents. Observations are dicts: ``observation`` (the board from the agent's
    seat) and ``action_mask``; rewards come at the end ("win": +1, 0, -1; "margin": seeds).

    Options: ``pits``, ``seeds``, ``empty_capture``, ``pie_rule``, ``reward`` ("win" or
    "margin") and ``render_mode`` ("ansi" returns text, "human" prints it, "svg" returns the
    SVG board, "rgb_array" a picture). Bad options raise InvalidVariantError or
    EnvOptionError; an action that is no integer raises TypeError. The environment copies
    (``copy.deepcopy``, ``pickle``) with its game, for look-ahead.
    """

    metadata = {
        "render_modes": ["ansi", "human", "svg", "rgb_array"],
        "name": "kalah_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        pits: int = 6,
        seeds: int = 4,
        empty_capture: bool = False,
        pie_rule: bool = False,
        reward: str = "win",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.options = options(pits, seeds, empty_capture, pie_rule, reward)
        self.variant = self.options.variant
        self.render_mode = check_render_mode(render_mode, ("ansi", "human", "svg", "rgb_array"))
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        board = board_space(self.variant)
        mask = spaces.Box(0, 1, (action_count(self.variant),), np.int8)
        self.observation_spaces = {agent: spaces.Dict({"observation": board, "action_mask": mask}) for agent in AGENTS}
        self.action_spaces = {agent: spaces.Discrete(action_count(self.variant)) for agent in AGENTS}
        self._game = CoreGame(variant=self.variant)
        self.reset()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's observation space: a dict of the board from its seat and the action mask."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's actions: its pits, and the swap under the pie rule."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game, player_0 to move. The game has no chance: ``seed`` changes nothing."""
        self._game = CoreGame(variant=self.variant)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = AGENTS[0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The board from the agent's seat and its action mask (all 0 unless it is to move)."""
        seat = AGENTS.index(agent)
        cells = self._game.cells
        half = self.variant.pits + 1
        board = cells[seat * half : (seat + 1) * half] + cells[(1 - seat) * half : (2 - seat) * half]
        mask = np.zeros(action_count(self.variant), dtype=np.int8)
        if not self._game.is_over and self._game.to_move == seat:
            for move in self._game.legal_moves():
                mask[action_of_move(move, self.variant)] = 1
        return {"observation": np.array(board, dtype=np.uint8), "action_mask": mask}

    def step(self, action: Any) -> None:
        """Play the selected agent's action; the game's end gives both agents their rewards."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        move = move_of_action(checked_action(action), self.variant)
        if move not in self._game.legal_moves():
            raise IllegalMoveError(f"action {action} is not legal for {agent} here")
        self._game.play(move)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self._game.is_over:
            margin = self._game.position().margin or 0
            for seat, name in enumerate(AGENTS):
                self.rewards[name] = self.options.final_reward(margin, seat)
                self.infos[name] = {"margin": margin if seat == 0 else -margin}
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = AGENTS[self._game.to_move]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Any:
        """Text ("ansi"; "human" prints it), the SVG board ("svg") or a picture ("rgb_array"), player_0's row
        at the bottom."""
        if self.render_mode in ("ansi", "human"):
            text = text_board(self._game.position())
            if self.render_mode == "human":
                print(text, end="")
                return None
            return text
        if self.render_mode == "svg":
            return board_svg(self._game.position())
        if self.render_mode == "rgb_array":
            return board_picture(self._game.position())
        return None

    @property
    def position(self) -> Position:
        """The game's current position (a :class:`kalah.Position`)."""
        return self._game.position()

    def close(self) -> None:
        """Nothing to release."""
        pass
