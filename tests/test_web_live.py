"""Games between two people (kalah.web.live) through the API and its push connections (no browser)."""

from __future__ import annotations

import json
import sqlite3
import time

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

from kalah.records import GameLibrary, LibraryBusyError
from kalah.web import create_app
from kalah.web.live import LiveLimits
from kalah.web.live import clock as clocks
from kalah.web.live.clock import Clock


@pytest.fixture()
def db(tmp_path):
    return tmp_path / "games.sqlite"


def make_client(db, **limits):
    return TestClient(
        create_app(db, workers=1, pool="thread", live_limits=LiveLimits(**limits)), base_url="http://localhost"
    )


@pytest.fixture()
def client(db):
    with make_client(db) as client:
        yield client


def start(client, seat=0, clock=None, **variant):
    """A game with its creator in ``seat`` and the invited seat taken: (game id, tokens by seat)."""
    made = client.post("/api/live/games", json={"variant": variant, "clock": clock or {}, "seat": seat})
    assert made.status_code == 201, made.text
    game = made.json()
    claimed = client.post(f"/api/live/games/{game['game_id']}/claim", json={"invite": game["invite"]})
    assert claimed.status_code == 200, claimed.text
    assert claimed.json()["seat"] == 1 - seat
    tokens = {seat: game["token"], 1 - seat: claimed.json()["token"]}
    return game["game_id"], tokens


def next_of(socket, kind):
    """The next message of ``kind`` on a push connection (presence news may come between)."""
    message = socket.receive_json()
    while message["type"] != kind:
        message = socket.receive_json()
    return message


def move(client, game_id, token, pit, moves):
    return client.post(
        f"/api/live/games/{game_id}/moves",
        json={"move": pit, "moves": moves},
        headers={"X-Seat-Token": token} if token else {},
    )


def test_only_the_holder_of_a_seat_moves_it(client, db):
    game_id, tokens = start(client)
    assert move(client, game_id, None, 2, 0).status_code == 403
    assert move(client, game_id, "not-a-token-at-all", 2, 0).status_code == 403
    assert move(client, game_id, tokens[1], 2, 0).status_code == 409  # a player, but not their turn
    # the routes of games against the computer know no seats: they refuse a live game
    assert client.post(f"/api/games/{game_id}/moves", json={"move": 2, "moves": 0}).status_code == 403
    assert client.post(f"/api/games/{game_id}/takeback", json={"moves": 0}).status_code == 403
    assert client.delete(f"/api/games/{game_id}").status_code == 403
    assert client.get(f"/api/games/{game_id}").json()["moves"] == 0  # nothing changed
    played = move(client, game_id, tokens[0], 2, 0)
    assert played.status_code == 200, played.text
    assert GameLibrary(db).record(game_id).moves[0].move == 2  # in the library before the answer


def test_a_move_sent_again_is_stale_409_as_in_a_computer_game(client):
    """Sent twice, {"move": 2, "moves": 0} was 422 "illegal move: pit 2 of player 0 is empty" (pit 2 ends in
    the store: the same player moves again); the README promises 409 for a stale request."""
    game_id, tokens = start(client)
    assert move(client, game_id, tokens[0], 2, 0).status_code == 200
    again = move(client, game_id, tokens[0], 2, 0)
    assert again.status_code == 409, again.text
    assert again.json()["detail"] == (
        f"game {game_id} has 1 move, not 0: it moved on since this request was made (reload it)"
    )
    assert move(client, game_id, tokens[1], 0, 0).status_code == 409  # stale before "not your turn"
    assert move(client, game_id, tokens[0], 2, 1).status_code == 422  # current, and pit 2 empty: illegal
    assert client.get(f"/api/games/{game_id}").json()["moves"] == 1


@pytest.mark.parametrize("spelling", ["{id}.0", "+{id}", "%2B{id}", " {id}", "%20{id}", "{id}_", "0x{id}", "\u0661"])
def test_a_game_id_is_digits_only_so_no_spelling_slips_past_the_seats(client, spelling):
    game_id, _ = start(client)
    # The guard of the old routes reads the id off the raw path; they must not read another spelling
    # of it ("1.0", "+1", "1_0": pydantic's lax integers) as the same live game.
    path = f"/api/games/{spelling.format(id=game_id)}"
    assert client.post(f"{path}/moves", json={"move": 2, "moves": 0}).status_code in (403, 404, 422)
    assert client.post(f"{path}/takeback", json={"moves": 0}).status_code in (403, 404, 422)
    assert client.post(f"{path}/leave").status_code in (403, 404, 422)
    assert client.delete(path).status_code in (403, 404, 422)
    wrong = client.post(f"/api/games/{game_id}.0/moves", json={"move": 2, "moves": 0})
    assert wrong.status_code == 422 and "digits only" in wrong.text
    state = client.get(f"/api/games/{game_id}").json()
    assert state["moves"] == 0 and state["status"] == "playing"  # nothing played, nothing deleted


def test_a_live_game_whose_end_cannot_be_read_is_not_deleted(db, monkeypatch):
    app = create_app(db, workers=1, pool="thread", allow_delete=True)
    with TestClient(app, base_url="http://localhost") as client:
        _a_live_game_whose_end_cannot_be_read_is_not_deleted(client, monkeypatch)


def _a_live_game_whose_end_cannot_be_read_is_not_deleted(client, monkeypatch):
    game_id, _ = start(client)
    assert client.delete(f"/api/games/{game_id}").status_code == 403  # under way: its players' alone
    library = client.app.state.live.games.library

    def busy(game_id):
        raise LibraryBusyError("the game library is locked by another program")

    monkeypatch.setattr(library, "game", busy)
    refused = client.delete(f"/api/games/{game_id}")
    assert refused.status_code == 503 and "locked" in refused.json()["detail"]
    monkeypatch.undo()
    assert client.get(f"/api/games/{game_id}").status_code == 200  # kept


def test_an_invitation_is_spent_once_and_tokens_are_stored_hashed(client, db):
    made = client.post("/api/live/games", json={}).json()
    first = client.post(f"/api/live/games/{made['game_id']}/claim", json={"invite": made["invite"]})
    second = client.post(f"/api/live/games/{made['game_id']}/claim", json={"invite": made["invite"]})
    assert first.status_code == 200 and second.status_code == 409
    stored = sqlite3.connect(db).execute("SELECT * FROM live_games").fetchall()
    text = repr(stored)
    for token in (made["token"], made["invite"], first.json()["token"]):
        assert token not in text


def test_moves_reach_the_other_screen_and_watchers_by_push(client):
    game_id, tokens = start(client)
    with (
        client.websocket_connect(f"ws://localhost/api/games/{game_id}/live") as other,
        client.websocket_connect(f"ws://localhost/api/games/{game_id}/live") as watcher,
    ):
        other.send_json({"token": tokens[1]})
        assert next_of(other, "hello")["seat"] == 1
        watcher.send_json({})
        assert next_of(watcher, "hello")["seat"] is None
        move(client, game_id, tokens[0], 2, 0)
        for socket in (other, watcher):
            message = next_of(socket, "state")
            assert message["state"]["moves"] == 1 and message["state"]["last"]["move"] == 2
        seen = client.get(f"/api/live/games/{game_id}").json()["live"]
        assert seen["connected"] == [False, True] and seen["watchers"] == 1


def test_a_push_connection_from_another_site_is_refused(client):
    game_id, _ = start(client)
    with pytest.raises((WebSocketDisconnect, WebSocketDenialResponse)):
        with client.websocket_connect(
            f"ws://localhost/api/games/{game_id}/live", headers={"Origin": "http://evil.example"}
        ) as ws:
            ws.receive_json()
    with client.websocket_connect(
        f"ws://localhost/api/games/{game_id}/live", headers={"Origin": "http://localhost"}
    ) as ws:
        ws.send_json({})
        assert next_of(ws, "hello")["seat"] is None


def test_one_address_cannot_open_unbounded_connections_or_games(db):
    with make_client(db, connections=3, games=2) as client:
        game_id, _ = start(client)
        start(client)
        assert client.post("/api/live/games", json={}).status_code == 429
        sockets = [client.websocket_connect(f"ws://localhost/api/games/{game_id}/live") for _ in range(3)]
        for socket in sockets:
            socket.__enter__()
        with pytest.raises((WebSocketDisconnect, WebSocketDenialResponse)):
            with client.websocket_connect(f"ws://localhost/api/games/{game_id}/live") as extra:
                extra.receive_json()
        for socket in sockets:
            socket.__exit__(None, None, None)


def test_resign_ends_the_game_for_the_other(client):
    game_id, tokens = start(client)
    assert client.post(f"/api/live/games/{game_id}/resign").status_code == 403
    ended = client.post(f"/api/live/games/{game_id}/resign", headers={"X-Seat-Token": tokens[1]}).json()
    assert ended["live"]["result"] == {"winner": 0, "reason": "resign"}
    # stored finished, with its winner and how it ended (it was "stopped" with no winner: the library offered
    # to continue it, and left it out of "finished" and "decisive")
    assert ended["state"]["status"] == "finished"
    assert ended["state"]["winner"] == 0 and ended["state"]["termination"] == "resignation"
    assert not ended["state"]["human_to_move"]
    listed = {game["id"]: game for game in client.get("/api/games").json()}[game_id]
    assert (listed["status"], listed["winner"], listed["termination"]) == ("finished", 0, "resignation")
    assert move(client, game_id, tokens[0], 2, 0).status_code == 409


def test_a_take_back_request_is_accepted_or_declined_by_the_other(client):
    game_id, tokens = start(client)
    move(client, game_id, tokens[0], 0, 0)  # 4 seeds from pit 0: no extra turn
    move(client, game_id, tokens[1], 0, 1)
    url = f"/api/live/games/{game_id}/takeback"
    asked = client.post(url, json={"action": "request", "moves": 2}, headers={"X-Seat-Token": tokens[0]})
    assert asked.json()["live"]["takeback_from"] == 0
    assert (
        client.post(url, json={"action": "accept", "moves": 2}, headers={"X-Seat-Token": tokens[0]}).status_code == 409
    )  # not one's own request
    declined = client.post(url, json={"action": "decline", "moves": 2}, headers={"X-Seat-Token": tokens[1]}).json()
    assert declined["live"]["takeback_from"] is None and declined["state"]["moves"] == 2
    client.post(url, json={"action": "request", "moves": 2}, headers={"X-Seat-Token": tokens[0]})
    accepted = client.post(url, json={"action": "accept", "moves": 2}, headers={"X-Seat-Token": tokens[1]}).json()
    assert accepted["state"]["moves"] == 0 and accepted["state"]["to_move"] == 0  # back to before player 0's move


def test_rematch_swaps_the_seats_with_the_same_tokens(client):
    game_id, tokens = start(client)
    client.post(f"/api/live/games/{game_id}/resign", headers={"X-Seat-Token": tokens[0]})
    client.post(f"/api/live/games/{game_id}/rematch", headers={"X-Seat-Token": tokens[0]})
    both = client.post(f"/api/live/games/{game_id}/rematch", headers={"X-Seat-Token": tokens[1]}).json()
    new_id = both["live"]["rematch_game"]
    assert new_id and new_id != game_id
    assert move(client, new_id, tokens[0], 2, 0).status_code == 409  # now the second player
    assert move(client, new_id, tokens[1], 2, 0).status_code == 200


def test_the_pie_rule_swap_is_a_move_of_the_second_seat(client):
    game_id, tokens = start(client, pie_rule=True)
    move(client, game_id, tokens[0], 0, 0)
    swapped = move(client, game_id, tokens[1], "swap", 1)
    assert swapped.status_code == 200, swapped.text
    assert swapped.json()["state"]["history"][-1].lower().startswith("swap")


def test_the_server_lets_a_flag_fall_by_its_own_timer(client):
    game_id, tokens = start(client, clock={"minutes": 0.01, "increment": 0})  # 600 ms each
    first = move(client, game_id, tokens[0], 0, 0).json()
    assert first["live"]["clock"]["running"] == 1
    with client.websocket_connect(f"ws://localhost/api/games/{game_id}/live") as watcher:
        watcher.send_json({})
        next_of(watcher, "hello")
        message = next_of(watcher, "state")  # the flag falls with nobody moving or asking
        assert message["live"]["result"] == {"winner": 0, "reason": "time"}
    assert move(client, game_id, tokens[1], 0, 1).status_code == 409


def test_clock_increment_and_correspondence():
    clock = Clock.new(3, 2).moved(0, 1, False, now=100.0)  # the first move starts the clock, no increment yet
    assert clock.ms == (180_000, 180_000) and clock.running == 1
    clock = clock.moved(1, 0, False, now=110.0)
    assert clock.ms == (180_000, 172_000)
    assert clock.expired(now=100 + 10 + 180.0) == 0
    days = Clock.new(days=2).moved(0, 1, False, now=0.0)
    days = days.moved(1, 0, False, now=86_400.0)  # a day spent, and the time is full again
    assert days.ms[1] == 2 * clocks.DAY_MS


def test_lobby_challenge_accept_and_expiry(db):
    with make_client(db, lobby_grace=0.2) as client:
        with client.websocket_connect("ws://localhost/api/lobby/live") as author:
            assert author.receive_json() == {"type": "challenges", "challenges": []}
            author.send_json(
                {"type": "challenge", "variant": {"pits": 4, "seeds": 3}, "clock": {"minutes": 3, "increment": 2}}
            )
            offered = next_of(author, "offered")  # the listing's news may come before or after it
            listed = client.get("/api/live/challenges").json()
            assert [c["clock"] for c in listed] == ["3 min + 2 s"]
            taken = client.post(f"/api/live/challenges/{offered['id']}/accept")
            assert taken.status_code == 200
            matched = next_of(author, "matched")
            assert matched["game_id"] == taken.json()["game_id"] and matched["seat"] == 1 - taken.json()["seat"]
            author.send_json({"type": "challenge", "variant": {}, "clock": {}})
        # the author left: after the grace (a fifth of a second), the challenge is gone
        deadline = time.monotonic() + 10  # generous: the author's leaving is stored by a thread of a busy machine
        while client.get("/api/live/challenges").json() != []:
            assert time.monotonic() < deadline, "the challenge outlived its author's leaving"
            time.sleep(0.05)


def test_a_challenge_whose_author_leaves_while_it_is_stored_goes_too(db, monkeypatch):
    """The author's page closes while its challenge is being stored, and the connection's reading is
    cancelled (CI found this): the stored challenge must still leave with its author, not stay open for
    as long as the server runs."""
    import asyncio

    from kalah.web.live.hub import PushConnection
    from kalah.web.live.models import ChallengeIn
    from kalah.web.live.store import LiveStore

    storing = LiveStore.add_challenge

    def slowly(self, *arguments):
        time.sleep(0.5)  # the page closes meanwhile
        return storing(self, *arguments)

    monkeypatch.setattr(LiveStore, "add_challenge", slowly)
    with make_client(db, lobby_grace=0.2) as client:
        lobby = client.app.state.lobby

        async def offer_and_leave():
            author = PushConnection(None, "testclient", "lobby")
            offering = asyncio.ensure_future(lobby.offer(author, ChallengeIn()))
            await asyncio.sleep(0.1)
            offering.cancel()  # what the connection's end does to the task reading it
            await lobby.author_left(author)

        client.portal.call(offer_and_leave)
        time.sleep(0.6)  # the store is done by now, whatever the code awaited
        deadline = time.monotonic() + 10
        while client.get("/api/live/challenges").json() != []:
            assert time.monotonic() < deadline, "the challenge outlived its author's leaving"
            time.sleep(0.05)


def test_a_push_connection_that_floods_the_server_is_closed(client):
    game_id, _ = start(client)
    with client.websocket_connect(f"ws://localhost/api/games/{game_id}/live") as ws:
        ws.send_json({})
        next_of(ws, "hello")
        for _ in range(40):
            ws.send_text("{}")
        with pytest.raises(WebSocketDisconnect):
            while True:
                ws.receive_json()


def test_a_resume_key_of_any_text_is_only_not_found(client):
    """A key that matches no challenge gets no answer at all, whatever its text (compare_digest refuses a
    non-ASCII str): not an error, not a closed connection. (A lone surrogate is no text: the message is
    refused as invalid JSON text, as any other.)"""
    with client.websocket_connect("ws://localhost/api/lobby/live") as author:
        assert author.receive_json()["type"] == "challenges"
        author.send_json({"type": "challenge", "variant": {"pits": 4, "seeds": 3}})
        offered = next_of(author, "offered")
        near_miss = offered["key"][:-1] + ("A" if offered["key"][-1] != "A" else "B")
        for key in ["clé-ключ-\U0001f600", "", "\x00", near_miss, "k" * 100]:
            author.send_text(json.dumps({"type": "resume", "key": key}))
            author.send_json({"type": "nonsense"})  # answered with an error: the first answer after the resume
            answer = author.receive_json()
            while answer["type"] in ("presence", "challenges"):
                answer = author.receive_json()
            assert answer == {"type": "error", "status": 422, "detail": "unknown message"}, (key[:20], answer)
        author.send_json({"type": "resume", "key": offered["key"]})  # the real key still finds its challenge
        assert next_of(author, "offered")["id"] == offered["id"]
