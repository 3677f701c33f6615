"""kalah.atomic.write_atomic: whole files, with the permission bits a user expects."""

from __future__ import annotations

import os
import stat

import pytest

from kalah.atomic import write_atomic


@pytest.fixture
def umask():
    """Set the process's umask for a test and put the old one back."""
    old = os.umask(0o022)
    yield lambda mask: os.umask(mask)
    os.umask(old)


def _mode(path):
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize("mask, expected", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_a_new_file_gets_what_open_would_give_it(tmp_path, umask, mask, expected):
    umask(mask)
    path = tmp_path / "game.json"
    write_atomic(path, "{}\n")
    assert path.read_text() == "{}\n" and _mode(path) == expected
    with open(tmp_path / "plain", "w"):  # the same as a plain open
        pass
    assert _mode(tmp_path / "plain") == expected


def test_a_replaced_file_keeps_its_bits_and_a_given_mode_wins(tmp_path, umask):
    path = tmp_path / "results.csv"
    path.write_text("old")
    path.chmod(0o640)
    write_atomic(path, b"new")
    assert path.read_bytes() == b"new" and _mode(path) == 0o640
    write_atomic(path, "newer", mode=0o604)
    assert path.read_text() == "newer" and _mode(path) == 0o604


def test_no_temporary_file_is_left_behind(tmp_path):
    write_atomic(tmp_path / "a" / "b.txt", "x")  # the folder is made
    with pytest.raises(TypeError):
        write_atomic(tmp_path / "a" / "b.txt", 12)  # type: ignore[arg-type]
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == ["b.txt"]
    assert (tmp_path / "a" / "b.txt").read_text() == "x"
