"""The WebAssembly modules kept in the package (src/kalah/web/static/engine/*.wasm) are a fresh build of the
current C sources: ``python wasm/build.py --check`` builds them again apart and compares byte for byte, so
that a change of the core without ``python wasm/build.py`` fails here. Skipped, saying so, where Emscripten
is missing (CI installs it: .ci/run)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "wasm" / "build.py"
ENGINE = ROOT / "src" / "kalah" / "web" / "static" / "engine"


def test_the_package_holds_every_module():
    assert {path.name for path in ENGINE.glob("*.wasm")} == {"kalah.wasm", "kalah-big.wasm", "kalah-trace.wasm"}


@pytest.mark.skipif(
    shutil.which("emcc") is None, reason="Emscripten (emcc) is not installed: the modules were not rebuilt"
)
def test_the_modules_equal_a_fresh_build_of_the_sources():
    result = subprocess.run([sys.executable, str(BUILD), "--check"], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
