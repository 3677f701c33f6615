"""Players, specs and the game loop."""

import random

import pytest

from kalah import IllegalMoveError, Position, Variant
from kalah.match import Observer, PlayerMoveError, play_game
from kalah.players import (
    HumanPlayer,
    NoInputError,
    PlayerSpecError,
    RandomPlayer,
    ReplayPlayer,
    make_player,
    parse_spec,
)


def test_parse_spec():
    assert parse_spec("random") == ("random", {})
    assert parse_spec("random:seed=3") == ("random", {"seed": "3"})
    assert parse_spec(" PVS:time=1.5, eval=strong ") == ("pvs", {"time": "1.5", "eval": "strong"})
    assert parse_spec("exec:python bot.py --a=1,2") == ("exec", {"command": "python bot.py --a=1,2"})


@pytest.mark.parametrize(
    "spec, message",
    [
        ("", "non-empty"),
        ("nobody", "unknown player 'nobody'"),
        ("random:seed", "key=value"),
        ("random:seed=x", "seed must be an integer"),
        ("random:depth=3", "unknown option 'depth' for player 'random'"),
        ("pvs:depth=2,depth=3", "option 'depth' is given twice"),
        # a search player's options are its algorithm's, not those of every algorithm
        ("pvs:playouts=5", "unknown option 'playouts' for player 'pvs'"),
        ("alphabeta:book=on", "unknown option 'book' for player 'alphabeta'"),
        ("mcts:depth=3", "unknown option 'depth' for player 'mcts'"),
        ("pvs:ponder=on", "ponder=on needs time=SECONDS"),
    ],
)
def test_bad_specs(spec, message):
    with pytest.raises(PlayerSpecError, match=message):
        make_player(spec)


def test_every_option_a_search_player_lists_is_taken():
    from kalah.players import player_types

    for name in ("minimax", "alphabeta", "scout", "pvs", "mtdf", "mcts"):
        kind = player_types()[name]
        values = {"eval": "strong", "time": "0.1", "playouts": "10"}
        listed = [item.split("=")[0] for item in kind.options.split(", ")]
        spec = f"{name}:" + ",".join(f"{option}={values.get(option, '1')}" for option in listed)
        assert make_player(spec).spec == spec, spec
        assert "memo" in listed or name == "mcts"


def test_random_player_is_reproducible_and_leaves_global_random_alone():
    random.seed(1)
    state = random.getstate()
    games = [play_game([make_player("random:seed=4"), make_player("random:seed=5")]).final for _ in range(2)]
    assert games[0] == games[1]
    assert random.getstate() == state
    other = play_game([make_player("random:seed=6"), make_player("random:seed=5")]).final
    assert other != games[0]


def test_random_player_spec_round_trips():
    player = make_player("random:seed=3")
    assert isinstance(player, RandomPlayer) and player.spec == "random:seed=3"


class Collector(Observer):
    def __init__(self):
        self.events, self.started, self.ended = [], None, None

    def game_started(self, start, players):
        self.started = start

    def move_played(self, event):
        self.events.append(event)

    def game_ended(self, result):
        self.ended = result


def test_observers_see_every_move_in_order():
    collector = Collector()
    result = play_game([RandomPlayer(1), RandomPlayer(2)], observers=[collector])
    assert result.finished and collector.ended is result
    assert [e.number for e in collector.events] == list(range(1, result.moves + 1))
    position = collector.started
    for event in collector.events:
        assert event.before == position and event.player == position.to_move
        position = position.play(event.move)
        assert event.after == position
    assert position == result.final and result.scores == position.scores


def test_replay_player_plays_the_recorded_moves():
    first = play_game([RandomPlayer(8), RandomPlayer(9)])
    collector = Collector()
    original = play_game([RandomPlayer(8), RandomPlayer(9)], observers=[collector])
    moves = [event.move for event in collector.events]
    replayer = ReplayPlayer(Position.start(), moves)
    again = play_game([replayer, replayer])
    assert again.final == original.final == first.final


def test_human_player_without_a_face_says_so():
    with pytest.raises(NoInputError, match="human"):
        HumanPlayer().choose_move(Position.start())


def test_end_of_input_stops_the_game_cleanly():
    def ask(position):
        raise EOFError

    collector = Collector()
    result = play_game([RandomPlayer(1), HumanPlayer(ask=ask)], observers=[collector])
    assert not result.finished and result.stop_reason == "end of input"
    assert collector.ended is result and result.moves >= 1


def test_ctrl_c_stops_the_game_cleanly():
    def ask(position):
        raise KeyboardInterrupt

    result = play_game([HumanPlayer(ask=ask), RandomPlayer(1)])
    assert not result.finished and result.stop_reason == "interrupted" and result.moves == 0


def test_a_player_that_cheats_is_named():
    class Cheat(RandomPlayer):
        def choose_move(self, position):
            return 99

    with pytest.raises(PlayerMoveError, match="illegal move") as caught:
        play_game([Cheat(1), RandomPlayer(2)])
    assert isinstance(caught.value, IllegalMoveError)


def test_games_in_every_variant_finish():
    for variant in [Variant(1, 1), Variant(4, 3, empty_capture=True), Variant(7, 7, pie_rule=True), Variant(8, 12)]:
        result = play_game([RandomPlayer(1), RandomPlayer(2)], Position.start(variant))
        assert result.finished and sum(result.scores) == variant.total_seeds
