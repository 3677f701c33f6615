"""The core's behaviour signature: every answer of the compiled core on fixed work (benchmarks/core_fingerprint.py)
has the digest kept in tests/data/core_signature.json, so that a change of any engine answer is a reviewed update
of that file (``python benchmarks/core_fingerprint.py --update-signature``), as Stockfish's bench signature is."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SIGNATURE = ROOT / "tests" / "data" / "core_signature.json"


@pytest.fixture(scope="module")
def fingerprint():
    spec = importlib.util.spec_from_file_location("core_fingerprint", ROOT / "benchmarks" / "core_fingerprint.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def answers(fingerprint):
    return fingerprint.answers()


def test_the_core_answers_what_its_signature_says(fingerprint, answers):
    kept = json.loads(SIGNATURE.read_text(encoding="utf-8"))
    assert fingerprint.signature(answers) == kept, (
        "an answer of the compiled core changed (a value, a move or a node count): if that is meant, run "
        "python benchmarks/core_fingerprint.py --update-signature and say why in the commit; else compare "
        "python benchmarks/core_fingerprint.py --out FILE before and after the change"
    )


def test_the_signature_covers_the_search_the_solver_and_the_playouts(answers):
    kinds = {json.loads(line)[0] for line in answers}
    assert {"search", "iterative", "mcts", "playouts", "reference", "solve", "lookup", "endgame"} <= kinds
    solved = [json.loads(line) for line in answers if line.startswith('["solve"')]
    assert solved and all(isinstance(answer[-1][0], int) for answer in solved)  # the values,
    assert sum(answer[-1][2] for answer in solved) > 100_000  # and the nodes of one thread


def test_one_changed_answer_changes_the_signature(fingerprint, answers):
    changed = list(answers)
    changed[len(changed) // 2] = changed[len(changed) // 2].replace("]", ", 0]", 1)
    assert fingerprint.signature(changed) != fingerprint.signature(answers)


def test_the_signature_file_is_what_the_script_writes(fingerprint):
    assert fingerprint.SIGNATURE == SIGNATURE
