"""docs/rules.md and the code agree: the board notation, the letters, and the values it quotes."""

from __future__ import annotations

import re
from pathlib import Path

from kalah import Position, Variant
from kalah.rules import pit_letter, store_letter

RULES = (Path(__file__).resolve().parents[1] / "docs" / "rules.md").read_text(encoding="utf-8")


def test_the_start_written_in_the_document_is_the_start():
    written = re.search(r"Start of `Kalah\(6, 4\)`: `(\[\[.*?\]\])`, player 0 to move", RULES)
    assert written is not None
    assert Position.start(Variant(6, 4)).board == eval(written.group(1))  # a literal list of lists


def test_the_letters_of_the_document_are_the_letters_of_the_code():
    assert "player 0's pits are the letters `A`..`F` (store `O`)" in RULES.replace("\n", " ")
    assert "player 1's are `a`..`f` (store `o`)" in RULES.replace("\n", " ")
    assert [pit_letter(0, pit) for pit in range(6)] == list("ABCDEF") and store_letter(0) == "O"
    assert [pit_letter(1, pit) for pit in range(6)] == list("abcdef") and store_letter(1) == "o"


def test_the_solver_finds_the_smallest_value_the_document_quotes():
    from kalah import solve

    quoted = re.search(r"`Kalah\(6,3\) = ([+-]\d+)`", RULES)
    assert quoted is not None
    assert solve(Position.start(Variant(6, 3)), threads=1).value == int(quoted.group(1))
