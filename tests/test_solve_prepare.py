"""kalah.solve.prepare_endgame and planned_max_seeds: the database a long solve builds once, sized to the machine."""

from __future__ import annotations

import pytest

from kalah import Position, Variant, solve
from kalah.endgame import build_memory, table_bytes
from kalah.solve import SolveError, planned_max_seeds, prepare_endgame
from kalah.solve.databases import BUILD_MEMORY_SHARE, DISK_MARGIN, SOLVE_MEMORY_SHARE

GiB = 1 << 30


def fits(k: int, memory: int, disk: int, solver: int) -> bool:
    return (
        build_memory(6, k) <= BUILD_MEMORY_SHARE * memory
        and table_bytes(6, k) + solver <= SOLVE_MEMORY_SHARE * memory
        and table_bytes(6, k) + 64 <= disk - DISK_MARGIN
    )


@pytest.mark.parametrize(
    "memory, disk, solver",
    [
        (24 * GiB, 500 * GiB, 8 * GiB),
        (6 * GiB, 500 * GiB, 1 * GiB),
        (24 * GiB, 2 * GiB, 8 * GiB),
        (12 * GiB, 4 * GiB, 4 * GiB),
    ],
)
def test_the_planned_k_is_the_largest_that_fits(memory, disk, solver):
    k = planned_max_seeds(6, 60, memory=memory, disk=disk, solver_bytes=solver)
    assert k is not None and k <= 28 and fits(k, memory, disk, solver)
    assert k == 28 or not fits(k + 1, memory, disk, solver)


def test_kalah65_on_this_kind_of_machine_gets_k28_and_few_seeds_get_none():
    assert planned_max_seeds(6, 60, memory=22 * GiB, disk=100 * GiB, solver_bytes=8 * GiB) == 28
    assert planned_max_seeds(6, 48, memory=22 * GiB, disk=100 * GiB, solver_bytes=GiB) == 20
    assert planned_max_seeds(6, 36) is None
    assert planned_max_seeds(6, 60, memory=GiB, disk=100 * GiB, solver_bytes=8 * GiB) is None  # nothing fits


def test_prepare_builds_once_and_solve_then_uses_it(tmp_path, monkeypatch):
    monkeypatch.setenv("KALAH_ENDGAME_DIR", str(tmp_path))
    variant = Variant(4, 3)
    builds, seen = [], []
    database = prepare_endgame(
        variant,
        9,
        progress=lambda done, total: seen.append((done, total)),
        on_build=lambda k, path, nbytes: builds.append((k, path.name, nbytes)),
    )
    assert database is not None and database.max_seeds == 9
    assert builds == [(9, "kalah-m4-std-k9.egdb", database.nbytes)] and seen[-1][0] == seen[-1][1]
    again = prepare_endgame(variant, 9, on_build=lambda *args: builds.append(args))
    assert again is not None and again.max_seeds == 9 and len(builds) == 1
    result = solve(Position.start(variant))
    assert result.endgame_seeds == 9 and result.value == 6


def test_prepare_refuses_a_k_out_of_range(tmp_path):
    with pytest.raises(SolveError, match="from 0 to 40"):
        prepare_endgame(Variant(4, 3), 41, directory=tmp_path)
    assert prepare_endgame(Variant(4, 3), directory=tmp_path) is None  # 24 seeds: no file is worth it
    assert list(tmp_path.iterdir()) == []
