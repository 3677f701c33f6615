"""What the teacher and the students are told: the log, refusals, names, moderation, the pages."""

from __future__ import annotations

import logging
import socket
import subprocess
import time

import httpx
import pytest

from classroom_helpers import ServerThread
from kalah.classroom import AgentBook, moderation
from kalah.classroom.log import configure
from kalah.classroom.tournament import Tournament
from kalah.rules import Variant
from kgp_interop import kalah_command


def kgp(
    server: ServerThread, *args: str, target: str | None = None, timeout: float = 60
) -> subprocess.CompletedProcess:
    """``kalah kgp`` against ``server`` (its KGP port unless ``target``), to its end."""
    return subprocess.run(
        [*kalah_command(), "kgp", target or f"127.0.0.1:{server.kgp_port}", "--retries", "0", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def talk(port: int, *lines: str, read: int = 3) -> list[str]:
    """Say ``lines`` to a KGP port after its greeting; the server's next ``read`` lines (fewer when it closes)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        wire = connection.makefile("rw", encoding="utf-8", newline="")
        heard = [wire.readline().strip()]
        for line in lines:
            wire.write(line + "\r\n")
        wire.flush()
        while len(heard) < read + 1:
            line = wire.readline()
            if not line:
                break
            heard.append(line.strip())
    return [line.split(" ", 1)[1] if line[:1].isdigit() else line for line in heard[1:]]  # without ids


@pytest.fixture
def teacher_log(tmp_path):
    """The class server's log at info, written to a file as ``--log-file`` does; its text when read."""
    path = tmp_path / "server.log"
    handler = configure("info", path)
    yield path
    logger = logging.getLogger("kalah.classroom")
    logger.removeHandler(handler)
    logger.propagate = True
    handler.close()


def test_the_log_says_what_happened_and_never_a_token(tmp_path, teacher_log):
    with ServerThread(tmp_path / "lib.sqlite", move_time=0.3, variant=Variant(3, 2)) as server:
        played = kgp(
            server, "--player", "alphabeta:depth=2", "--name", "carol", "--token", "carols-secret-token", "--games", "1"
        )
        assert played.returncode == 0, played.stderr
        short = kgp(server, "--name", "dave", "--token", "short")
        taken = talk(server.kgp_port, 'set info:name "carol"', "mode freeplay", read=2)
    text = teacher_log.read_text()
    assert "carols-secret-token" not in text and "short" not in text.replace("shortly", "")
    assert "connection from 127.0.0.1" in text
    assert "carol (#1) signed in from 127.0.0.1" in text
    assert "game 1 started: " in text and "carol (#1)" in text
    assert "game 1 over: " in text
    assert "closed dave from 127.0.0.1: a token has at least 8 characters" in text
    assert "closed carol from 127.0.0.1: the name 'carol' belongs to another agent's token" in text
    # the students are told too: in one line, exit code 2, no retries
    assert short.returncode == 2, short.stderr
    assert short.stderr.strip().splitlines()[-1] == (
        "kalah: error: the server refused this agent: a token has at least 8 characters"
    )
    assert taken[0].startswith("error") and "belongs to another agent's token" in taken[0], taken


def test_the_web_port_and_a_wrong_socket_path_are_named(tmp_path):
    with ServerThread(tmp_path / "lib.sqlite") as server:
        began = time.monotonic()
        web = kgp(server, target=f"127.0.0.1:{server.port}")
        waited = time.monotonic() - began
        path = kgp(server, target=f"ws://127.0.0.1:{server.port}/sock")
    assert web.returncode == 2 and waited < 9, (web.stderr, waited)
    assert "KGP greeting" in web.stderr and f"is 127.0.0.1:{server.port} a KGP port?" in web.stderr
    assert path.returncode == 2, path.stderr
    assert "the server has no WebSocket at /sock (HTTP 404)" in path.stderr and "/socket" in path.stderr


def test_a_tournament_closes_an_agent_without_a_token(tmp_path):
    tournament = Tournament(2, [Variant(3, 2)], wait=60)
    with ServerThread(tmp_path / "lib.sqlite", tournament=tournament) as server:
        heard = talk(server.kgp_port, 'set info:name "nobody"', "mode freeplay", read=3)
    assert heard[0] == 'error "the tournament needs set auth:token"', heard
    assert heard[1:] == ["goodbye"]  # and closed


def test_moderation_hides_renames_merges_and_removes_with_ratings_recomputed(tmp_path):
    # Pairing every 3 s: both agents wait at each pairing, so they meet.
    with ServerThread(tmp_path / "lib.sqlite", move_time=0.2, variant=Variant(3, 2), pair_every=3) as server:
        both = [
            subprocess.Popen(
                [*kalah_command(), "kgp", f"127.0.0.1:{server.kgp_port}", "--player", player, "--name", name]
                + ["--token", f"token-of-{name}", "--games", "4", "--quiet"],
                stderr=subprocess.PIPE,
                text=True,
            )
            for name, player in (("strong", "pvs:depth=6"), ("weak", "random"))
        ]
        for run in both:
            assert run.wait(120) == 0, run.stderr.read()
            run.stderr.close()
        anonymous = kgp(server, "--player", "random", "--name", "ghost", "--games", "1")
        assert anonymous.returncode == 0, anonymous.stderr
        base = f"http://127.0.0.1:{server.port}"
        shown = [row["name"] for row in httpx.get(f"{base}/api/leaderboard").json()]
        everyone = [row["name"] for row in httpx.get(f"{base}/api/leaderboard?anonymous=true").json()]
    assert "ghost" not in shown and "ghost" in everyone  # anonymous: off the leaderboard unless asked
    book = AgentBook(tmp_path / "lib.sqlite")
    ids = {row["name"]: row["id"] for row in moderation.list_agents(book)}
    before = {line.agent.name: line for line in book.standings()}
    assert any({r["south"], r["north"]} == {ids["strong"], ids["weak"]} for r in book.results())
    moderation.hide(book, ids["weak"])
    after = {line.agent.name: line for line in book.standings()}
    assert "weak" not in after  # and its games count no more:
    assert after["strong"].games < before["strong"].games if "strong" in after else True
    moderation.hide(book, ids["weak"], hidden=False)
    with pytest.raises(moderation.ModerationError, match="belongs to agent"):
        moderation.rename(book, ids["ghost"], "STRONG")
    moderation.rename(book, ids["ghost"], "ghost-renamed")
    assert book.agent(ids["ghost"]).name == "ghost-renamed"

    def games_of(agent_id):
        return sum(1 for r in book.results() if agent_id in (r["south"], r["north"]))

    strong, weak = games_of(ids["strong"]), games_of(ids["weak"])
    between = sum(1 for r in book.results() if {r["south"], r["north"]} == {ids["strong"], ids["weak"]})
    assert between >= 1
    moderation.merge(book, ids["weak"], ids["strong"])
    assert book.agent(ids["weak"]) is None and "weak" not in {line.agent.name for line in book.standings()}
    assert games_of(ids["strong"]) == strong + weak - 2 * between  # its games are strong's; none against itself
    name, gone = moderation.remove(book, ids["strong"])
    assert name == "strong" and gone == strong + weak - 2 * between and book.agent(ids["strong"]) is None
    assert games_of(ids["strong"]) == 0


def test_moves_are_graded_against_perfect_play_beside_elo(tmp_path):
    from kalah.classroom import ServerConfig
    from kalah.review import review

    config = ServerConfig(variant=Variant(4, 3), move_time=0.5, pair_every=2, grade_seconds=0.3)
    with ServerThread(tmp_path / "graded.sqlite", config=config) as server:
        both = [
            subprocess.Popen(
                [*kalah_command(), "kgp", f"127.0.0.1:{server.kgp_port}", "--player", player, "--name", name]
                + ["--token", f"token-of-{name}", "--games", "3", "--quiet"],
                stderr=subprocess.DEVNULL,
            )
            for name, player in (("perfect-one", "perfect"), ("random-one", "random:seed=7"))
        ]
        for run in both:
            assert run.wait(120) == 0
        assert server.wait_for(lambda: server.server.grader.graded >= 3 and not server.server.grader.queue, 120)
        base = f"http://127.0.0.1:{server.port}"
        rows = {row["name"]: row for row in httpx.get(f"{base}/api/leaderboard").json()}
        game_id = httpx.get(f"{base}/api/agents/{rows['perfect-one']['id']}").json()["results"][0]["game_id"]
        game = httpx.get(f"{base}/api/games/{game_id}").json()
        page = httpx.get(f"{base}/").text
    perfect, chance = rows["perfect-one"]["grade"], rows["random-one"]["grade"]
    assert perfect["exact"] > 0 and perfect["exact"] == perfect["decisions"]  # 4 pits: every move proven
    assert perfect["accuracy"] == 100.0 and perfect["seeds_lost"] == 0 and perfect["blunders"] == 0
    assert chance["exact"] > 0 and chance["seeds_lost"] > 0 and chance["accuracy"] < 100.0
    assert "elo" in rows["random-one"] and "accuracy" in page
    # a game's grades are the review's verdicts on its moves (kalah.review, the same judge as kalah review)
    library = server.library
    judged = review(library.record(game_id), 0.3, threads=1)
    side = 0 if game["players"][0]["name"] == "perfect-one" else 1
    other = 1 - side
    lost = sum(entry.loss for entry in judged.moves if entry.player == other and not entry.forced and entry.exact)
    assert game["grades"][other]["seeds_lost"] == pytest.approx(lost)
    assert game["grades"][side]["seeds_lost"] == 0


def test_mode_eval_grades_decisions_on_proven_positions(tmp_path, teacher_log):
    with ServerThread(tmp_path / "lib.sqlite", move_time=1.0, variant=Variant(6, 4)) as server:
        for name, player in (("judge-perfect", "perfect"), ("judge-shallow", "alphabeta:depth=1")):
            run = kgp(server, "--mode", "eval", "--player", player, "--name", name, timeout=180)
            assert run.returncode == 0, run.stderr
    lines = {
        line.split("evaluated: ")[0].split()[-2]: line
        for line in teacher_log.read_text().splitlines()
        if "evaluated: " in line
    }
    # kalah kgp answers with its search's value: proven (error 0) when it searches to the end, off at depth 1
    assert "positions 10 eval-error 0.00 seeds (10 answered)" in lines["judge-perfect"], lines
    assert "eval-error 0.00" not in lines["judge-shallow"] and "(10 answered)" in lines["judge-shallow"], lines


def test_long_lists_come_in_pages():
    from kalah.classroom.pages import PAGE, paged

    rows = list(range(2 * PAGE + 3))
    first, links = paged(rows, 1, "/?")
    assert first == rows[:PAGE] and "page 1 of 3" in links and 'href="/?page=2"' in links and "prev" not in links
    last, links = paged(rows, 3, "/?")
    assert last == rows[2 * PAGE :] and 'href="/?page=2"' in links and "next" not in links
    assert paged(rows[:PAGE], 1, "/?") == (rows[:PAGE], "")
