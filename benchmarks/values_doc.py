"""Draw docs/values.md's tables from the table of values (docs/values.json, kept by ``kalah solve --table``).

    python benchmarks/values_doc.py          # rewrite the tables between the markers of docs/values.md
    python benchmarks/values_doc.py --check  # exit 1 when docs/values.md says something else

The tables sit between ``<!-- values:NAME -->`` and ``<!-- /values:NAME -->``; the prose around them is the
page's own. tests/test_solve_values.py fails when the page and the file disagree.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

from kalah.solve.values import Board
from kalah.solve.values_table import ValueTable, entry_status, moves_text

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "values.md"
TABLE = ROOT / "docs" / "values.json"
CONTROL_PITS = 6  # boards of at most this many pits reproduce Irving, Donkers and Uiterwijk's table


def _signed(value: int | None) -> str:
    return "" if value is None else f"{value:+d}"


def _cell(entry: dict[str, Any] | None) -> str:
    if entry is None:
        return ""
    status = entry_status(entry)
    value = entry["value"]
    if status == "cut":
        return f"{value['lower']:+d}..{value['upper']:+d}" if value["value"] is None else f"{value['value']:+d}*"
    return _signed(value["value"]) + {"confirmed": "", "proven": "?", "disputed": "!"}.get(status, "")


def grid(table: ValueTable, empty_capture: bool) -> str:
    """Values by pits (rows) and seeds (columns) for one capture rule."""
    boards = [board for board in table.boards() if board.empty_capture == empty_capture]
    if not boards:
        return "(none yet)"
    pits = sorted({board.pits for board in boards})
    seeds = list(range(1, max(board.seeds for board in boards) + 1))
    lines = ["| pits \\ seeds | " + " | ".join(str(s) for s in seeds) + " |", "|---" * (len(seeds) + 1) + "|"]
    for p in pits:
        cells = [_cell(table.entry(Board(p, s, empty_capture))) for s in seeds]
        lines.append(f"| {p} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _work(step: dict[str, Any] | None) -> str:
    if not step:
        return ""
    return f"{step['nodes']:,} | {step['seconds']:,.1f}"


def _load(step: dict[str, Any] | None) -> str:
    if not step or not step.get("load"):
        return ""
    return "–".join("" if load is None else f"{load:.1f}" for load in step["load"])


def details(table: ValueTable, boards: list[Board]) -> str:
    """One row per entry: the value, its moves, the pie rule, the work, the database, the check, the command."""
    lines = [
        "| board | rule | value | best first moves | with the pie rule | its best first moves | nodes | seconds"
        " | load | endgame database | check: nodes | seconds | reproduce: `kalah solve --table ...` |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for board in boards:
        entry = table.entry(board)
        if entry is None:
            continue
        value, pie, check = entry["value"], entry.get("pie_rule"), entry.get("check")
        status = entry_status(entry)
        if status != "cut":
            shown = _signed(value["value"]) + ("" if status == "confirmed" else f" ({status})")
        elif value["value"] is None:
            shown = f"{value['lower']:+d} to {value['upper']:+d} (cut at {value['limit']:,g} s)"
        else:
            shown = f"{value['value']:+d} (best moves cut at {value['limit']:,g} s)"
        endgame = value.get("endgame")
        database = (
            "none" if endgame is None else f"K={endgame['max_seeds']} " + ("file" if endgame["file"] else "memory")
        )
        if pie is None:
            pie_value = pie_moves = ""
        elif pie["value"] is None:
            pie_value, pie_moves = f"{pie['lower']:+d} to {pie['upper']:+d} (cut)", ""
        else:
            pie_value, pie_moves = _signed(pie["value"]), moves_text(pie["best_moves"])
        verdict = (
            "" if check is None else {"agrees": "agrees", "cut": "cut", "disagrees": "DISAGREES"}[check["verdict"]]
        )
        checked = f"{verdict}: {check['nodes']:,} | {check['seconds']:,.1f}" if check else " | "
        rule = "standard" if not board.empty_capture else "empty-capture"
        # a later step may have run under a larger limit than the value's: the command must reproduce it too
        limit = max(step["limit"] for step in (value, pie, check) if step)
        lines.append(
            f"| {board.pits}x{board.seeds} | {board.rule} | {shown} | {moves_text(value['best_moves'])} | {pie_value}"
            f" | {pie_moves} | {_work(value)} | {_load(value)} | {database} | {checked}"
            f" | `--boards {board.pits}x{board.seeds} --rules {rule} --time {limit:g}` |"
        )
    return "\n".join(lines)


def drawn(page: str, table: ValueTable) -> str:
    """``page`` with every marked table drawn again from ``table``."""
    boards = table.boards()
    parts = {
        "grid-standard": grid(table, False),
        "grid-empty-capture": grid(table, True),
        "new": details(table, [board for board in boards if board.pits > CONTROL_PITS]),
        "control": details(table, [board for board in boards if board.pits <= CONTROL_PITS]),
    }
    for name, body in parts.items():
        pattern = re.compile(rf"(<!-- values:{name} -->\n)(?:.*?\n)?(<!-- /values:{name} -->)", re.S)
        page = pattern.sub(lambda match, body=body: match[1] + body + "\n" + match[2], page)
    return page


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 if the page is out of date")
    args = parser.parse_args()
    page = PAGE.read_text()
    new = drawn(page, ValueTable.load(TABLE))
    if args.check:
        sys.exit(0 if new == page else 1)
    PAGE.write_text(new)


if __name__ == "__main__":
    main()
