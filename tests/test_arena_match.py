"""The arena: openings, ratings, scheduling, library storage and resuming."""

from __future__ import annotations

import json
import math

import pytest

from kalah import Position, Variant
from kalah.arena import (
    Arena,
    ArenaError,
    OpeningsError,
    builtin_openings,
    fit_ratings,
    load_openings,
    random_openings,
    run_arena,
)
from kalah.arena.elo import elo_from_score
from kalah.players import PlayerSpecError
from kalah.records import GameLibrary

SMALL = Variant(4, 3)
PLAYERS = ["random:seed=1", "random:seed=2", "random:seed=3"]


def small_arena(games: int = 4, players=PLAYERS) -> Arena:
    return Arena(list(players), SMALL, games, builtin_openings(SMALL, games // 2))


# --- openings -----------------------------------------------------------------------


def test_builtin_openings_are_deterministic_distinct_and_unfinished():
    first = builtin_openings(Variant(), 50)
    assert first == builtin_openings(Variant(), 50)
    assert len(set(first)) == 50 and not any(p.is_over for p in first)


def test_pie_rule_openings_are_the_start():
    variant = Variant(7, 7, pie_rule=True)
    assert set(builtin_openings(variant, 3)) == {Position.start(variant)}


def test_random_openings_are_reproducible():
    assert random_openings(SMALL, 5, 3) == random_openings(SMALL, 5, 3)
    assert all(p.seeds_in_pits < SMALL.total_seeds or p.to_move in (0, 1) for p in random_openings(SMALL, 5, 3))


def test_openings_file_takes_positions_and_move_lists(tmp_path):
    path = tmp_path / "openings.json"
    path.write_text(json.dumps([[0], {"moves": [1, 2]}, Position.start(SMALL).to_dict()]))
    openings = load_openings(path, SMALL)
    assert openings[0] == Position.start(SMALL).play(0)
    assert openings[2] == Position.start(SMALL)
    path.write_text(json.dumps([[9]]))
    with pytest.raises(OpeningsError, match="opening 0"):
        load_openings(path, SMALL)
    path.write_text("not json")
    with pytest.raises(OpeningsError, match="not valid JSON"):
        load_openings(path, SMALL)


# --- ratings ------------------------------------------------------------------------


def test_two_player_rating_matches_the_logistic_elo_of_the_score():
    games = [(0, 1, 1.0)] * 55 + [(0, 1, 0.5)] * 10 + [(0, 1, 0.0)] * 35
    a, b = fit_ratings(2, games, virtual_draws=0)
    assert a.elo - b.elo == pytest.approx(elo_from_score(0.6), abs=1e-6)
    # standard error of the difference: 1 / sqrt(n p (1-p)) natural units
    half_width = 1.959964 * 400 / math.log(10) / math.sqrt(100 * 0.6 * 0.4)
    assert (a.high - a.low) + (b.high - b.low) == pytest.approx(2 * half_width, rel=1e-4)


def test_perfect_scores_stay_finite_and_ordered():
    ratings = fit_ratings(3, [(0, 1, 1.0)] * 10 + [(1, 2, 1.0)] * 10 + [(0, 2, 1.0)] * 10)
    assert ratings[0].elo > ratings[1].elo > ratings[2].elo
    assert all(math.isfinite(r.low) and math.isfinite(r.high) for r in ratings)
    assert sum(r.elo for r in ratings) == pytest.approx(0, abs=1e-9)


# --- scheduling -------------------------------------------------------------------------


def test_every_opening_is_played_from_both_sides():
    arena = small_arena(games=4)
    tasks = list(arena.tasks())
    assert len(tasks) == arena.total_games == 3 * 4
    for pairing in arena.pairings:
        mine = [t for t in tasks if t.pairing == pairing]
        assert sorted((t.opening, t.colour) for t in mine) == [(0, 0), (0, 1), (1, 0), (1, 1)]
        for task in mine:
            assert task.seats == (pairing if task.colour == 0 else pairing[::-1])


def test_the_schedule_is_made_as_it_is_played_in_its_order():
    # It was a list of every game: 40 players at --games 100,000 would be 78 million tasks in memory
    # before the first game; now a generator, counted by arithmetic where a count is shown.
    from collections.abc import Iterator
    from itertools import combinations, islice

    arena = Arena([f"random:seed={n}" for n in range(40)], SMALL, 200, random_openings(SMALL, 100, 4))
    assert isinstance(arena.tasks(), Iterator) and arena.total_games == 780 * 200
    pairings = list(combinations(range(40), 2))
    expected = [(p, 0, c) for c in (0, 1) for p in pairings][:1000]  # opening 0, each colour, every pairing
    assert [(t.pairing, t.opening, t.colour) for t in islice(arena.tasks(), 1000)] == expected
    first = small_arena(games=6)
    assert [t.slot for t in first.tasks()] == [
        (f"{a}-{b}", opening, colour) for opening in range(3) for colour in (0, 1) for a, b in first.pairings
    ]


def test_missing_count_counts_what_missing_tasks_gives(tmp_path):
    library = GameLibrary(tmp_path / "games.sqlite")
    arena = small_arena(games=4)
    assert arena.missing_count(library) == arena.total_games == len(list(arena.missing_tasks(library)))
    run_arena(arena, library, jobs=1, progress=lambda done, total, task, result: None)
    # a finished game whose tags name no slot of the schedule (damaged, or edited by hand) counts for nothing
    played = library.list_games(tags={"arena": arena.key})[0]
    stray = {"arena": arena.key, "pairing": "7-9", "opening": 0, "colour": 0, "seats": [7, 9]}
    library.import_record(library.record(played.id), tags=stray)
    assert arena.missing_count(library) == 0 == len(list(arena.missing_tasks(library)))


def test_run_arena_reads_the_library_once_to_know_what_is_left(tmp_path, monkeypatch):
    library = GameLibrary(tmp_path / "games.sqlite")
    arena = small_arena(games=4)
    reads = []
    original = Arena.stored_games
    monkeypatch.setattr(Arena, "stored_games", lambda self, lib: reads.append(1) or original(self, lib))
    totals = []
    assert run_arena(arena, library, jobs=1, progress=lambda done, total, task, result: totals.append(total)) == 12
    assert len(reads) == 1 and set(totals) == {12}


def test_the_pool_takes_games_as_its_workers_come_free(tmp_path):
    from kalah.arena.runner import AHEAD, _pool

    arena = small_arena(games=8)  # 24 games
    taken = []

    def schedule():
        for task in arena.tasks():
            taken.append(task)
            yield task

    stream = _pool(schedule(), 2)
    try:
        next(stream)
        assert len(taken) <= 2 * (1 + AHEAD) + 1 < arena.total_games
        played = 1 + sum(1 for _ in stream)
    finally:
        stream.close()
    assert played == len(taken) == arena.total_games


def test_match_key_ignores_player_order_but_not_the_settings():
    a = Arena(["random:seed=2", "random:seed=1"], SMALL, 4, builtin_openings(SMALL, 2))
    b = Arena(["random:seed=1", "random:seed=2"], SMALL, 4, builtin_openings(SMALL, 2))
    c = Arena(["random:seed=1", "random:seed=2"], SMALL, 6, builtin_openings(SMALL, 3))
    assert a.key == b.key != c.key


@pytest.mark.parametrize(
    "players, message",
    [
        (["random"], "at least two"),
        (["random", "random"], "listed twice"),
        (["random", "human"], "computer players only"),
    ],
)
def test_bad_player_lists_are_refused(players, message):
    with pytest.raises(ArenaError, match=message):
        small_arena(players=players)


def test_unknown_player_is_refused():
    with pytest.raises(PlayerSpecError, match="unknown player 'nosuch'"):
        small_arena(players=["random", "nosuch"])


def test_odd_game_count_is_refused():
    with pytest.raises(ArenaError, match="even"):
        Arena(PLAYERS, SMALL, 3, builtin_openings(SMALL, 2))


# --- playing, storing, resuming ---------------------------------------------------------------


def test_games_are_stored_tagged_and_replayable(tmp_path):
    library = GameLibrary(tmp_path / "games.sqlite")
    arena = small_arena()
    assert run_arena(arena, library, jobs=1) == 12
    games = library.list_games(tags={"arena": arena.key})
    assert len(games) == 12 and all(g.status == "finished" for g in games)
    for game in games:
        record = library.record(game.id)
        assert record.final.is_over
        seats = game.tags["seats"]
        assert [p.spec for p in record.players] == [arena.players[seats[0]], arena.players[seats[1]]]
        assert record.start == arena.openings[game.tags["opening"]]
    results = arena.results(library)
    assert results.games_played == results.games_planned == 12
    assert all(row.games == 8 and row.wins + row.draws + row.losses == 8 for row in results.players)
    assert sum(row.wins for row in results.players) == sum(row.losses for row in results.players)
    assert run_arena(arena, library, jobs=1) == 0  # nothing left to play


def test_interrupted_match_resumes_without_losing_or_repeating_games(tmp_path):
    library = GameLibrary(tmp_path / "games.sqlite")
    arena = small_arena(games=6)

    def stop_after_five(done, total, task, result):
        if done == 5:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_arena(arena, library, jobs=1, progress=stop_after_five)
    assert len(library.list_games(tags={"arena": arena.key})) == 5
    assert len(list(arena.missing_tasks(library))) == arena.missing_count(library) == arena.total_games - 5
    assert run_arena(arena, library, jobs=1) == arena.total_games - 5
    games = library.list_games(tags={"arena": arena.key})
    slots = {(g.tags["pairing"], g.tags["opening"], g.tags["colour"]) for g in games}
    assert len(games) == len(slots) == arena.total_games
    assert arena.results(library).games_played == arena.total_games


def test_an_unfinished_game_left_in_the_library_is_played_again(tmp_path):
    library = GameLibrary(tmp_path / "games.sqlite")
    arena = small_arena(games=2, players=PLAYERS[:2])
    task = next(arena.tasks())
    # as if a crash had left half a game
    from kalah.records import PlayerInfo

    game = library.create_game(
        Position.from_json(task.start), [PlayerInfo("a", task.specs[0]), PlayerInfo("b", task.specs[1])], tags=task.tags
    )
    library.mark_stopped(game, "killed")
    assert len(list(arena.missing_tasks(library))) == arena.missing_count(library) == 2
    run_arena(arena, library, jobs=1)
    assert arena.results(library).games_played == 2


def test_local_process_pool_plays_the_same_games(tmp_path):
    library = GameLibrary(tmp_path / "games.sqlite")
    arena = small_arena(games=2)
    seen = []
    assert run_arena(arena, library, jobs=2, progress=lambda done, total, task, result: seen.append(done)) == 6
    assert seen == [1, 2, 3, 4, 5, 6]
    assert arena.results(library).games_played == 6


def test_pool_interrupted_keeps_the_library_consistent(tmp_path):
    library = GameLibrary(tmp_path / "games.sqlite")
    arena = small_arena(games=8)

    def stop(done, total, task, result):
        if done == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_arena(arena, library, jobs=2, progress=stop)
    stored = library.list_games(tags={"arena": arena.key})
    assert len(stored) == 3 and all(g.status == "finished" for g in stored)
    run_arena(arena, library, jobs=2)
    assert len(library.list_games(tags={"arena": arena.key})) == arena.total_games


def test_results_table_as_markdown(tmp_path):
    library = GameLibrary(tmp_path / "games.sqlite")
    arena = small_arena(games=2)
    run_arena(arena, library, jobs=1)
    text = arena.results(library).markdown()
    assert "| `random:seed=1` |" in text and "95% interval" in text and " vs " in text


def test_a_worker_killed_mid_match_costs_only_its_games_which_are_played_again(monkeypatch):
    # The pool takes the schedule as it goes: the games of a broken pool are played on a new one, before the
    # rest of the schedule, and no game is lost or played twice.
    import multiprocessing
    import os
    import signal

    from kalah.arena import runner

    pools = []
    made = runner.process_pool
    monkeypatch.setattr(runner, "process_pool", lambda workers, nice=0: pools.append(workers) or made(workers, nice))
    arena = small_arena(games=8)  # 24 games
    stream = runner._pool(arena.tasks(), 2)
    slots = []
    try:
        for task, _result in stream:
            slots.append(task.slot)
            if len(slots) == 2:
                for child in multiprocessing.active_children():
                    os.kill(child.pid, signal.SIGKILL)
    finally:
        stream.close()
    assert sorted(slots) == sorted(task.slot for task in arena.tasks())
    assert pools == [2, 2]  # the killed worker broke the first pool
