"""The arena on a Dask cluster (a LocalCluster with one in-process worker)."""

from __future__ import annotations

import pytest

distributed = pytest.importorskip("distributed")

from kalah import Variant  # noqa: E402
from kalah.arena import Arena, ArenaError, builtin_openings, run_arena  # noqa: E402
from kalah.records import GameLibrary  # noqa: E402

SMALL = Variant(4, 3)


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as local:
        yield local


def test_games_run_on_the_cluster_and_land_in_the_library(cluster, tmp_path):
    library = GameLibrary(tmp_path / "games.sqlite")
    arena = Arena(["random:seed=1", "random:seed=2", "random:seed=3"], SMALL, 4, builtin_openings(SMALL, 2))
    seen = []
    played = run_arena(
        arena, library, cluster=cluster.scheduler_address, progress=lambda done, total, task, result: seen.append(done)
    )
    assert played == arena.total_games == 12 and seen == list(range(1, 13))
    games = library.list_games(tags={"arena": arena.key})
    assert len(games) == 12 and all(g.status == "finished" for g in games)
    assert run_arena(arena, library, cluster=cluster.scheduler_address) == 0


def test_cluster_interrupted_then_resumed(cluster, tmp_path):
    library = GameLibrary(tmp_path / "games.sqlite")
    arena = Arena(["random:seed=1", "random:seed=2"], SMALL, 8, builtin_openings(SMALL, 4))

    def stop(done, total, task, result):
        if done == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_arena(arena, library, cluster=cluster.scheduler_address, progress=stop)
    assert len(library.list_games(tags={"arena": arena.key})) == 3
    assert run_arena(arena, library, cluster=cluster.scheduler_address) == 5
    assert arena.results(library).games_played == 8


def test_unreachable_cluster_is_a_clear_error(tmp_path):
    library = GameLibrary(tmp_path / "games.sqlite")
    arena = Arena(["random:seed=1", "random:seed=2"], SMALL, 2, builtin_openings(SMALL, 1))
    with pytest.raises(ArenaError, match="cannot reach the Dask cluster at tcp://127.0.0.1:9"):
        run_arena(arena, library, cluster="tcp://127.0.0.1:9", connect_timeout=1)
    assert library.list_games() == []
