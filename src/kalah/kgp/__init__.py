"""The Kalah Game Protocol (KGP): the wire format, boards, and a client that plays any player.

KGP is the protocol of FAU Erlangen's Kalah tournaments (KWARC/kalah-game,
``spec/``). :mod:`.wire` parses and prints commands with strict limits,
:mod:`.board` converts board literals and positions, :mod:`.transport` carries
lines over TCP or a WebSocket, :mod:`.thinker` turns a player into a stream
of better moves, and :mod:`.client` plays on a server (``kalah kgp``). The
server is the face ``kalah.classroom`` (``kalah arena serve``).
"""

from .board import (
    UnsupportedBoardError,
    board_from_position,
    move_from_wire,
    move_to_wire,
    position_from_board,
    variant_for,
)
from .client import ClientOptions, ClientReport, KgpClient, run_client
from .thinker import Thinker
from .transport import (
    Connection,
    LineError,
    RefusedError,
    StreamConnection,
    WebSocketConnection,
    open_connection,
    parse_server,
)
from .wire import (
    MAX_LINE,
    Board,
    Command,
    KgpError,
    KgpSyntaxError,
    Word,
    format_command,
    parse_board,
    parse_line,
    quote,
)

__all__ = [
    "MAX_LINE",
    "Board",
    "ClientOptions",
    "ClientReport",
    "Command",
    "Connection",
    "KgpClient",
    "KgpError",
    "KgpSyntaxError",
    "LineError",
    "RefusedError",
    "StreamConnection",
    "Thinker",
    "UnsupportedBoardError",
    "WebSocketConnection",
    "Word",
    "board_from_position",
    "format_command",
    "move_from_wire",
    "move_to_wire",
    "open_connection",
    "parse_board",
    "parse_line",
    "parse_server",
    "position_from_board",
    "quote",
    "run_client",
    "variant_for",
]
