"""The table of values of Kalah's starts, kept in a JSON file (``kalah solve --table``).

The file (format ``kalah-values/1``) holds one entry per board and capture
rule, keyed ``7x4`` or ``7x4-ec``; each entry keeps the three steps of
:mod:`kalah.solve.values` as they finish (``value``, ``pie_rule``,
``check``), each with its nodes, seconds, limit, the machine's load before
and after, and the date. The file is written atomically after every step,
so a stopped run loses at most the step it was in, and the same command
resumes: a step is done again only when it is missing, or was cut by a
smaller limit than the one given now.

Boards are taken in order of seeds, then pits, then rule, so that the cheap
ones come first; once a board's value is cut by the limit, the larger boards
of its pit count and rule are not tried (they take longer).
"""

from __future__ import annotations

import json
import os
import platform
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from kalah.atomic import write_atomic
from kalah.core.builds import BYTE_MAX_PITS, BYTE_MAX_TOTAL
from kalah.rules import KalahError, move_name
from kalah.version import __version__

from .values import Board, Check, PieRule, Progress, Proof, check_board, pie_rule_value, prove_value

__all__ = [
    "FORMAT",
    "BoardRange",
    "ValueTable",
    "ValueTableError",
    "entry_status",
    "fill",
    "parse_boards",
    "planned_boards",
]

FORMAT = "kalah-values/1"
#: The seeds of an open range (``7x1-``) stop here at the latest: beyond it the byte board overflows.
MAX_RANGE_SEEDS = 15


class ValueTableError(KalahError, ValueError):
    """A table file that cannot be used, or boards asked for that do not exist."""


BoardRange = tuple[int, int, int]  # pits, first seeds, last seeds (inclusive)

_RANGE = re.compile(r"^(\d+)(?:-(\d+))?(?:x(\d+)(?:-(\d*))?)?$")


def parse_boards(spec: str) -> list[BoardRange]:
    """The boards of a spec such as ``7,8`` (7 and 8 pits, seeds from 1 up), ``1-6x1-6`` (pits 1 to 6, seeds
    1 to 6), ``6x1-5`` or ``7x3-`` (7 pits, from 3 seeds up), comma-separated.

    Raises:
        ValueTableError: a part is not of that form, or names a board the solver cannot hold (at most
            8 pits a side and 255 seeds).
    """
    ranges: list[BoardRange] = []
    for part in spec.split(","):
        text = part.strip()
        match = _RANGE.match(text)
        if not match:
            raise ValueTableError(f"a board range is PITS[-PITS][xSEEDS[-[SEEDS]]], such as 7 or 1-6x1-6; got {text!r}")
        first_pits = int(match[1])
        last_pits = int(match[2]) if match[2] else first_pits
        first_seeds = int(match[3]) if match[3] else 1
        open_end = match[3] is None or match[4] == ""
        last_seeds = MAX_RANGE_SEEDS if open_end else int(match[4]) if match[4] else first_seeds
        if not 1 <= first_pits <= last_pits <= BYTE_MAX_PITS:
            raise ValueTableError(f"pits run from 1 to {BYTE_MAX_PITS} (the solver's board), got {text!r}")
        if not 1 <= first_seeds <= last_seeds <= MAX_RANGE_SEEDS:
            raise ValueTableError(f"seeds run from 1 to {MAX_RANGE_SEEDS}, got {text!r}")
        for pits in range(first_pits, last_pits + 1):
            most = min(last_seeds, BYTE_MAX_TOTAL // (2 * pits))
            if most >= first_seeds:
                ranges.append((pits, first_seeds, most))
    return ranges


def _now() -> str:
    return f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC"


def _load() -> float | None:
    return round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None


def machine() -> str:
    """The processor, cores and memory of this machine, in words."""
    cpu = platform.processor() or platform.machine()
    memory = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
        memory = f", {int(Path('/proc/meminfo').read_text().split()[1]) // (1024 * 1024)} GiB"
    except (OSError, ValueError, IndexError):
        pass
    return f"{cpu}, {os.cpu_count()} cores{memory}"


def entry_status(entry: dict[str, Any]) -> str:
    """``confirmed`` (proven and checked), ``proven`` (not checked yet), ``disputed`` (the check disagrees),
    ``cut`` (the limit struck before the value was proven) or ``open`` (nothing finished)."""
    value = entry.get("value")
    if not value:
        return "open"
    if value.get("value") is None or not value.get("best_moves"):
        return "cut"
    verdict = (entry.get("check") or {}).get("verdict")
    return {"agrees": "confirmed", "disagrees": "disputed"}.get(verdict or "", "proven")


class ValueTable:
    """The entries of a table file, kept in memory and written back atomically after every change."""

    def __init__(self, path: str | os.PathLike[str], entries: dict[str, dict[str, Any]] | None = None):
        self.path = Path(path)
        self.entries: dict[str, dict[str, Any]] = entries or {}

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> ValueTable:
        """The table in ``path``, or an empty one when the file does not exist yet.

        Raises:
            ValueTableError: the file is not a table of values (not JSON, another format, malformed entries).
            OSError: the file exists and cannot be read.
        """
        file = Path(path)
        if not file.exists():
            return cls(file)
        if not file.is_file():
            raise ValueTableError(f"{file} is not a regular file (a table of values is a JSON file)")
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError) as error:
            raise ValueTableError(f"{file} is not a table of values (not JSON: {error})") from None
        except RecursionError:
            raise ValueTableError(f"{file} is not a table of values (nested too deeply)") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueTableError(f"{file} is not a table of values (format {FORMAT!r} expected)")
        entries = data.get("entries")
        if not isinstance(entries, dict) or not all(
            isinstance(key, str) and isinstance(entry, dict) and isinstance(entry.get("board"), dict)
            for key, entry in entries.items()
        ):
            raise ValueTableError(f"{file} is not a table of values (its entries are malformed)")
        return cls(file, entries)

    def save(self, changed: str | None = None) -> None:
        """Write the table atomically (a reader sees the old file or the new one). With ``changed`` (a
        board's key), the file is read again under a lock first and only that entry is replaced, so that
        two runs on other boards of the same file keep each other's entries."""
        if changed is not None:
            with _locked(self.path):
                on_disk = ValueTable.load(self.path).entries if self.path.exists() else {}
                on_disk[changed] = self.entries[changed]
                self.entries = {**on_disk, **{changed: self.entries[changed]}}
                self._write()
            return
        self._write()

    def _write(self) -> None:
        ordered = dict(sorted(self.entries.items(), key=lambda item: _board_of(item[1])))
        text = json.dumps({"format": FORMAT, "entries": ordered}, indent=1, ensure_ascii=False)
        write_atomic(self.path, text + "\n")

    def entry(self, board: Board) -> dict[str, Any] | None:
        """The entry of ``board``, or None."""
        return self.entries.get(board.key)

    def boards(self) -> list[Board]:
        """Every board of the table, in order."""
        return sorted(_board_of(entry) for entry in self.entries.values())

    def _step(self, board: Board, step: str, data: dict[str, Any], limit: float, load_before: float | None) -> None:
        entry = self.entries.setdefault(board.key, {"board": asdict(board)})
        entry[step] = {
            **data,
            "limit": limit,
            "load": [load_before, _load()],
            "date": _now(),
            "machine": machine(),
            "version": __version__,
        }
        self.save(board.key)

    def put_value(self, board: Board, proof: Proof, limit: float, load_before: float | None, threads: int) -> None:
        """Keep step 1 (and forget the steps after it: they followed the value it replaces)."""
        self.entries.pop(board.key, None)
        data = {
            "value": proof.value,
            "lower": proof.lower,
            "upper": proof.upper,
            "best_moves": proof.best_moves,
            "nodes": proof.nodes,
            "seconds": round(proof.seconds, 3),
            "endgame": None
            if proof.endgame_seeds is None
            else {"max_seeds": proof.endgame_seeds, "file": proof.endgame_file},
            "tt_log2": proof.tt_log2,
            "threads": threads,
        }
        self._step(board, "value", data, limit, load_before)

    def put_pie(self, board: Board, pie: PieRule, limit: float, load_before: float | None) -> None:
        """Keep step 2."""
        data = {
            "value": pie.value,
            "lower": pie.lower,
            "upper": pie.upper,
            "best_moves": pie.best_moves,
            "move_bounds": {str(move): list(bounds) for move, bounds in pie.move_bounds.items()},
            "replies": {str(move): value for move, value in pie.replies.items()},
            "nodes": pie.nodes,
            "seconds": round(pie.seconds, 3),
        }
        self._step(board, "pie_rule", data, limit, load_before)

    def put_check(self, board: Board, check: Check, covers_pie: bool, limit: float, load_before: float | None) -> None:
        """Keep step 3."""
        data = {**asdict(check), "seconds": round(check.seconds, 3), "covers_pie_rule": covers_pie}
        self._step(board, "check", data, limit, load_before)


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``.NAME.lock`` beside the table (where the system has fcntl) while the block
    runs."""
    try:
        import fcntl
    except ImportError:  # no advisory locks here: one run at a time on a file
        yield
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(f".{path.name}.lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _board_of(entry: dict[str, Any]) -> Board:
    board = entry["board"]
    return Board(int(board["pits"]), int(board["seeds"]), bool(board["empty_capture"]))


def proof_of(entry: dict[str, Any]) -> Proof:
    """Step 1 of an entry as the :class:`Proof` it kept."""
    value = entry["value"]
    endgame = value.get("endgame") or {}
    return Proof(
        lower=value["lower"],
        upper=value["upper"],
        best_moves=list(value["best_moves"]),
        nodes=value["nodes"],
        seconds=value["seconds"],
        endgame_seeds=endgame.get("max_seeds"),
        endgame_file=bool(endgame.get("file")),
        tt_log2=value.get("tt_log2", 0),
    )


def pie_of(entry: dict[str, Any]) -> PieRule | None:
    """Step 2 of an entry as the :class:`PieRule` it kept, or None."""
    pie = entry.get("pie_rule")
    if not pie:
        return None
    return PieRule(
        lower=pie["lower"],
        upper=pie["upper"],
        best_moves=list(pie["best_moves"]),
        move_bounds={int(move): (low, high) for move, (low, high) in pie["move_bounds"].items()},
        replies={int(move): value for move, value in pie["replies"].items()},
        nodes=pie["nodes"],
        seconds=pie["seconds"],
    )


def needs(entry: dict[str, Any] | None, step: str, limit: float) -> bool:
    """Whether ``step`` of ``entry`` is to be done (again) under ``limit``: it is missing, or the limit cut it
    and ``limit`` is larger than the one it had."""
    if entry is None or not entry.get(step):
        return True
    done = entry[step]
    if step == "value":
        finished = done.get("value") is not None and bool(done.get("best_moves"))
    elif step == "pie_rule":
        finished = done.get("value") is not None
    else:
        finished = done.get("verdict") != "cut"
        pie = entry.get("pie_rule") or {}
        if pie.get("value") is not None and not done.get("covers_pie_rule"):
            return True  # the pie rule's value came after this check: check it too
    return not finished and limit > done.get("limit", 0)


def planned_boards(table: ValueTable, ranges: list[BoardRange], rules: list[bool], limit: float) -> Iterator[Board]:
    """The boards of ``ranges`` under the capture ``rules`` (False: standard, True: empty capture) in the order
    they are solved: by seeds, then pits, then rule. A series (one pit count and rule) ends at the first
    board whose value was cut by a limit at least as large as ``limit``: the next ones take longer. The
    boards come one at a time, so that a series ends as soon as the table shows a cut."""
    wanted = sorted(
        {
            Board(pits, seeds, rule)
            for pits, first, last in ranges
            for seeds in range(first, last + 1)
            for rule in rules
        },
        key=lambda board: (board.seeds, board.pits, board.empty_capture),
    )
    for board in wanted:
        if any(
            other.pits == board.pits
            and other.empty_capture == board.empty_capture
            and other.seeds < board.seeds
            and entry_status(entry) == "cut"
            and not needs(entry, "value", limit)
            for other in table.boards()
            for entry in [table.entries[other.key]]
        ):
            continue
        yield board


def moves_text(moves: list[int], player: int = 0) -> str:
    """First moves as pit letters, ``A, C``."""
    return ", ".join(move_name(player, move) for move in moves)


#: Told what the table is doing: ``(what, board, entry)``, where ``what`` is ``"start value"``,
#: ``"start pie_rule"``, ``"start check"`` (a step begins) or ``"value"``, ``"pie_rule"``, ``"check"`` (a step
#: was kept; ``entry`` is the board's entry as now in the file).
Report = Callable[[str, Board, dict[str, Any]], None]


def fill(
    table: ValueTable,
    ranges: list[BoardRange],
    rules: list[bool],
    limit: float,
    *,
    threads: int | None = None,
    endgame: Any = "auto",
    tt_log2: int | None = None,
    report: Report | None = None,
    progress: Progress | None = None,
) -> None:
    """Prove the boards of ``ranges`` under ``rules`` into ``table``, each step within ``limit`` seconds,
    keeping every step in the file as it finishes; steps already in the table are not done again
    (see :func:`needs`). ``progress`` hears the bounds proven within a step."""
    used = threads or max(1, min(os.cpu_count() or 1, 8))

    def tell(what: str, board: Board) -> None:
        if report is not None:
            report(what, board, table.entries.get(board.key, {}))

    for board in planned_boards(table, ranges, rules, limit):
        if needs(table.entry(board), "value", limit):
            tell("start value", board)
            before = _load()
            proof = prove_value(board, limit, threads=threads, endgame=endgame, tt_log2=tt_log2, progress=progress)
            table.put_value(board, proof, limit, before, used)
            tell("value", board)
        entry = table.entries[board.key]
        if entry_status(entry) == "cut":
            continue
        if needs(entry, "pie_rule", limit):
            tell("start pie_rule", board)
            before = _load()
            pie = pie_rule_value(board, limit, threads=threads, endgame=endgame, tt_log2=tt_log2, progress=progress)
            table.put_pie(board, pie, limit, before)
            tell("pie_rule", board)
        if needs(entry, "check", limit):
            tell("start check", board)
            before = _load()
            pie_kept = pie_of(entry)
            covers = pie_kept is not None and pie_kept.value is not None
            check = check_board(board, proof_of(entry), pie_kept if covers else None, limit, threads=threads)
            table.put_check(board, check, covers, limit, before)
            tell("check", board)
