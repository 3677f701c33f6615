"""Names of the people at a game between people (issue 48): given when creating, joining or accepting, kept in
the library's games row, carried to a rematch, shown in the lobby with the side; checked and never HTML."""

from __future__ import annotations

import pytest

from kalah.records import GameLibrary
from kalah.rules import KalahError
from test_web_live import client, db, make_client, next_of  # noqa: F401  (the shared fixtures)


def names(client, game_id):  # noqa: F811
    return [p["name"] for p in client.get(f"/api/live/games/{game_id}").json()["state"]["players"]]


def test_names_given_at_creating_and_joining_are_the_games(client, db):  # noqa: F811
    made = client.post("/api/live/games", json={"seat": 1, "name": "  Ann \n  Lee "}).json()
    game_id = made["game_id"]
    assert names(client, game_id) == ["Player 1", "Ann Lee"]  # one line, spaces between words only
    claimed = client.post(f"/api/live/games/{game_id}/claim", json={"invite": made["invite"], "name": "Bo"})
    assert claimed.status_code == 200, claimed.text
    assert names(client, game_id) == ["Bo", "Ann Lee"]
    summary = next(g for g in client.get("/api/games").json() if g["id"] == game_id)
    assert [p["name"] for p in summary["players"]] == ["Bo", "Ann Lee"]  # the library lists them
    assert [p.name for p in GameLibrary(db).record(game_id).players] == ["Bo", "Ann Lee"]


def test_a_rematch_keeps_each_players_name_in_their_new_seat(client):  # noqa: F811
    made = client.post("/api/live/games", json={"name": "Ann"}).json()
    game_id = made["game_id"]
    joined = client.post(f"/api/live/games/{game_id}/claim", json={"invite": made["invite"], "name": "Bo"}).json()
    tokens = {0: made["token"], 1: joined["token"]}
    client.post(f"/api/live/games/{game_id}/resign", headers={"X-Seat-Token": tokens[0]})
    client.post(f"/api/live/games/{game_id}/rematch", headers={"X-Seat-Token": tokens[0]})
    both = client.post(f"/api/live/games/{game_id}/rematch", headers={"X-Seat-Token": tokens[1]}).json()
    assert names(client, both["live"]["rematch_game"]) == ["Bo", "Ann"]  # the seats swap, the names follow


@pytest.mark.parametrize(
    "name",
    ["x" * 31, "Ann\x1b[31m", "Ann\u202eoB", "Ann\x00"],
    ids=["too-long", "terminal-escape", "right-to-left-override", "nul"],
)
def test_a_name_of_more_than_one_line_or_too_long_is_refused(client, name):  # noqa: F811
    refused = client.post("/api/live/games", json={"name": name})
    assert refused.status_code == 422, refused.text
    made = client.post("/api/live/games", json={}).json()
    claim = client.post(f"/api/live/games/{made['game_id']}/claim", json={"invite": made["invite"], "name": name})
    assert claim.status_code == 422
    assert names(client, made["game_id"]) == ["Player 1", "Player 2"]  # the invitation is not spent


def test_html_in_a_name_is_kept_as_text(client):  # noqa: F811
    made = client.post("/api/live/games", json={"name": "<b>Ann</b> & co"}).json()
    assert names(client, made["game_id"])[0] == "<b>Ann</b> & co"  # the pages show it with textContent


def test_the_library_checks_a_name_too(db):  # noqa: F811
    from kalah.records import PlayerInfo
    from kalah.rules import Position

    library = GameLibrary(db)
    game_id = library.create_game(Position.start(), [PlayerInfo("a", "human"), PlayerInfo("b", "human")])
    for bad in ("", "x" * 31, "a\nb"):
        with pytest.raises(KalahError):
            library.name_player(game_id, 0, bad)
    with pytest.raises(KalahError):
        library.name_player(game_id, 2, "Ann")
    library.name_player(game_id, 1, "Ann")
    assert [p.name for p in library.record(game_id).players] == ["a", "Ann"]


@pytest.mark.parametrize("side", [0, 1, None], ids=["first", "second", "by-lot"])
def test_the_lobby_shows_the_author_and_side_and_the_game_has_both_names(db, side):  # noqa: F811
    with make_client(db) as server, server.websocket_connect("ws://localhost/api/lobby/live") as author:
        next_of(author, "challenges")
        offer = {"type": "challenge", "variant": {"pits": 4, "seeds": 3}, "clock": {"minutes": 3, "increment": 2}}
        author.send_json({**offer, "name": "Ann", "seat": side})
        offered = next_of(author, "offered")
        listed = server.get("/api/live/challenges").json()
        assert [(c["author"], c["seat"], c["clock"]) for c in listed] == [("Ann", side, "3 min + 2 s")]
        taken = server.post(f"/api/live/challenges/{offered['id']}/accept", json={"name": "Bo"}).json()
        matched = next_of(author, "matched")
        if side is not None:
            assert matched["seat"] == side and taken["seat"] == 1 - side
        expected = ["Ann", "Bo"] if matched["seat"] == 0 else ["Bo", "Ann"]
        assert names(server, taken["game_id"]) == expected


def test_a_challenge_accepted_without_a_body_names_the_seat(db):  # noqa: F811
    with make_client(db) as server, server.websocket_connect("ws://localhost/api/lobby/live") as author:
        next_of(author, "challenges")
        author.send_json({"type": "challenge", "variant": {}, "clock": {}})
        offered = next_of(author, "offered")
        taken = server.post(f"/api/live/challenges/{offered['id']}/accept").json()
        assert sorted(names(server, taken["game_id"])) == ["Player 1", "Player 2"]


def test_a_player_who_came_by_a_link_names_their_seat_later(client):  # noqa: F811
    made = client.post("/api/live/games", json={"name": "Ann"}).json()
    game_id = made["game_id"]
    joined = client.post(f"/api/live/games/{game_id}/claim", json={"invite": made["invite"]}).json()
    route = f"/api/live/games/{game_id}/name"
    assert client.post(route, json={"name": "Bo"}).status_code == 403  # a watcher names nobody
    assert client.post(route, json={"name": ""}, headers={"X-Seat-Token": joined["token"]}).status_code == 422
    named = client.post(route, json={"name": "Bo"}, headers={"X-Seat-Token": joined["token"]})
    assert named.status_code == 200, named.text
    assert [p["name"] for p in named.json()["state"]["players"]] == ["Ann", "Bo"]
    client.post(f"/api/live/games/{game_id}/resign", headers={"X-Seat-Token": made["token"]})
    late = client.post(route, json={"name": "Al"}, headers={"X-Seat-Token": made["token"]})
    assert late.status_code == 409  # a finished game's names stay as they were played
