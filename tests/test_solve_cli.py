"""kalah solve / kalah endgame on the command line."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from kalah.cli import _register_commands, app

_register_commands()
runner = CliRunner()


def test_solve_json_empty_capture():
    result = runner.invoke(app, ["solve", "--pits", "4", "--seeds", "3", "--empty-capture", "--json", "--endgame", "none"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["value"] == 8 and data["best_moves"] and data["pv"][0] in data["best_moves"]
    assert set(data) >= {"value", "best_moves", "pv", "nodes", "seconds"}


def test_solve_position_json():
    position = '{"board": [[0, 2, 1, 3], [1, 0, 2, 5]], "to_move": 1}'
    result = runner.invoke(app, ["solve", "--position", position])
    assert result.exit_code == 0, result.output
    assert "value:" in result.output


def test_solve_too_large_is_a_clear_error():
    result = runner.invoke(app, ["solve", "--seeds", "6"])
    assert result.exit_code == 2
    assert "too large" in result.output


def test_endgame_build_and_info(tmp_path):
    result = runner.invoke(app, ["endgame", "build", "--pits", "3", "--max-seeds", "8", "--path", str(tmp_path), "--quiet"])
    assert result.exit_code == 0, result.output
    assert "positions: 3,003" in result.output and "time:" in result.output and "size:" in result.output
    files = list(tmp_path.glob("*.egdb"))
    assert len(files) == 1
    info = runner.invoke(app, ["endgame", "info", str(files[0])])
    assert info.exit_code == 0 and "checksum ok" in info.output
    bad = tmp_path / "bad.egdb"
    bad.write_bytes(b"not a database")
    info = runner.invoke(app, ["endgame", "info", str(bad)])
    assert info.exit_code == 2 and "bad.egdb" in info.output
