"""Pages that keep the user oriented (Chromium, Playwright, at desktop and phone widths): the puzzle board
turned for the mover with its move buttons in the order of its pits, the replay's move list following the shown
move, the review graph's labels clear of its plot."""

from __future__ import annotations

import json
import os

import httpx
import pytest

from test_web_browser import CHROMIUM, browser, server, shot  # noqa: F401  (the shared fixtures)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing"),
]

WIDTHS = [(1280, 900), (390, 844)]


def new_page(browser, width: int, height: int):  # noqa: F811
    context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=width < 500)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    return context, page, errors


@pytest.mark.parametrize(("width", "height"), WIDTHS)
def test_a_puzzle_for_player_1_has_its_buttons_in_the_order_of_its_pits(browser, server, width, height):  # noqa: F811
    """Player 1's pits ran f..a from left to right while the buttons ran a..f; the letters were 4 px high on a
    phone. Only player-1 puzzles are listed to the page here, so that the one it picks is one."""
    every = httpx.get(f"{server['url']}/api/puzzles").json()
    ones = [p for p in every if p["position"]["to_move"] == 1 and len(p["legal_moves"]) >= 3]
    assert ones
    context, page, errors = new_page(browser, width, height)
    page.route(
        "**/api/puzzles*",
        lambda route: route.fulfill(status=200, content_type="application/json", body=json.dumps(ones)),
    )
    page.goto(f"{server['url']}/#/puzzles")
    page.wait_for_selector("#view-puzzles[data-state='asking'] #pz-choices button")
    page.wait_for_selector("#pz-board [data-pit]")
    puzzle = {p["id"]: p for p in ones}[page.locator("#view-puzzles").get_attribute("data-puzzle")]
    seen = page.evaluate("""() => {
        const middle = (r) => r.left + r.width / 2;
        const buttons = [...document.querySelectorAll('#pz-choices button')].map((b) => ({
            move: b.dataset.choice, text: b.textContent, x: middle(b.getBoundingClientRect())}));
        const pits = {};
        for (const pit of document.querySelectorAll('#pz-board [data-pit^="1-"]')) {
            const letter = pit.querySelector('.letter').getBoundingClientRect();
            pits[pit.dataset.pit.slice(2)] = {x: middle(pit.querySelector('.cup').getBoundingClientRect()),
                letter: pit.dataset.letter, letterHeight: letter.height};
        }
        const board = document.querySelector('#pz-board');
        return {buttons, pits, bottom: board.dataset.bottom, rows: [...board.querySelectorAll('[data-pit]')].map(
            (p) => [p.dataset.pit[0], p.querySelector('.cup').getBoundingClientRect().top])};
    }""")
    shot(page, f"orientation-puzzle-{width}")
    assert seen["bottom"] == "1"  # turned for the mover, as the play page turns for a human's seat
    assert min(top for player, top in seen["rows"] if player == "1") > max(top for p, top in seen["rows"] if p == "0")
    buttons = seen["buttons"]
    assert [b["move"] for b in buttons] == [str(m) for m in puzzle["legal_moves"]]
    for b in buttons:
        assert b["text"] == seen["pits"][b["move"]]["letter"]
    # the buttons run the way their pits do: ordered by x, the buttons and their pits are in the same order
    by_x = sorted(buttons, key=lambda b: b["x"])
    assert [b["move"] for b in by_x] == sorted((b["move"] for b in buttons), key=lambda m: seen["pits"][m]["x"])
    assert min(pit["letterHeight"] for pit in seen["pits"].values()) >= 11, seen["pits"]
    # a pit of the board plays too
    page.click(f"#pz-board [data-pit='1-{puzzle['solution']}'] .cup")
    page.wait_for_selector("#view-puzzles[data-state='solved']")
    assert page.locator("#pz-board .pit.legal").count() == 0
    wide = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    context.close()
    assert wide <= 0 and not errors, (wide, errors)


def long_record() -> dict:
    """A finished random game of Kalah(8,6) of at least 90 moves, as a record to import."""
    from kalah import Position, Variant
    from kalah.match import play_game
    from kalah.players import make_player
    from kalah.records import RecordBuilder

    for seed in range(50):
        builder = RecordBuilder()
        players = [make_player(f"random:seed={seed}"), make_player(f"random:seed={seed + 1}")]
        play_game(players, Position.start(Variant(8, 6)), [builder])
        assert builder.record is not None
        if len(builder.record.moves) >= 90:
            return builder.record.to_dict()
    raise AssertionError("no random game of 90 moves")


SHOWN = """() => {
    const list = document.querySelector('#history'), current = list.querySelector('li.current');
    const box = list.getBoundingClientRect(), at = current ? current.getBoundingClientRect() : null;
    return {index: Number(document.querySelector('#board').dataset.replayIndex), scrollY: window.scrollY,
        listTop: list.scrollTop, inside: !!at && at.top >= box.top - 1 && at.bottom <= box.bottom + 1,
        current: current ? [...list.children].indexOf(current) + 1 : 0, scrolls: list.scrollHeight > list.clientHeight};
}"""


@pytest.mark.parametrize(("width", "height"), WIDTHS)
def test_the_replay_keeps_the_shown_move_in_sight_in_the_move_list(browser, server, width, height):  # noqa: F811
    """Jumping to the end showed "move 101 of 101" with moves 1-32 in the list."""
    record = long_record()
    n = len(record["moves"])
    game = httpx.post(f"{server['url']}/api/records", json=record)
    assert game.status_code == 201, game.text
    context, page, errors = new_page(browser, width, height)
    page.goto(f"{server['url']}/?anim=0#/replay/{game.json()['id']}")
    page.wait_for_selector("#rp-slider")
    page.click("#rp-last")
    page.wait_for_function(f"document.querySelector('#board').dataset.replayIndex === '{n}'")
    last = page.evaluate(SHOWN)
    shot(page, f"orientation-replay-last-{width}")
    assert last["scrolls"] and last["current"] == n and last["inside"], last
    # the keys: End jumps there without scrolling the page (the list scrolls by itself)
    page.keyboard.press("Home")
    page.wait_for_function("document.querySelector('#board').dataset.replayIndex === '0'")
    assert page.evaluate(SHOWN)["listTop"] == 0
    page.evaluate("window.scrollTo(0, 0)")
    page.keyboard.press("End")
    page.wait_for_function(f"document.querySelector('#board').dataset.replayIndex === '{n}'")
    end = page.evaluate(SHOWN)
    assert end["inside"] and end["scrollY"] == 0, end
    # a step back from the end, and a move picked in the middle, stay in sight too
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"document.querySelector('#board').dataset.replayIndex === '{n - 1}'")
    assert page.evaluate(SHOWN)["inside"]
    page.fill("#rp-slider", str(n // 2))
    page.wait_for_function(f"document.querySelector('#board').dataset.replayIndex === '{n // 2}'")
    middle = page.evaluate(SHOWN)
    assert middle["inside"] and middle["current"] == n // 2, middle
    context.close()
    assert not errors, errors


@pytest.mark.parametrize(("width", "height"), WIDTHS)
def test_the_review_graph_labels_stay_clear_of_the_plot(browser, server, width, height):  # noqa: F811
    """The label "pvs (depth 2, strong) ahead (+22)" lay over the first points of the graph, and on a phone it was a few
    pixels high."""
    from kalah import Position, Variant
    from kalah.match import play_game
    from kalah.players import make_player
    from kalah.records import RecordBuilder

    builder = RecordBuilder()
    play_game([make_player("pvs:depth=2"), make_player("random:seed=3")], Position.start(Variant(4, 3)), [builder])
    assert builder.record is not None
    game = httpx.post(f"{server['url']}/api/records", json=builder.record.to_dict())
    assert game.status_code == 201, game.text
    context, page, errors = new_page(browser, width, height)
    page.goto(f"{server['url']}/#/review/{game.json()['id']}")
    page.wait_for_selector("#view-review[data-state='done']", timeout=60_000)
    seen = page.evaluate("""() => {
        const box = (node) => { const r = node.getBoundingClientRect();
            return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
        const label = (id) => { const node = document.querySelector(id);
            return {...box(node), text: node.textContent, size: parseFloat(getComputedStyle(node).fontSize)}; };
        return {labels: [label('#rv-ahead-0'), label('#rv-ahead-1')], plot: box(document.querySelector('#rv-graph')),
            points: [...document.querySelectorAll('#rv-graph [data-point]')].map(box)};
    }""")
    page.locator("#rv-graph").scroll_into_view_if_needed()
    shot(page, f"orientation-review-{width}")
    context.close()
    assert not errors, errors

    def overlap(a: dict, b: dict) -> bool:
        return a["left"] < b["right"] and b["left"] < a["right"] and a["top"] < b["bottom"] and b["top"] < a["bottom"]

    top, bottom = seen["labels"]
    assert "ahead (+" in top["text"] and "ahead (−" in bottom["text"]
    assert top["bottom"] <= seen["plot"]["top"] and bottom["top"] >= seen["plot"]["bottom"], seen
    for label in seen["labels"]:
        assert label["size"] >= 12 and label["bottom"] - label["top"] >= 12, label
        assert not any(overlap(label, point) for point in seen["points"]), label


def reviewed_game(server, variant=(4, 3)) -> int:  # noqa: F811
    """A game of pvs (depth 2), the person's, against a random player, in the library: its id."""
    from kalah import Position, Variant
    from kalah.match import play_game
    from kalah.players import make_player
    from kalah.records import PlayerInfo, RecordBuilder

    builder = RecordBuilder()
    play_game([make_player("pvs:depth=2"), make_player("random:seed=3")], Position.start(Variant(*variant)), [builder])
    assert builder.record is not None
    builder.record.players = [PlayerInfo("You", "human"), builder.record.players[1]]
    game = httpx.post(f"{server['url']}/api/records", json=builder.record.to_dict())
    assert game.status_code == 201, game.text
    return game.json()["id"]


def open_review(browser, server, width, height):  # noqa: F811
    """A Kalah(6,3) game of the library's review page, opened and reviewed at this size: its id, and
    new_page's context, page and errors."""
    game_id = reviewed_game(server, (6, 3))
    context, page, errors = new_page(browser, width, height)
    page.goto(f"{server['url']}/#/review/{game_id}")
    page.wait_for_selector("#view-review[data-state='done']", timeout=60_000)
    return game_id, context, page, errors


REVIEW_SEEN = """() => {
    const board = document.querySelector('#rv-board');
    const height = (node) => node.getBoundingClientRect().height;
    return {
        boardName: board.dataset.boardName, index: Number(board.dataset.index), bottom: board.dataset.bottom,
        pits: board.querySelectorAll('[data-pit]').length, origin: [...board.querySelectorAll('.pit.origin')].map(
            (p) => p.dataset.pit),
        letters: Math.min(...[...board.querySelectorAll('.letter')].map(height)),
        counts: Math.min(...[...board.querySelectorAll('.count text')].map(height)),
    };
}"""


@pytest.mark.parametrize(("width", "height"), WIDTHS)
def test_the_review_board_is_the_play_pages(browser, server, width, height):  # noqa: F811
    """The review's board was the server's picture scaled into its column: letters a few pixels high on a phone."""
    game_id, context, page, errors = open_review(browser, server, width, height)
    # the review the page made (in the browser: the server made none), as its moves tell it
    moves = page.eval_on_selector_all(
        "#rv-moves li[data-move]",
        "items => items.map((li) => ({player: Number(li.dataset.player), move: JSON.parse(li.dataset.played),"
        " best_moves: JSON.parse(li.dataset.best)}))",
    )
    review = {"moves": moves}
    seen = page.evaluate(REVIEW_SEEN)
    page.locator("#rv-board").scroll_into_view_if_needed()
    shot(page, f"review-board-{width}")
    assert seen["boardName"] and seen["pits"] == 12 and seen["bottom"] == "0"  # board.js's, the person at the bottom
    assert seen["letters"] >= 12 and seen["counts"] >= 12, seen
    shown = review["moves"][seen["index"]]
    assert seen["origin"] == [f"{shown['player']}-{shown['move']}"]  # the move played there is ringed
    page.locator("#rv-moves li[data-move='6']").click()
    page.wait_for_function("document.querySelector('#rv-board').dataset.index === '5'")
    # the trainer's board is board.js's too, the mover at the bottom, its pits playing the choices
    if page.locator("#rv-learn").is_visible():
        page.click("#rv-learn")
        trainer = page.locator("#rv-trainer-board")
        assert trainer.get_attribute("data-board-name") and trainer.get_attribute("data-bottom") == "0"
        assert page.locator("#rv-trainer-board .pit.legal").count() == page.locator("#rv-choices button").count()
        best = page.evaluate(
            "(r) => { const n = document.querySelector('#rv-board').dataset.index; return r.moves[Number(n)].best_moves; }",
            review,
        )
        page.click(f"#rv-trainer-board [data-pit='0-{best[0]}'] .cup")
        assert page.locator("#rv-feedback").get_attribute("data-correct") == "true"
        page.locator("#rv-trainer").scroll_into_view_if_needed()
        shot(page, f"review-trainer-{width}")
    wide = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    context.close()
    assert wide <= 0 and not errors, (wide, errors)


GRAPH_SEEN = """() => {
    const graph = document.querySelector('#rv-graph'), box = graph.parentElement, style = getComputedStyle(box);
    return {width: graph.getBoundingClientRect().width, height: graph.getBoundingClientRect().height,
        room: box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
        numbers: [...graph.querySelectorAll('.rv-tick-label')].map((t) => t.getBoundingClientRect().height),
        dots: Math.min(...[...graph.querySelectorAll('[data-point]')].map((d) => d.getBoundingClientRect().width))};
}"""


@pytest.mark.parametrize(("width", "height"), WIDTHS)
def test_the_review_graph_fills_its_width_and_keeps_its_sizes(browser, server, width, height):  # noqa: F811
    """The graph was an 800x220 drawing scaled to its box: at 390 px it was 97 px high, its points 2 px across."""
    _, context, page, errors = open_review(browser, server, width, height)
    graph = page.evaluate(GRAPH_SEEN)
    page.locator("#rv-graph").scroll_into_view_if_needed()
    shot(page, f"review-graph-{width}")
    assert abs(graph["width"] - graph["room"]) <= 1, graph  # the whole width of its box
    assert graph["height"] >= 165 and len(graph["numbers"]) >= 3 and min(graph["numbers"]) >= 12, graph
    assert graph["dots"] >= 5, graph
    # a tap beside a point picks it: a crowded graph is tapped, not aimed at
    point, plot = page.locator("#rv-graph [data-point='5']").bounding_box(), page.locator("#rv-graph").bounding_box()
    below = point["y"] + point["height"] + 12 < plot["y"] + plot["height"]
    page.mouse.click(point["x"] + point["width"] / 2 + 1, point["y"] + (point["height"] + 12 if below else -12))
    page.wait_for_function("document.querySelector('#rv-board').dataset.index === '5'")
    assert page.locator("#rv-graph [data-point='5']").get_attribute("class").endswith("selected")
    # turned to the other width, it is drawn again for it, the point still marked
    other = 390 if width > 500 else 1280
    page.set_viewport_size({"width": other, "height": height})
    page.wait_for_function(
        "() => Math.abs(document.querySelector('#rv-graph').viewBox.baseVal.width"
        " - document.querySelector('#rv-graph').getBoundingClientRect().width) < 2"
    )
    again = page.evaluate(GRAPH_SEEN)
    assert abs(again["width"] - again["room"]) <= 1 and again["dots"] >= 5, again
    assert "selected" in page.locator("#rv-graph [data-point='5']").get_attribute("class")
    context.close()
    assert not errors, errors
