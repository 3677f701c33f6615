"""The WebAssembly engine (src/kalah/web/static/engine/) against the native one, under Node.

Node runs the browser's engine on the same cases (tests/wasm/run_cases.mjs): fixed-depth searches of
600 positions of eight variants (the byte and the big build) with every algorithm and a spread of
options, compared field by field with ``kalah.search`` (value, best move, principal variation, depth,
every root move's value and bound, and every count: nodes, leaves, table probes and hits, cutoffs,
re-searches); UCT with playouts and a seed; the lab's traces node for node; the solver's values and
best moves; exact analyses; and the rules of random games move by move. Skipped, saying so, where
Node is missing (CI installs it: .ci/run).
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import zlib
from pathlib import Path
from typing import Any

import pytest

import kalah
from helpers import random_game_positions
from kalah import Position, Variant
from kalah.core.builds import Engine, needs_big
from kalah.search.mcts_trace import trace_mcts
from kalah.search.options import ALGORITHMS
from kalah.search.tracing import tree_facts

ROOT = Path(__file__).resolve().parents[1]
NODE = shutil.which("node")
RUNNER = ROOT / "tests" / "wasm" / "run_cases.mjs"

pytestmark = pytest.mark.skipif(NODE is None, reason="Node.js is not installed: the WebAssembly engine was not tested")

VARIANTS = [
    Variant(6, 4),
    Variant(6, 3, pie_rule=True),
    Variant(4, 3, empty_capture=True),
    Variant(5, 5),
    Variant(7, 3, empty_capture=True, pie_rule=True),
    Variant(8, 4),
    Variant(9, 5),  # the big build: more than 8 pits
    Variant(12, 4, pie_rule=True),
]
POSITIONS_PER_VARIANT = 75
#: (algorithm, depth, options): each position is searched by every algorithm; the options rotate.
SEARCHES = [
    ("minimax", 4, [{}, {"memo": False}, {"evaluation": "seed"}]),
    ("alphabeta", 6, [{}, {"evaluation": "store"}, {"move_values": False}, {"ordering": False}]),
    ("scout", 5, [{}, {"iterative": False}, {"evaluation": "seed"}]),
    ("pvs", 7, [{}, {"move_values": False}, {"memo": False}, {"depth": 13}]),
    ("mtdf", 6, [{}, {"evaluation": "store"}, {"iterative": False}]),
]
STATS = ["nodes", "leaves", "tt_probes", "tt_hits", "cutoffs", "researches", "oracle_probes", "depth"]


def _positions(variant: Variant, count: int) -> list[Position]:
    """Distinct positions of random games (seeded by the variant's name), none over, the start first."""
    rng = random.Random(zlib.crc32(variant.name.encode()))
    found = [Position.start(variant)]
    while len(found) < count:
        position = random_game_positions(variant, rng, rng.randrange(1, 6 * variant.pits))
        if not position.is_over and position not in found:
            found.append(position)
    return found


def _run(cases: list[dict[str, Any]], tmp_path: Path) -> list[Any]:
    """The WebAssembly engine's answers to ``cases``, in order."""
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(cases))
    result = subprocess.run([str(NODE), str(RUNNER), str(path)], cwd=ROOT, capture_output=True, text=True, timeout=1800)
    assert result.returncode == 0, result.stderr[-4000:]
    answers = json.loads(result.stdout)
    assert len(answers) == len(cases)
    return answers


def _same_search(native: dict[str, Any], wasm: dict[str, Any], where: str) -> None:
    assert "error" not in wasm, f"{where}: {wasm}"
    for key in ("value", "best_move", "pv", "depth", "exact", "algorithm", "evaluation", "to_move", "moves", "nodes"):
        assert wasm[key] == native[key], f"{where}: {key} is {wasm[key]!r} in WebAssembly, {native[key]!r} natively"
    for key in STATS:
        assert wasm["stats"][key] == native["stats"][key], f"{where}: stats.{key} differ"


def test_searches_at_a_fixed_depth_answer_as_the_native_engine(tmp_path):
    cases, expected = [], []
    engine = Engine(20)  # one engine for every case, as the WebAssembly side keeps one: the same table generations
    for variant in VARIANTS:
        big = variant.pits > 8
        for index, position in enumerate(_positions(variant, POSITIONS_PER_VARIANT)):
            for algorithm, depth, rotation in SEARCHES:
                options = {
                    "algorithm": algorithm,
                    "depth": depth - (2 if big else 0),
                    **rotation[index % len(rotation)],
                }
                if big and options["depth"] >= 13:  # pvs's prepared iterations, on the byte build (minutes here)
                    options["depth"] = depth - 2
                native = kalah.search(position, engine=engine, threads=1, **options).to_dict()
                cases.append({"kind": "search", "position": position.to_dict(), "options": options})
                expected.append(native)
            options = {"algorithm": "mcts", "playouts": 300 + index, "seed": index}
            cases.append({"kind": "search", "position": position.to_dict(), "options": options})
            expected.append(kalah.search(position, **options).to_dict())
    assert len(cases) >= 500 * 6
    assert {case["options"]["algorithm"] for case in cases} == set(ALGORITHMS)
    for case, native, wasm in zip(cases, expected, _run(cases, tmp_path), strict=True):
        _same_search(native, wasm, f"{case['options']} of {case['position']}")


def test_traces_node_for_node(tmp_path):
    cases, expected = [], []
    for variant in VARIANTS[:6]:
        for index, position in enumerate(_positions(variant, 8)):
            algorithm = ["minimax", "alphabeta", "scout", "pvs", "mtdf"][index % 5]
            request = {"algorithm": algorithm, "depth": 3 if algorithm == "minimax" else 4, "options": {}}
            traced = kalah.trace(position, algorithm, request["depth"]).to_json()
            cases.append({"kind": "trace", "position": position.to_dict(), "request": request})
            expected.append(traced)
            parents = [node["parent"] for node in traced["nodes"]]
            moves = [node["move"] for node in traced["nodes"]]
            cutoffs = [node["cutoff"] for node in traced["nodes"]]
            to_move, pruned = tree_facts(position, parents, moves, cutoffs)
            cases.append(
                {"kind": "facts", "position": position.to_dict(), "parent": parents, "move": moves, "cutoff": cutoffs}
            )
            expected.append({"to_move": to_move, "pruned": {str(k): v for k, v in pruned.items()}})
        position = _positions(variant, 2)[1]
        cases.append(
            {"kind": "mcts_trace", "position": position.to_dict(), "request": {"playouts": 120, "seed": 3, "depth": 4}}
        )
        expected.append(trace_mcts(position, 120, seed=3).to_json())
    for case, native, wasm in zip(cases, expected, _run(cases, tmp_path), strict=True):
        assert "error" not in wasm, wasm
        if case["kind"] == "facts":
            assert wasm == native
        elif case["kind"] == "trace":
            _same_search(native["result"], wasm["result"], f"trace of {case['position']}")
            assert wasm["nodes"] == native["nodes"]
            assert wasm["options"] == native["options"] and wasm["format"] == native["format"]
        else:
            assert wasm["nodes"] == native["nodes"] and wasm["iterations"] == native["iterations"]
            assert wasm["result"]["moves"] == native["result"]["moves"]
            assert wasm["result"]["best_move"] == native["result"]["best_move"]


def _endgame(variant: Variant, rng: random.Random) -> Position:
    """A position of a random game with at most 26 seeds left in the pits."""
    while True:
        position = Position.start(variant)
        while not position.is_over and position.seeds_in_pits > 26:
            position = position.play(rng.choice(position.legal_moves()))
        if not position.is_over:
            return position


def test_the_solver_and_exact_analyses_prove_the_native_values(tmp_path):
    cases, expected = [], []
    rng = random.Random(44)
    for variant in [v for v in VARIANTS if v.pits <= 8]:
        for _ in range(6):
            position = _endgame(variant, rng)
            cases.append({"kind": "solve", "position": position.to_dict(), "options": {}})
            expected.append(kalah.solve(position, endgame=None).to_dict())
            cases.append({"kind": "analyse", "position": position.to_dict(), "options": {"time": 2}})
            expected.append(kalah.analyse(position, time=2, threads=1).to_dict())
    # the start of small variants, the pie rule's open swap, and positions of the opening books
    small = [Position.start(Variant(4, 3)), Position.start(Variant(4, 3, pie_rule=True))]
    small += [Position.start(Variant(5, 2, pie_rule=True)).play(move) for move in range(5)]
    books = [Position.start(Variant(6, 4)), Position.start(Variant(6, 3, empty_capture=True)).play(2)]
    for position in small + books:
        if position in small:
            cases.append({"kind": "solve", "position": position.to_dict(), "options": {}})
            expected.append(kalah.solve(position, endgame=None).to_dict())
        cases.append({"kind": "analyse", "position": position.to_dict(), "options": {"time": 2}})
        expected.append(kalah.analyse(position, time=2, threads=1).to_dict())
    proven = 0
    for case, native, wasm in zip(cases, expected, _run(cases, tmp_path), strict=True):
        assert "error" not in wasm, wasm
        where = f"{case['kind']} of {case['position']}"
        line = Position.from_dict(case["position"])
        for move in wasm["pv"]:  # a line of legal moves (which of several best lines is the table's choice)
            line = line.play(move)
        if case["kind"] == "solve":
            assert wasm["exact"] and native["exact"], where
            assert (wasm["value"], wasm["best_moves"]) == (native["value"], native["best_moves"]), where
            continue
        # What an analysis proves in its time depends on the machine: where both proved a value, it is one value.
        if wasm["exact"] and native["exact"]:
            assert (wasm["value"], wasm["best_moves"]) == (native["value"], native["best_moves"]), where
        assert [m["move"] for m in wasm["moves"]] == [m["move"] for m in native["moves"]], where
        for ours, theirs in zip(wasm["moves"], native["moves"], strict=True):
            if ours["exact"] and theirs["exact"]:
                assert ours["value"] == theirs["value"], f"{where}: move {ours['move']}"
                proven += 1
    assert proven >= 150  # most moves were proven on both sides: the comparison compared


def test_the_rules_play_as_the_reference(tmp_path):
    cases, expected = [], []
    rng = random.Random(7)
    for variant in [*VARIANTS, Variant(1, 1), Variant(2, 15, pie_rule=True), Variant(12, 15, empty_capture=True)]:
        for _ in range(5):
            position, moves, steps = Position.start(variant), [], []
            while not position.is_over:
                legal = position.legal_moves()
                move = rng.choice(legal)
                after, effect = position.play_explained(move)
                moves.append(move)
                steps.append(
                    {
                        "legal": legal,
                        "effect": {
                            "player": effect.player,
                            "move": effect.move,
                            "sown": list(effect.sown),
                            "extra_turn": effect.extra_turn,
                            "captured": effect.captured,
                            "capture_pit": effect.capture_pit,
                            "game_over": effect.game_over,
                        },
                        "after": after.to_dict(),
                        "over": after.is_over,
                        "margin": after.margin,
                    }
                )
                position = after
            cases.append({"kind": "play", "position": Position.start(variant).to_dict(), "moves": moves})
            expected.append(steps)
    for native, wasm in zip(expected, _run(cases, tmp_path), strict=True):
        assert wasm == native


def test_a_board_beyond_the_byte_build_is_searched_by_the_big_build(tmp_path):
    position = Position.start(Variant(12, 12))
    assert needs_big(position)
    native = kalah.search(position, "pvs", depth=5, engine=Engine(20)).to_dict()
    (wasm,) = _run(
        [{"kind": "search", "position": position.to_dict(), "options": {"algorithm": "pvs", "depth": 5}}], tmp_path
    )
    _same_search(native, wasm, "Kalah(12,12)")
