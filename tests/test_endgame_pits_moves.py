"""The pits-only move generator of the databases and the solver (csrc/endgame.h) against the rules."""

from __future__ import annotations

import random

import pytest

from helpers import scattered_position
from kalah import Variant
from kalah.core.solver import pits_play


@pytest.mark.parametrize(
    "pits, empty_capture",
    [(1, False), (2, False), (3, True), (4, False), (6, False), (6, True), (7, False), (8, False)],
)
def test_pits_play_matches_position_play(pits, empty_capture):
    rng = random.Random(pits * 2 + empty_capture)
    variant = Variant(pits=pits, seeds=1, empty_capture=empty_capture)
    for _ in range(400):
        seeds = rng.randint(2, 60 if rng.random() < 0.2 else 3 * pits)  # sometimes whole laps
        position = scattered_position(rng, variant, seeds, stores=9)
        me = position.to_move
        view = list(position.pits(me)) + list(position.pits(1 - me))
        for move in position.legal_moves():
            child = position.play(move)
            successor, gain, extra, left = pits_play(view, move, empty_capture)
            diff = (child.store(me) - child.store(1 - me)) - (position.store(me) - position.store(1 - me))
            assert gain == diff, (position, move)
            assert left == child.seeds_in_pits
            if child.is_over:
                assert extra and left == 0 and successor == [0] * (2 * pits)
                continue
            assert extra == (child.to_move == me)
            mover = child.to_move
            assert successor == list(child.pits(mover)) + list(child.pits(1 - mover)), (position, move)
