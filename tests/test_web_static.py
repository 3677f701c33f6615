"""The browser board's JavaScript: ES modules, each small, typed with JSDoc and checked by TypeScript when it is installed."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "src" / "kalah" / "web" / "static"
MODULES = sorted(STATIC.glob("*.js"))


def test_the_page_is_small_typed_modules():
    assert {path.name for path in MODULES} >= {
        "main.js",
        "state.js",
        "board.js",
        "anim.js",
        "api.js",
        "game.js",
        "library.js",
        "replay.js",
        "analysis.js",
        "settings.js",
    }
    for path in MODULES:
        text = path.read_text(encoding="utf-8")
        assert text.startswith("// @ts-check\n"), path.name
        assert len(text.splitlines()) <= 400, path.name
        # every exported function has a JSDoc comment right above it
        lines = text.splitlines()
        for number, line in enumerate(lines):
            if re.match(r"export (async )?function |export const \w+ = (async )?\(", line):
                assert lines[number - 1].rstrip().endswith("*/"), f"{path.name}:{number + 1}: {line}"


def test_only_state_js_writes_the_state():
    for path in MODULES:
        if path.name != "state.js":
            assert not re.search(r"\bstate\.\w+\s*=[^=]", path.read_text(encoding="utf-8")), path.name


def _tsc() -> str | None:
    found = os.environ.get("TSC") or shutil.which("tsc")
    local = ROOT / "node_modules" / ".bin" / "tsc"
    return found or (str(local) if local.exists() else None)


@pytest.mark.skipif(_tsc() is None, reason="TypeScript's tsc is not installed (npm install typescript)")
def test_typescript_finds_no_type_error():
    result = subprocess.run([_tsc(), "-p", str(ROOT / "tsconfig.json")], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
