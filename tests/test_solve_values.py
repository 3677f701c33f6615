"""The table of values (``kalah solve --table``, docs/values.json) against an independent negamax.

``tests/negamax.c`` is a plain memoized negamax written apart from the solver (its own sowing and memo, no
bounds, no ordering, no database). It is first held against the rules' reference (``kalah.rules``) by brute
force on small boards, the pie rule included; then every entry of the committed table that it can reach in
seconds must say what it says: the value, the best first moves, the pie rule's value and its best moves.
"""

from __future__ import annotations

import functools
import json
import shutil
import subprocess
import sysconfig
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kalah import Position, Variant
from kalah.cli import app, register_commands
from kalah.solve.values import Board, Proof, check_board, pie_rule_value, prove_value
from kalah.solve.values_table import ValueTable, ValueTableError, entry_status, fill, parse_boards

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "docs" / "values.json"
register_commands()
runner = CliRunner()

#: The boards the negamax settles in about a second or less (at most a million positions; 4x3: 850,000).
QUICK = [(p, s) for p in (1, 2, 3) for s in range(1, 7)] + [(4, 1), (4, 2), (4, 3), (5, 1), (6, 1)]
#: And in ten to twenty seconds (5x2: 3.4 million positions; 7x1: 5.9 million).
SLOW = [(5, 2), (7, 1)]


@pytest.fixture(scope="module")
def negamax(tmp_path_factory):
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        pytest.skip(f"no C compiler ({compiler}) to build tests/negamax.c")
    program = tmp_path_factory.mktemp("negamax") / "negamax"
    subprocess.run([compiler, "-O2", "-o", str(program), str(ROOT / "tests" / "negamax.c")], check=True)

    @functools.cache
    def run(pits: int, seeds: int, empty_capture: bool) -> dict:
        out = subprocess.run(
            [str(program), str(pits), str(seeds), str(int(empty_capture))], capture_output=True, text=True, check=True
        )
        return json.loads(out.stdout)

    return run


def answers(data: dict) -> tuple[int, list[int], int, list[int]]:
    """The value, the best first moves, the pie rule's value and its best first moves, from the negamax."""
    value = data["value"]
    best = [move for move, v in enumerate(data["moves"]) if v == value]
    pie_values = [board["over"] if "over" in board else -abs(board["second"]) for board in data["pie_boards"]]
    pie = max(pie_values)
    return value, best, pie, [move for move, v in enumerate(pie_values) if v == pie]


@functools.cache
def brute(position: Position) -> int:
    """Negamax over the rules' reference: the final margin for player 0."""
    if position.is_over:
        return position.margin
    values = [brute(position.play(move)) for move in position.legal_moves()]
    return max(values) if position.to_move == 0 else min(values)


@pytest.mark.parametrize("empty_capture", [False, True])
@pytest.mark.parametrize("pits, seeds", [(1, 3), (1, 4), (2, 2), (2, 3), (3, 1), (3, 2), (3, 3), (4, 1)])
def test_the_negamax_plays_by_the_rules_pie_rule_included(negamax, pits, seeds, empty_capture):
    value, best, pie, pie_best = answers(negamax(pits, seeds, empty_capture))
    start = Position.start(Variant(pits, seeds, empty_capture=empty_capture))
    assert value == brute(start)
    assert best == [move for move in start.legal_moves() if brute(start.play(move)) == value]
    pie_start = Position.start(Variant(pits, seeds, empty_capture=empty_capture, pie_rule=True))
    assert pie == brute(pie_start)
    assert pie_best == [move for move in pie_start.legal_moves() if brute(pie_start.play(move)) == pie]


def _entries(boards: list[tuple[int, int]]) -> list[tuple[int, int, bool]]:
    table = ValueTable.load(TABLE)
    return [
        (p, s, ec)
        for p, s in boards
        for ec in (False, True)
        if table.entry(Board(p, s, ec)) is not None and entry_status(table.entry(Board(p, s, ec))) != "cut"
    ]


def _agrees(negamax, pits: int, seeds: int, empty_capture: bool) -> None:
    entry = ValueTable.load(TABLE).entry(Board(pits, seeds, empty_capture))
    assert entry is not None
    value, best, pie, pie_best = answers(negamax(pits, seeds, empty_capture))
    assert entry_status(entry) == "confirmed"
    assert (entry["value"]["value"], entry["value"]["best_moves"]) == (value, best)
    assert (entry["pie_rule"]["value"], entry["pie_rule"]["best_moves"]) == (pie, pie_best)


@pytest.mark.parametrize("pits, seeds, empty_capture", _entries(QUICK))
def test_the_tables_small_entries_are_the_negamaxs(negamax, pits, seeds, empty_capture):
    _agrees(negamax, pits, seeds, empty_capture)


@pytest.mark.slow
@pytest.mark.parametrize("pits, seeds, empty_capture", _entries(SLOW))
def test_the_tables_larger_small_entries_are_the_negamaxs(negamax, pits, seeds, empty_capture):
    _agrees(negamax, pits, seeds, empty_capture)


def test_the_committed_table_covers_the_boards_the_negamax_checks():
    """The parametrised tests above run on what the table holds: an empty table must not pass them by."""
    assert len(_entries(QUICK)) == 2 * len(QUICK)
    assert len(_entries(SLOW)) == 2 * len(SLOW)


def test_the_committed_table_lists_no_value_that_is_not_proven():
    for key, entry in ValueTable.load(TABLE).entries.items():
        value = entry["value"]
        if value["value"] is not None:
            assert value["lower"] == value["upper"] == value["value"], key
        else:
            assert value["lower"] < value["upper"] and not value["best_moves"], key
        assert entry_status(entry) != "disputed", key


# --- the steps and the file, on small boards ------------------------------------------------------------------


@pytest.mark.parametrize("board", [Board(3, 3), Board(4, 2, True), Board(1, 3), Board(7, 1, True)])
def test_the_steps_agree_with_the_negamax(negamax, board):
    value, best, pie, pie_best = answers(negamax(board.pits, board.seeds, board.empty_capture))
    proof = prove_value(board, 60, threads=2)
    assert (proof.value, proof.best_moves) == (value, best)
    rule = pie_rule_value(board, 60, threads=2)
    assert (rule.value, rule.best_moves) == (pie, pie_best)
    assert check_board(board, proof, rule, 60, threads=2).verdict == "agrees"


def test_the_check_refutes_a_wrong_value_and_wrong_best_moves():
    board = Board(4, 3)  # +6, best move B only
    proof = prove_value(board, 60, threads=2)
    pie = pie_rule_value(board, 60, threads=2)
    for wrong_value, wrong_moves in ((4, [1]), (6, [1, 2]), (6, [2]), (8, [1])):
        wrong = Proof(wrong_value, wrong_value, wrong_moves, tt_log2=proof.tt_log2)
        check = check_board(board, wrong, pie, 60, threads=2)
        assert check.verdict == "disagrees" and check.disagreements, (wrong_value, wrong_moves)
    pie.best_moves, pie.replies = [0], {0: -2}
    assert check_board(board, proof, pie, 60, threads=2).verdict == "disagrees"


def test_a_check_of_a_value_proven_with_a_database_file_probes_the_next_smaller_table():
    from kalah.solve.values import _check_endgame

    proof = Proof(10, 10, [3], endgame_seeds=22, endgame_file=True, tt_log2=26)
    assert _check_endgame(Board(7, 4), proof, 7200) == 21  # 2.3e9 positions fit a quarter of two hours
    assert _check_endgame(Board(7, 4), proof, 60) == 14  # a minute's quarter: 40 million positions
    in_memory = Proof(4, 4, [5], endgame_seeds=15, endgame_file=False, tt_log2=25)
    assert _check_endgame(Board(7, 3), in_memory, 7200) is None  # a table in memory: the check probes none


def test_a_board_cut_by_the_limit_keeps_bounds_only_and_ends_its_series(tmp_path):
    path = tmp_path / "values.json"
    table = ValueTable.load(path)
    seen = []
    fill(
        table, parse_boards("6x3-5"), [False], 0.3, threads=1, endgame=None, report=lambda w, b, e: seen.append((w, b))
    )
    table = ValueTable.load(path)
    cut = table.entry(Board(6, 3))
    assert cut is not None and entry_status(cut) == "cut"
    assert cut["value"]["value"] is None and cut["value"]["lower"] <= 2 <= cut["value"]["upper"]  # Kalah(6,3): +2
    assert "pie_rule" not in cut and "check" not in cut
    assert table.entry(Board(6, 4)) is None and table.entry(Board(6, 5)) is None  # the series ended
    assert ("value", Board(6, 3)) in seen and all(board == Board(6, 3) for _, board in seen)


def test_the_table_resumes_and_redoes_only_what_a_larger_limit_may_finish(tmp_path):
    path = tmp_path / "values.json"
    steps = []

    def record(what, board, entry):
        if not what.startswith("start"):
            steps.append((what, board.key))

    fill(ValueTable.load(path), parse_boards("2-3x1-2"), [False, True], 30, threads=1, report=record)
    assert len(steps) == 8 * 3
    first = path.read_text()
    steps.clear()
    fill(ValueTable.load(path), parse_boards("2-3x1-2"), [False, True], 30, threads=1, report=record)
    assert steps == [] and path.read_text() == first  # everything was done: nothing again
    fill(ValueTable.load(path), parse_boards("6x3"), [False], 0.2, threads=1, endgame=None, report=record)
    fill(ValueTable.load(path), parse_boards("6x3"), [False], 0.2, threads=1, endgame=None, report=record)
    assert steps == [("value", "6x3")]  # cut, and not tried again under the same limit
    fill(ValueTable.load(path), parse_boards("6x3"), [False], 120, threads=2, endgame=None, report=record)
    assert [key for _, key in steps] == ["6x3"] * 4
    table = ValueTable.load(path)
    assert entry_status(table.entry(Board(6, 3))) == "confirmed" and table.entry(Board(6, 3))["value"]["value"] == 2
    assert len(table.entries) == 9


def test_two_runs_on_one_file_keep_each_others_entries(tmp_path):
    path = tmp_path / "values.json"
    one, two = ValueTable.load(path), ValueTable.load(path)  # both read the file before either wrote
    fill(one, parse_boards("2x1"), [False], 30, threads=1)
    fill(two, parse_boards("3x1"), [False], 30, threads=1)
    assert set(ValueTable.load(path).entries) == {"2x1", "3x1"}


@pytest.mark.parametrize(
    "spec, expected",
    [
        ("7,8", [(7, 1, 15), (8, 1, 15)]),
        ("1-2x1-3", [(1, 1, 3), (2, 1, 3)]),
        ("6x5", [(6, 5, 5)]),
        ("7x3-", [(7, 3, 15)]),
        ("8x16-", None),
        ("9", None),
        ("0", None),
        ("6x0-3", None),
        ("6x4-2", None),
        ("x", None),
        ("6,,7", None),
    ],
)
def test_board_ranges(spec, expected):
    if expected is None:
        with pytest.raises(ValueTableError):
            parse_boards(spec)
    else:
        assert parse_boards(spec) == expected


def test_a_file_that_is_not_a_table_is_refused_in_one_line(tmp_path):
    bad = tmp_path / "bad.json"
    for text in ("{", '{"format": "something else"}', '{"format": "kalah-values/1", "entries": [1]}'):
        bad.write_text(text)
        result = runner.invoke(app, ["solve", "--table", "--values", str(bad), "--boards", "2x1"])
        assert result.exit_code == 2, result.output
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("kalah: error: ") and "not a table of values" in lines[0]


@pytest.mark.parametrize(
    "args, message",
    [
        (["--boards", "9"], "pits run from 1 to 8"),
        (["--rules", "all"], "--rules is standard, empty-capture or both"),
        (["--seeds", "5"], "--seeds is for one position"),
        (["--position", "[[1,1,0],[1,1,0]]"], "--position is for one position"),
        (["--endgame", "some.egdb"], "--endgame with --table is auto or none"),
        (["--time", "0"], "--time must be a positive number"),
    ],
)
def test_bad_table_arguments_are_one_line(tmp_path, args, message):
    result = runner.invoke(app, ["solve", "--table", "--values", str(tmp_path / "v.json"), *args])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kalah: error: ") and message in lines[0], result.output
    assert not (tmp_path / "v.json").exists()


@pytest.mark.parametrize("option", [["--boards", "7"], ["--values", "x.json"], ["--rules", "standard"]])
def test_table_options_without_table_are_refused(option):
    result = runner.invoke(app, ["solve", *option])
    assert result.exit_code == 2 and "goes with --table" in result.output


def test_the_command_shows_proven_values_and_cut_bounds_apart(tmp_path):
    path = tmp_path / "v.json"
    result = runner.invoke(app, ["solve", "--table", "--values", str(path), "--boards", "3x2", "--rules", "standard"])
    assert result.exit_code == 0, result.output
    assert "Kalah(3,2): +4 for the first player, best first move B" in result.output
    assert "with the pie rule: +0, best first moves C" in result.output and "check: confirmed" in result.output
    result = runner.invoke(
        app,
        ["solve", "--table", "--values", str(path), "--boards", "6x4", "--time", "0.2", "--endgame", "none"],
    )
    assert result.exit_code == 0, result.output
    line = next(line for line in result.output.splitlines() if line.startswith("Kalah(6,4):"))
    assert "cut by the limit of 0.2 s: between" in line and "not proven" in line and "for the first player" not in line
    assert "1 confirmed" in result.output and "cut" in result.output.splitlines()[-1]


def test_the_page_shows_what_the_table_holds():
    """docs/values.md's tables are drawn from docs/values.json (python benchmarks/values_doc.py)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("values_doc", ROOT / "benchmarks" / "values_doc.py")
    assert spec is not None and spec.loader is not None
    values_doc = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(values_doc)
    page = (ROOT / "docs" / "values.md").read_text()
    assert values_doc.drawn(page, ValueTable.load(TABLE)) == page, "run python benchmarks/values_doc.py"


def test_a_check_made_before_the_pie_rules_value_is_made_again_to_cover_it():
    from kalah.solve.values_table import needs

    entry = {
        "board": {"pits": 3, "seeds": 2, "empty_capture": False},
        "value": {"value": 4, "lower": 4, "upper": 4, "best_moves": [1], "limit": 60},
        "pie_rule": {"value": None, "lower": -2, "upper": 0, "limit": 60},
        "check": {"verdict": "agrees", "covers_pie_rule": False, "limit": 60},
    }
    assert not needs(entry, "value", 60) and not needs(entry, "check", 60)
    assert not needs(entry, "pie_rule", 60) and needs(entry, "pie_rule", 120)  # cut: again with more time only
    entry["pie_rule"].update(value=0, lower=0, upper=0)
    assert needs(entry, "check", 60)  # it did not check the pie rule's value
    entry["check"]["covers_pie_rule"] = True
    assert not needs(entry, "check", 60)
