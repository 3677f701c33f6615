"""Who moves: the Player protocol, the built-in players and player specs."""

from .base import ComputerPlayer, Player
from .human import HumanPlayer, NoInputError
from .random import RandomPlayer
from .replay import ReplayExhaustedError, ReplayPlayer
from .spec import PlayerSpecError, make_player, parse_spec, player_types, register_player

__all__ = [
    "ComputerPlayer",
    "HumanPlayer",
    "NoInputError",
    "Player",
    "PlayerSpecError",
    "RandomPlayer",
    "ReplayExhaustedError",
    "ReplayPlayer",
    "make_player",
    "parse_spec",
    "player_types",
    "register_player",
]
