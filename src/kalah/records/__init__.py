"""Game records (JSON files) and the game library (SQLite or PostgreSQL)."""

from kalah.atomic import write_atomic

from .errors import (
    DamagedGameError,
    GameNotFoundError,
    LibraryBusyError,
    LibraryError,
    LibraryInUseError,
    LibraryNotFoundError,
    LibraryUnavailableError,
    StaleGameError,
)
from .filters import GameFilter, GameFilterError
from .library import MAX_GAME_ID, NAME_LENGTH, GameLibrary, StoredGame, default_library_path
from .library_writer import LibraryWriter
from .record import GameRecord, PlayerInfo, RecordedMove, RecordError, load_record
from .summary import GameSummary
from .writer import RecordBuilder, RecordFileWriter, player_info

__all__ = [
    "MAX_GAME_ID",
    "NAME_LENGTH",
    "GameFilter",
    "GameFilterError",
    "GameLibrary",
    "GameNotFoundError",
    "GameRecord",
    "GameSummary",
    "LibraryError",
    "LibraryBusyError",
    "LibraryInUseError",
    "LibraryNotFoundError",
    "LibraryUnavailableError",
    "StaleGameError",
    "DamagedGameError",
    "LibraryWriter",
    "PlayerInfo",
    "RecordBuilder",
    "RecordError",
    "RecordFileWriter",
    "RecordedMove",
    "StoredGame",
    "default_library_path",
    "load_record",
    "player_info",
    "write_atomic",
]
