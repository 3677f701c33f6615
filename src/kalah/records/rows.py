"""The library's rows and the objects they hold: a game's summary and record read from its rows, and the rows
of a new game and of a move (the SQL both databases speak)."""

from __future__ import annotations

import json
from typing import Any

from kalah.rules import SWAP, Move
from kalah.rules.outcome import DECISIONS, Outcome

from .record import GameRecord, PlayerInfo
from .store import Session
from .summary import GameSummary


def move_value(text: str) -> Move:
    """A move as a row keeps it ("3", "swap") as a move."""
    return SWAP if text == SWAP else int(text)


def record_of(row: Any, moves: list[Any]) -> GameRecord:
    """The record of the game of ``row`` with the rows of its moves (checked move by move).

    Raises:
        RecordError, ValueError, TypeError: the rows do not hold a game (the caller names it damaged).
    """
    result: dict[str, Any] = {"stop_reason": row["stop_reason"]} if row["stop_reason"] else {}
    if row["termination"] in DECISIONS:
        result = {"finished": True, "winner": row["winner"], "termination": row["termination"]}
    data = {
        "format": "kalah-game",
        "version": 1,
        "program": row["program"],
        "started_at": row["started_at"],
        "variant": json.loads(row["variant"]),
        "players": [
            {"name": row["player0_name"], "spec": row["player0_spec"]},
            {"name": row["player1_name"], "spec": row["player1_spec"]},
        ],
        "start": json.loads(row["start"]),
        "moves": [
            {
                "player": m["player"],
                "move": move_value(m["move"]),
                "board": json.loads(m["board"]),
                "seconds": m["seconds"],
                **({"info": json.loads(m["info"])} if m["info"] and m["info"] != "{}" else {}),
            }
            for m in moves
        ],
        "result": result,
    }
    return GameRecord.from_dict(data)


def summary_of(row: Any, moves: int) -> GameSummary:
    """The summary of the game of ``row``, which has ``moves`` moves."""
    termination = row["termination"]
    return GameSummary(
        id=row["id"],
        started_at=row["started_at"],
        players=(
            PlayerInfo(row["player0_name"], row["player0_spec"]),
            PlayerInfo(row["player1_name"], row["player1_spec"]),
        ),
        variant=json.loads(row["variant"]),
        moves=moves,
        status=row["status"],
        scores=(row["score0"], row["score1"]) if row["score0"] is not None else None,
        tags=json.loads(row["tags"]),
        stop_reason=row["stop_reason"],
        outcome=Outcome(row["winner"], termination) if termination and row["status"] == "finished" else None,
    )


def insert_game(db: Session, record: GameRecord, tags: dict[str, Any] | None) -> int:
    """Adds the games row of ``record`` (its start and players; no moves yet) and returns its id."""
    players = record.players
    return db.insert(
        "INSERT INTO games (started_at, program, variant, player0_name, player0_spec, player1_name,"
        " player1_spec, start, tags) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            record.started_at,
            record.program,
            json.dumps(record.start.variant.to_dict()),
            players[0].name,
            players[0].spec,
            players[1].name,
            players[1].spec,
            record.start.to_json(),
            json.dumps(tags or {}),
        ),
    )


def insert_move(
    db: Session,
    game_id: int,
    number: int,
    player: int,
    move: Move,
    board: Any,
    seconds: float,
    info: dict[str, Any],
) -> None:
    """Adds the row of move ``number`` of a game, the board after it and what its player said."""
    db.execute(
        "INSERT INTO moves (game_id, number, player, move, board, seconds, info) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (game_id, number, player, str(move), json.dumps(board), seconds, json.dumps(info)),
    )
