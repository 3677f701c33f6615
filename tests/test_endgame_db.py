"""Endgame databases: values against brute force, the file format, refusals, interrupted builds."""

from __future__ import annotations

import os
import random

import pytest

from helpers import scattered_position
from kalah import Position, Variant
from kalah.endgame import EndgameDatabaseError, build, build_in_memory, database_path, load, locate
from test_solve_truth import brute


def pits_value_brute(position: Position) -> int:
    me = position.to_move
    return brute(position) - (position.store(me) - position.store(1 - me))


@pytest.mark.parametrize(
    "pits, empty_capture, k",
    [(1, False, 9), (2, False, 10), (3, False, 9), (3, True, 9), (4, False, 8), (6, True, 6), (6, False, 6)],
)
def test_database_matches_brute_force(pits, empty_capture, k):
    variant = Variant(pits=pits, seeds=2, empty_capture=empty_capture)
    database = build_in_memory(variant, k, threads=2)
    rng = random.Random(pits * 7 + k)
    for _ in range(150):
        position = scattered_position(rng, variant, rng.randint(2, k), stores=5)
        assert database.probe(position) == pits_value_brute(position), position
        assert database.value(position) == brute(position)


def test_file_roundtrip_and_locate(tmp_path):
    variant = Variant(pits=4, seeds=3)
    seen = []
    database = build(variant, 7, tmp_path, threads=2, progress=lambda done, total: seen.append((done, total)))
    assert database.path == database_path(variant, 7, tmp_path)
    assert database.path.exists() and not database.path.with_name(database.path.name + ".partial").exists()
    assert seen[-1][0] == seen[-1][1] == database.positions
    memory = build_in_memory(variant, 7)
    loaded = load(database.path)
    assert bytes(loaded._buffer[64:]) == bytes(memory._buffer[: memory.table.nbytes])
    found = locate(Variant(pits=4, seeds=5), tmp_path)  # the seeds per pit do not matter
    assert found is not None and found.max_seeds == 7
    assert locate(Variant(pits=4, empty_capture=True), tmp_path) is None


def test_in_memory_copy_of_a_file_gives_the_same_values(tmp_path):
    variant = Variant(pits=4, seeds=3)
    built = build(variant, 7, tmp_path, threads=2)
    mapped = load(built.path)
    assert not mapped.resident
    copy = mapped.in_memory()
    assert copy.resident and copy.path == mapped.path and copy.in_memory() is copy
    assert bytes(copy._buffer[: copy.table.nbytes]) == bytes(mapped._buffer[64:])
    rng = random.Random(3)
    position = Position.start(variant)
    while not position.is_over:
        assert copy.value(position) == mapped.value(position)
        position = position.play(rng.choice(position.legal_moves()))


def test_in_memory_copies_the_file_that_was_verified_not_one_put_in_its_place(tmp_path):
    variant = Variant(pits=4, seeds=3)
    built = build(variant, 7, tmp_path / "a", threads=2)
    mapped = load(built.path)
    other = build(Variant(pits=4, seeds=3, empty_capture=True), 7, tmp_path / "b", threads=2)
    assert bytes(load(other.path)._buffer[64:]) != bytes(mapped._buffer[64:])
    os.replace(other.path, built.path)  # same size, a valid file, other values
    copy = mapped.in_memory()
    assert bytes(copy._buffer[: copy.table.nbytes]) == bytes(mapped._buffer[64:])


def test_a_build_keeps_its_values_in_memory_and_locate_finds_them(tmp_path):
    variant = Variant(pits=4, seeds=3)
    built = build(variant, 6, tmp_path, threads=2)
    assert built.resident and built.in_memory() is built  # nothing to copy for a long solve
    assert locate(variant, tmp_path) is built  # a solve right after the build reads no file
    mapped = load(built.path)
    assert bytes(mapped._buffer[64:]) == bytes(built._buffer[: built.table.nbytes])


def test_a_failed_layer_write_stops_the_build_and_leaves_no_database(tmp_path, monkeypatch):
    import kalah.endgame.building as building

    def full_disk(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(building.os, "fsync", full_disk)
    with pytest.raises(OSError, match="No space left"):
        build(Variant(pits=4), 9, tmp_path)
    assert not database_path(Variant(pits=4), 9, tmp_path).exists()
    monkeypatch.undo()
    assert build(Variant(pits=4), 9, tmp_path).max_seeds == 9  # the next run starts again from the partial file


def test_corrupt_and_foreign_files_are_refused(tmp_path):
    database = build(Variant(pits=3), 6, tmp_path)
    path = database.path
    data = bytearray(path.read_bytes())
    data[100] ^= 0x55
    corrupt = tmp_path / "corrupt.egdb"
    corrupt.write_bytes(bytes(data))
    with pytest.raises(EndgameDatabaseError, match="corrupt.egdb.*corrupt"):
        load(corrupt)
    foreign = tmp_path / "foreign.egdb"
    foreign.write_bytes(b"PK\x03\x04 this is a zip file, not a database" * 4)
    with pytest.raises(EndgameDatabaseError, match="foreign.egdb"):
        load(foreign)
    truncated = tmp_path / "short.egdb"
    truncated.write_bytes(bytes(data[:-10]))
    with pytest.raises(EndgameDatabaseError, match="short.egdb"):
        load(truncated)
    with pytest.raises(EndgameDatabaseError, match="does not cover"):
        load(path).probe(Position.start(Variant(pits=4)))


def test_interrupted_build_leaves_no_file_and_resumes(tmp_path):
    variant = Variant(pits=5)
    target = database_path(variant, 9, tmp_path)

    class Stop(Exception):
        pass

    calls = []

    def interrupt(done, total):
        calls.append(done)
        if done > total // 3:
            raise Stop

    with pytest.raises(Stop):
        build(variant, 9, tmp_path, progress=interrupt)
    assert not target.exists()
    partial = target.with_name(target.name + ".partial")
    assert partial.exists()
    with pytest.raises(EndgameDatabaseError):
        load(partial)  # an incomplete file is never used
    resumed = []
    database = build(variant, 9, tmp_path, progress=lambda done, total: resumed.append(done))
    assert resumed[0] > 0  # it went on from the saved layers
    assert target.exists() and not partial.exists()
    fresh = build_in_memory(variant, 9)
    assert bytes(load(database.path)._buffer[64:]) == bytes(fresh._buffer[: fresh.table.nbytes])
    assert bytes(database._buffer[: database.table.nbytes]) == bytes(fresh._buffer[: fresh.table.nbytes])
