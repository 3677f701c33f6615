"""kalah solve / kalah endgame on the command line."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from kalah.cli import app, register_commands

register_commands()
runner = CliRunner()


def test_solve_json_empty_capture():
    result = runner.invoke(
        app, ["solve", "--pits", "4", "--seeds", "3", "--empty-capture", "--json", "--endgame", "none"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["value"] == 8 and data["best_moves"] and data["pv"][0] in data["best_moves"]
    assert set(data) >= {"value", "best_moves", "pv", "nodes", "seconds"}


def test_solve_position_json():
    position = '{"board": [[0, 2, 1, 3], [1, 0, 2, 5]], "to_move": 1}'
    result = runner.invoke(app, ["solve", "--position", position])
    assert result.exit_code == 0, result.output
    assert "value:" in result.output


BOARD = "[[0,0,1,2,0,3,20],[1,0,0,2,1,0,18]]"


def test_a_bare_board_is_solved_by_the_variant_flags_and_the_player_to_move():
    import kalah
    from kalah.rules import Position, Variant

    rows = json.loads(BOARD)
    for to_move in (0, 1):
        for flags, variant in (([], Variant()), (["--empty-capture"], Variant(empty_capture=True))):
            result = runner.invoke(
                app, ["solve", "-p", BOARD, *flags, "--to-move", str(to_move), "--json", "--endgame", "none"]
            )
            assert result.exit_code == 0, result.output
            expected = kalah.solve(Position(rows, to_move, variant), endgame=None)
            assert json.loads(result.output)["value"] == expected.value, (flags, to_move)
    # the flag matters here: player 1 gains two seeds by the empty capture, so it was not ignored
    assert kalah.solve(Position(rows, 1, Variant(empty_capture=True)), endgame=None).value == 2
    assert kalah.solve(Position(rows, 1), endgame=None).value == 0


def test_solve_too_large_is_a_clear_error():
    result = runner.invoke(app, ["solve", "--seeds", "6"])
    assert result.exit_code == 2
    assert "too large" in result.output


def test_endgame_build_and_info(tmp_path):
    result = runner.invoke(
        app, ["endgame", "build", "--pits", "3", "--max-seeds", "8", "--path", str(tmp_path), "--quiet"]
    )
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


def test_endgame_build_keeps_a_complete_database_and_refuses_a_corrupt_one(tmp_path):
    build = ["endgame", "build", "--pits", "3", "--max-seeds", "8", "--path", str(tmp_path), "--quiet"]
    assert runner.invoke(app, build).exit_code == 0
    (database,) = tmp_path.glob("*.egdb")
    built = database.stat().st_mtime_ns
    again = runner.invoke(app, build)
    assert again.exit_code == 0 and "already built" in again.output and database.stat().st_mtime_ns == built
    data = bytearray(database.read_bytes())
    data[-1] ^= 0xFF
    database.write_bytes(bytes(data))
    corrupt = runner.invoke(app, build)
    assert corrupt.exit_code == 2 and database.name in corrupt.output and "--fresh" in corrupt.output
    fresh = runner.invoke(app, [*build, "--fresh"])
    assert fresh.exit_code == 0 and "positions: 3,003" in fresh.output
    assert runner.invoke(app, ["endgame", "info", str(database)]).exit_code == 0


def test_plain_solve_builds_the_database_it_needs_once_and_reuses_it(tmp_path, monkeypatch):
    monkeypatch.setenv("KALAH_ENDGAME_DIR", str(tmp_path / "data"))
    command = ["solve", "--pits", "4", "--seeds", "3", "--endgame-seeds", "10", "--json"]
    first = runner.invoke(app, command)
    assert first.exit_code == 0, first.output
    assert "Building the endgame database K=10" in first.stderr
    built = tmp_path / "data" / "kalah-m4-std-k10.egdb"
    assert built.exists() and not list((tmp_path / "data").glob("*.partial"))
    assert json.loads(first.stdout)["endgame_seeds"] == 10 and json.loads(first.stdout)["value"] == 6
    stamp = built.stat().st_mtime_ns
    second = runner.invoke(app, command)
    assert second.exit_code == 0, second.output
    assert "Building" not in second.stderr and built.stat().st_mtime_ns == stamp
    assert json.loads(second.stdout)["value"] == 6 and json.loads(second.stdout)["endgame_seeds"] == 10
    smaller = runner.invoke(app, ["solve", "--pits", "4", "--seeds", "3", "--endgame-seeds", "8", "--json"])
    assert smaller.exit_code == 0 and "Building" not in smaller.stderr  # a larger database serves
    assert sorted(p.name for p in (tmp_path / "data").iterdir()) == ["kalah-m4-std-k10.egdb"]


def test_plain_solve_of_few_seeds_builds_no_file(tmp_path, monkeypatch):
    monkeypatch.setenv("KALAH_ENDGAME_DIR", str(tmp_path))
    result = runner.invoke(app, ["solve", "--pits", "4", "--seeds", "3"])
    assert result.exit_code == 0, result.output
    assert list(tmp_path.iterdir()) == []


def test_endgame_seeds_needs_auto_and_a_sane_k(tmp_path, monkeypatch):
    monkeypatch.setenv("KALAH_ENDGAME_DIR", str(tmp_path))
    clash = runner.invoke(app, ["solve", "--pits", "4", "--seeds", "3", "--endgame", "none", "--endgame-seeds", "8"])
    assert clash.exit_code == 2 and "--endgame-seeds" in clash.output
    bad = runner.invoke(app, ["solve", "--pits", "4", "--seeds", "3", "--endgame-seeds", "99"])
    assert bad.exit_code == 2 and "K must be an integer from 0 to 40" in bad.output


def test_ctrl_c_during_the_build_leaves_a_partial_file_that_the_next_run_resumes(tmp_path, monkeypatch):
    import kalah.endgame as endgame

    monkeypatch.setenv("KALAH_ENDGAME_DIR", str(tmp_path))
    real_build = endgame.build

    def build_stopped_by_ctrl_c(*args, progress=None, **kwargs):
        def interrupting(done, total):
            progress(done, total)
            if done > total // 2:
                raise KeyboardInterrupt  # what Ctrl-C raises between two compiled chunks

        return real_build(*args, progress=interrupting, **kwargs)

    monkeypatch.setattr(endgame, "build", build_stopped_by_ctrl_c)
    command = ["solve", "--pits", "5", "--seeds", "3", "--endgame-seeds", "9", "--json"]
    stopped = runner.invoke(app, command)
    assert stopped.exit_code != 0
    assert [p.name for p in tmp_path.iterdir()] == ["kalah-m5-std-k9.egdb.partial"]
    resumed_from = []
    monkeypatch.setattr(
        endgame,
        "build",
        lambda *a, progress=None, **k: real_build(
            *a, progress=lambda done, total: (resumed_from.append(done), progress(done, total)), **k
        ),
    )
    finished = runner.invoke(app, command)
    assert finished.exit_code == 0, finished.output
    assert resumed_from[0] > 0  # the complete layers were kept
    assert [p.name for p in tmp_path.iterdir()] == ["kalah-m5-std-k9.egdb"]
    assert json.loads(finished.stdout)["endgame_seeds"] == 9
