"""The batched environment: ``gymnasium.make_vec("kalah/Kalah-v0", num_envs=N)``.

N games stepped together in compiled code (:class:`kalah.core.batch.BatchGames`)
over NumPy arrays. Same observations, actions and rewards as
:class:`kalah.rl.KalahEnv`. The opponent (:mod:`kalah.rl.opponents`) plays in
C when it is random, greedy, a search at a fixed depth (``pvs:depth=2``) or
UCT (``mcts:playouts=200``); ``"self"`` is self-play (both seats the agent,
the observation always the mover's); a callable on the batch (or a policy
file, or a player) is asked once a round for every game waiting for it.

Autoreset is Gymnasium's default, ``NEXT_STEP``, whichever way the environment
is made (``vectorization_mode="sync"`` gives the same): the step that ends a
game returns its final observation with ``terminated``; the next step ignores
that game's action and starts a new game. ``autoreset_mode=SAME_STEP`` starts
it in the step that ended the old one: then ``infos["final_obs"]`` and
``infos["final_info"]`` hold the old game's end. Legal actions:
``infos["action_mask"]`` and :meth:`KalahVectorEnv.action_masks`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from kalah.core.batch import BatchGames
from kalah.players.encoding import action_count, observation_size
from kalah.rules import Position
from kalah.rules.svg import board_svg

from .opponents import checked_answers, opponent_of
from .options import EnvOptionError, board_space, check_render_mode, check_seat, checked_actions, options, text_board
from .picture import board_picture


def autoreset_mode_of(mode: Any) -> AutoresetMode:
    """``mode`` as an :class:`AutoresetMode`: ``NEXT_STEP`` or ``SAME_STEP``, or their values or names
    (``"SameStep"``, ``"same_step"``)."""
    names = {"next_step": AutoresetMode.NEXT_STEP, "same_step": AutoresetMode.SAME_STEP}
    try:
        chosen = names.get(mode.lower()) if isinstance(mode, str) and mode.lower() in names else AutoresetMode(mode)
    except ValueError:
        chosen = None
    if chosen not in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
        raise EnvOptionError(f"autoreset_mode must be NEXT_STEP or SAME_STEP, got {mode!r}")
    return chosen


def _seed_of(value: int) -> int:
    """A game's generator from its seed alone, so that a game seeded s behaves alike in any batch."""
    return int(np.random.SeedSequence(value).generate_state(1, np.uint64)[0])


class KalahVectorEnv(VectorEnv[np.ndarray, np.ndarray, np.ndarray]):
    """``num_envs`` games of one variant (options as :class:`kalah.rl.KalahEnv`, but an illegal action
    always loses: there is no ``illegal="raise"``), with ``autoreset_mode`` NEXT_STEP (default) or
    SAME_STEP."""

    metadata = {"render_modes": ["ansi", "svg", "rgb_array"], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        num_envs: int = 1,
        pits: int = 6,
        seeds: int = 4,
        empty_capture: bool = False,
        pie_rule: bool = False,
        opponent: Any = "random",
        reward: str = "win",
        seat: int | str = 0,
        illegal: str = "loss",
        render_mode: str | None = None,
        autoreset_mode: Any = AutoresetMode.NEXT_STEP,
    ) -> None:
        self.options = options(pits, seeds, empty_capture, pie_rule, reward)
        self.variant = self.options.variant
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise EnvOptionError(f"num_envs must be a positive integer, got {num_envs!r}")
        self.opponent = opponent_of(opponent, self.variant, compiled=True)
        check_seat(seat)
        if illegal != "loss":
            raise EnvOptionError(
                f"the batched environment scores an illegal action as a loss (illegal='loss'), got {illegal!r}"
            )
        self.render_mode = check_render_mode(render_mode)
        self.autoreset_mode = autoreset_mode_of(autoreset_mode)
        self.metadata = {**type(self).metadata, "autoreset_mode": self.autoreset_mode}
        self.num_envs = num_envs
        size, count = observation_size(self.variant), action_count(self.variant)
        self.single_observation_space = board_space(self.variant)
        self.single_action_space = spaces.Discrete(count)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        kind = {"self": "self", "compiled": self.opponent.name}.get(self.opponent.kind, "caller")
        self.games = BatchGames(
            num_envs,
            self.variant,
            kind,
            0 if kind == "self" else seat,
            self.options.reward == "margin",
            self.autoreset_mode == AutoresetMode.SAME_STEP,
            **self.opponent.settings,
        )
        self._obs = np.zeros((num_envs, size), np.uint8)
        self._mask = np.zeros((num_envs, count), np.int8)
        self._seat = np.zeros(num_envs, np.uint8)
        self._reward = np.zeros(num_envs, np.float32)
        self._terminated = np.zeros(num_envs, np.uint8)
        self._final_obs = np.zeros((num_envs, size), np.uint8)
        self._final_seat = np.zeros(num_envs, np.uint8)
        self._margin = np.zeros(num_envs, np.int16)
        self._illegal = np.zeros(num_envs, np.uint8)
        # where the games waiting for a callable opponent are listed, with its views of them
        self._index = np.zeros(num_envs, np.int32)
        self._their_obs = np.zeros((num_envs, size), np.uint8)
        self._their_mask = np.zeros((num_envs, count), np.int8)
        self._bind()
        entropy = np.random.SeedSequence().generate_state(num_envs, np.uint64)  # unseeded games differ each run
        self.games.seed(entropy)
        self.games.seed_sampler(int(entropy[0]) ^ 0x5DEECE66D)
        self._started = False
        #: Moves played by the agents and the opponents since the environment was made (for benchmarks).
        self.moves_played = 0

    def _bind(self) -> None:
        self.games.bind(
            self._obs,
            self._mask,
            self._seat,
            self._reward,
            self._terminated,
            self._final_obs,
            self._final_seat,
            self._margin,
            self._illegal,
        )

    def __setstate__(self, state: dict[str, Any]) -> None:
        """A copy (``copy.deepcopy``, ``pickle``) gets its own arrays: the games are bound to them again."""
        self.__dict__.update(state)
        self._bind()

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start the games, each seeded as Gymnasium's vector environments seed theirs: ``seed=s`` gives game
        ``i`` the seed ``s + i``, a list one seed per game (None: not seeded again). ``options={"reset_mask":
        mask}`` (a bool array, one per game) starts only the games it marks; the others keep their state and
        their rows, and the info holds the started games only (its ``_key`` arrays say which)."""
        which = _reset_mask(options, self.num_envs)
        seeds = _seeds(seed, self.num_envs)
        if isinstance(seed, int):
            super().reset(seed=seed)  # np_random, as Gymnasium's vector environments seed theirs
            self.games.seed_sampler(_seed_of(seed) ^ 0x5DEECE66D)
        given = np.array([s is not None for s in seeds], bool) & which
        if given.any():
            values = np.array([_seed_of(s) if s is not None else 0 for s in seeds], np.uint64)
            self.games.seed(values, given.astype(np.uint8))
        self.games.reset(None if which.all() else which.astype(np.uint8))
        self._started = True
        self._answer_waiting()
        info = {"action_mask": self._mask.copy(), "_action_mask": which, "seat": self._seat.copy(), "_seat": which}
        return self._obs.copy(), info

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One action per game (integers: anything else raises TypeError, a wrong count ValueError); an
        illegal one loses that game. See the module's docstring for when games start again."""
        if not self._started:
            raise EnvOptionError("call reset() before step()")
        chosen = checked_actions(actions, self.num_envs)
        self.moves_played += self.games.step(chosen)
        self._answer_waiting()
        ended = self._terminated.astype(bool)
        infos: dict[str, Any] = {
            "action_mask": self._mask.copy(),
            "_action_mask": np.ones(self.num_envs, bool),
            "seat": self._seat.copy(),
            "_seat": np.ones(self.num_envs, bool),
        }
        end = {"margin": self._margin.copy(), "_margin": ended, "illegal_move": self._illegal.astype(bool)}
        end["_illegal_move"] = ended
        if self.autoreset_mode == AutoresetMode.SAME_STEP:
            final = {**end, "action_mask": np.zeros_like(self._mask), "_action_mask": ended}
            final.update(seat=self._final_seat.copy(), _seat=ended)
            infos.update(final_obs=self._final_obs.copy(), _final_obs=ended, final_info=final, _final_info=ended)
        else:
            infos.update(end)
        truncated = np.zeros(self.num_envs, bool)
        return self._obs.copy(), self._reward.copy(), ended, truncated, infos

    def _answer_waiting(self) -> None:
        """Ask a callable opponent (or a player) for its moves in every game waiting for it, until none waits."""
        if self.opponent.kind not in ("answer", "player"):
            return
        try:
            while k := self.games.waiting(self._index, self._their_obs, self._their_mask):
                index = self._index[:k].copy()
                positions = [self.games.position(int(i)) for i in index] if self.opponent.kind == "player" else []
                answers = self.opponent.actions(
                    self.variant, self._their_obs[:k].copy(), self._their_mask[:k].copy(), positions
                )
                self.moves_played += self.games.answer(index, checked_answers(answers, k))
        except BaseException:
            self._started = False  # games left waiting for the opponent: only reset() goes on from here
            raise

    def action_masks(self) -> np.ndarray:
        """The legal actions of every game (rows of bools), where sb3-contrib's MaskablePPO looks for them."""
        return self._mask.astype(bool)

    def sample_legal_actions(self) -> np.ndarray:
        """A uniformly random legal action for every game, drawn in compiled code (exploration and random
        baselines without a Python loop; ``action_space.sample()`` ignores the rules)."""
        if not self._started:
            raise EnvOptionError("call reset() before sample_legal_actions()")
        actions = np.empty(self.num_envs, np.int64)
        self.games.random_actions(actions)
        return actions

    def render(self) -> tuple[Any, ...] | None:
        """Each game's board as text ("ansi"), SVG ("svg") or an RGB array ("rgb_array"), the row of the
        seat observed (the agent's; self-play: the mover's) at the bottom."""
        if self.render_mode is None or not self._started:
            return None
        seats = self.games.seats()
        draw: dict[str, Callable[[Position, int], Any]] = {
            "ansi": text_board,
            "svg": lambda position, bottom: board_svg(position, bottom=bottom),
            "rgb_array": board_picture,
        }
        return tuple(draw[self.render_mode](self.games.position(i), seats[i]) for i in range(self.num_envs))


def _reset_mask(options: dict[str, Any] | None, count: int) -> np.ndarray:
    """The games to start: all, or those ``options["reset_mask"]`` marks (checked as Gymnasium does)."""
    if not options or "reset_mask" not in options:
        return np.ones(count, bool)
    unknown = sorted(set(options) - {"reset_mask"})
    if unknown:
        raise EnvOptionError(f"unknown reset option {unknown[0]!r}; the only one is 'reset_mask'")
    mask = options["reset_mask"]
    if not isinstance(mask, np.ndarray):
        raise TypeError(f"options['reset_mask'] must be a NumPy array, got {type(mask).__name__}")
    if mask.dtype != np.bool_:
        raise TypeError(f"options['reset_mask'] must have dtype bool, got {mask.dtype}")
    if mask.shape != (count,):
        raise ValueError(f"options['reset_mask'] must have shape ({count},), got {mask.shape}")
    if not mask.any():
        raise ValueError("options['reset_mask'] must mark at least one game")
    return mask.copy()


def _seeds(seed: Any, count: int) -> list[int | None]:
    """One seed (or None) per game, as Gymnasium's vector environments read ``reset(seed=...)``."""
    if seed is None:
        return [None] * count
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        return [int(seed) + i for i in range(count)]
    if isinstance(seed, (list, tuple)):
        if len(seed) != count:
            raise ValueError(f"a list of seeds must have one per game ({count}), got {len(seed)}")
        for item in seed:
            if item is not None and (isinstance(item, bool) or not isinstance(item, (int, np.integer)) or item < 0):
                raise ValueError(f"seeds are non-negative integers or None, got {item!r}")
        return [None if item is None else int(item) for item in seed]
    raise TypeError(f"seed must be an integer, a list of them (one per game) or None, got {seed!r}")
