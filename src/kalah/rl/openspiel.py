"""Kalah as an OpenSpiel game (the optional extra ``openspiel``): ``pyspiel.load_game("kalah(pits=4,seeds=3)")``.

Importing this module registers the game ``kalah`` with the parameters
``pits``, ``seeds``, ``empty_capture``, ``pie_rule`` and ``margin`` (returns
in seeds instead of +1, 0, -1), so that OpenSpiel's own algorithms and bots
run on every variant. It is a Python game over :class:`kalah.Position`, the
readable reference, which is what an OpenSpiel algorithm copies and steps.

Actions are those of :mod:`kalah.players.encoding`: ``i`` sows the mover's
pit ``i`` (in its own sowing order, whichever seat it has), ``m`` is the swap.
The observation tensor of a player is the board from its seat (its row and
store first) and a 1 when it is to move. ``undo_action`` takes back the last
action, as OpenSpiel's C++ games do. OpenSpiel's built-in ``mancala`` is
Kalah(6,4) with the same rules but other numbers: its actions are absolute
board indices and its board starts with player 1's store (docs/rl.md).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import pyspiel

from kalah.players.encoding import action_count, action_mask, move_of_action, observation, observation_size
from kalah.rules import Position, Variant, move_name

from .options import EnvOptionError

SHORT_NAME = "kalah"
DEFAULTS: dict[str, Any] = {"pits": 6, "seeds": 4, "empty_capture": False, "pie_rule": False, "margin": False}
#: No game of Kalah comes near it (random games of Kalah(8,15) take about 200 moves); OpenSpiel needs a bound.
MAX_GAME_LENGTH = 1000

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Kalah (kalah package)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULTS,
)


class KalahGame(pyspiel.Game):
    """The game of one variant; bad parameters raise InvalidVariantError (or EnvOptionError)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = {**DEFAULTS, **(params or {})}
        unknown = set(given) - set(DEFAULTS)
        if unknown:
            raise EnvOptionError(f"unknown kalah parameter(s): {', '.join(sorted(unknown))}")
        self.variant = Variant(given["pits"], given["seeds"], given["empty_capture"], given["pie_rule"])
        self.margin = given["margin"]
        if not isinstance(self.margin, bool):
            raise EnvOptionError(f"margin must be true or false, got {self.margin!r}")
        bound = float(self.variant.total_seeds) if self.margin else 1.0
        info = pyspiel.GameInfo(
            num_distinct_actions=action_count(self.variant),
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(_GAME_TYPE, info, given)

    def new_initial_state(self) -> KalahState:
        """The start of a game."""
        return KalahState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> BoardObserver:
        """The observer of the board (a perfect-information game: every observation type is the board)."""
        if params:
            raise EnvOptionError(f"the kalah observer takes no parameters, got {params}")
        return BoardObserver(self.variant)


class PlayerAction(NamedTuple):
    """An action of the history and who took it (``full_history``), as OpenSpiel's ``PlayerAction``."""

    player: int
    action: int


class _Step:
    """One action of a game and the position before it, linked to the steps before: what ``undo_action``
    goes back to. Immutable, so that a copy of a state (OpenSpiel's ``clone`` deep-copies the Python
    attributes) shares the steps instead of copying every position of the game."""

    __slots__ = ("before", "player", "action", "previous")

    def __init__(self, before: Position, player: int, action: int, previous: _Step | None) -> None:
        self.before, self.player, self.action, self.previous = before, player, action, previous

    def __deepcopy__(self, memo: dict[int, Any]) -> _Step:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Step, (self.before, self.player, self.action, self.previous))


class KalahState(pyspiel.State):
    """A position of the game; OpenSpiel copies it to search.

    Python games keep their history in C++, where a Python state cannot take an action
    back; so this state keeps its own (the steps of ``undo_action``) and answers
    ``history``, ``full_history``, ``history_str``, ``move_number`` and
    ``is_initial_state`` from it (OpenSpiel's C++ algorithms never undo an action of a
    Python game).
    """

    def __init__(self, game: KalahGame) -> None:
        super().__init__(game)
        self.position = Position.start(game.variant)
        self._margin_returns = game.margin
        self._last: _Step | None = None

    def undo_action(self, player: int, action: int) -> None:
        """Take back the last action, which ``player`` took (SpielError if it was another)."""
        step = self._last
        if step is None or (step.player, step.action) != (player, action):
            last = "no action" if step is None else f"action {step.action} of player {step.player}"
            raise pyspiel.SpielError(f"cannot undo action {action} of player {player}: the last was {last}")
        self.position, self._last = step.before, step.previous

    def full_history(self) -> list[PlayerAction]:
        """Every action taken, with who took it, first to last."""
        steps = []
        step = self._last
        while step is not None:
            steps.append(PlayerAction(step.player, step.action))
            step = step.previous
        return steps[::-1]

    def history(self) -> list[int]:
        """Every action taken, first to last."""
        return [step.action for step in self.full_history()]

    def history_str(self) -> str:
        """The history as OpenSpiel writes it: the actions, comma-separated."""
        return ", ".join(str(action) for action in self.history())

    def move_number(self) -> int:
        """How many actions were taken (the game has no chance)."""
        return len(self.full_history())

    def is_initial_state(self) -> bool:
        """Whether no action has been taken."""
        return self._last is None

    def current_player(self) -> int:
        """The player to move, or OpenSpiel's terminal id once the game is over."""
        return int(pyspiel.PlayerId.TERMINAL) if self.position.is_over else self.position.to_move

    def _legal_actions(self, player: int) -> list[int]:
        return [i for i, legal in enumerate(action_mask(self.position, player)) if legal]

    def _apply_action(self, action: int) -> None:
        self._last = _Step(self.position, self.position.to_move, action, self._last)
        self.position = self.position.play(move_of_action(action, self.position.variant))

    def _action_to_string(self, player: int, action: int) -> str:
        return move_name(player, move_of_action(action, self.position.variant))

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.position.is_over

    def returns(self) -> list[float]:
        """Each player's result: +1, 0, -1 (or the margin with ``margin=True``); 0 before the end."""
        margin = self.position.margin
        if margin is None:
            return [0.0, 0.0]
        value = float(margin) if self._margin_returns else float(np.sign(margin))
        return [value, -value]

    def __str__(self) -> str:
        status = "game over" if self.position.is_over else f"player {self.position.to_move} to move"
        return f"{self.position.board} {status}"


class BoardObserver:
    """The observation of a player (OpenSpiel's PyObserver interface): the board from its seat, to move or not."""

    def __init__(self, variant: Variant) -> None:
        self.tensor = np.zeros(observation_size(variant) + 1, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: KalahState, player: int) -> None:
        """Fill the tensor with the board from ``player``'s seat and whether it is to move."""
        self.tensor[:-1] = observation(state.position, player)
        self.tensor[-1] = float(not state.position.is_over and state.position.to_move == player)

    def string_from(self, state: KalahState, player: int) -> str:
        """The observation as text."""
        return f"{observation(state.position, player)} {'to move' if state.current_player() == player else 'waiting'}"


def register() -> None:
    """Register the game with OpenSpiel (importing this module does it; again changes nothing)."""
    if SHORT_NAME not in pyspiel.registered_names():
        pyspiel.register_game(_GAME_TYPE, KalahGame)


register()
