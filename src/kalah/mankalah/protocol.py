"""The ManKalah text protocol (``docs/mankalah.md``) as pure functions.

ManKalah names the sides by compass: South moves first, North second; a
state lists North's holes 1..m and store, then South's holes 1..m and store.
Holes are numbered from 1 in sowing order, so hole ``n`` is pit ``n - 1`` of
the side's row here, and hole ``n`` faces hole ``m + 1 - n`` as pit ``i``
faces pit ``m - 1 - i``.

This project names players, not sides: player 0 is the agent that started as
South (it moved first) and player 1 the one that started as North, and a swap
exchanges the rows of the board (``kalah.rules.position``). So, once a swap
has happened, player 0 owns the North row and player 1 the South row:
``side_of(player, swapped)`` is the whole mapping.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from kalah.rules import SWAP, KalahError, Move, Position, Variant

#: The game ManKalah plays: Kalah(7, 7), standard capture, pie rule.
MANKALAH = Variant(pits=7, seeds=7, pie_rule=True)

SOUTH: Literal["South"] = "South"
NORTH: Literal["North"] = "North"
#: Whose turn a CHANGE message announces: the agent's, the opponent's, or nobody's (game over).
Turn = Literal["YOU", "OPP", "END"]
TURNS: tuple[Literal["YOU"], Literal["OPP"], Literal["END"]] = ("YOU", "OPP", "END")


class ProtocolError(KalahError, ValueError):
    """A message that does not follow the ManKalah protocol."""


@dataclass(frozen=True)
class Start:
    """The server's ``START;North|South`` message: which side the agent plays."""

    side: Literal["South", "North"]
    """The agent's side; South moves first."""


@dataclass(frozen=True)
class Change:
    """The server's ``CHANGE;move;state;turn`` message: a move was played."""

    move: int | Literal["SWAP"]
    """The hole played, 1..m, or ``"SWAP"``."""
    state: tuple[int, ...]
    """The board after it: North's holes, North's store, South's holes, South's store."""
    turn: Turn
    """Who moves next: ``YOU`` (the agent), ``OPP``, or ``END`` (the game is over)."""


@dataclass(frozen=True)
class End:
    """The server's ``END`` message: the game is over."""

    pass


EngineMessage = Start | Change | End


# --- engine to agent -----------------------------------------------------------------


def parse_engine_message(line: str, variant: Variant = MANKALAH) -> EngineMessage:
    """Read one line from the engine; raises :class:`ProtocolError` naming what is wrong."""
    text = line.rstrip("\r\n")
    shown = text if len(text) <= 80 else text[:77] + "..."
    parts = text.split(";")
    kind = parts[0]
    if kind == "START":
        if len(parts) != 2 or parts[1] not in (SOUTH, NORTH):
            raise ProtocolError(f"bad START message {shown!r}: expected START;South or START;North")
        return Start(parts[1])
    if kind == "END":
        if len(parts) != 1:
            raise ProtocolError(f"bad END message {shown!r}: expected just END")
        return End()
    if kind == "CHANGE":
        if len(parts) != 4:
            raise ProtocolError(f"bad CHANGE message {shown!r}: expected CHANGE;<move>;<state>;<turn>")
        move: int | Literal["SWAP"]
        if parts[1] == "SWAP":
            move = "SWAP"
        else:
            move = _hole(parts[1], variant, shown)
        state = parse_state(parts[2], variant, shown)
        if parts[3] not in TURNS:
            raise ProtocolError(f"bad CHANGE message {shown!r}: the turn must be YOU, OPP or END, got {parts[3]!r}")
        return Change(move, state, parts[3])
    raise ProtocolError(f"unknown message {shown!r}: expected START, CHANGE or END")


def _hole(text: str, variant: Variant, shown: str) -> int:
    if not _count(text) or not 1 <= int(text) <= variant.pits:
        raise ProtocolError(f"bad move in {shown!r}: expected a hole 1..{variant.pits} or SWAP, got {text!r}")
    return int(text)


def parse_state(text: str, variant: Variant = MANKALAH, shown: str | None = None) -> tuple[int, ...]:
    """The board of a protocol state string, or a ProtocolError naming the problem."""
    shown = shown or text
    fields = text.split(",")
    size = 2 * (variant.pits + 1)
    if len(fields) != size or not all(_count(field) for field in fields):
        raise ProtocolError(f"bad state in {shown!r}: expected {size} comma-separated counts")
    state = tuple(int(field) for field in fields)
    if sum(state) != variant.total_seeds:
        raise ProtocolError(
            f"bad state in {shown!r}: it holds {sum(state)} seeds, {variant.name} has {variant.total_seeds}"
        )
    return state


def format_engine_message(message: EngineMessage) -> str:
    """The protocol line of a server message (START, CHANGE or END)."""
    if isinstance(message, Start):
        return f"START;{message.side}"
    if isinstance(message, End):
        return "END"
    return f"CHANGE;{message.move};{','.join(map(str, message.state))};{message.turn}"


# --- agent to engine -----------------------------------------------------------------


def format_agent_move(move: Move) -> str:
    """``MOVE;n`` for pit ``n - 1`` of the agent's current side, or ``SWAP``."""
    if move == SWAP:
        return "SWAP"
    if isinstance(move, bool) or not isinstance(move, int) or move < 0:
        raise ProtocolError(f"cannot send move {move!r}")
    return f"MOVE;{move + 1}"


def parse_agent_message(line: str, variant: Variant = MANKALAH) -> Move:
    """Read an agent's answer: the pit index it chose, or ``SWAP``."""
    text = line.rstrip("\r\n")
    shown = text if len(text) <= 80 else text[:77] + "..."
    if text == "SWAP":
        return SWAP
    kind, _, hole = text.partition(";")
    if kind != "MOVE" or not _count(hole) or not 1 <= int(hole) <= variant.pits:
        raise ProtocolError(f"bad answer {shown!r}: expected MOVE;<1..{variant.pits}> or SWAP")
    return int(hole) - 1


# --- sides and boards -------------------------------------------------------------------


def side_of(player: int, swapped: bool) -> str:
    """The side player 0 or 1 owns, before or after a swap."""
    return SOUTH if (player == 0) != swapped else NORTH


def player_of(side: str, swapped: bool) -> int:
    """The player number (0 or 1) of a protocol side, given whether the sides were swapped."""
    return 0 if (side == SOUTH) != swapped else 1


def state_of(position: Position, swapped: bool) -> tuple[int, ...]:
    """The ManKalah state of ``position``: North's row, then South's."""
    north = player_of(NORTH, swapped)
    return tuple(position.board[north]) + tuple(position.board[1 - north])


def position_of(state: tuple[int, ...], swapped: bool, to_move: int, variant: Variant = MANKALAH) -> Position:
    """Our position from a ManKalah state, given whether a swap happened and who moves."""
    half = variant.pits + 1
    north_row, south_row = list(state[:half]), list(state[half:])
    rows = [south_row, north_row] if not swapped else [north_row, south_row]
    return Position(rows, to_move, variant)


def _count(text: str) -> bool:
    """A small whole number in ASCII digits ("²".isdigit() is true, and a 5,000-digit count is no seed count)."""
    return 0 < len(text) <= 6 and text.isascii() and text.isdigit()
