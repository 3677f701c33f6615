"""Searches on several threads (lazy SMP with ABDADA's deferral, csrc/smp.c): the same values and best moves as one thread at a
fixed depth, a legal answer under a time budget, no thread left behind, and clear errors for bad values."""

from __future__ import annotations

import random
import threading

import pytest

import kalah
from helpers import random_game_positions
from kalah import Position, Variant
from kalah.search import SearchError, default_threads

VARIANTS = [Variant(6, 4), Variant(4, 3, empty_capture=True), Variant(6, 6), Variant(5, 4, pie_rule=True)]


def random_positions(count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        position = random_game_positions(rng.choice(VARIANTS), rng, rng.randrange(0, 14))
        if not position.is_over:
            positions.append(position)
    return positions


@pytest.mark.parametrize("algorithm", ["pvs", "mtdf", "alphabeta", "scout"])
def test_fixed_depth_answers_are_those_of_one_thread(algorithm):
    for position in random_positions(12, seed=len(algorithm)):
        for depth in (3, 6, 9):
            one = kalah.search(position, algorithm, depth=depth, threads=1)
            two = kalah.search(position, algorithm, depth=depth, threads=2)
            assert (two.value, two.best_move, two.exact) == (one.value, one.best_move, one.exact), (position, depth)
            assert [(m.move, m.value, m.bound) for m in two.moves] == [(m.move, m.value, m.bound) for m in one.moves]
            assert two.stats.threads == 2 and one.stats.threads == 1


@pytest.mark.parametrize("threads", [2, 4])
def test_a_best_move_search_ends_when_any_thread_completes_the_depth_with_one_threads_answer(threads):
    # Without every root value a helper that completes the depth first answers for the search.
    for position in random_positions(16, seed=threads):
        for depth in (4, 7, 10):
            one = kalah.search(position, "pvs", depth=depth, threads=1, move_values=False)
            many = kalah.search(position, "pvs", depth=depth, threads=threads, move_values=False)
            assert (many.value, many.best_move, many.stats.depth) == (one.value, one.best_move, one.stats.depth), (
                position,
                depth,
            )


def test_a_deep_fixed_search_agrees_too():
    # Deep enough that the threads put off each other's children (ABDADA) at many nodes, the root included.
    start = Position.start()
    one = kalah.search(start, "pvs", depth=16, threads=1)
    for threads in (2, 4):
        many = kalah.search(start, "pvs", depth=16, threads=threads)
        assert (many.value, many.best_move) == (one.value, one.best_move)
        assert [(m.move, m.value, m.bound) for m in many.moves] == [(m.move, m.value, m.bound) for m in one.moves]


def test_a_timed_search_on_two_threads_answers_a_legal_move():
    for position in random_positions(4, seed=7):
        result = kalah.search(position, "pvs", time=0.05, move_values=False, threads=2, exact_depth=True)
        assert result.best_move in position.legal_moves() and result.stats.depth >= 1
        assert result.stats.threads == 2
        # Whichever thread completed the deepest iteration, its answer is that depth's answer on one thread.
        fixed = kalah.search(position, "pvs", depth=result.stats.depth, move_values=False, threads=1)
        assert (result.value, result.best_move, result.exact) == (fixed.value, fixed.best_move, fixed.exact)


def test_no_search_thread_outlives_its_search():
    before = threading.active_count()
    for _ in range(20):
        kalah.search(Position.start(), "pvs", time=0.01, move_values=False, threads=3)
    # The helpers are C threads: when the search returns they have been joined. The process's
    # thread count (Linux) is back to what it was.
    import os

    tasks = len(os.listdir("/proc/self/task")) if os.path.isdir("/proc/self/task") else None
    assert threading.active_count() == before
    if tasks is not None:
        kalah.search(Position.start(), "pvs", time=0.01, move_values=False, threads=3)
        assert len(os.listdir("/proc/self/task")) == tasks


def test_the_default_is_every_core_for_a_timed_search_and_one_otherwise(monkeypatch):
    monkeypatch.delenv("KALAH_THREADS", raising=False)
    assert default_threads() >= 1
    assert kalah.search(Position.start(), "pvs", depth=4).stats.threads == 1
    assert kalah.search(Position.start(), "pvs", time=0.02).stats.threads == default_threads()
    monkeypatch.setenv("KALAH_THREADS", "1")
    assert kalah.search(Position.start(), "pvs", time=0.02).stats.threads == 1
    monkeypatch.setenv("KALAH_THREADS", "lots")
    with pytest.raises(SearchError, match="KALAH_THREADS"):
        kalah.search(Position.start(), "pvs", time=0.02)


def test_a_timed_pvs_lets_deeper_entries_answer_and_a_fixed_depth_does_not():
    # A player's second move reuses its table: entries searched deeper on the last move answer at once
    # when allowed (exact_depth=False, the default of a timed pvs), and only guide the order otherwise.
    from kalah.core.search import Engine

    start = Position.start(Variant(6, 4))
    reply = start.play(2)  # an extra turn: the same mover, two plies less to go below it
    nodes = {}
    for exact in (True, False):
        engine = Engine(20)
        kalah.search(start, "pvs", depth=14, engine=engine, move_values=False)
        again = kalah.search(
            reply, "pvs", depth=12, engine=engine, keep_table=True, move_values=False, exact_depth=exact
        )
        fresh = kalah.search(reply, "pvs", depth=12, move_values=False)
        assert again.best_move in reply.legal_moves()
        if exact:
            assert (again.value, again.best_move) == (fresh.value, fresh.best_move)
        nodes[exact] = again.stats.nodes
    assert nodes[False] < nodes[True] / 2


@pytest.mark.parametrize("threads", [0, -1, 65, 2.0, True, "2"])
def test_bad_thread_counts_are_refused(threads):
    with pytest.raises(SearchError, match="threads must be a whole number from 1 to 64"):
        kalah.search(Position.start(), "pvs", depth=3, threads=threads)


# --- time management (soft_time in kalah.search; the players' time bank) ---------------------------


def test_soft_time_needs_a_longer_time_limit():
    with pytest.raises(SearchError, match="soft_time"):
        kalah.search(Position.start(), "pvs", depth=6, soft_time=0.5)
    with pytest.raises(SearchError, match="soft_time"):
        kalah.search(Position.start(), "pvs", time=0.1, soft_time=0.5)


def test_a_forced_move_is_answered_after_one_iteration():
    forced = Position([[0, 0, 0, 0, 0, 1, 20], [1, 2, 3, 4, 5, 6, 6]], to_move=0)
    assert forced.legal_moves() == [5]
    result = kalah.search(forced, "pvs", time=30.0, soft_time=15.0, move_values=False, threads=1)
    assert result.best_move == 5 and result.stats.depth == 1
    # On two threads a helper (started a ply or two deeper) may have finished one more iteration: its answer is taken.
    result = kalah.search(forced, "pvs", time=30.0, soft_time=15.0, move_values=False, threads=2)
    assert result.best_move == 5 and result.stats.depth <= 3 and result.stats.seconds < 15.0


def test_a_settled_search_stops_long_before_its_hard_limit():
    # Past the soft limit (at once here) the search stops when its best move has held for two
    # iterations: from the start of Kalah(6,4) that is seconds before a 30 s limit.
    result = kalah.search(Position.start(), "pvs", time=30.0, soft_time=0.001, move_values=False, exact_depth=True)
    assert result.stats.seconds < 20.0 and result.best_move in Position.start().legal_moves()
    fixed = kalah.search(Position.start(), "pvs", depth=result.stats.depth, move_values=False)
    assert (result.value, result.best_move) == (fixed.value, fixed.best_move)  # a completed iteration's answer


def test_the_players_time_bank_stays_within_its_bounds():
    from kalah.players import PlayerSpecError, make_player
    from kalah.players.engines import MAX_BANK, time_budget

    player = make_player("pvs:time=0.02")
    position = Position.start(Variant(6, 3))
    for _ in range(6):
        if position.is_over:
            break
        hard, soft = time_budget(player.time, player._bank)
        assert player.time <= hard <= 2 * player.time and 0.8 * player.time <= soft <= hard
        position = position.play(player.choose_move(position))
        assert 0.0 <= player._bank <= MAX_BANK * player.time
    player.reset()
    assert player._bank == 0.0
    assert make_player("pvs:time=1,manage=off").spec == "pvs:time=1,manage=off"
    assert not make_player("pvs:time=1,manage=off").manage and make_player("pvs:time=1").manage
    for bad in ("pvs:time=1,manage=maybe", "mcts:time=1,manage=on"):
        with pytest.raises(PlayerSpecError):
            make_player(bad)


# --- thinking on the opponent's time (ponder=on) -------------------------------------------------


#: Kalah(6,4) with one legal move for player 0 (A: 14 seeds, a lap that ends in B, no extra turn), so a timed
#: first move is the same move for every player and every run: both players ponder the same position
#: (player 1 to move, seeds in every pit) and the two node counts below are of like with like.
ONE_MOVE = Position.from_dict(
    {"board": [[14, 0, 0, 0, 0, 0, 5], [4, 4, 4, 4, 4, 4, 5]], "to_move": 0, "variant": Variant(6, 4).to_dict()}
)


def ponder_for_cpu_seconds(thread: threading.Thread | None, seconds: float, wall_limit: float = 120.0) -> None:
    """Wait until ``thread`` has used ``seconds`` of CPU (or ended, or ``wall_limit`` passed); without a thread, a
    second (the opponent's think time for a player that does not ponder)."""
    import time

    if thread is None or thread.ident is None:
        time.sleep(1.0)
        return
    clock = time.pthread_getcpuclockid(thread.ident)
    began = time.monotonic()
    while thread.is_alive() and time.monotonic() - began < wall_limit:
        try:
            if time.clock_gettime(clock) >= seconds:
                return
        except OSError:  # the thread ended between the two calls
            return
        time.sleep(0.02)


def test_pondering_fills_the_table_for_the_next_move():

    from kalah import search
    from kalah.endgame import oracle_for
    from kalah.players import make_player

    assert ONE_MOVE.legal_moves() == [0]
    after = ONE_MOVE.play(0)
    assert after.to_move == 1 and all(after.board[0][:-1]) and not after.is_over
    nodes = {}
    for spec in ("pvs:time=0.02,manage=off", "pvs:time=0.02,manage=off,ponder=on"):
        player = make_player(spec)
        assert player.choose_move(ONE_MOVE) == 0
        assert player.last_info.get("pondering", False) == spec.endswith("ponder=on")
        # The opponent thinks; the pondering player searches meanwhile. It passes depth 18 within about half a
        # second of CPU; a wall-clock wait was not enough on a machine under a load of 15 (2 runs in 15 stopped
        # it short, and a table of an unfinished deeper iteration may cost more nodes than none).
        ponder_for_cpu_seconds(player._pondering, 1.0)
        player.stop_thinking()
        assert player._pondering is None
        # What the player pondered is in its table: a search of that position on it (with entries of deeper
        # searches answering, as the players' timed searches use them) needs far fewer nodes than on the table
        # of the player's own move alone. Counted at a fixed depth on one thread, so that neither the clock
        # nor the threads change the count.
        again = search(
            after,
            "pvs",
            depth=18,
            exact_depth=False,
            keep_table=True,
            engine=player._engine,
            move_values=False,
            threads=1,
            oracle=oracle_for(after.variant),
        )
        nodes[spec] = again.stats.nodes
        player.reset()
    assert 2 * nodes["pvs:time=0.02,manage=off,ponder=on"] < nodes["pvs:time=0.02,manage=off"], nodes
    assert not [t for t in threading.enumerate() if t.name == "kalah-ponder"]


def test_a_game_with_a_pondering_player_leaves_no_thread_behind():
    from kalah.match import play_game
    from kalah.players import make_player

    result = play_game(
        [make_player("pvs:time=0.01,ponder=on"), make_player("mtdf:time=0.01,ponder=on")], Position.start(Variant(4, 3))
    )
    assert result.finished
    assert not [t for t in threading.enumerate() if t.name == "kalah-ponder"]


@pytest.mark.parametrize(
    "spec",
    ["pvs:depth=6,ponder=on", "alphabeta:time=1,ponder=on", "mcts:time=1,ponder=on", "pvs:time=1,ponder=sometimes"],
)
def test_pondering_needs_a_timed_practical_engine(spec):
    from kalah.players import PlayerSpecError, make_player

    with pytest.raises(PlayerSpecError, match="ponder"):
        make_player(spec)
    assert make_player("pvs:time=1,ponder=off").ponder is False
