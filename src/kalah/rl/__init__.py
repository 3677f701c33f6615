"""Learning agents' faces of Kalah (the optional extra ``rl``: ``pip install '.[rl]'``).

- ``gymnasium.make("kalah/Kalah-v0", ...)`` (registered when this package is
  imported): :class:`KalahEnv`, one agent against an opponent (a player spec,
  a player, a callable on a batch, or itself: ``opponent="self"``);
  ``gymnasium.make_vec("kalah/Kalah-v0", num_envs=N)``: :class:`KalahVectorEnv`,
  N games stepped together in compiled code, their opponent too where it is
  compiled (random, greedy, a search at a depth, UCT, self-play).
- ``kalah.rl.env(...)``: the PettingZoo AEC environment for two agents
  (``raw_env`` unwrapped), as PettingZoo's classic games.
- ``kalah.rl.openspiel.register()``: Kalah as an OpenSpiel game (extra ``openspiel``).

The observation and action indices are those of :mod:`kalah.players.encoding`,
shared with the ``policy`` player that plays a trained network. docs/rl.md
tells the whole story.
"""

from __future__ import annotations

import gymnasium

from .aec import env, raw_env
from .options import ActionShapeError, ActionTypeError, EnvOptionError
from .single import KalahEnv

ENV_ID = "kalah/Kalah-v0"

if ENV_ID not in gymnasium.registry:
    gymnasium.register(
        ENV_ID, entry_point="kalah.rl.single:KalahEnv", vector_entry_point="kalah.rl.vector:KalahVectorEnv"
    )

__all__ = ["ENV_ID", "ActionShapeError", "ActionTypeError", "EnvOptionError", "KalahEnv", "env", "raw_env"]
