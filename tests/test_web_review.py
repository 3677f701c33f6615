"""Reviews in the browser: the routes (TestClient) and the Review view (Chromium, Playwright)."""

from __future__ import annotations

import os
import time

import pytest
from fastapi.testclient import TestClient

from kalah import Position, Variant
from kalah.match import play_game
from kalah.players import make_player
from kalah.records import GameLibrary, GameRecord, PlayerInfo, RecordBuilder
from kalah.web import create_app
from test_web_browser import CHROMIUM, browser, page, server, shot  # noqa: F401 - fixtures

JSON = {"Content-Type": "application/json"}


def record_of(variant: Variant, seed: int, human: bool = True) -> GameRecord:
    builder = RecordBuilder()
    play_game(
        [make_player(f"random:seed={seed}"), make_player(f"random:seed={seed + 1}")], Position.start(variant), [builder]
    )
    record = builder.record
    assert record is not None
    if human:
        record.players = [PlayerInfo("You", "human"), record.players[1]]
    return record


def wait_for_review(client, game_id: int) -> dict:
    answer = client.post(f"/api/games/{game_id}/review").json()
    deadline = time.time() + 60
    while answer["status"] == "running" and time.time() < deadline:
        assert 0 <= answer["done"] <= answer["total"]
        time.sleep(0.1)
        answer = client.get(f"/api/games/{game_id}/review").json()
    return answer


@pytest.fixture()
def client(tmp_path):
    with TestClient(
        create_app(tmp_path / "games.sqlite", workers=1, pool="thread"),
        base_url="http://localhost",
        client=("127.0.0.1", 5000),  # a browser on the server's machine: it may delete games
    ) as client:
        yield client


def test_a_review_is_computed_once_and_stored_with_the_game(client, tmp_path):
    record = record_of(Variant(4, 3), 1)
    game_id = client.post("/api/records", content=record.to_json(), headers=JSON).json()["id"]
    assert client.get(f"/api/games/{game_id}/review").status_code == 404
    answer = wait_for_review(client, game_id)
    assert answer["status"] == "done"
    review = answer["review"]
    assert len(review["moves"]) == len(record.moves) and review["players"][0] == "You"
    assert {"move", "player", "best_moves", "loss", "class", "exact", "board"} <= set(review["moves"][0])
    assert GameLibrary(tmp_path / "games.sqlite").review(game_id) == (len(record.moves), review)
    again = client.post(f"/api/games/{game_id}/review").json()
    assert again == {"status": "done", "review": review}  # read back, not started again


def test_a_game_that_moved_on_is_reviewed_again(client):
    game = client.post(
        "/api/games", json={"players": ["random:seed=1", "random:seed=2"], "variant": {"pits": 3, "seeds": 2}}
    ).json()
    game = client.post(f"/api/games/{game['id']}/computer-move", json={"moves": 0}).json()
    first = wait_for_review(client, game["id"])
    assert first["status"] == "done" and len(first["review"]["moves"]) == 1
    game = client.post(f"/api/games/{game['id']}/computer-move", json={"moves": game["moves"]}).json()
    assert client.get(f"/api/games/{game['id']}/review").status_code == 404  # the stored review is of one move
    second = wait_for_review(client, game["id"])
    assert len(second["review"]["moves"]) == game["moves"]


def test_bad_review_requests_are_4xx(client):
    assert client.post("/api/games/999/review").status_code == 404
    assert client.get("/api/games/999/review").status_code == 404
    assert client.get("/api/games/0/review").status_code == 422
    game = client.post("/api/games", json={"players": ["human", "human"]}).json()
    empty = client.post(f"/api/games/{game['id']}/review")
    assert empty.status_code == 422 and "no moves" in empty.json()["detail"]
    assert client.post(f"/api/games/{game['id']}/review?seconds=nan").status_code == 422
    assert client.post(f"/api/games/{game['id']}/review?seconds=100").status_code == 422


# --- fair shares: reviews are engine jobs of their client, bounded, stopped with their game -----------------


def another_client(client: TestClient, host: str) -> TestClient:
    """A client of the same running server (its event loop) from another address."""
    other = TestClient(client.app, base_url="http://localhost", client=(host, 5000))
    other.portal = client.portal
    return other


def start(client, record: GameRecord, seconds: float | None = None) -> tuple[int, dict]:
    game_id = client.post("/api/records", content=record.to_json(), headers=JSON).json()["id"]
    query = "" if seconds is None else f"?seconds={seconds}"
    answer = client.post(f"/api/games/{game_id}/review{query}")
    assert answer.status_code == 200, answer.text
    return game_id, answer.json()


def wait_until(condition, seconds: float = 20) -> None:
    deadline = time.time() + seconds
    while not condition():
        assert time.time() < deadline, "not within the time"
        time.sleep(0.02)


@pytest.fixture()
def quick(tmp_path):
    """A server whose engines think 0.1 s a job at most: a long review takes many short jobs."""
    app = create_app(tmp_path / "games.sqlite", workers=1, pool="thread", move_seconds=0.1, allow_delete=True)
    with TestClient(app, base_url="http://localhost", client=("192.0.2.1", 5000)) as client:
        yield client


def test_a_second_client_reviews_while_the_first_clients_long_review_runs(quick):
    first, second = quick, another_client(quick, "192.0.2.2")
    long_game, running = start(first, record_of(Variant(6, 6), 3), seconds=2)
    assert running["status"] == "running" and running["seconds_per_position"] == 0.1  # the server's cap a job
    assert running["total"] > 60  # some 6 s of engine time: the test ends it by deleting the game
    refused = first.post(f"/api/games/{start_id(first, record_of(Variant(4, 3), 7))}/review")
    assert refused.status_code == 429 and f"game {long_game}" in refused.json()["detail"]
    assert refused.headers["retry-after"]
    began = time.time()
    short_game, answer = start(second, record_of(Variant(4, 3), 1))
    assert answer["status"] == "running"  # was: 503 another game is being reviewed
    wait_until(lambda: second.get(f"/api/games/{short_game}/review").json()["status"] == "done")
    assert time.time() - began < 10  # its positions took turns with the long review's, one job each
    still = first.get(f"/api/games/{long_game}/review").json()
    assert still["status"] == "running" and still["done"] < still["total"]
    assert first.delete(f"/api/games/{long_game}").status_code == 204


def start_id(client, record: GameRecord) -> int:
    return client.post("/api/records", content=record.to_json(), headers=JSON).json()["id"]


def test_deleting_a_game_stops_its_review_and_stopping_the_server_stops_them_all(tmp_path):
    app = create_app(tmp_path / "games.sqlite", workers=1, pool="thread", move_seconds=0.1, allow_delete=True)
    with TestClient(app, base_url="http://localhost", client=("192.0.2.1", 5000)) as client:
        game_id, _ = start(client, record_of(Variant(6, 6), 3), seconds=2)
        wait_until(lambda: client.get(f"/api/games/{game_id}/review").json()["done"] >= 2)
        job = app.state.reviews.running(game_id)
        assert client.delete(f"/api/games/{game_id}").status_code == 204
        assert app.state.reviews.running(game_id) is None
        wait_until(lambda: job.task.done() and app.state.service.engines.load("addr:192.0.2.1") == 0, 5)
        assert job.task.cancelled()
        done = job.done
        time.sleep(0.3)
        assert job.done == done  # no further position was analysed
        assert client.get(f"/api/games/{game_id}/review").status_code == 404

        other, _ = start(client, record_of(Variant(6, 6), 5), seconds=2)  # the client's one review is free again
        job = app.state.reviews.running(other)
        began = time.time()
    assert time.time() - began < 5  # the server stopped at once with a review under way
    assert job.task.cancelled() and app.state.reviews.running(other) is None


def test_a_review_asks_for_a_bounded_engine_time_in_all(client, monkeypatch):
    from kalah.web import review

    assert review.position_seconds(2.0, 458) * 458 <= review.REVIEW_ENGINE_SECONDS
    assert review.position_seconds(0.3, 41) == 0.3  # a usual game keeps the time it asked for
    long_game = record_of(Variant(12, 15), 2)
    assert len(long_game.moves) > 200  # the report's was of 457 moves: 15 minutes at 2 s a position
    game_id, answer = start(client, long_game, seconds=2)
    assert answer["total"] == len(long_game.moves) + 1
    assert 0 < answer["seconds_per_position"] < 2
    assert answer["seconds_per_position"] * answer["total"] <= review.REVIEW_ENGINE_SECONDS + 1e-9
    assert client.delete(f"/api/games/{game_id}").status_code == 204

    monkeypatch.setattr(review, "REVIEW_ENGINE_SECONDS", 1.0)
    record = record_of(Variant(4, 3), 4)
    game_id, answer = start(client, record, seconds=2)
    wait_until(lambda: client.get(f"/api/games/{game_id}/review").json()["status"] == "done")
    made = client.get(f"/api/games/{game_id}/review").json()["review"]
    assert made["seconds_per_position"] * (len(record.moves) + 1) <= 1.0 + 1e-9
    assert len(made["moves"]) == len(record.moves)

    monkeypatch.setattr(review, "REVIEW_ENGINE_SECONDS", 10 * review.MIN_POSITION_SECONDS)
    too_long = client.post(f"/api/games/{start_id(client, record_of(Variant(4, 4), 6))}/review")
    assert too_long.status_code == 422 and "at most 9 moves" in too_long.json()["detail"]


# --- the page ----------------------------------------------------------------------------------------------


def import_game(server, record: GameRecord) -> int:  # noqa: F811 - the fixture's value, passed on
    import httpx

    return httpx.post(f"{server['url']}/api/records", content=record.to_json(), headers=JSON).json()["id"]


@pytest.mark.browser
@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing")
def test_the_review_view_graph_moves_and_lessons(page, server):  # noqa: F811
    record = record_of(Variant(4, 3), 5)
    game_id = import_game(server, record)
    page.goto(f"{server['url']}/#/library")
    page.click(f"tr[data-game='{game_id}'] a.review")
    page.wait_for_selector("#view-review[data-state='done']", timeout=60_000)
    points = page.locator("#rv-graph [data-point]")
    assert points.count() == len(record.moves) + 1
    assert page.locator("#rv-moves li").count() == len(record.moves)
    # every move its own number, as in the game's move list (not one number for a pair of moves)
    assert page.locator("#rv-moves .rv-num").all_inner_texts() == [f"{n}." for n in range(1, len(record.moves) + 1)]
    shot(page, "review")
    points.nth(3).click()
    assert page.locator("#rv-board").get_attribute("data-index") == "3"
    page.locator("#rv-moves li[data-move='2']").click()
    assert page.locator("#rv-board").get_attribute("data-index") == "1"
    # the review the page made (in the browser: the server made none), as its moves tell it
    moves = page.eval_on_selector_all(
        "#rv-moves li[data-move]",
        "items => items.map((li) => ({number: Number(li.dataset.move), player: Number(li.dataset.player),"
        " move: JSON.parse(li.dataset.played), best_moves: JSON.parse(li.dataset.best),"
        " forced: li.dataset.forced === 'true', class: li.dataset.class}))",
    )
    review = {"moves": moves}
    lessons = [
        m for m in review["moves"] if m["player"] == 0 and not m["forced"] and m["class"] in ("mistake", "blunder")
    ]
    lessons = lessons or [
        m for m in review["moves"] if m["player"] == 0 and not m["forced"] and m["class"] == "inaccuracy"
    ]
    if not lessons:
        assert page.locator("#rv-learn").is_hidden()
        return
    page.click("#rv-learn")
    first = lessons[0]
    assert page.locator("#rv-board").get_attribute("data-index") == str(first["number"] - 1)
    wrong = page.locator(f"#rv-choices button[data-choice='{first['move']}']")
    wrong.click()
    assert page.locator("#rv-feedback").get_attribute("data-correct") == "false"  # the mistake itself is not accepted
    assert page.locator("#rv-next").is_hidden()  # no answer before a better move or asking for it
    page.click(f"#rv-choices button[data-choice='{first['best_moves'][0]}']")
    assert page.locator("#rv-feedback").get_attribute("data-correct") == "true"
    shot(page, "review-lesson")


@pytest.mark.browser
@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing")
def test_a_finished_game_offers_its_review_and_the_view_fits_a_phone(browser, server):  # noqa: F811
    import httpx

    game = httpx.post(
        f"{server['url']}/api/games",
        json={"players": ["random:seed=3", "random:seed=4"], "variant": {"pits": 4, "seeds": 3}},
    ).json()
    while not game["over"]:
        game = httpx.post(f"{server['url']}/api/games/{game['id']}/computer-move", json={"moves": game["moves"]}).json()
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True)
    phone = context.new_page()
    errors: list[str] = []
    phone.on("pageerror", lambda error: errors.append(str(error)))
    phone.goto(f"{server['url']}/#/game/{game['id']}")
    offer = phone.wait_for_selector("#btn-review:not([hidden])", timeout=20_000)
    assert offer.get_attribute("href") == f"#/review/{game['id']}"
    offer.click()
    phone.wait_for_selector("#view-review[data-state='done']", timeout=60_000)
    wide = phone.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    shot(phone, "phone-review")
    phone.click("#rv-learn") if phone.locator("#rv-learn").is_visible() else None
    shot(phone, "phone-review-lesson")
    context.close()
    assert wide <= 0, f"the review is {wide} px wider than a 390 px phone"
    assert not errors, errors


def test_the_puzzle_list_route(client):
    every = client.get("/api/puzzles").json()
    assert len(every) >= 1000
    five = client.get("/api/puzzles?pits=6&seeds=5&theme=capture").json()
    assert five and all(p["variant"]["seeds"] == 5 and "capture" in p["theme"] for p in five)
    assert client.get("/api/puzzles?theme=fork").status_code == 422
    assert client.get("/api/puzzles?seeds=99").status_code == 422


@pytest.mark.browser
@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing")
def test_the_puzzle_trainer_keeps_a_rating_and_a_streak(browser, server):  # noqa: F811
    import httpx

    puzzles = {p["id"]: p for p in httpx.get(f"{server['url']}/api/puzzles").json()}
    for width, height, name in ((1280, 900, "puzzles"), (390, 844, "phone-puzzles")):
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()  # noqa: F811 - a page of this context, not the fixture
        errors: list[str] = []
        page.on("pageerror", lambda error, errors=errors: errors.append(str(error)))
        page.goto(f"{server['url']}/#/puzzles")
        page.wait_for_selector("#view-puzzles[data-state='asking'] #pz-choices button")
        assert page.locator("#pz-rating").get_attribute("data-rating") == "1200"
        puzzle = puzzles[page.locator("#view-puzzles").get_attribute("data-puzzle")]
        page.click(f"#pz-choices button[data-choice='{puzzle['solution']}']")
        page.wait_for_selector("#view-puzzles[data-state='solved']")
        assert int(page.locator("#pz-rating").get_attribute("data-rating")) > 1200
        assert page.locator("#pz-streak").get_attribute("data-streak") == "1"
        shot(page, name)
        page.click("#pz-next")
        page.wait_for_selector("#view-puzzles[data-state='asking']")
        puzzle = puzzles[page.locator("#view-puzzles").get_attribute("data-puzzle")]
        wrong = next(
            button.get_attribute("data-choice")
            for button in page.locator("#pz-choices button").all()
            if button.get_attribute("data-choice") != str(puzzle["solution"])
        )
        page.click("#pz-hint")
        assert "Hint:" in page.locator("#pz-feedback").inner_text()
        page.click(f"#pz-choices button[data-choice='{wrong}']")
        assert page.locator("#pz-streak").get_attribute("data-streak") == "0"
        page.reload()  # the rating and streak live in the browser
        page.wait_for_selector("#view-puzzles[data-state='asking']")
        assert page.locator("#pz-streak").inner_text().endswith("solved 1 of 1") is False
        assert "best 1" in page.locator("#pz-streak").inner_text()
        wide = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        context.close()
        assert wide <= 0 and not errors, (wide, errors)
