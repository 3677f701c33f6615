"""``exec:COMMAND`` players: other programs over the ManKalah protocol, in games and in the arena."""

from __future__ import annotations

import sys
import textwrap

import pytest

from kalah.arena import Arena, run_arena
from kalah.mankalah import MANKALAH
from kalah.mankalah.external import ExecPlayer, ExternalEngineError
from kalah.match import play_game
from kalah.players import PlayerSpecError, make_player
from kalah.records import GameLibrary, RecordBuilder
from kalah.rules import SWAP, Position

OUR_AGENT = f"{sys.executable} -m kalah.cli mankalah --player random:seed=4"

# A tiny agent written straight from docs/mankalah.md: it plays the first non-empty
# hole of its side and, as North, always swaps at its first turn.
TINY_AGENT = textwrap.dedent("""
    import sys
    side, first = None, True
    for line in sys.stdin:
        parts = line.strip().split(";")
        if parts[0] == "END":
            sys.exit(0)
        if parts[0] == "START":
            side = parts[1]
            if side == "South":
                first = False
                print("MOVE;1", flush=True)
            continue
        move, state, turn = parts[1], [int(x) for x in parts[2].split(",")], parts[3]
        if move == "SWAP":
            side = "North" if side == "South" else "South"
        if turn != "YOU":
            continue
        if side == "North" and first:
            first = False
            side = "South"
            print("SWAP", flush=True)
            continue
        first = False
        holes = state[0:7] if side == "North" else state[8:15]
        hole = next(i for i, seeds in enumerate(holes, 1) if seeds)
        print(f"MOVE;{hole}", flush=True)
""")


@pytest.fixture
def tiny_agent(tmp_path):
    path = tmp_path / "tiny_agent.py"
    path.write_text(TINY_AGENT)
    return f"{sys.executable} {path}"


def script(tmp_path, name, body):
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return f"exec:{sys.executable} {path}"


def play(players, start=None):
    builder = RecordBuilder()
    result = play_game(players, start or Position.start(MANKALAH), [builder])
    for player in players:
        if hasattr(player, "close"):
            player.close(result.final)
    return result, builder.record


@pytest.mark.parametrize("seat", [0, 1])
def test_our_own_agent_as_an_external_program(seat):
    external = make_player(f"exec:{OUR_AGENT}")
    players = [external, make_player("random:seed=2")]
    if seat:
        players.reverse()
    result, record = play(players)
    assert result.finished and len(record.moves) > 10
    assert external.exit_code == 0  # it heard the end and END, and left cleanly


def test_two_external_programs_with_a_swap(tiny_agent):
    south, north = make_player(f"exec:{OUR_AGENT}"), make_player(f"exec:{tiny_agent}")
    result, record = play([south, north])
    assert record.moves[1].move == SWAP and result.finished
    assert south.exit_code == 0 and north.exit_code == 0


def test_external_program_hears_of_the_opponents_swap(tiny_agent):
    class Swapper:
        name = spec = "swapper"
        is_computer = True

        def choose_move(self, position):
            legal = position.legal_moves()
            return SWAP if SWAP in legal else legal[-1]

    external = make_player(f"exec:{tiny_agent}")
    result, record = play([external, Swapper()])
    assert record.moves[1].move == SWAP and result.finished and external.exit_code == 0


def test_arena_rates_an_external_program(tmp_path):
    library = GameLibrary(tmp_path / "games.sqlite")
    arena = Arena([f"exec:{OUR_AGENT}", "random:seed=3"], MANKALAH, 2, [Position.start(MANKALAH)])
    assert run_arena(arena, library, jobs=1) == 2
    games = library.list_games(tags={"arena": arena.key})
    assert len(games) == 2 and all(g.status == "finished" for g in games)
    assert arena.results(library).games_played == 2


@pytest.mark.parametrize(
    "body, words",
    [
        ("import sys\nsys.exit(3)\n", "exited with code 3"),
        ("import sys\nsys.stdin.readline()\nprint('HELLO', flush=True)\nsys.stdin.read()\n", "bad answer 'HELLO'"),
        (
            "import sys\nfor line in sys.stdin:\n    if line.strip() == 'START;South' or line.strip().endswith(';YOU'):\n"
            "        print('SWAP', flush=True)\n",
            "illegal move SWAP",
        ),
    ],
)
def test_a_broken_program_forfeits_in_the_arena(tmp_path, body, words):
    library = GameLibrary(tmp_path / "games.sqlite")
    broken = script(tmp_path, "broken.py", body)
    arena = Arena([broken, "random:seed=3"], MANKALAH, 2, [Position.start(MANKALAH)])
    run_arena(arena, library, jobs=1)
    games = library.list_games(tags={"arena": arena.key})
    assert len(games) == 2 and all("forfeit" in g.tags for g in games)
    results = arena.results(library)
    row = next(r for r in results.players if r.spec == broken)
    assert row.losses == 2
    reasons = [library.record(g.id).stop_reason for g in games]
    assert all(reason.startswith(f"forfeit by {broken}") for reason in reasons)
    assert any(words in reason for reason in reasons), reasons


def test_a_silent_program_times_out(tmp_path):
    path = tmp_path / "silent.py"
    path.write_text("import time\ntime.sleep(30)\n")
    player = make_player(f"exec[move=0.5, total=60]:{sys.executable} {path}")
    assert (player.timeout, player.total, player.argv) == (0.5, 60.0, [sys.executable, str(path)])
    with pytest.raises(ExternalEngineError, match="did not answer within 0.5 s"):
        player.choose_move(Position.start(MANKALAH))
    player.close()


def test_external_programs_start_from_the_start():
    player = ExecPlayer(OUR_AGENT)
    with pytest.raises(ExternalEngineError, match="only from the start position"):
        player.choose_move(Position.start(MANKALAH).play(3).play(2))
    player.close()


@pytest.mark.parametrize(
    "spec, words",
    [
        ("exec:", "exec needs a command"),
        ("exec:no-such-program-here --flag", "not found"),
        ("exec:'unclosed", "cannot read the command"),
        ("exec[move=30]:", "exec needs a command"),
        ("exec[move=0]:python3", "option move must be a positive number"),
        ("exec[total=soon]:python3", "option total must be a number"),
        ("exec[depth=3]:python3", "unknown option 'depth' for player 'exec'"),
        ("exec[move=30:python3", r"expected exec\[key=value,...\]:COMMAND"),
    ],
)
def test_bad_exec_specs(spec, words):
    with pytest.raises(PlayerSpecError, match=words):
        make_player(spec)
