"""The server faces strangers: no client can make it run a program or read a file, and only
requests addressed to the names it serves are answered (DNS rebinding)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from fastapi.testclient import TestClient

from kalah import Position
from kalah.cli.serve import exposure_warning
from kalah.records import GameLibrary, GameRecord, PlayerInfo
from kalah.web import create_app


@pytest.fixture()
def db(tmp_path):
    return tmp_path / "games.sqlite"


@pytest.fixture()
def client(db):
    with TestClient(create_app(db, workers=1, pool="thread"), base_url="http://localhost") as client:
        yield client


@pytest.fixture()
def attack(tmp_path):
    """An exec: spec whose program would leave a file behind if it ever ran, and that file."""
    marker = tmp_path / "pwned"
    script = tmp_path / "attack.py"
    script.write_text(f"open({str(marker)!r}, 'w').write('ran')\n")
    return f"exec[move=2]:{sys.executable} {script}", marker


def record_with(spec: str, moves: tuple[int, ...] = ()) -> GameRecord:
    """A record of Mallory (``spec``, player 0) against a human, with ``moves`` played."""
    record = GameRecord(Position.start(), [PlayerInfo("Mallory", spec), PlayerInfo("Alice", "human")])
    position = record.start
    for move in moves:
        player, position = position.to_move, position.play(move)
        record.add_move(player, move, position)
    return record


def test_a_new_game_with_an_exec_player_is_refused(client, attack):
    spec, marker = attack
    for players in ([spec, "human"], ["human", spec]):
        response = client.post("/api/games", json={"players": players})
        assert response.status_code == 403, response.text
        assert "runs a program" in response.json()["detail"] and "--allow-exec" in response.json()["detail"]
    assert client.get("/api/games").json() == []
    assert not marker.exists()


def test_a_replay_player_reading_a_server_file_is_refused(client, tmp_path):
    secret = tmp_path / "secret.json"
    secret.write_text("{}")
    response = client.post("/api/games", json={"players": [f"replay:file={secret}", "human"]})
    assert response.status_code == 403
    assert "reads a file" in response.json()["detail"]


def test_an_imported_record_naming_an_exec_player_is_refused(client, attack):
    spec, marker = attack
    response = client.post("/api/records", json=record_with(spec).to_dict())
    assert response.status_code == 403, response.text
    assert "runs a program" in response.json()["detail"]
    assert client.get("/api/games").json() == []
    assert not marker.exists()


def test_an_exec_game_already_in_the_library_is_not_run(db, attack):
    spec, marker = attack
    game_id = GameLibrary(db).import_record(record_with(spec))  # put there locally, e.g. by `kalah games import`
    with TestClient(create_app(db, workers=1, pool="thread"), base_url="http://localhost") as client:
        response = act(client, game_id, "computer-move")
        assert response.status_code == 403, response.text
        assert client.get(f"/api/games/{game_id}").json()["moves"] == 0
    assert not marker.exists()


def test_the_page_is_not_offered_external_players(client):
    names = {kind["name"] for kind in client.get("/api/info").json()["player_types"]}
    assert "exec" not in names and "replay" not in names
    assert {"pvs", "random", "human"} <= names


def test_allow_exec_lets_a_trusted_server_run_programs(db, tmp_path):
    agent = f"exec:{sys.executable} -m kalah.cli mankalah --player random:seed=4"
    app = create_app(db, workers=1, pool="thread", allow_exec=True)
    with TestClient(app, base_url="http://localhost") as client:
        assert "exec" in {kind["name"] for kind in client.get("/api/info").json()["player_types"]}
        state = client.post(
            "/api/games", json={"players": [agent, "human"], "variant": {"pits": 7, "seeds": 7, "pie_rule": True}}
        )
        assert state.status_code == 201, state.text
        moved = act(client, state.json()["id"], "computer-move")
        assert moved.status_code == 200, moved.text
        assert moved.json()["moves"] >= 1


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.nip.io", "localhost.evil.example"])
def test_requests_for_other_host_names_are_refused(db, host):
    with TestClient(create_app(db, workers=1, pool="thread"), base_url="http://localhost") as client:
        response = client.get("/api/games", headers={"host": host})
        assert response.status_code == 400
        assert client.get("/api/games", headers={"host": "localhost:8000"}).status_code == 200
        assert client.get("/api/games", headers={"host": "127.0.0.1:8000"}).status_code == 200
        assert client.get("/api/games", headers={"host": "[::1]:8000"}).status_code == 200


def test_allowed_hosts_add_names(db):
    app = create_app(db, workers=1, pool="thread", allowed_hosts=["localhost", "kalah.school.example"])
    with TestClient(app, base_url="http://localhost") as client:
        assert client.get("/api/games", headers={"host": "kalah.school.example"}).status_code == 200
        assert client.get("/api/games", headers={"host": "other.example"}).status_code == 400


def test_binding_beyond_loopback_says_what_is_exposed():
    assert exposure_warning("127.0.0.1", 8000, False, []) is None
    assert exposure_warning("::1", 8000, True, []) is None
    warning = exposure_warning("0.0.0.0", 8000, False, [])
    assert "reachable from other machines" in warning and "--allowed-host" in warning
    assert "run any program" not in warning
    risky = exposure_warning("0.0.0.0", 8000, True, ["kalah.school.example"])
    assert "run any program" in risky and "--allowed-host" not in risky
    assert "deleted only from this machine" in warning and "--allow-delete" not in warning
    emptied = exposure_warning("0.0.0.0", 8000, False, [], allow_delete=True)
    assert "--allow-delete: anyone who reaches it can delete any game" in emptied
    assert "deleted only from this machine" not in emptied


# --- who may delete games ---------------------------------------------------------------


def _games(client) -> list[int]:
    return [game["id"] for game in client.get("/api/games").json()]


def test_a_client_of_another_machine_cannot_delete_a_game(db):
    """Anyone who reached a server run with --host 0.0.0.0 could delete any game (204, no credential)."""
    app = create_app(db, workers=1, pool="thread", allowed_hosts=["*"])
    with TestClient(app, base_url="http://localhost", client=("192.0.2.7", 5000)) as stranger:
        game = stranger.post("/api/games", json={"players": ["human", "human"]}).json()["id"]
        refused = stranger.delete(f"/api/games/{game}")
        assert refused.status_code == 403
        assert "only from the server's own machine" in refused.json()["detail"]
        assert "--allow-delete" in refused.json()["detail"]
        assert _games(stranger) == [game]
        assert stranger.get("/api/info").json()["can_delete"] is False  # the page shows no Delete button


@pytest.mark.parametrize(
    ("address", "headers"),
    [
        ("127.0.0.1", {"host": "kalah.school.example"}),  # a reverse proxy on this machine, keeping Host
        ("127.0.0.1", {"X-Forwarded-For": "192.0.2.7"}),  # a proxy on this machine that is not trusted
        ("127.0.0.1", {"X-Real-IP": "192.0.2.7"}),
        ("::1", {"Forwarded": "for=192.0.2.7"}),
    ],
)
def test_a_client_behind_a_proxy_on_this_machine_cannot_delete_a_game(db, address, headers):
    app = create_app(db, workers=1, pool="thread", allowed_hosts=["localhost", "kalah.school.example"])
    with TestClient(app, base_url="http://localhost", client=(address, 5000)) as client:
        game = client.post("/api/games", json={"players": ["human", "human"]}).json()["id"]
        assert client.delete(f"/api/games/{game}", headers=headers).status_code == 403
        assert _games(client) == [game]


@pytest.mark.parametrize(("address", "host"), [("127.0.0.1", "localhost:8000"), ("::1", "[::1]:8000")])
def test_this_machines_browser_deletes_games(db, address, host):
    app = create_app(db, workers=1, pool="thread", allowed_hosts=["localhost", "[::1]"])
    with TestClient(app, base_url=f"http://{host}", client=(address, 5000)) as client:
        game = client.post("/api/games", json={"players": ["human", "human"]}).json()["id"]
        assert client.get("/api/info").json()["can_delete"] is True
        assert client.delete(f"/api/games/{game}").status_code == 204
        assert _games(client) == []


def test_allow_delete_lets_every_client_delete(db):
    app = create_app(db, workers=1, pool="thread", allow_delete=True)
    with TestClient(app, base_url="http://localhost", client=("192.0.2.7", 5000)) as stranger:
        game = stranger.post("/api/games", json={"players": ["human", "human"]}).json()["id"]
        assert stranger.get("/api/info").json()["can_delete"] is True
        assert stranger.delete(f"/api/games/{game}").status_code == 204
        assert _games(stranger) == []


def kalah(*args, stdin=subprocess.DEVNULL):
    return subprocess.run(
        [sys.executable, "-m", "kalah.cli", *args], capture_output=True, text=True, timeout=120, stdin=stdin
    )


def test_serve_refuses_a_bad_allowed_host_pattern():
    run = kalah("serve", "--allowed-host", "ev*il")
    assert run.returncode == 2
    assert run.stderr.strip().startswith("kalah: error:") and len(run.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "args, message",
    [
        (["--forwarded-allow-ips", "not an ip"], "--forwarded-allow-ips 'not an ip': not an IP address"),
        (["--forwarded-allow-ips", "10.0.0.1,proxy.example"], "--forwarded-allow-ips 'proxy.example'"),
        (["--forwarded-allow-ips", "10.0.0.0/8,"], "--forwarded-allow-ips ''"),
        (["--allowed-host", ""], "--allowed-host '': a host name or address"),
        (["--allowed-host", "https://kalah.example/"], "--allowed-host 'https://kalah.example/'"),
        (["--allowed-host", "kalah example"], "--allowed-host 'kalah example'"),
    ],
)
def test_serve_refuses_bad_proxy_and_host_options_before_listening(args, message, monkeypatch, capsys):
    import kalah.cli.serve as serve_command
    from kalah.cli import main

    def no_binding(*_):
        raise AssertionError("the options were checked after the server tried its port")

    monkeypatch.setattr(serve_command, "bind_problem", no_binding)
    assert main(["serve", *args]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kalah: error: ") and message in lines[0], lines


def test_serve_accepts_proxy_addresses_networks_and_any():
    from kalah.cli.serve import forwarded_ips_problem

    assert forwarded_ips_problem("127.0.0.1") is None
    assert forwarded_ips_problem("10.0.0.0/8, ::1, 2001:db8::/32") is None
    assert forwarded_ips_problem("*") is None and forwarded_ips_problem("") is None


def test_replay_recompute_does_not_run_a_records_program_unasked(tmp_path, attack):
    spec, marker = attack
    path = tmp_path / "game.json"
    path.write_text(record_with(spec, moves=(2, 0)).to_json())  # C earns an extra turn: player 0 moves twice
    refused = kalah("replay", str(path), "--recompute")
    assert refused.returncode == 2, refused.stderr
    assert "--allow-exec" in refused.stderr and len(refused.stderr.strip().splitlines()) == 1
    assert not marker.exists()
    allowed = kalah("replay", str(path), "--recompute", "--allow-exec")
    assert marker.exists(), allowed.stdout + allowed.stderr


def act(client, game_id, action, **body):
    """POST a game action with the move count the game has now (what the page sends)."""
    state = client.get(f"/api/games/{game_id}").json()
    return client.post(f"/api/games/{game_id}/{action}", json={"moves": state.get("moves", 0), **body})
