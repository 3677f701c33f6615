"""Search players, statistics, time limits, the oracle hook, MCTS, and the analyse/compare commands."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import time

import pytest

import kalah
from kalah import Position, Variant
from kalah.players import PlayerSpecError, make_player
from kalah.search import EXACT_ALGORITHMS, SearchError, SearchResult, search


def kalah_cli(*args):
    return subprocess.run([sys.executable, "-m", "kalah.cli", *args], capture_output=True, text=True, timeout=120)


ENDGAME = Position([[0, 0, 0, 1, 2, 1, 20], [1, 0, 2, 0, 0, 1, 20]], 0)


def test_search_is_exported_and_reports_everything():
    result = kalah.search(Position.start(), "alphabeta", depth=6)
    assert isinstance(result, SearchResult) and isinstance(result, kalah.SearchResult)
    s = result.stats
    assert s.nodes > s.leaves > 0 and s.tt_probes >= s.tt_hits >= 0 and s.cutoffs > 0 and s.depth == 6 and s.seconds > 0
    assert result.pv[0] == result.best_move and len(result.pv) <= 6
    assert [m.move for m in result.moves] == Position.start().legal_moves()
    assert all(m.bound == "exact" for m in result.moves)
    assert max(m.value for m in result.moves) == result.value
    assert isinstance(result.value, float) and not result.exact


def test_pv_is_playable():
    position = Position.start(Variant(6, 6))
    result = search(position, "pvs", depth=8)
    for move in result.pv:
        assert move in position.legal_moves()
        position = position.play(move)


def test_proven_endgame_says_who_wins():
    result = search(ENDGAME, "pvs", time=0.5)
    assert result.exact and isinstance(result.value, int) and result.outcome == "loses by 2"
    player = make_player("pvs:time=0.2")
    player.choose_move(ENDGAME)
    assert player.last_info["outcome"] == "loses by 2" and player.last_info["exact"] is True


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("algorithm", ["pvs", "mtdf", "alphabeta", "scout"])
def test_time_budget_is_kept(algorithm, threads):
    started = time.perf_counter()
    result = search(Position.start(Variant(7, 7)), algorithm, time=0.2, move_values=False, threads=threads)
    elapsed = time.perf_counter() - started
    assert elapsed < 0.2 + 0.05
    assert result.best_move is not None and result.stats.depth >= 4 and not result.exact


def test_time_and_depth_together_stop_at_the_depth():
    result = search(Position.start(), "pvs", depth=5, time=5.0)
    assert result.stats.depth == 5 and result.stats.seconds < 1


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"algorithm": "negamax"}, "accepted: minimax, alphabeta, scout, pvs, mtdf, mcts"),
        ({"evaluation": "clever"}, "accepted: strong, store, seed"),
        ({"depth": 0}, "at least 1"),
        ({"depth": 2.5}, "whole number"),
        ({"time": -1}, "positive"),
        ({"time": "fast"}, "number of seconds"),
    ],
)
def test_bad_parameters(kwargs, message):
    with pytest.raises(SearchError, match=message):
        search(Position.start(), **kwargs)
    assert issubclass(SearchError, kalah.KalahError)


def test_position_must_be_a_position():
    with pytest.raises(SearchError, match="kalah.Position"):
        search([[4] * 6 + [0]] * 2)


@pytest.mark.parametrize(
    "spec",
    [
        "minimax:depth=3",
        "alphabeta:depth=5,eval=seed",
        "scout:depth=4",
        "pvs:time=0.05",
        "mtdf:time=0.05",
        "mcts:playouts=500",
        "pvs:depth=4,eval=store",
        "mcts:time=0.05,seed=3",
    ],
)
def test_players_play_legal_moves_through_a_game(spec):
    player = make_player(spec)
    assert player.is_computer and player.spec == spec
    position = Position.start(Variant(4, 3, pie_rule=True))
    while not position.is_over:
        move = player.choose_move(position)
        assert move in position.legal_moves()
        assert "value" in player.last_info and "depth" in player.last_info
        position = position.play(move)


def test_player_names_and_defaults():
    assert make_player("pvs").name == "pvs (depth 10, strong)"
    assert make_player("alphabeta:depth=12,eval=seed").name == "alphabeta (depth 12, seed)"
    assert make_player("mcts").name == "mcts (10000 playouts)"


@pytest.mark.parametrize(
    "spec, message",
    [
        ("pvs:eval=foo", "accepted: strong, store, seed"),
        ("pvs:depth=0", "at least 1"),
        ("pvs:time=-1", "positive"),
        ("mcts:depth=3", "unknown option 'depth' for player 'mcts'"),
        ("alphabeta:playouts=5", "unknown option 'playouts' for player 'alphabeta'"),
        ("scout:foo=1", "options"),
    ],
)
def test_bad_player_specs(spec, message):
    with pytest.raises(PlayerSpecError, match=message):
        make_player(spec)


def test_same_players_same_games():
    for spec in ("alphabeta:depth=5", "mcts:playouts=300,seed=2"):
        games = []
        for _ in range(2):
            player, position, moves = make_player(spec), Position.start(), []
            for _ in range(10):
                moves.append(player.choose_move(position))
                position = position.play(moves[-1])
            games.append(moves)
        assert games[0] == games[1]


def test_mcts_finds_an_obvious_win_and_reports_playouts():
    result = search(ENDGAME, "mcts", playouts=3000)
    assert result.stats.playouts == 3000 and result.best_move in (4, 5)
    assert 0 <= result.extra["win_rate"] <= 1


def test_memo_and_ordering_change_nodes_not_decisions():
    position = Position.start(Variant(6, 4, empty_capture=True))
    answers, nodes = set(), []
    for memo in (False, True):
        for ordering in (False, True):
            result = search(position, "alphabeta", depth=7, memo=memo, ordering=ordering, move_values=False)
            answers.add((result.value, result.best_move))
            nodes.append(result.stats.nodes)
    assert len(answers) == 1 and nodes[-1] < nodes[0]


def test_oracle_capsule_is_checked():
    from kalah.core.search import Engine

    engine = Engine(10)
    with pytest.raises(TypeError, match="kalah.oracle"):
        engine.set_oracle(object())
    engine.set_oracle(None)


# --- command line ---------------------------------------------------------------


def test_analyse_json():
    run = kalah_cli("analyse", "--position", ENDGAME.to_json(), "--depth", "12", "--json")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert {"value", "best_move", "pv", "moves", "nodes", "seconds", "depth", "exact"} <= set(data)
    assert data["value"] == -2 and data["exact"] is True and data["best_move"] == 4
    assert [m["move"] for m in data["moves"]] == [3, 4, 5] and data["moves"][1]["value"] == -2


def test_analyse_table_from_a_file(tmp_path):
    path = tmp_path / "p.json"
    path.write_text(Position.start().to_json())
    run = kalah_cli("analyse", "--position", str(path), "--algorithm", "scout", "--depth", "6")
    assert run.returncode == 0, run.stderr
    assert "Best move:" in run.stdout and "Principal variation:" in run.stdout and "nodes" in run.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["--algorithm", "foo"], "accepted: minimax"),
        (["-e", "bad"], "accepted: strong"),
        (["--depth", "0"], "at least 1"),
        (["--depth", "x"], "whole number"),
        (["--time", "-1"], "positive"),
        (["--position", '{"board": 3}'], "board"),
        (["--position", "/no/such/file.json"], "neither a position (JSON or a board) nor a readable file"),
    ],
)
def test_analyse_bad_input(args, message):
    run = kalah_cli("analyse", *args)
    assert run.returncode == 2
    assert message in run.stderr and len(run.stderr.strip().splitlines()) == 1 and "Traceback" not in run.stderr


def test_compare_table_csv_plot(tmp_path):
    out, plot = tmp_path / "c.csv", tmp_path / "c.png"
    run = kalah_cli("compare", "--depths", "1-4", "--positions", "3", "--csv", str(out), "--plot", str(plot))
    assert run.returncode == 0, run.stderr
    assert "agreed on every decision" in run.stdout
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 5 * 4 and {r["algorithm"] for r in rows} == set(EXACT_ALGORITHMS)
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and plot.stat().st_size > 1000
    # both written whole through a temporary file, which is gone, with a plain file's permission bits
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.csv", "c.png"]
    assert {p.stat().st_mode & 0o777 for p in (out, plot)} == {0o666 & ~_umask()}
    # the context once above the two tables, which are titled by what they count
    assert "Kalah(6,4), 4 positions, evaluation strong" in run.stdout and "Nodes visited" in run.stdout


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@pytest.mark.parametrize(
    "args, message",
    [
        (["--depths", "0-3"], "at least 1"),
        (["--algorithms", "pvs,foo"], "accepted"),
        (["--depths", "a-b"], "bad depths"),
        (["--algorithms", "mcts"], "no depth"),
    ],
)
def test_compare_bad_input(args, message):
    run = kalah_cli("compare", *args)
    assert run.returncode == 2 and message in run.stderr and "Traceback" not in run.stderr


# --- the endgame oracle hook ----------------------------------------------------------


def _oracle_capsule(max_seeds, calls):
    """A kalah_oracle whose probe solves the position in Python (through ctypes)."""
    import ctypes

    from test_search_decisions import solve

    class State(ctypes.Structure):
        _fields_ = [("cell", ctypes.c_uint8 * 18), ("to_move", ctypes.c_uint8), ("flags", ctypes.c_uint8)]

    PROBE = ctypes.CFUNCTYPE(
        ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(State), ctypes.POINTER(ctypes.c_int)
    )

    class Oracle(ctypes.Structure):
        _fields_ = [("db", ctypes.c_void_p), ("max_seeds", ctypes.c_int), ("probe", PROBE)]

    def probe(db, rules, state, value):
        pits = rules[0]
        cells = list(state.contents.cell[: 2 * (pits + 1)])
        position = Position.from_cells(cells, state.contents.to_move, Variant(pits, 3))
        me = position.to_move
        value[0] = solve(position) - (position.store(me) - position.store(1 - me))
        calls.append(1)
        return 1

    callback = PROBE(probe)
    oracle = Oracle(None, max_seeds, callback)
    new = ctypes.pythonapi.PyCapsule_New
    new.restype = ctypes.py_object
    new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    capsule = new(ctypes.addressof(oracle), b"kalah.oracle", None)
    return capsule, (oracle, callback)


def test_oracle_values_are_exact_and_used():
    from test_search_decisions import positions, solve

    calls = []
    capsule, keep_alive = _oracle_capsule(10, calls)
    tried = probes = 0
    for position in positions(Variant(4, 3), 80, 11):
        if position.seeds_in_pits > 10:
            continue
        tried += 1
        for algorithm in EXACT_ALGORITHMS:
            result = search(position, algorithm, depth=2, oracle=capsule, move_values=False)
            assert result.exact and result.value == solve(position), (algorithm, position)
            probes += result.stats.oracle_probes
    assert calls and tried >= 5 and probes > 0
    # without the oracle the shallow search is only heuristic
    result = search(positions(Variant(4, 3), 1, 11)[0], "pvs", depth=2)
    assert result.stats.oracle_probes == 0
