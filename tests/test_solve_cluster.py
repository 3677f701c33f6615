"""The solve split over a Dask cluster (a LocalCluster of two in-process workers, one thread each)."""

from __future__ import annotations

import random
import sqlite3
import zlib

import pytest

distributed = pytest.importorskip("distributed")

from typer.testing import CliRunner  # noqa: E402

from helpers import random_game_positions  # noqa: E402
from kalah import Position, Variant, solve  # noqa: E402
from kalah.cli import app, register_commands  # noqa: E402
from kalah.endgame import EndgameDatabaseError  # noqa: E402
from kalah.solve import SolveError  # noqa: E402
from kalah.solve.checkpoint import Checkpoint, CheckpointError, rules_key  # noqa: E402
from kalah.solve.cluster import solve_on_cluster  # noqa: E402

register_commands()
runner = CliRunner()


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as local:
        with distributed.Client(local, set_as_default=False) as connected:
            yield connected


@pytest.mark.parametrize("empty_capture", [False, True], ids=["standard", "empty-capture"])
@pytest.mark.parametrize("pits, seeds", [(4, 2), (4, 3), (6, 3)])
def test_starts_match_the_single_machine_solve(client, pits, seeds, empty_capture):
    position = Position.start(Variant(pits, seeds, empty_capture=empty_capture))
    local = solve(position, threads=1)
    result, report = solve_on_cluster(position, client)
    assert (result.value, result.lower, result.upper) == (local.value, local.value, local.value)
    assert result.best_moves == local.best_moves
    assert 0 < report.answered <= len(report.submitted)  # a speculative test may be cancelled when the value is found


def _mid_game_positions() -> list[Position]:
    """Positions a few to many moves into games, small enough to solve in a second without a database."""
    rng = random.Random(zlib.crc32(b"cluster mid-game"))
    found = [Position.start(Variant(4, 3, pie_rule=True))]
    for variant in (Variant(6, 4), Variant(6, 4, empty_capture=True), Variant(5, 4), Variant(4, 3, pie_rule=True)):
        for plies in (1, 12, 20, 30):
            position = random_game_positions(variant, rng, plies)
            if not position.is_over and position.seeds_in_pits <= 34:
                found.append(position)
    return found


@pytest.mark.parametrize("position", _mid_game_positions(), ids=lambda p: f"{p.variant.name}-{p.seeds_in_pits}")
def test_mid_game_positions_match_the_single_machine_solve(client, position):
    local = solve(position, threads=1, endgame=None)
    result = solve(position, cluster=client, endgame=None)
    assert result.value == local.value and result.best_moves == local.best_moves
    assert result.pv == []  # not computed on a cluster


def test_split_depths_agree(client):
    position = Position.start(Variant(5, 3, empty_capture=True))
    truth = solve(position, threads=1).value
    for plies in (1, 3):
        assert solve_on_cluster(position, client, split_plies=plies, best_moves=False)[0].value == truth


def test_a_leaf_in_one_workers_hands_is_split_for_the_idle_one(client, tmp_path):
    position = Position.start(Variant(5, 3, empty_capture=True))
    path = tmp_path / "solve.sqlite"
    # split 0 plies: the position itself is the one leaf; the second worker gets its children
    result, report = solve_on_cluster(position, client, split_plies=0, checkpoint=path)
    assert result.value == solve(position, threads=1).value and report.split >= 1
    again, rerun = solve_on_cluster(position, client, split_plies=0, checkpoint=path)
    assert again.value == result.value and rerun.submitted == []  # split again from the checkpoint's leaves


def test_standard_kalah_by_address(client):
    address = client.scheduler.address
    result = solve(Position.start(Variant(6, 4)), cluster=address, best_moves=False)
    assert result.value == 8 and result.endgame_seeds is not None


def test_an_interrupted_solve_resumes_without_asking_again(client, tmp_path):
    position = Position.start(Variant(6, 3))
    path = tmp_path / "solve.sqlite"
    heard = []

    def stop_after_three(lower, upper):
        heard.append((lower, upper))
        if len(heard) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        solve_on_cluster(position, client, checkpoint=path, progress=stop_after_three, split_plies=3)
    saved = Checkpoint(path).load(rules_key(6, False))
    assert 1 <= len(saved) <= 3  # three answers were taken before the stop, each written at once
    result, report = solve_on_cluster(position, client, checkpoint=path, split_plies=3)
    assert result.value == solve(position, threads=1).value
    assert report.from_checkpoint == len(saved)
    for leaf, bar in report.submitted:  # nothing the first run had proven is asked again
        lower, upper = saved.get(leaf, (-sum(leaf), sum(leaf)))
        assert lower < bar <= upper, (leaf, bar, lower, upper)
    again, rerun = solve_on_cluster(position, client, checkpoint=path, split_plies=3)
    assert again.value == result.value and again.best_moves == result.best_moves
    assert rerun.submitted == [] and rerun.from_checkpoint > report.from_checkpoint


def test_a_time_budget_gives_proven_bounds(client):
    position = Position.start(Variant(6, 4, empty_capture=True))
    result = solve(position, 1.0, cluster=client, endgame=None)
    assert result.lower <= 10 <= result.upper  # the published value
    assert result.value in (None, 10)
    assert result.upper - result.lower < 2 * position.seeds_in_pits  # bars far from the value are proven first
    assert result.value is not None or set(result.move_bounds) == set(position.legal_moves())


def test_a_foreign_file_is_not_a_checkpoint(client, tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("not a database at all, but long enough to have a header of sorts\n" * 20)
    with pytest.raises(CheckpointError, match=f"{text} is not a kalah solve checkpoint"):
        solve(Position.start(Variant(4, 2)), cluster=client, checkpoint=text)
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE games (id INTEGER)")
    with pytest.raises(CheckpointError, match=f"{other} is not a kalah solve checkpoint"):
        solve(Position.start(Variant(4, 2)), cluster=client, checkpoint=other)


def test_a_corrupt_checkpoint_is_refused(client, tmp_path):
    path = tmp_path / "solve.sqlite"
    solve(Position.start(Variant(4, 2)), cluster=client, checkpoint=path)
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE bounds SET lower = upper + 2")
    with pytest.raises(CheckpointError, match=f"{path} is corrupt"):
        solve(Position.start(Variant(4, 2)), cluster=client, checkpoint=path)


def test_a_corrupt_endgame_database_is_refused(client, tmp_path):
    bad = tmp_path / "kalah-m6-std-k8.egdb"
    bad.write_bytes(b"\0" * 4096)
    with pytest.raises(EndgameDatabaseError, match=str(bad)):
        solve(Position.start(Variant(6, 3)), cluster=client, endgame=bad)


def test_a_foreign_endgame_database_is_refused(client, tmp_path):
    from kalah.endgame import build

    other = build(Variant(4, 3), 8, tmp_path).path  # 4 pits: it does not cover Kalah(6,3)
    with pytest.raises(SolveError, match=f"{other} .*does not cover Kalah"):
        solve(Position.start(Variant(6, 3)), cluster=client, endgame=other)


def test_a_checkpoint_needs_a_cluster(tmp_path):
    with pytest.raises(SolveError, match="cluster"):
        solve(Position.start(Variant(4, 2)), checkpoint=tmp_path / "solve.sqlite")


def test_cli_solves_on_the_cluster(client, tmp_path):
    path = tmp_path / "solve.sqlite"
    args = ["solve", "--pits", "4", "--seeds", "3", "--cluster", client.scheduler.address, "--checkpoint", str(path)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "value: +6 for player 0" in result.output and "best moves: B" in result.output
    assert Checkpoint(path).load(rules_key(4, False))


def test_cli_unreachable_cluster_is_one_line():
    result = runner.invoke(app, ["solve", "--pits", "4", "--seeds", "3", "--cluster", "tcp://127.0.0.1:9"])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and "cannot reach the Dask cluster at tcp://127.0.0.1:9" in result.output


@pytest.mark.parametrize("address", ["bogus", "tcp://localhost", "foo://1.2.3.4:5"])
def test_cli_malformed_cluster_address_is_one_line_at_once(address):
    # Refused before a Client is made (a half-made Client printed a traceback when collected).
    import subprocess
    import sys
    import time

    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "kalah.cli", "solve", "--pits", "4", "--seeds", "2", "--cluster", address],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "is not a Dask scheduler address like tcp://HOST:PORT" in done.stderr
    assert time.perf_counter() - started < 30  # no connection attempt and its time-outs


def test_a_cluster_without_workers_is_a_clear_error():
    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=":0") as empty:
        with pytest.raises(SolveError, match="has no workers"):
            solve_on_cluster(Position.start(Variant(4, 2)), empty.scheduler_address, connect_timeout=1)


def test_worker_processes_probe_a_shared_database_file(tmp_path):
    from kalah.endgame import build

    variant = Variant(5, 4)
    database = build(variant, 12, tmp_path)
    position = random_game_positions(variant, random.Random(zlib.crc32(b"cluster processes")), 4)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as local:
        result = solve(position, cluster=local.scheduler_address, endgame=database.path)
    local_result = solve(position, threads=1, endgame=database.path)
    assert (result.value, result.best_moves, result.endgame_seeds) == (local_result.value, local_result.best_moves, 12)
