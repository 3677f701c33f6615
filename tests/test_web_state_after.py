"""A move's new state made from the state before it (kalah.web.gamestate.state_after, used by live games so that
a move does not read the whole game back) is exactly the state read back from the library, in every variant
and for every kind of player, the pie rule's swap included."""

from __future__ import annotations

import random

import pytest

from kalah.records import GameLibrary, PlayerInfo
from kalah.rules import Position, Variant
from kalah.web.gamestate import state_after
from kalah.web.scheduler import Scheduler, make_slots
from kalah.web.service import GameService

VARIANTS = [Variant(6, 4), Variant(4, 3), Variant(6, 3, pie_rule=True), Variant(5, 4, empty_capture=True)]
PLAYERS = [("human", "human"), ("human", "easy"), ("easy", "human"), ("easy", "easy")]


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
@pytest.mark.parametrize("specs", PLAYERS, ids="-".join)
def test_the_state_after_a_move_is_the_state_read_back(tmp_path, variant, specs):
    library = GameLibrary(tmp_path / "games.sqlite")
    service = GameService(library, Scheduler(make_slots(1, "thread"), run_seconds=5))
    rng = random.Random(f"{variant.name}{specs}")
    for _ in range(3):
        position = Position.start(variant)
        game_id = library.create_game(position, [PlayerInfo(spec, spec) for spec in specs])
        state = service.state_sync(game_id)
        while not position.is_over:
            move = rng.choice(position.legal_moves())
            after = library.add_move(game_id, move, 0.0, {}, state.moves)
            made = state_after(state, position, move, after)
            state = service.state_sync(game_id)
            assert made == state
            position = after


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_a_human_move_answers_the_state_read_back(tmp_path, variant):
    library = GameLibrary(tmp_path / "games.sqlite")
    service = GameService(library, Scheduler(make_slots(1, "thread"), run_seconds=5))
    rng = random.Random(variant.name)
    position = Position.start(variant)
    game_id = library.create_game(position, [PlayerInfo("you", "human"), PlayerInfo("easy", "easy")])
    moves = 0
    while not position.is_over:
        move = rng.choice(position.legal_moves())
        if position.to_move == 0:
            answered = service._human_move_sync(game_id, move, moves)
            assert answered == service.state_sync(game_id)
            position = position.play(move)
        else:  # the computer's move, stored as the service stores it
            position = library.add_move(game_id, move, 0.0, {}, moves)
        moves += 1
