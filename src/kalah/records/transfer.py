"""Moving games between libraries (a SQLite file and a PostgreSQL database, say): every game as one line of
JSON, and back.

Each line is a game record (:mod:`.record`; ``kalah replay`` reads one as it
is) with what the library keeps beside it under ``"library"``: its tags and
its review. Seats and clocks of games between people under way are not
moved: their games arrive with their moves and results.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

from .library import GameLibrary
from .record import GameRecord, RecordError


def export_lines(library: GameLibrary) -> Iterator[str]:
    """Every game of ``library``, oldest first, one line of JSON each."""
    for summary in reversed(library.list_games()):
        data = library.record(summary.id).to_dict()
        kept: dict[str, Any] = {"tags": summary.tags}
        review = library.review(summary.id)
        if review is not None:
            kept["review"] = {"moves": review[0], "review": review[1]}
        data["library"] = kept
        yield json.dumps(data, separators=(",", ":"))


def import_lines(library: GameLibrary, lines: Sequence[str], default_tags: dict[str, Any] | None = None) -> list[int]:
    """Store the games of ``lines`` (made by :func:`export_lines`, or plain records, one a line) in one
    transaction: every line is checked first, so a bad one stores nothing. Their new ids, in order.

    Raises:
        RecordError: a line is not a game record (the message gives its number).
    """
    games: list[tuple[GameRecord, dict[str, Any] | None, dict[str, Any] | None]] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
            record = GameRecord.from_dict(data)
        except (ValueError, RecordError) as error:
            raise RecordError(f"line {number}: {error}") from None
        kept = data.get("library")
        kept = kept if isinstance(kept, dict) else {}
        tags = kept.get("tags") if isinstance(kept.get("tags"), dict) else default_tags
        review = kept.get("review")
        games.append((record, tags, review if isinstance(review, dict) else None))
    with library.database.write():  # the calls below join this one transaction
        ids = []
        for record, tags, review in games:
            game_id = library.import_record(record, tags)
            if review is not None and isinstance(review.get("review"), dict) and isinstance(review.get("moves"), int):
                library.save_review(game_id, review["moves"], review["review"])
            ids.append(game_id)
        return ids
