"""Round robins between players: openings, scheduling and resuming through the
game library, local and Dask parallelism, ratings with 95% intervals."""

from .elo import Rating, fit_ratings
from .openings import OpeningsError, builtin_openings, load_openings, random_openings
from .runner import check_cluster, play_task, run_arena
from .schedule import (
    MAX_GAMES,
    Arena,
    ArenaError,
    ArenaResults,
    GameTask,
    PairRow,
    PlayerRow,
    check_games,
    check_players,
)

__all__ = [
    "Arena",
    "ArenaError",
    "MAX_GAMES",
    "check_games",
    "check_players",
    "ArenaResults",
    "GameTask",
    "OpeningsError",
    "PairRow",
    "PlayerRow",
    "Rating",
    "builtin_openings",
    "check_cluster",
    "fit_ratings",
    "load_openings",
    "play_task",
    "random_openings",
    "run_arena",
]
