"""The page's pure JavaScript modules (geometry, animation marks, pit letters, the live page's clock texts, the lab's trace index and tree layout) under
Node's own test runner, without a browser: `node --test tests/js/`. Run here so that the README's test command
runs them too; skipped, saying so, where Node is missing (CI installs it, see .ci/run)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NODE = shutil.which("node")
UNIT_TESTS = ROOT / "tests" / "js"


def test_every_pure_module_has_unit_tests():
    assert {path.name for path in UNIT_TESTS.glob("*.test.js")} >= {
        "geometry.test.js",
        "anim.test.js",
        "trace.test.js",
        "layout.test.js",
        "notation.test.js",
        "clocktext.test.js",
        "reviewgraph.test.js",
        "upright.test.js",
    }


@pytest.mark.skipif(NODE is None, reason="Node.js is not installed: the page's unit tests (tests/js/) did not run")
def test_the_javascript_unit_tests_pass_in_node():
    result = subprocess.run(
        [str(NODE), "--test", str(UNIT_TESTS.relative_to(ROOT)) + "/"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert "# fail 0" in result.stdout and "# pass 0" not in result.stdout
