"""The Gymnasium environment ``kalah/Kalah-v0``: one learning agent against an opponent.

The agent sits at ``seat`` (0, 1, or "random": drawn at each reset); the
opponent (:mod:`kalah.rl.opponents`) is any player spec (``random``,
``greedy``, ``pvs:depth=2``, ``policy:file=...``), a player, a callable on a
batch of observations, or ``"self"`` (the agent plays both seats and always
sees the board from the mover's). The opponent moves inside ``step`` until
the agent is to move again, so an extra turn of the agent is simply its next
step. The game runs on the compiled board.
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from kalah.core.board import CoreGame
from kalah.players import PlayerSpecError, make_player, parse_spec
from kalah.players.encoding import action_count, action_of_move, move_of_action
from kalah.rules import IllegalMoveError, Position
from kalah.rules.svg import board_svg

from .opponents import Opponent, PlayerAnswer, opponent_of
from .options import (
    MAX_RESTARTS,
    EnvOptionError,
    board_space,
    check_render_mode,
    check_seat,
    checked_action,
    options,
    text_board,
)
from .picture import board_picture

ILLEGAL = ("loss", "raise")


class KalahEnv(gym.Env[np.ndarray, np.int64]):
    """Kalah for one agent; the observation is the board from the agent's seat, the legal actions are
    ``info["action_mask"]`` (and :meth:`action_masks`).

    Options: the variant (``pits``, ``seeds``, ``empty_capture``,
    ``pie_rule``), ``opponent`` (see the module's docstring), ``reward``
    ("win": +1, 0 or -1 at the end; "margin": the agent's final margin in
    seeds), ``seat``, ``illegal`` ("loss": an illegal action ends the game as
    the worst loss, with ``info["illegal_move"]``; "raise": IllegalMoveError)
    and ``render_mode`` ("ansi": text, "svg": the SVG board, "rgb_array": a
    picture). An action that is no integer raises TypeError (``ActionTypeError``),
    an array of several ValueError. A bad variant raises InvalidVariantError,
    any other bad option :class:`EnvOptionError`.
    """

    metadata = {"render_modes": ["ansi", "svg", "rgb_array"], "render_fps": 1}

    def __init__(
        self,
        pits: int = 6,
        seeds: int = 4,
        empty_capture: bool = False,
        pie_rule: bool = False,
        opponent: Any = "random",
        reward: str = "win",
        seat: int | str = 0,
        illegal: str = "loss",
        render_mode: str | None = None,
        autoreset_mode: Any = None,
    ) -> None:
        if autoreset_mode is not None:
            raise EnvOptionError(
                "autoreset_mode is a vector environment's option: with vectorization_mode='sync' or 'async', "
                "pass vector_kwargs={'autoreset_mode': ...} to gymnasium.make_vec"
            )
        self.options = options(pits, seeds, empty_capture, pie_rule, reward)
        self.variant = self.options.variant
        check_seat(seat)
        if illegal not in ILLEGAL:
            raise EnvOptionError(f"illegal must be one of {', '.join(ILLEGAL)}, got {illegal!r}")
        self.render_mode = check_render_mode(render_mode)
        self.opponent: Opponent = opponent_of(opponent, self.variant, compiled=False)
        self.opponent_spec = opponent if isinstance(opponent, str) else None
        self.seat_option, self.illegal = seat, illegal
        self.observation_space = board_space(self.variant)
        self.action_space = spaces.Discrete(action_count(self.variant))
        self.seat = 0
        self._game = CoreGame(variant=self.variant)
        self._done = True
        #: Moves played by the agent and the opponent since the environment was made (for benchmarks).
        self.moves_played = 0

    @property
    def self_play(self) -> bool:
        """Whether the agent plays both seats."""
        return self.opponent.kind == "self"

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game; the opponent moves first when the agent sits at seat 1. A game that the opponent ends
        before the agent's first move (possible in tiny variants) is no episode: another starts."""
        super().reset(seed=seed)
        for _ in range(MAX_RESTARTS):
            self.seat = int(self.np_random.integers(2)) if self.seat_option == "random" else int(self.seat_option)
            if self.self_play:
                self.seat = 0
            self._reseed_opponent()
            self._game = CoreGame(variant=self.variant)
            self._done = False
            self._opponent_moves()
            if not self._game.is_over:
                return self._observation(), self._info()
        raise EnvOptionError(
            f"{MAX_RESTARTS} games in a row ended before the agent's first move: in {self.variant.name} seat "
            f"{self.seat} never gets a move against this opponent"
        )

    def step(self, action: Any) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play the agent's action, then the opponent's moves until the agent is to move again or the game ends.

        Raises:
            ActionTypeError: (a TypeError) the action is not an integer.
            ActionShapeError: (a ValueError) an array of several numbers.
            IllegalMoveError: the game is over (call reset), or an illegal action with ``illegal="raise"``.
        """
        index = checked_action(action)
        if self._done:
            raise IllegalMoveError("the game is over (or not started): call reset()")
        actor = self.seat
        move = move_of_action(index, self.variant) if 0 <= index < action_count(self.variant) else None
        if move is None or move not in self._game.legal_moves():
            if self.illegal == "raise":
                legal = ", ".join(str(int(i)) for i in np.flatnonzero(self._mask()))
                raise IllegalMoveError(f"action {index} is not legal here; legal: {legal}")
            self._done = True
            info = {**self._info(), "illegal_move": True, "margin": -self.variant.total_seeds}
            return self._observation(), self.options.loss_reward, True, False, info
        self._game.play(move)
        self.moves_played += 1
        self._opponent_moves()
        reward = 0.0
        if self._game.is_over:
            self._done = True
            reward = self.options.final_reward(self._game.position().margin or 0, actor)
            self.seat = actor  # self-play: the final observation is the last mover's
        elif self.self_play:
            self.seat = self._game.to_move
        return self._observation(), reward, self._game.is_over, False, self._info()

    def action_masks(self) -> np.ndarray:
        """The legal actions now (bools), where sb3-contrib's MaskablePPO looks for them."""
        return self._mask().astype(bool)

    def render(self) -> Any:
        """The board as text ("ansi"), an SVG document ("svg") or an RGB array ("rgb_array"), the agent's row
        (self-play: the mover's) at the bottom."""
        position = self._game.position()
        if self.render_mode == "ansi":
            return text_board(position, bottom=self.seat)
        if self.render_mode == "svg":
            return board_svg(position, bottom=self.seat)
        if self.render_mode == "rgb_array":
            return board_picture(position, bottom=self.seat)
        return None

    @property
    def position(self) -> Position:
        """The game's current position (a :class:`kalah.Position`)."""
        return self._game.position()

    def _reseed_opponent(self) -> None:
        # A player made from a spec that draws random numbers (random, greedy, mcts) gets its seed from the
        # environment's generator, so that reset(seed=...) makes whole runs repeatable; one that takes no
        # seed refuses the option and is made as given.
        spec = self.opponent_spec
        if self.opponent.kind != "player" or spec is None:
            return
        name, given = parse_spec(spec)
        player = None
        if "seed" not in given:
            try:
                player = make_player(f"{spec}{',' if given else ':'}seed={int(self.np_random.integers(2**31))}")
            except PlayerSpecError:
                pass
        self.opponent.player = PlayerAnswer(player if player is not None else make_player(spec))

    def _opponent_moves(self) -> None:
        if self.self_play:
            return
        while not self._game.is_over and self._game.to_move != self.seat:
            self._game.play(self.opponent.move(self._game.position()))
            self.moves_played += 1

    def _observation(self) -> np.ndarray:
        cells = self._game.cells
        half = self.variant.pits + 1
        me = self.seat * half
        other = (1 - self.seat) * half
        return np.array(cells[me : me + half] + cells[other : other + half], dtype=np.uint8)

    def _mask(self) -> np.ndarray:
        mask = np.zeros(action_count(self.variant), dtype=np.int8)
        if not self._done and self._game.to_move == self.seat:
            for move in self._game.legal_moves():
                mask[action_of_move(move, self.variant)] = 1
        return mask

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self._mask(), "seat": self.seat}
        if self._game.is_over:
            margin = self._game.position().margin or 0
            info["margin"] = margin if self.seat == 0 else -margin
        return info
