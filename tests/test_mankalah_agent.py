"""The ManKalah agent against a scripted fake engine: both sides, swaps, the end, broken connections."""

from __future__ import annotations

import io
import random
import subprocess
import sys

import pytest

from kalah.mankalah import (
    MANKALAH,
    NORTH,
    SOUTH,
    Agent,
    ConnectionClosed,
    End,
    MankalahEngine,
    ProtocolError,
    Start,
    TimeBudget,
    format_agent_move,
    format_engine_message,
    parse_agent_message,
    parse_engine_message,
    position_of,
    run_agent,
    side_of,
    state_of,
)
from kalah.players.base import ComputerPlayer
from kalah.rules import SWAP, Position
from mankalah_fake import InProcess, OverPipes, referee


class Scripted(ComputerPlayer):
    """Plays the given moves, then random ones."""

    def __init__(self, moves=(), seed=0):
        super().__init__()
        self.moves = list(moves)
        self.rng = random.Random(seed)

    def choose_move(self, position):
        if self.moves:
            return self.moves.pop(0)
        return self.rng.choice([m for m in position.legal_moves() if m != SWAP])


def random_opponent(seed=1, swap=False):
    rng = random.Random(seed)

    def choose(position):
        legal = position.legal_moves()
        if SWAP in legal:
            return SWAP if swap else rng.choice([m for m in legal if m != SWAP])
        return rng.choice(legal)

    return choose


# --- the wire format ------------------------------------------------------------------------


def test_messages_parse_and_format_back():
    for line in (
        "START;South",
        "START;North",
        "END",
        "CHANGE;3;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;OPP",
        "CHANGE;SWAP;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU",
    ):
        assert format_engine_message(parse_engine_message(line + "\n")) == line
    assert parse_engine_message("START;North") == Start(NORTH)
    assert parse_engine_message("END") == End()
    assert parse_agent_message("MOVE;7\n") == 6 and parse_agent_message("SWAP") == SWAP
    assert format_agent_move(0) == "MOVE;1" and format_agent_move(SWAP) == "SWAP"


@pytest.mark.parametrize(
    "line, words",
    [
        ("HELLO", "unknown message"),
        ("START;East", "START;South or START;North"),
        ("CHANGE;8;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;OPP", "hole 1..7"),
        ("CHANGE;1;7,7,7;OPP", "16 comma-separated"),
        ("CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,2;OPP", "99 seeds"),
        ("CHANGE;1;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;ME", "YOU, OPP or END"),
        ("END;now", "just END"),
    ],
)
def test_bad_messages_name_the_problem(line, words):
    with pytest.raises(ProtocolError, match=words):
        parse_engine_message(line)


def test_the_documented_session_maps_onto_our_positions():
    start = Position.start(MANKALAH)
    after_first = start.play(0)  # South's hole 1
    assert ",".join(map(str, state_of(after_first, False))) == "7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1"
    assert after_first.to_move == 1 and after_first.swap_available  # no extra turn, North may swap
    swapped = after_first.play(SWAP)  # North swaps: player 0 now owns North and moves
    assert side_of(0, True) == NORTH and side_of(1, True) == SOUTH
    assert state_of(swapped, True) == state_of(after_first, False)  # the board does not change on the wire
    north_hole_2 = swapped.play(1)
    assert ",".join(map(str, state_of(north_hole_2, True))) == "7,0,8,8,8,8,8,1,1,8,8,8,8,8,8,1"
    assert position_of(state_of(north_hole_2, True), True, north_hole_2.to_move) == north_hole_2


# --- whole matches against the fake engine -----------------------------------------------------


@pytest.mark.parametrize("side", [SOUTH, NORTH])
def test_agent_plays_a_whole_match_on_either_side(side):
    agent = Agent(Scripted(seed=5))
    result = referee(InProcess(agent), side, random_opponent(2))
    assert result["position"].is_over and agent.match_over and agent.game_over
    assert agent.position.scores == result["position"].scores
    assert result["agent_moves"] == agent.moves_sent > 5


def test_opponent_swaps_and_the_agent_plays_on_as_north():
    agent = Agent(Scripted(seed=7))
    result = referee(InProcess(agent), SOUTH, random_opponent(3, swap=True))
    assert result["wire"][:4][0] == "< START;South"
    assert result["wire"][3].startswith("< CHANGE;SWAP;") and result["wire"][3].endswith(";YOU")
    assert agent.swapped and result["swapped"] and agent.me == 0
    assert result["position"].is_over and agent.position.scores == result["position"].scores


def test_agent_swaps_without_waiting_for_an_echo():
    agent = Agent(Scripted([SWAP], seed=9))
    result = referee(InProcess(agent), NORTH, random_opponent(4))
    assert "> SWAP" in result["wire"] and result["swapped"] and agent.swapped
    assert result["position"].is_over and agent.position.scores == result["position"].scores


def test_an_illegal_choice_of_the_player_is_never_sent():
    agent = Agent(Scripted([SWAP, 6, 6, 6, 6, 6, 6, 6, 6], seed=1))  # swap as South, then maybe empty pits
    result = referee(InProcess(agent), SOUTH, random_opponent(5))
    assert result["position"].is_over


def test_default_engine_plays_to_win_within_its_budget():
    budget = TimeBudget(total=60, move_time=0.02)
    engine = MankalahEngine(budget)
    agent = Agent(engine)
    result = referee(InProcess(agent), NORTH, random_opponent(6))
    final = result["position"]
    assert final.is_over and final.winner == 1  # North, player 1, beats random play
    assert budget.used < 0.1 * result["agent_moves"] + 1


def test_engine_decides_the_swap_by_its_own_judgement():
    engine = MankalahEngine(TimeBudget(move_time=0.2))
    after_first = Position.start(MANKALAH).play(0)
    move = engine.choose_move(after_first)
    assert move in after_first.legal_moves()
    assert "swap_value" in engine.last_info and "best_pit_value" in engine.last_info
    best_pit = engine.last_info["best_pit_value"]
    assert (move == SWAP) == (engine.last_info["swap_value"] > best_pit)


def test_time_budget_never_spends_the_hour():
    budget = TimeBudget()
    assert budget.allowance() == pytest.approx(36.0)
    for _ in range(2000):  # a pathological number of moves, each using its whole allowance
        budget.spend(budget.allowance())
    assert budget.used < 3600 * 0.95


# --- broken connections -------------------------------------------------------------------------


def test_input_ending_mid_game_is_a_closed_connection():
    with pytest.raises(ConnectionClosed, match="before the match was over"):
        run_agent(Scripted(seed=1), io.StringIO("START;North\n"), io.StringIO())


def test_input_ending_after_the_last_change_is_fine():
    agent = Agent(Scripted(seed=1))
    result = referee(InProcess(agent), SOUTH, random_opponent(1))
    lines = [w[2:] for w in result["wire"] if w.startswith("< ")][:-1]  # without the final END
    replay = run_agent(Scripted(seed=1), io.StringIO("\n".join(lines) + "\n"), io.StringIO())
    assert replay.game_over and not replay.match_over


def test_output_closed_is_a_closed_connection():
    class Closed(io.StringIO):
        def write(self, text):
            raise BrokenPipeError

    with pytest.raises(ConnectionClosed, match="cannot send"):
        run_agent(Scripted(seed=1), io.StringIO("START;South\n"), Closed())


def test_protocol_errors_in_the_middle_of_a_match():
    agent = Agent(Scripted(seed=1))
    agent.handle("START;North")
    with pytest.raises(ProtocolError, match="second START"):
        agent.handle("START;South")
    with pytest.raises(ProtocolError, match="cannot have happened"):
        agent.handle("CHANGE;SWAP;7,7,7,7,7,7,7,0,0,8,8,8,8,8,8,1;YOU")


# --- the command --------------------------------------------------------------------------------


def agent_process(*args):
    return subprocess.Popen(
        [sys.executable, "-m", "kalah.cli", "mankalah", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        bufsize=1,
    )


@pytest.mark.parametrize("side, swap", [(SOUTH, True), (NORTH, False)])
def test_kalah_mankalah_over_pipes(side, swap):
    process = agent_process("--move-time", "0.02")
    try:
        result = referee(OverPipes(process), side, random_opponent(8, swap=swap))
        process.stdin.close()
        assert process.wait(timeout=30) == 0
        assert process.stdout.read() == ""  # nothing but protocol messages
        assert result["position"].is_over and result["position"].winner == result["me"]
    finally:
        process.kill()


def test_kalah_mankalah_refuses_a_malformed_message_with_exit_2():
    run = subprocess.run(
        [sys.executable, "-m", "kalah.cli", "mankalah", "--player", "random"],
        input="START;North\nCHANGE;1;1,2,3;OPP\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.strip().splitlines() == [
        "kalah: error: bad state in 'CHANGE;1;1,2,3;OPP': expected 16 comma-separated counts"
    ]


def test_kalah_mankalah_reports_a_broken_connection():
    process = agent_process("--player", "random:seed=1")
    try:
        result = referee(OverPipes(process), SOUTH, random_opponent(2), stop_after=6)
        assert result["stopped"]
        process.stdin.close()
        assert process.wait(timeout=30) == 2
        assert "closed the connection" in process.stderr.read()
    finally:
        process.kill()


def test_unknown_player_for_the_agent():
    run = subprocess.run(
        [sys.executable, "-m", "kalah.cli", "mankalah", "--player", "nosuch"],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2 and "unknown player 'nosuch'" in run.stderr
