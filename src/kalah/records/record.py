"""Game records: one JSON document per game, checked move by move when read.

Format (version 1)::

    {"format": "kalah-game", "version": 1, "program": "kalah 0.1.0",
     "started_at": "2026-11-22T10:00:00+00:00",
     "variant": {...}, "players": [{"name": ..., "spec": ...}, {...}],
     "start": {position JSON},
     "moves": [{"number": 1, "player": 0, "move": 2, "board": [[...], [...]],
                "seconds": 0.01, "info": {...}}, ...],
     "result": {"finished": true, "scores": [25, 23], "winner": 0, "margin": 2}}

``move`` is a pit index of the mover's side or ``"swap"``; ``board`` is the
board after the move; ``info`` (optional) is what the player said about it.
``winner`` is null for a draw and for an unfinished game. A game decided
before its board was over (a resignation, a flag that fell, a forfeit) is
finished too: its result says ``"termination"`` (``resignation``, ``time``
or ``forfeit``), the winner, the stores as they were (``scores``) and no
margin.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from kalah.rules import SWAP, KalahError, Move, Position, Variant
from kalah.rules.outcome import DECISIONS, Outcome
from kalah.rules.wording import kind, shown
from kalah.version import __version__

FORMAT = "kalah-game"
VERSION = 1


class RecordError(KalahError, ValueError):
    """A game record that cannot be read or does not follow the rules."""


#: Characters of a move's ``info`` a record may hold.
MAX_INFO = 10_000
#: Levels of nesting a move's ``info`` may have (an engine's says a few; deeper ones cannot
#: always be written back: JSON encoders, the web's among them, stop near a thousand).
MAX_INFO_DEPTH = 20
#: Characters of a whole record: far more than the longest game of the largest variant needs.
MAX_RECORD = 20_000_000


def _text(value: Any, what: str, limit: int) -> str:
    """A string of the record, checked: text, at most ``limit`` characters, valid Unicode."""
    if not isinstance(value, str):
        raise RecordError(f"{what} must be text, got {kind(value)}")
    if len(value) > limit:
        raise RecordError(f"{what} is longer than {limit} characters")
    try:
        value.encode("utf-8")
    except UnicodeError:
        raise RecordError(f"{what} is not valid Unicode (a lone surrogate)") from None
    return value


def _depth(value: Any, limit: int) -> int:
    """How deeply lists and objects nest in ``value`` (a scalar is 0), counted without recursion and
    only up to ``limit + 1``."""
    deepest, level = 0, [(value, 0)]
    while level:
        item, depth = level.pop()
        if isinstance(item, (dict, list)):
            depth += 1
            deepest = max(deepest, depth)
            if depth > limit:
                return depth
            level.extend((child, depth) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


@dataclass(frozen=True)
class PlayerInfo:
    """Who played a side of a recorded game."""

    name: str
    """The name shown for the player, e.g. ``"Ann"`` or ``"Computer (medium)"``."""
    spec: str
    """The player spec that makes the player again (``"human"``, ``"pvs:time=1"``); see ``kalah.players``."""


@dataclass(frozen=True)
class RecordedMove:
    """One move of a recorded game and the board it left."""

    player: int
    """Who moved: 0 or 1."""
    move: Move
    """The pit index ``0..pits-1`` of the mover, or ``"swap"``."""
    board: list[list[int]]
    """The board after the move: two rows of pits then store, player 0's first (the layout of RULES.md)."""
    seconds: float = 0.0
    """How long the player thought."""
    info: dict[str, Any] = field(default_factory=dict)
    """What a computer player reported about the move (value, depth, nodes...)."""


@dataclass
class GameRecord:
    """A game: who played, from where, every move, and how it ended (a ``kalah-game`` JSON file)."""

    start: Position
    """The position the game started from (usually the start of its variant)."""
    players: list[PlayerInfo]
    """Player 0 and player 1."""
    moves: list[RecordedMove] = field(default_factory=list)
    """Every move in order."""
    started_at: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))
    """When the game started (ISO 8601, UTC)."""
    program: str = ""
    """The program that wrote the record (default: this kalah and its version)."""
    finished: bool = False
    """True when the game reached its end by the rules."""
    stop_reason: str | None = None
    """Why an unfinished game stopped (e.g. ``"interrupted"``, ``"forfeit: ..."``), or None."""
    decision: Outcome | None = None
    """How a game decided before its board was over ended (resignation, time, forfeit), or None."""

    def __post_init__(self) -> None:
        if not self.program:
            self.program = f"kalah {__version__}"

    @property
    def variant(self) -> Variant:
        """The variant the game was played in."""
        return self.start.variant

    def positions(self) -> Iterator[Position]:
        """The start and the position after each move."""
        position = self.start
        yield position
        for recorded in self.moves:
            position = position.play(recorded.move)
            yield position

    @property
    def final(self) -> Position:
        """The position after the last move."""
        *_, last = self.positions()
        return last

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended (on the board, or decided off it), or None while it goes on."""
        return self.decision or Outcome.of(self.final)

    def add_move(
        self, player: int, move: Move, after: Position, seconds: float = 0.0, info: dict[str, Any] | None = None
    ) -> None:
        """Append a move and the board it left."""
        self.moves.append(RecordedMove(player, move, after.board, round(seconds, 6), dict(info or {})))

    def result(self) -> dict[str, Any]:
        """How the game ended, as the record stores it (scores, winner, margin, or why it stopped)."""
        final = self.final
        if self.decision is not None and not final.is_over:
            return {
                "finished": True,
                "scores": [final.store(0), final.store(1)],
                "winner": self.decision.winner,
                "margin": None,
                "termination": self.decision.termination,
            }
        ended = Outcome.of(final)
        scores = final.scores if ended is not None else None
        result: dict[str, Any] = {
            "finished": ended is not None,
            "scores": list(scores) if scores else [final.store(0), final.store(1)],
            "winner": ended.winner if ended is not None else None,
            "margin": final.margin if ended is not None else None,
        }
        if not final.is_over and self.stop_reason:
            result["stop_reason"] = self.stop_reason
        return result

    def to_dict(self) -> dict[str, Any]:
        """The record as a JSON-ready dict (the ``kalah-game`` format, version 1)."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "program": self.program,
            "started_at": self.started_at,
            "variant": self.variant.to_dict(),
            "players": [{"name": p.name, "spec": p.spec} for p in self.players],
            "start": self.start.to_dict(),
            "moves": [
                {
                    "number": number,
                    "player": m.player,
                    "move": m.move,
                    "board": m.board,
                    "seconds": m.seconds,
                    **({"info": m.info} if m.info else {}),
                }
                for number, m in enumerate(self.moves, 1)
            ],
            "result": self.result(),
        }

    def to_json(self, indent: int | None = 1) -> str:
        """The record as ``kalah-game`` JSON text."""
        return json.dumps(self.to_dict(), indent=indent)

    def _repr_html_(self) -> str:
        """The game as HTML, for Jupyter (see :func:`kalah.rules.svg.record_html`)."""
        from kalah.rules.svg import record_html

        return record_html(self)

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        """Read and check a record: every move must be legal and give the recorded board.

        Raises:
            RecordError: ``data`` is not a game record of this format and version, or a field,
                a move or a board in it is wrong (each message names which).
        """
        if not isinstance(data, dict):
            raise RecordError(f"a game record is a JSON object, got {kind(data)}")
        if data.get("format") != FORMAT:
            raise RecordError(f"not a kalah game record (format is {shown(data.get('format'))}, expected {FORMAT!r})")
        if data.get("version") != VERSION:
            raise RecordError(f"unsupported record version {shown(data.get('version'))} (this program reads {VERSION})")
        for key in ("variant", "players", "start", "moves"):
            if key not in data:
                raise RecordError(f"the record has no {key!r}")
        try:
            variant = Variant.from_dict(data["variant"])
            start_data = dict(data["start"]) if isinstance(data["start"], dict) else data["start"]
            if isinstance(start_data, dict):
                start_data.setdefault("variant", variant.to_dict())
            start = Position.from_dict(start_data)
        except KalahError as error:
            raise RecordError(f"bad start position: {error}") from None
        if start.variant != variant:
            raise RecordError("the start position's variant differs from the record's variant")
        players = data["players"]
        if not isinstance(players, list) or len(players) != 2 or not all(isinstance(p, dict) for p in players):
            raise RecordError("'players' must list two players, each with a name and a spec")
        infos = [
            PlayerInfo(
                _text(p.get("name", f"player {i}"), f"player {i}'s name", 200),
                _text(p.get("spec", ""), f"player {i}'s spec", 1000),
            )
            for i, p in enumerate(players)
        ]
        if not isinstance(data["moves"], list):
            raise RecordError("'moves' must be a list")
        record = cls(
            start,
            infos,
            started_at=_text(data.get("started_at", ""), "started_at", 100),
            program=_text(data.get("program", ""), "program", 200),
        )
        position = start
        for number, entry in enumerate(data["moves"], 1):
            position = record._check_move(number, entry, position)
        result = data.get("result")
        if isinstance(result, dict):
            reason = result.get("stop_reason")
            record.stop_reason = None if reason is None else _text(reason, "the stop reason", 500)
            termination = result.get("termination")
            if termination in DECISIONS and not position.is_over:
                winner = result.get("winner")
                if winner not in (0, 1) or isinstance(winner, bool):
                    raise RecordError(f"a game decided by {termination} needs its winner, 0 or 1, not {shown(winner)}")
                record.decision = Outcome(winner, termination)
            elif termination not in (None, "board") and termination not in DECISIONS:
                raise RecordError(f"unknown termination {shown(termination)}; known: board, {', '.join(DECISIONS)}")
            elif result.get("finished") and not position.is_over:
                raise RecordError(
                    f"the record says the game finished, but after move {len(record.moves)} it is not over"
                )
        record.finished = position.is_over or record.decision is not None
        return record

    def _check_move(self, number: int, entry: Any, position: Position) -> Position:
        if not isinstance(entry, dict) or "move" not in entry:
            raise RecordError(f"move {number}: expected an object with a 'move'")
        move = entry["move"]
        if move != SWAP and (isinstance(move, bool) or not isinstance(move, int)):
            raise RecordError(f"move {number}: {shown(move)} is not a pit index or 'swap'")
        if "player" in entry and entry["player"] != position.to_move:
            raise RecordError(
                f"move {number}: the record says player {shown(entry['player'])} moved, but player {position.to_move} was to move"
            )
        try:
            after = position.play(move)
        except KalahError as error:
            raise RecordError(f"move {number}: illegal: {error}") from None
        if "board" in entry and entry["board"] != after.board:
            raise RecordError(
                f"move {number}: the recorded board {shown(entry['board'])} does not follow from the moves"
                f" (expected {shown(after.board)})"
            )
        seconds = entry.get("seconds", 0.0)
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 <= seconds < math.inf:
            raise RecordError(f"move {number}: 'seconds' must be a non-negative number, got {shown(seconds)}")
        info = entry.get("info") or {}
        if not isinstance(info, dict):
            raise RecordError(f"move {number}: 'info' must be an object")
        if _depth(info, MAX_INFO_DEPTH) > MAX_INFO_DEPTH:
            raise RecordError(f"move {number}: 'info' is nested more than {MAX_INFO_DEPTH} levels deep")
        try:  # what is stored must be written back as strict JSON, and as UTF-8 (no lone surrogate)
            if len(json.dumps(info, allow_nan=False, ensure_ascii=False).encode("utf-8")) > MAX_INFO:
                raise RecordError(f"move {number}: 'info' is longer than {MAX_INFO} characters")
        except (ValueError, TypeError, UnicodeError):
            raise RecordError(
                f"move {number}: 'info' holds values JSON cannot carry (NaN, Infinity, broken text"
                " such as a lone surrogate)"
            ) from None
        self.moves.append(RecordedMove(position.to_move, move, after.board, float(seconds), info))
        return after

    @classmethod
    def from_json(cls, text: str | bytes) -> GameRecord:
        """Read a record from JSON text, checking every move against the rules (RecordError if it does not).

        Raises:
            RecordError: ``text`` is too long, not JSON, nested too deeply, or not a valid record.
        """
        if len(text) > MAX_RECORD:
            raise RecordError(f"a game record is at most {MAX_RECORD} characters long; this text has {len(text)}")
        try:
            data = json.loads(text)
        except ValueError as error:
            raise RecordError(f"not valid JSON: {error}") from None
        except RecursionError:
            raise RecordError("not a game record: the JSON is nested too deeply") from None
        return cls.from_dict(data)


def load_record(path: str | Path) -> GameRecord:
    """Read a record file, with errors that name the file.

    Raises:
        RecordError: ``path`` cannot be read, is not a regular text file, is too large, or
            does not hold a valid record.
    """
    path = Path(path)
    if path.exists() and not path.is_file():
        raise RecordError(f"{path} is not a regular file")
    try:
        if path.stat().st_size > MAX_RECORD * 4:
            raise RecordError(f"{path} is too large for a game record")
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise RecordError(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not a text file") from None
    try:
        return GameRecord.from_json(text)
    except RecordError as error:
        raise RecordError(f"{path}: {error}") from None
