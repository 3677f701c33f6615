"""The game loop and its observers."""

from .game import GameResult, MoveEvent, Observer, PlayerMoveError, TakeBack, play_game

__all__ = ["GameResult", "MoveEvent", "Observer", "PlayerMoveError", "TakeBack", "play_game"]
