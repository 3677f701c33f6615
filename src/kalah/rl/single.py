"""The Gymnasium environment ``kalah/Kalah-v0``: one learning agent against a player spec.

The agent sits at ``seat`` (0, 1, or "random": drawn at each reset); the
opponent is any player spec (``random``, ``pvs:depth=2``, ``policy:file=...``)
and moves inside ``step`` until the agent is to move again, so an extra turn
of the agent is simply its next step. The game runs on the compiled board.
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from kalah.core.board import CoreGame
from kalah.players import Player, PlayerSpecError, make_player
from kalah.players.encoding import action_count, action_of_move, move_of_action
from kalah.players.spec import parse_spec
from kalah.rules import IllegalMoveError, Position
from kalah.rules.svg import board_svg

from .options import EnvOptionError, board_space, check_render_mode, check_seat, options, text_board

ILLEGAL = ("loss", "raise")


class KalahEnv(gym.Env[np.ndarray, np.int64]):
    """Kalah for one agent; the observation is the board from the agent's seat, the legal actions are ``info["action_mask"]``.

    Options: the variant (``pits``, ``seeds``, ``empty_capture``,
    ``pie_rule``), ``opponent`` (a player spec), ``reward`` ("win": +1, 0 or
    -1 at the end; "margin": the agent's final margin in seeds), ``seat``,
    ``illegal`` ("loss": an illegal action ends the game as the worst loss,
    with ``info["illegal_move"]``; "raise": IllegalMoveError) and
    ``render_mode`` ("ansi": text, "svg": the SVG board). A bad variant raises
    InvalidVariantError, any other bad option :class:`EnvOptionError`.
    """

    metadata = {"render_modes": ["ansi", "svg"], "render_fps": 1}

    def __init__(
        self,
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
        check_seat(seat)
        if illegal not in ILLEGAL:
            raise EnvOptionError(f"illegal must be one of {', '.join(ILLEGAL)}, got {illegal!r}")
        self.render_mode = check_render_mode(render_mode)
        self.opponent_spec = _checked_spec(opponent)
        self.seat_option, self.illegal = seat, illegal
        self.observation_space = board_space(self.variant)
        self.action_space = spaces.Discrete(action_count(self.variant))
        self.seat = 0
        self._game = CoreGame(variant=self.variant)
        self._opponent: Player | None = None
        self._done = True
        #: Moves played by the agent and the opponent since the environment was made (for benchmarks).
        self.moves_played = 0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game; the opponent moves first when the agent sits at seat 1."""
        super().reset(seed=seed)
        self.seat = int(self.np_random.integers(2)) if self.seat_option == "random" else int(self.seat_option)
        self._opponent = self._make_opponent()
        self._game = CoreGame(variant=self.variant)
        self._done = False
        self._opponent_moves()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play the agent's action, then the opponent's moves until the agent is to move again or the game ends."""
        if self._done:
            raise IllegalMoveError("the game is over (or not started): call reset()")
        move = move_of_action(int(action), self.variant) if self.action_space.contains(action) else None
        if move is None or move not in self._game.legal_moves():
            if self.illegal == "raise":
                legal = ", ".join(str(int(index)) for index in np.flatnonzero(self._mask()))
                raise IllegalMoveError(f"action {action!r} is not legal here; legal: {legal}")
            self._done = True
            return self._observation(), self.options.loss_reward, True, False, {**self._info(), "illegal_move": True}
        self._game.play(move)
        self.moves_played += 1
        self._opponent_moves()
        reward = 0.0
        if self._game.is_over:
            self._done = True
            reward = self.options.final_reward(self._game.position().margin or 0, self.seat)
        return self._observation(), reward, self._game.is_over, False, self._info()

    def render(self) -> str | None:
        """The board as text ("ansi") or as an SVG document ("svg"), the agent's row at the bottom."""
        if self.render_mode == "ansi":
            return text_board(self._game.position(), bottom=self.seat)
        if self.render_mode == "svg":
            return board_svg(self._game.position(), bottom=self.seat)
        return None

    @property
    def position(self) -> Position:
        """The game's current position (a :class:`kalah.Position`)."""
        return self._game.position()

    def _make_opponent(self) -> Player:
        name, given = parse_spec(self.opponent_spec)
        # A player that draws random numbers (random, mcts) gets its seed from the environment's
        # generator, so that reset(seed=...) makes whole runs repeatable; one that takes no seed
        # refuses the option and is made as given.
        if "seed" not in given:
            seeded = f"{self.opponent_spec}{',' if given else ':'}seed={int(self.np_random.integers(2**31))}"
            try:
                return make_player(seeded)
            except PlayerSpecError:
                pass
        return make_player(self.opponent_spec)

    def _opponent_moves(self) -> None:
        assert self._opponent is not None
        while not self._game.is_over and self._game.to_move != self.seat:
            self._game.play(self._opponent.choose_move(self._game.position()))
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


def _checked_spec(spec: Any) -> str:
    """The opponent spec, made once here so that a bad one fails at construction (EnvOptionError)."""
    if not isinstance(spec, str):
        raise EnvOptionError(f"opponent must be a player spec such as 'pvs:depth=2', got {spec!r}")
    try:
        player = make_player(spec)
    except PlayerSpecError as error:
        raise EnvOptionError(f"bad opponent: {error}") from None
    if not getattr(player, "is_computer", False):
        raise EnvOptionError(f"the opponent must be a computer player, not {spec!r}")
    return spec
