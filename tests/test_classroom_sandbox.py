"""Submitted agents run by the class server in bubblewrap: hostile ones are stopped, the others play on."""

from __future__ import annotations

import json
import os
import shutil
import socket
import textwrap
import time
from pathlib import Path

import httpx
import pytest

from classroom_helpers import ServerThread
from kalah.classroom import Agents, SandboxLimits, read_submissions
from kalah.classroom.sandbox import AGENT_UID
from kalah.classroom.tournament import Tournament
from kalah.rules import Variant

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"
BARE = EXAMPLES / "kgp_bare.py"

pytestmark = pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")


def submission(root: Path, name: str, code: str | None = None, build: str | None = None, run: str = "") -> Path:
    """A submission folder: ``agent.py`` (the bare starter, or ``code`` before it) and its manifest."""
    folder = root / name
    folder.mkdir(parents=True)
    shutil.copy(BARE, folder / "bare.py")
    shutil.copy(EXAMPLES / "kgp_minimax.py", folder / "minimax.py")
    prelude = textwrap.dedent(code or "")
    (folder / "agent.py").write_text(prelude + "\nimport sys, minimax\nsys.exit(minimax.main())\n")
    lines = [f'name = "{name}"', f'token = "token-of-{name}"', f'run = "{run or "python3 agent.py"}"']
    if build:
        lines.append(f"build = {build!r}".replace("'", '"'))
    (folder / "agent.toml").write_text("\n".join(lines) + "\n")
    return folder


def status_of(server: ServerThread) -> dict[str, dict]:
    return {row["name"]: row for row in server.call(server.server.submissions.to_dict)}


def processes_of(uid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                status = (entry / "status").read_text()
            except OSError:
                continue
            line = next(line for line in status.splitlines() if line.startswith("Uid:"))
            if int(line.split()[1]) == uid:
                found.append(int(entry.name))
    return found


@pytest.mark.slow
@pytest.mark.skipif(os.geteuid() != 0, reason="each agent runs as a user of its own only when the server is root")
def test_hostile_submissions_are_stopped_and_the_others_play_on(tmp_path):
    subs = tmp_path / "submissions"
    secret = tmp_path / "secret.txt"
    secret.write_text("the teacher's notes")
    submission(subs, "alice")
    submission(subs, "bob")
    submission(subs, "broken", build="exit 3")
    submission(
        subs,
        "forkbomb",
        """
        import os
        while True:
            try:
                os.fork()
            except OSError:
                pass
        """,
    )
    submission(subs, "memoryhog", "hog = [bytearray(1 << 20) for _ in range(100_000)]\n")
    submission(subs, "silent", "import bare, sys\nsys.argv = ['bare']\n", run="python3 silent.py")
    (subs / "silent" / "silent.py").write_text(
        "import os, socket, time\n"
        "s = socket.create_connection((os.environ['KGP_HOST'], int(os.environ['KGP_PORT'])))\n"
        "s.sendall(b'mode freeplay\\r\\n')\n"
        "time.sleep(3600)\n"
    )
    # Each hostile attempt prints what happened; the test reads the agent's log. Listeners of this machine's
    # loopback stand for anything outside: a sandbox with the network reaches them.
    listeners = [socket.create_server(("127.0.0.1", 0)) for _ in range(2)]
    targets = [("127.0.0.1", listener.getsockname()[1]) for listener in listeners]
    submission(
        subs,
        "sockets",
        f"""
        import socket
        for target in {targets!r}:
            try:
                socket.create_connection(target, timeout=1).close()
                print("ESCAPED to", target, flush=True)
            except OSError as error:
                print("blocked", target, error, flush=True)
        for path in ["/run/dbus/system_bus_socket", "/var/run/docker.sock", "{tmp_path}/lib.sqlite"]:
            try:
                socket.socket(socket.AF_UNIX).connect(path)
                print("ESCAPED to", path, flush=True)
            except OSError as error:
                print("blocked", path, error, flush=True)
        """,
    )
    submission(
        subs,
        "writer",
        f"""
        import os
        for path in ["/etc/evil", "/usr/evil", "{subs}/alice/agent.py", "{tmp_path}/evil", "/agent/../evil"]:
            try:
                with open(path, "w") as file:
                    file.write("x")
                print("ESCAPED writing", path, flush=True)
            except OSError as error:
                print("blocked", path, error.strerror, flush=True)
        for path in ["{secret}", "{subs}/bob/agent.toml", "/root", "/home"]:
            try:
                print("ESCAPED reading", path, open(path).read()[:20] if os.path.isfile(path) else os.listdir(path), flush=True)
            except OSError as error:
                print("blocked", path, error.strerror, flush=True)
        open("/tmp/mine", "w").write("private")
        open("/agent/mine", "w").write("own folder")
        print("wrote its own", flush=True)
        """,
    )
    manifests = read_submissions(subs)
    limits = SandboxLimits(memory_mb=300, processes=24, cpu_seconds=60, build_seconds=30, start_seconds=8)
    agents = Agents(manifests, tmp_path / "logs", limits)
    with ServerThread(tmp_path / "lib.sqlite", move_time=0.3, variant=Variant(4, 3), agents=agents) as server:
        # the hostile prelude runs before the agent connects: give it the ports it should fail to reach
        assert server.wait_for(
            lambda: all(row["state"] in ("playing", "out") for row in status_of(server).values()), timeout=40
        ), status_of(server)
        assert server.wait_for(lambda: status_of(server)["silent"]["state"] == "out", timeout=30)
        # Practice pairs whoever waits at random, and the hostile agents that rejoin at once are drawn
        # often: alice meets bob after 10 to 45 s on a quiet machine, and 60 s was once too short under load.
        assert server.wait_for(
            lambda: len([g for g in server.finished_games("alice") if "bob" in {p.name for p in g.players}]) >= 1,
            timeout=180,
        ), "the good agents did not meet"
        status = status_of(server)
        uids = {m.name: AGENT_UID + i for i, m in enumerate(manifests)}
    for listener in listeners:
        listener.close()
    assert status["alice"]["state"] == status["bob"]["state"] == "playing"
    assert status["broken"]["reason"] == "build failed: exited with code 3"
    assert status["forkbomb"]["reason"].startswith("did not sign in within 8 s")
    assert status["memoryhog"]["state"] == "out" and "MemoryError" in status["memoryhog"]["reason"]
    assert status["silent"]["reason"] == "timed out: no legal move in time 3 times in a row"
    assert status["sockets"]["state"] == status["writer"]["state"] == "playing"
    for name in ("sockets", "writer"):
        log = (tmp_path / "logs" / f"{name}.log").read_text()
        assert "ESCAPED" not in log, log
        assert log.count("blocked") >= 4, log
    assert "wrote its own" in (tmp_path / "logs" / "writer.log").read_text()
    assert not (tmp_path / "evil").exists() and "x" != (subs / "alice" / "agent.py").read_text()
    for name in ("forkbomb", "memoryhog", "silent"):  # nothing of theirs is left running
        deadline = time.monotonic() + 10
        while processes_of(uids[name]) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not processes_of(uids[name]), name


def _results(db: Path, event: str) -> list[dict]:
    from kalah.classroom import AgentBook

    book = AgentBook(db)
    try:
        return book.results(event)
    finally:
        book.close()


@pytest.mark.slow
def test_a_tournament_of_submissions_runs_unattended_and_resumes_after_a_stop(tmp_path):
    subs = tmp_path / "submissions"
    for name in ("ann", "ben", "cat", "dan"):
        submission(subs, name)
    submission(subs, "quitter", run="AGENT_QUIT_AFTER=9 python3 agent.py")
    manifests = read_submissions(subs)
    agents = Agents(manifests, tmp_path / "logs", SandboxLimits(start_seconds=20))
    db, standings = tmp_path / "final.sqlite", tmp_path / "final"

    def tournament() -> Tournament:
        return Tournament(99, [Variant(4, 3)], games_per_pairing=2, standings=standings, event="final")

    first = tournament()
    with ServerThread(db, move_time=0.3, variant=Variant(4, 3), tournament=first, agents=agents) as server:
        assert server.wait_for(lambda: len(_results(db, "final")) >= 4, timeout=120), first.status
    stopped_at = len(_results(db, "final"))
    assert not first.finished.is_set() and not standings.with_suffix(".csv").exists()
    second = tournament()
    with ServerThread(db, move_time=0.3, variant=Variant(4, 3), tournament=second, agents=agents) as server:
        assert server.wait_for(second.finished.is_set, timeout=240), second.status
        status = status_of(server)
        base = f"http://127.0.0.1:{server.port}"
        page = httpx.get(f"{base}/tournament").text
        table = httpx.get(f"{base}/tournament/standings.csv").text
        graph = httpx.get(f"{base}/api/graph?event=final").json()
        submissions = httpx.get(f"{base}/api/submissions").json()
    assert "<th>points</th><th>qualified</th>" in page and "standings.csv" in page and "finished" in page
    assert table.splitlines()[0] == "rank,name,points,qualified,games,wins,draws,losses,elo,elo_low,elo_high"
    assert {row["name"] for row in submissions} == {"ann", "ben", "cat", "dan", "quitter"}
    assert all("token" not in row for row in submissions)
    assert status["quitter"]["state"] == "out" and status["quitter"]["reason"].startswith("exited with code 3")
    rows = {row["name"]: row for row in json.loads(standings.with_suffix(".json").read_text())["standings"]}
    assert set(rows) == {"ann", "ben", "cat", "dan", "quitter"}
    qualified = [name for name, row in rows.items() if row["qualified"]]
    assert {"ann", "ben", "cat", "dan"} <= set(qualified)  # a search of depth 5 beats the random bot
    ids = {name: row["id"] for name, row in rows.items()}
    played = [(r["south"], r["north"]) for r in _results(db, "final")]
    # every ordered pair of the qualified exactly once (two games a pair, one a side): the games played before
    # the stop were kept, none played twice, none missing
    expected = sorted((ids[a], ids[b]) for a in qualified for b in qualified if a != b)
    assert sorted(played) == expected and stopped_at < len(expected)
    assert sum(row["points"] for row in rows.values()) == len(expected)
    met = sum(edge["wins"] + edge["draws"] + edge["losses"] for edge in graph)
    assert met == len(expected)  # who beat whom counts every game of the round robin
    first_quitter = [r for r in _results(db, "final") if ids["quitter"] in (r["south"], r["north"])]
    assert all(r["reason"].startswith("forfeit") for r in first_quitter)  # it was out: its games forfeited
