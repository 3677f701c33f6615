"""One version: pyproject.toml's, read from the installed metadata by kalah.__version__ and kalah --version, and
the newest entry of CHANGELOG.md."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path

import kalah

ROOT = Path(__file__).resolve().parents[1]


def _declared() -> str:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]


def test_the_installed_metadata_is_the_declared_version():
    assert version("kalah") == _declared(), "pyproject.toml changed since the install: pip install -e ."
    assert kalah.__version__ == version("kalah")


def test_kalah_version_prints_the_metadata_version():
    done = subprocess.run([sys.executable, "-m", "kalah.cli", "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout == f"kalah {version('kalah')}\n"


def test_the_changelog_starts_with_the_version_in_progress():
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    versions = re.findall(r"^## (\d+\.\d+\.\d+)\b", changelog, re.M)
    assert versions and versions[0] == _declared()
    assert [tuple(map(int, v.split("."))) for v in versions] == sorted(
        (tuple(map(int, v.split("."))) for v in versions), reverse=True
    ), "newest version first"
