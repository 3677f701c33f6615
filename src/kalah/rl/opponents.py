"""Who the agent plays against, in every environment of ``kalah.rl``.

An opponent is given as one of:

- a player spec (``"random"``, ``"greedy"``, ``"pvs:depth=2"``, ``"mcts:playouts=200"``,
  ``"policy:file=agent.npz"``, ...);
- ``"self"``: self-play, the agent sits at both seats and sees the board from the mover's;
- a callable on a batch, ``opponent(observations, action_masks) -> actions``: rows of
  observations and masks from the opponent's seat (as the agent's), one action per row (a
  policy network; also the player of a policy file);
- a player object (``choose_move(position)``, as ``make_player`` returns).

The batched environment plays the compiled ones in C (:data:`COMPILED`: random, greedy, the
exact searches at a fixed depth, UCT with a number of playouts) and calls anything else once
a round for all the games waiting for it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kalah.players import Player, PlayerSpecError, make_player, parse_spec
from kalah.players.encoding import action_mask, action_of_move, move_of_action, observation
from kalah.players.policy import PolicyNetwork
from kalah.rules import Position, Variant
from kalah.search import EXACT_ALGORITHMS, MAX_PLAYOUTS

from .options import EnvOptionError

#: A callable opponent: observations and action masks of the games it plays (rows), its actions.
Answer = Callable[[np.ndarray, np.ndarray], Any]
#: The player specs the batched games play in compiled code, and the options each takes.
COMPILED: dict[str, tuple[str, ...]] = {"random": (), "greedy": (), "mcts": ("playouts",)}
COMPILED.update({name: ("depth", "eval") for name in EXACT_ALGORITHMS})
#: The deepest search of a batched opponent: it has no table, so each move costs the whole tree.
MAX_BATCH_DEPTH = 12


class PolicyAnswer:
    """A policy network as a callable opponent: the legal action of highest output in each row."""

    def __init__(self, network: PolicyNetwork) -> None:
        self.network = network

    def __call__(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The network's best legal action for each row."""
        logits = self.network.logits(observations)
        return np.where(masks.astype(bool), logits, -np.inf).argmax(1)


class PlayerAnswer:
    """A player object (or a spec's player) as an opponent: its move in each game's position."""

    def __init__(self, player: Player) -> None:
        self.player = player

    def choose(self, position: Position) -> Any:
        """The player's move in ``position``."""
        return self.player.choose_move(position)


@dataclass
class Opponent:
    """An opponent, checked: ``kind`` is "self", "compiled" (the batched games' ``name`` with
    ``settings``), "answer" (a callable on a batch) or "player" (a player object)."""

    kind: str
    name: str = ""
    settings: dict[str, Any] = field(default_factory=dict)
    answer: Answer | None = None
    player: PlayerAnswer | None = None

    def actions(self, variant: Variant, observations: np.ndarray, masks: np.ndarray, positions: list[Position]) -> Any:
        """The opponent's actions in games seen as ``observations`` (rows) and ``positions``."""
        if self.player is not None:
            return [action_of_move(self.player.choose(position), variant) for position in positions]
        assert self.answer is not None
        return self.answer(observations, masks)

    def move(self, position: Position) -> Any:
        """The opponent's move in one position (the single environment's)."""
        if self.player is not None:
            return self.player.choose(position)
        assert self.answer is not None
        seat = position.to_move
        rows = np.array([observation(position, seat)], np.uint8)
        masks = np.array([action_mask(position, seat)], np.int8)
        return move_of_action(checked_answers(self.answer(rows, masks), 1)[0], position.variant)


def opponent_of(opponent: Any, variant: Variant, compiled: bool) -> Opponent:
    """Check ``opponent`` for ``variant`` (see the module's docstring). With ``compiled`` (the batched
    environment), the specs of :data:`COMPILED` become compiled players; otherwise every spec is made
    as a player. Bad ones raise :class:`EnvOptionError`."""
    if isinstance(opponent, str) and opponent.strip() == "self":
        return Opponent("self")
    if isinstance(opponent, str):
        try:
            name, given = parse_spec(opponent)
            player = make_player(opponent)
        except PlayerSpecError as error:
            raise EnvOptionError(f"bad opponent: {error}") from None
        if not getattr(player, "is_computer", False):
            raise EnvOptionError(f"the opponent must be a computer player, not {opponent!r}")
        _check_variant(player, variant)
        if name == "policy":
            network = getattr(player, "network", None)
            assert isinstance(network, PolicyNetwork)
            return Opponent("answer", name, answer=PolicyAnswer(network))
        if compiled:
            return _compiled(opponent, name, given, player)
        return Opponent("player", name, player=PlayerAnswer(player))
    if hasattr(opponent, "choose_move"):
        _check_variant(opponent, variant)
        return Opponent("player", getattr(opponent, "name", "player"), player=PlayerAnswer(opponent))
    if isinstance(opponent, PolicyNetwork):
        if opponent.variant != variant:
            raise EnvOptionError(f"bad opponent: this policy plays {opponent.variant}, not {variant}")
        return Opponent("answer", "policy", answer=PolicyAnswer(opponent))
    if callable(opponent):
        return Opponent("answer", getattr(opponent, "__name__", "callable"), answer=opponent)
    raise EnvOptionError(
        f"opponent must be a player spec such as 'pvs:depth=2', 'self', a player or a callable, got {opponent!r}"
    )


def _check_variant(player: Any, variant: Variant) -> None:
    check = getattr(player, "check_variant", None)
    if check is not None:
        try:
            check(variant)
        except PlayerSpecError as error:
            raise EnvOptionError(f"bad opponent: {error}") from None


def _compiled(spec: str, name: str, given: dict[str, str], player: Any) -> Opponent:
    if name not in COMPILED:
        raise EnvOptionError(
            f"the batched environment plays {', '.join(sorted(COMPILED))} in compiled code, not {spec!r}: "
            "give a callable on the batch, or use the single environment (any player spec)"
        )
    extra = sorted(set(given) - set(COMPILED[name]))
    if extra:
        reason = (
            "the games draw their randomness from the environment's seeds (reset(seed=...))"
            if extra == ["seed"]
            else f"a batched {name} takes {', '.join(COMPILED[name]) or 'no options'}"
        )
        raise EnvOptionError(f"option {extra[0]!r} of opponent {spec!r} is not for the batched games: {reason}")
    if name in ("random", "greedy"):
        return Opponent("compiled", name)
    if name == "mcts":
        playouts = int(player.playouts)
        if playouts > MAX_PLAYOUTS:
            raise EnvOptionError(f"at most {MAX_PLAYOUTS} playouts, got {playouts}")
        return Opponent("compiled", "mcts", {"playouts": playouts})
    depth = int(player.depth)
    if depth > MAX_BATCH_DEPTH:
        raise EnvOptionError(
            f"a batched search goes at most {MAX_BATCH_DEPTH} moves deep (it has no table), got depth {depth}"
        )
    return Opponent("compiled", "search", {"depth": depth, "evaluation": player.evaluation})


def checked_answers(actions: Any, count: int) -> np.ndarray:
    """An opponent's actions as ``int64``, or TypeError / ValueError naming what is wrong."""
    array = np.asarray(actions)
    if array.dtype.kind not in "iu":
        raise TypeError(f"the opponent's actions must be integers, got an array of {array.dtype}")
    if array.shape != (count,):
        raise ValueError(f"the opponent must answer {count} actions, one per row, got shape {array.shape}")
    return np.ascontiguousarray(array, dtype=np.int64)
