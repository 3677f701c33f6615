"""Game records (JSON files) and the game library (SQLite)."""

from kalah.atomic import write_atomic

from .filters import GameFilter, GameFilterError
from .library import (
    MAX_GAME_ID,
    DamagedGameError,
    GameLibrary,
    GameNotFoundError,
    GameSummary,
    LibraryBusyError,
    LibraryError,
    LibraryNotFoundError,
    LibraryWriter,
    StaleGameError,
    default_library_path,
)
from .record import GameRecord, PlayerInfo, RecordedMove, RecordError, load_record
from .writer import RecordBuilder, RecordFileWriter, player_info

__all__ = [
    "MAX_GAME_ID",
    "GameFilter",
    "GameFilterError",
    "GameLibrary",
    "GameNotFoundError",
    "GameRecord",
    "GameSummary",
    "LibraryError",
    "LibraryBusyError",
    "LibraryNotFoundError",
    "StaleGameError",
    "DamagedGameError",
    "LibraryWriter",
    "PlayerInfo",
    "RecordBuilder",
    "RecordError",
    "RecordFileWriter",
    "RecordedMove",
    "default_library_path",
    "load_record",
    "player_info",
    "write_atomic",
]
