"""The packed endgame databases (format 2) and their build order by potential.

Every value of small databases is compared with a one-byte-a-value table
computed here by plain memoised negamax over the Python rules (``kalah.rules``),
position by position in stored order; random positions with the solver's
search; the claim behind the build order (a move that keeps every seed in the
pits lowers the seeds' distance to their stores) on random positions; and the
refusal of old, future and damaged files.
"""

from __future__ import annotations

import functools
import random
import zlib
from itertools import combinations

import pytest

from helpers import scattered_position
from kalah import Position, Variant, solve
from kalah.core import solver as core
from kalah.endgame import (
    HEADER,
    EndgameDatabaseError,
    build,
    build_in_memory,
    build_memory,
    load,
    table_bytes,
    table_positions,
)


def compositions_in_stored_order(seeds: int, places: int) -> list[list[int]]:
    """Every way to put ``seeds`` seeds into ``places`` places, in colex rank order (the database's)."""
    found = []
    for bars in combinations(range(seeds + places - 1), places - 1):
        pits, previous = [], -1
        for bar in bars:
            pits.append(bar - previous - 1)
            previous = bar
        pits.append(seeds + places - 2 - previous)
        found.append(pits)
    # colex: compare the bar positions from the last one down
    found.sort(key=lambda pits: [sum(pits[: k + 1]) + k for k in range(places - 2, -1, -1)])
    return found


def reference_layer(pits: int, empty_capture: bool, seeds: int) -> bytes:
    """Layer ``seeds`` as one signed byte a value, by negamax over kalah.rules positions (stores empty)."""
    variant = Variant(pits=pits, seeds=1, empty_capture=empty_capture)

    @functools.cache
    def pits_value(cells: tuple[int, ...], to_move: int) -> int:
        position = Position.from_cells(list(cells), to_move, variant)
        if position.is_over:
            return position.mover_margin
        best = -1000
        for move in position.legal_moves():
            child = position.play(move)
            me = position.to_move
            gained = child.store(me) - child.store(1 - me)
            if child.is_over:
                value = child.margin if me == 0 else -child.margin
            else:
                rest = pits_value(_cleared(child), child.to_move)
                value = gained + rest if child.to_move == me else gained - rest
            best = max(best, value)
        return best

    values = []
    for row in compositions_in_stored_order(seeds, 2 * pits):
        cells = row[:pits] + [0] + row[pits:] + [0]
        values.append(pits_value(tuple(cells), 0) & 0xFF)
    return bytes(values)


def _cleared(position: Position) -> tuple[int, ...]:
    """The cells of ``position`` with both stores emptied (the pits' value does not depend on them)."""
    m = position.variant.pits
    cells = list(position.pits(0)) + [0] + list(position.pits(1)) + [0]
    assert len(cells) == 2 * m + 2
    return tuple(cells)


@pytest.mark.parametrize(
    "pits, empty_capture, k", [(2, False, 12), (3, False, 9), (3, True, 9), (4, False, 7), (6, False, 5)]
)
def test_every_packed_value_equals_a_byte_table_from_the_python_rules(pits, empty_capture, k):
    database = build_in_memory((pits, empty_capture), k, threads=2)
    for seeds in range(k + 1):
        assert database.table.layer_values(seeds) == reference_layer(pits, empty_capture, seeds), seeds


def test_packed_values_equal_the_search_on_random_positions():
    variant = Variant(pits=6, seeds=4)
    database = build_in_memory(variant, 14, threads=2)
    rng = random.Random(zlib.crc32(b"packed-vs-search"))
    for _ in range(40):
        position = scattered_position(rng, variant, rng.randint(8, 14), stores=10)
        assert database.value(position) == solve(position, endgame=None, threads=2).value, position


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_the_build_gives_the_same_values_on_any_number_of_threads(threads):
    one = build_in_memory((5, False), 10, threads=1)
    other = build_in_memory((5, False), 10, threads=threads)
    assert bytes(one._buffer[: one.table.nbytes]) == bytes(other._buffer[: other.table.nbytes])


def distance(pits: list[int], m: int) -> int:
    """The build order's potential: every seed's distance to its own side's store (pit i is m - i away)."""
    return sum((m - i % m) * seeds for i, seeds in enumerate(pits))


@pytest.mark.parametrize("m", [2, 3, 6, 7])
def test_a_move_that_keeps_every_seed_in_the_pits_lowers_the_distance(m):
    rng = random.Random(m)
    seen = 0
    for _ in range(3000):
        seeds = rng.randint(2, 30)
        pits = [0] * (2 * m)
        for _ in range(seeds):
            pits[rng.randrange(2 * m)] += 1
        if not any(pits[:m]) or not any(pits[m:]):
            continue
        for move in (i for i in range(m) if pits[i]):
            after, _, _, left = core.pits_play(pits, move)
            if left == seeds:
                seen += 1
                assert distance(after, m) < distance(pits, m), (pits, move, after)
    assert seen > 200  # the claim was tested on many same-layer moves


def test_sizes_are_the_packed_widths():
    # Layer S holds a value in bit_length(S) bits, each layer padded to 8 bytes, then 8 bytes of padding.
    for pits, k in [(3, 9), (6, 5), (6, 20)]:
        expected = 0
        for seeds in range(k + 1):
            positions = table_positions(pits, seeds) - (table_positions(pits, seeds - 1) if seeds else 0)
            expected += (positions * max(1, seeds.bit_length()) + 63) // 64 * 8
        assert table_bytes(pits, k) == expected + 8
    # The 6-pit databases of the issue: 5 bits for K <= 31, layer 32 in 6.
    assert table_positions(6, 28) == 5_586_853_480
    assert table_bytes(6, 28) < 0.63 * table_positions(6, 28)
    assert table_bytes(6, 32) < 13 * 2**30  # fits a 24 GiB machine, to build and to probe
    assert build_memory(6, 28) == table_bytes(6, 28)  # packed in place: no other buffer


def _rewrite_header(path, **fields):
    names = [
        "magic",
        "version",
        "header_size",
        "pits",
        "empty_capture",
        "max_seeds",
        "layers",
        "size",
        "checksum",
        "complete",
    ]
    data = bytearray(path.read_bytes())
    values = dict(zip(names, HEADER.unpack(bytes(data[: HEADER.size])), strict=False))
    values.update(fields)
    data[: HEADER.size] = HEADER.pack(*(values[name] for name in names))
    return bytes(data)


def test_old_future_and_damaged_files_are_refused_naming_the_file(tmp_path):
    database = build((4, False), 6, tmp_path)
    old = tmp_path / "old-one-byte.egdb"
    old.write_bytes(_rewrite_header(database.path, version=1))
    with pytest.raises(EndgameDatabaseError, match=r"old-one-byte\.egdb has format version 1.*build it again"):
        load(old)
    future = tmp_path / "future.egdb"
    future.write_bytes(_rewrite_header(database.path, version=3))
    with pytest.raises(EndgameDatabaseError, match=r"future\.egdb has format version 3"):
        load(future)
    other_k = tmp_path / "other-k.egdb"  # a header that claims another K: the size no longer matches
    other_k.write_bytes(_rewrite_header(database.path, max_seeds=7, layers=8))
    with pytest.raises(EndgameDatabaseError, match=r"other-k\.egdb"):
        load(other_k)
    for offset in (HEADER.size, HEADER.size + database.table.nbytes // 2, HEADER.size + database.table.nbytes - 9):
        flipped = bytearray(database.path.read_bytes())
        flipped[offset] ^= 0x10
        damaged = tmp_path / f"damaged-{offset}.egdb"
        damaged.write_bytes(bytes(flipped))
        with pytest.raises(EndgameDatabaseError, match=rf"damaged-{offset}\.egdb is corrupt"):
            load(damaged)
