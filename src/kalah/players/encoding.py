"""How a position looks to a learning agent: the observation and the action indices.

One definition for every learning face (the Gymnasium and PettingZoo
environments and the batched compiled environment of ``kalah.rl``, the
OpenSpiel game) and for the ``policy`` player that plays a trained network,
so that what an agent learned on is what it sees when it plays.

- The observation is the board seen from one seat: that seat's pits in
  sowing order, its store, then the other seat's pits in sowing order and its
  store (``2m + 2`` numbers). The same network can thus play either seat.
- Action ``i < m`` sows the observer's pit ``i`` (the move ``i``); with the pie
  rule, action ``m`` is the swap. The action mask marks the legal ones.
"""

from __future__ import annotations

from kalah.rules import SWAP, IllegalMoveError, Move, Position, Variant


def observation_size(variant: Variant) -> int:
    """The length of an observation: both rows of pits and both stores."""
    return 2 * variant.pits + 2


def action_count(variant: Variant) -> int:
    """The number of actions: one per pit, and the swap when the pie rule is on."""
    return variant.pits + (1 if variant.pie_rule else 0)


def observation(position: Position, seat: int) -> list[int]:
    """The board as ``seat`` sees it: its own row and store first (see the module's docstring)."""
    half = position.variant.pits + 1
    cells = position.cells
    return list(cells[seat * half : (seat + 1) * half] + cells[(1 - seat) * half : (2 - seat) * half])


def action_mask(position: Position, seat: int) -> list[int]:
    """1 for each action ``seat`` may take now, else 0 (all 0 when the other seat moves or the game is over)."""
    mask = [0] * action_count(position.variant)
    if position.to_move == seat and not position.is_over:
        for move in position.legal_moves():
            mask[action_of_move(move, position.variant)] = 1
    return mask


def action_of_move(move: Move, variant: Variant) -> int:
    """The action index of a move (the pit index, or ``m`` for the swap)."""
    return variant.pits if move == SWAP else int(move)


def move_of_action(action: int, variant: Variant) -> Move:
    """The move of an action index; :class:`IllegalMoveError` when no move has that index."""
    if isinstance(action, bool) or not 0 <= action < action_count(variant):
        raise IllegalMoveError(f"action {action} is out of range: actions are 0..{action_count(variant) - 1}")
    return SWAP if action == variant.pits else int(action)
