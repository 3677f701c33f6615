"""Who moves: the Player protocol, the built-in players and player specs."""

from .base import ComputerPlayer, GameStopped, Player
from .greedy import GreedyPlayer
from .human import HumanPlayer, NoInputError
from .random import RandomPlayer
from .replay import ReplayExhaustedError, ReplayPlayer
from .spec import (
    ExternalPlayerRefusedError,
    PlayerSpecError,
    check_self_contained,
    external_access,
    make_player,
    parse_spec,
    player_types,
    register_player,
)

__all__ = [
    "GameStopped",
    "ComputerPlayer",
    "ExternalPlayerRefusedError",
    "GreedyPlayer",
    "HumanPlayer",
    "NoInputError",
    "Player",
    "PlayerSpecError",
    "RandomPlayer",
    "ReplayExhaustedError",
    "ReplayPlayer",
    "check_self_contained",
    "external_access",
    "make_player",
    "parse_spec",
    "player_types",
    "register_player",
]
