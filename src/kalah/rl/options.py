"""The options every environment of ``kalah.rl`` shares, checked once, and their error."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from gymnasium import spaces

from kalah.players.encoding import observation_size
from kalah.rules import KalahError, Position, Variant, pit_letter

REWARDS = ("win", "margin")
RENDER_MODES = ("ansi", "svg", "rgb_array")
#: The agent's seat: player 0, player 1 (the opponent moves first), or drawn at each reset.
SEATS = (0, 1, "random")


class EnvOptionError(KalahError, ValueError):
    """An environment option that is out of range or of the wrong kind (a bad variant raises InvalidVariantError)."""


class ActionTypeError(KalahError, TypeError):
    """An action that is not an integer (a float, a string, a bool, an array of them): Gymnasium's contract
    makes it an error, never a move. An integer that names no legal move is an illegal action instead."""


class ActionShapeError(KalahError, ValueError):
    """Actions of the wrong shape: not one integer, or not one per game."""


def checked_action(action: Any) -> int:
    """One environment's action as an ``int``: a Python or NumPy integer, or a 0-d integer array.

    Raises:
        ActionTypeError: a float (``2.0``), a string (``"1"``), a bool (``True``) or anything else.
        ActionShapeError: an array of more than one number (``np.array([1])``).
    """
    if isinstance(action, (bool, np.bool_)):
        raise ActionTypeError(f"an action is an integer, not the bool {action!r}")
    if isinstance(action, (int, np.integer)):
        return int(action)
    if isinstance(action, np.ndarray):
        if action.dtype.kind not in "iu":
            raise ActionTypeError(f"an action is an integer, not an array of {action.dtype}")
        if action.shape != ():
            raise ActionShapeError(f"an action is one integer, not an array of shape {action.shape}")
        return int(action)
    raise ActionTypeError(f"an action is an integer, not {type(action).__name__} {action!r}")


def checked_actions(actions: Any, count: int) -> np.ndarray:
    """One action per game as a contiguous ``int64`` array.

    Raises:
        ActionTypeError: the actions are not integers (floats, strings, bools).
        ActionShapeError: not exactly ``count`` of them in one dimension.
    """
    if not isinstance(actions, np.ndarray):  # a list: NumPy would take [True, 0] for integers
        for action in actions if isinstance(actions, (list, tuple)) else [actions]:
            if not isinstance(action, np.ndarray):
                checked_action(action)
    array = np.asarray(actions)
    if array.dtype.kind not in "iu":
        kind = "bool" if array.dtype.kind == "b" else str(array.dtype)
        raise ActionTypeError(f"actions are integers, one per game, not an array of {kind}")
    if array.shape != (count,):
        raise ActionShapeError(f"expected {count} actions, one per game, got shape {array.shape}")
    return np.ascontiguousarray(array, dtype=np.int64)


@dataclass(frozen=True)
class Options:
    """A checked variant and reward."""

    variant: Variant
    reward: str

    def final_reward(self, margin: int, seat: int) -> float:
        """The reward of ``seat`` for a finished game whose margin (player 0 minus player 1) is ``margin``."""
        mine = margin if seat == 0 else -margin
        if self.reward == "margin":
            return float(mine)
        return float((mine > 0) - (mine < 0))

    @property
    def loss_reward(self) -> float:
        """The reward of an illegal move: the worst result there is."""
        return -float(self.variant.total_seeds) if self.reward == "margin" else -1.0


#: The largest boards of the environments: the observations are bytes (uint8), and the batched games
#: (kalah.core.batch) exist only in the core's byte build.
MAX_PITS, MAX_TOTAL_SEEDS = 8, 255


def options(
    pits: Any = 6, seeds: Any = 4, empty_capture: Any = False, pie_rule: Any = False, reward: Any = "win"
) -> Options:
    """Check the options shared by every environment (:class:`InvalidVariantError` for a bad variant,
    :class:`EnvOptionError` for a board beyond the environments')."""
    variant = Variant(pits, seeds, empty_capture, pie_rule)
    if variant.pits > MAX_PITS or variant.total_seeds > MAX_TOTAL_SEEDS:
        raise EnvOptionError(
            f"the learning environments hold boards of up to {MAX_PITS} pits a side and {MAX_TOTAL_SEEDS} seeds"
            f" (observations are bytes; the batched games are the core's byte build), got {variant.name}"
        )
    if reward not in REWARDS:
        raise EnvOptionError(f"reward must be one of {', '.join(REWARDS)}, got {reward!r}")
    return Options(variant, reward)


def board_space(variant: Variant) -> spaces.Box:
    """The space of one observation (``kalah.players.encoding``): the board from a seat, as ``uint8`` counts."""
    return spaces.Box(0, variant.total_seeds, (observation_size(variant),), np.uint8)


#: Starts of a game in a row that may end before the agent's first decision (then an error): in a tiny
#: variant the opponent moving first can end the game (Kalah(1,1) from seat 1 always does).
MAX_RESTARTS = 64


def check_seat(seat: Any) -> int | str:
    """``seat`` if it is one of :data:`SEATS`, else :class:`EnvOptionError` (True and False are no seats)."""
    if isinstance(seat, bool) or seat not in SEATS:
        raise EnvOptionError(f"seat must be 0, 1 or 'random', got {seat!r}")
    return seat


def check_render_mode(render_mode: Any, allowed: tuple[str, ...] = RENDER_MODES) -> str | None:
    """``render_mode`` if it is None or one of ``allowed``, else :class:`EnvOptionError`."""
    if render_mode is not None and render_mode not in allowed:
        raise EnvOptionError(f"render_mode must be one of {', '.join(allowed)} or None, got {render_mode!r}")
    return str(render_mode) if render_mode is not None else None


def text_board(position: Position, bottom: int = 0) -> str:
    """The board as text: the other seat's pits on top (right to left), ``bottom``'s below, stores at the ends."""
    m = position.variant.pits
    top = 1 - bottom
    letters = [pit_letter(seat, i) for seat in (0, 1) for i in range(m)]
    width = 3

    def row(cells: list[str]) -> str:
        return " " * 4 + "".join(cell.rjust(width) for cell in cells)

    top_pits = [str(n) for n in reversed(position.pits(top))]
    bottom_pits = [str(n) for n in position.pits(bottom)]
    lines = [
        row(list(reversed(letters[top * m : (top + 1) * m]))),
        row(top_pits),
        f"{position.store(top):>3} " + " " * (width * m) + f" {position.store(bottom):<3}",
        row(bottom_pits),
        row(letters[bottom * m : (bottom + 1) * m]),
    ]
    if position.is_over:
        margin = position.margin or 0
        lines.append(
            "game over: " + ("a draw" if margin == 0 else f"player {0 if margin > 0 else 1} wins by {abs(margin)}")
        )
    else:
        lines.append(f"player {position.to_move} to move")
    return "\n".join(lines) + "\n"
