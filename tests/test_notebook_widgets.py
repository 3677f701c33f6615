"""The notebook's live widgets (kalah.notebook.play, replay, show_trace), driven as the front end drives them:
by the messages its clicks send and the traits it sets. The JavaScript runs in the browser test below."""

from __future__ import annotations

import base64
import json
import random
import re

import pytest

import kalah
from kalah import Position, Variant
from kalah.match import play_game
from kalah.notebook import NotebookError, play, replay, show_trace
from kalah.players import make_player
from kalah.records.writer import RecordBuilder
from test_web_browser import browser  # noqa: F401  (the shared fixture)

pytest.importorskip("anywidget")


def graph_sources(esm: str) -> list[str]:
    """The texts of the modules an ES module's data: URL imports hold, all the way down."""
    found = []
    for encoded in re.findall(r"data:text/javascript;base64,([A-Za-z0-9+/=]+)", esm):
        text = base64.b64decode(encoded).decode("utf-8")
        found += [text, *graph_sources(text)]
    return found


def click(widget, player, pit):
    widget._on_message(widget, {"type": "move", "player": player, "move": pit}, [])
    widget.wait(30)


def test_a_click_on_a_pit_plays_it_and_the_computer_answers():
    game = play("random:seed=1", variant=Variant(6, 3))
    start = game.position
    click(game, 0, 0)  # A: 3 seeds, no extra turn
    assert game.history[0] == start and game.history[1] == start.play(0)
    assert game.position.to_move == 0 and not game.thinking
    assert "random:seed=1 played" in game.message
    assert game.view["board"] == [list(row) for row in game.position.board] and game.view["to_move"] == 0
    assert game.view["legal"] == game.position.legal_moves() and game.view["moves"] == len(game.history)
    last, effect = game.view["last"], game.history[-1].play_explained(game.view["last"]["move"])[1]
    assert last["before"] == [list(row) for row in game.history[-1].board] and last["sown"] == list(effect.sown)


def test_the_person_can_sit_second_and_the_computer_opens():
    game = play("random:seed=2", seat=1, variant=Variant(4, 3))
    game.wait(30)
    assert game.history and game.history[0] == Position.start(Variant(4, 3))
    assert game.position.to_move == 1 or game.position.is_over
    assert game.human == 1


def test_illegal_clicks_are_refused_with_a_message_not_an_exception():
    game = play("random:seed=3", variant=Variant(6, 3))
    click(game, 1, 2)
    assert "your side" in game.message and game.position == Position.start(Variant(6, 3))
    position = game.position
    game._on_message(game, {"type": "move", "move": "two"}, [])
    game._on_message(game, {"type": "move", "move": True}, [])
    game._on_message(game, "nonsense", [])
    assert game.position == position
    assert not game.move(9) and "not a move" in game.message
    click(game, 0, 3)  # D: its last seed in the store, an extra turn
    if game.position.to_move == 0 and game.position.pits(0)[3] == 0:
        assert not game.move(3) and "empty" in game.message


def test_take_back_returns_to_the_persons_last_turn():
    game = play("random:seed=4", variant=Variant(6, 3))
    assert not game.take_back() and "no move" in game.message
    click(game, 0, 0)
    after_first = game.position
    click(game, 0, 1)
    assert game.take_back() and game.position == after_first
    assert game.take_back() and game.position == Position.start(Variant(6, 3))
    assert not game.can_take_back


def test_a_whole_game_ends_with_the_result_and_new_game_starts_again():
    game = play("random:seed=5", variant=Variant(4, 2))
    rng = random.Random(5)
    while not game.position.is_over:
        assert game.move(rng.choice(game.position.legal_moves()))
        game.wait(30)
    assert game.message.startswith("Game over:")
    assert not game.move(0) and "over" in game.message
    game._on_message(game, {"type": "new_game"}, [])
    assert game.position == Position.start(Variant(4, 2)) and not game.history


def test_a_player_object_plays_too_and_bad_arguments_are_refused():
    class FirstPit:
        name = "first pit"

        def choose_move(self, position):
            return position.legal_moves()[0]

    game = play(FirstPit(), variant=Variant(4, 2))
    click(game, 0, 0)
    assert "first pit played" in game.message or game.position.to_move == 0
    with pytest.raises(kalah.KalahError, match="seat"):
        play(seat=2)
    with pytest.raises(kalah.KalahError, match="choose_move"):
        play(42)  # type: ignore[arg-type]
    assert issubclass(NotebookError, ImportError)


def recorded_game():
    builder = RecordBuilder()
    play_game(
        [make_player("random:seed=1"), make_player("random:seed=2")], Position.start(Variant(4, 3)), observers=[builder]
    )
    return builder.record


def test_the_record_slider_shows_the_board_after_each_move():
    record = recorded_game()
    widget = replay(record)
    positions = list(record.positions())
    assert widget.count == len(record.moves) and widget.index == widget.count
    widget.index = 0
    assert widget.caption.startswith("start") and widget.view["board"] == [list(row) for row in positions[0].board]
    assert widget.view["last"] is None and widget.view["legal"] == []
    widget.index = 1
    assert widget.caption.startswith(f"move 1 of {widget.count}")
    assert widget.view["board"] == [list(row) for row in positions[1].board] and widget.view["moves"] == 1
    assert widget.view["last"]["move"] == record.moves[0].move
    widget.index = 10_000
    assert widget.index == widget.count


def test_a_trace_shows_as_the_labs_tree_with_who_moves_and_what_was_pruned():
    trace = kalah.trace(Position.start(Variant(4, 3)), "alphabeta", 3, evaluation="store")
    widget = show_trace(trace)
    assert widget.trace == trace.to_json()
    modules = graph_sources(widget._esm)
    assert "export default" in widget._esm and any("export class TreeView" in text for text in modules)
    assert len(widget.facts["to_move"]) == len(trace.nodes)
    for node_id, moves in widget.facts["pruned"].items():
        node = trace.nodes[int(node_id)]
        assert node.cutoff and moves and not set(moves) & {child.move for child in trace.children(node.id)}
    assert show_trace(json.loads(json.dumps(trace.to_json()))).facts == widget.facts
    with pytest.raises(kalah.KalahError, match="not a search trace"):
        show_trace({"nodes": []})


# --- the widgets' JavaScript in Chromium, with a stand-in for the notebook's model -----------------

HARNESS = """<!doctype html><html><body><div id="out"></div><script type="module">
const state = %(state)s, handlers = {};
window.sent = [];
const model = {
  get: (key) => state[key],
  set: (key, value) => { state[key] = value; },
  save_changes: () => window.sent.push({ saved: { ...state } }),
  send: (message) => window.sent.push(message),
  on: (event, handler) => { (handlers[event] = handlers[event] || []).push(handler); },
};
window.update = (key, value) => { state[key] = value; (handlers["change:" + key] || []).forEach((h) => h()); };
const url = URL.createObjectURL(new Blob([%(esm)s], { type: "text/javascript" }));
const widget = (await import(url)).default;
const el = document.getElementById("out");
widget.render({ model, el });
const style = document.createElement("style"); style.textContent = %(css)s; document.head.append(style);
window.ready = true;
</script></body></html>"""


def show_in_browser(browser, widget, name, width=1000):  # noqa: F811 - the fixture's value, passed on
    from pathlib import Path

    esm = widget._esm if isinstance(widget._esm, str) else Path(widget._esm).read_text()
    css = widget._css if isinstance(widget._css, str) else Path(widget._css).read_text()
    import anywidget

    ours = [
        c
        for c in type(widget).__mro__
        if c.__module__ == "kalah.notebook.widgets" and issubclass(c, anywidget.AnyWidget)
    ][-1]  # anywidget subclasses it
    state = {key: getattr(widget, key) for key in ours.class_own_traits(sync=True)}
    page = browser.new_page(viewport={"width": width, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_content(HARNESS % {"state": json.dumps(state), "esm": json.dumps(esm), "css": json.dumps(css)})
    page.wait_for_function("window.ready === true")
    page.wait_for_timeout(300)
    from test_web_browser import ARTIFACTS

    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"notebook-{name}.png"), full_page=True)
    return page, errors


@pytest.mark.browser
def test_the_board_widget_draws_and_sends_clicks(browser):  # noqa: F811
    game = play("random:seed=1", variant=Variant(6, 4))
    click(game, 0, 2)  # C: an extra turn, the seeds animate in sowing order
    page, errors = show_in_browser(browser, game, "play")
    # the page's own board: the last move marked, the person's pits clickable, names and stores around it
    assert page.locator('[data-pit="0-0"]').count() == 1
    assert page.locator(".sown").count() == len(set(game.view["last"]["sown"])) and page.locator(".origin").count() == 1
    assert page.locator(".legal").count() == len(game.position.legal_moves())
    assert page.inner_text(".kalah-live-name.bottom") == f"you ({game.position.store(0)}) ●"
    page.click('[data-pit="0-4"]')
    page.click('[data-pit="1-2"]')  # not the person's: the kernel says so
    page.click("text=Take back")
    assert page.evaluate("window.sent") == [
        {"type": "move", "player": 0, "move": 4},
        {"type": "move", "player": 1, "move": 2},
        {"type": "take_back"},
    ]
    # a position one move on is animated seed by seed to its end
    from kalah.notebook.widgets import _view

    before = game.position
    after, effect = before.play_explained(4)
    step = _view(after, before, effect, game.view["moves"] + 1, ("you", "them"), [])
    page.evaluate(f"window.update('view', {json.dumps(step)})")
    page.wait_for_selector(".kalah-live-stage .fresh")  # a seed popping in: the move is being played back
    expected = json.dumps([str(n) for n in after.pits(0)], separators=(",", ":"))
    page.wait_for_function(
        f"JSON.stringify([0, 1, 2, 3, 4, 5].map((i) => document.querySelector(`[data-pit='0-${{i}}']`)"
        f".dataset.seeds)) === {json.dumps(expected)}"
    )
    assert page.locator(".origin").count() == 1
    page.evaluate("window.update('message', 'Wait: the computer is thinking.')")
    assert page.inner_text(".kalah-live-message") == "Wait: the computer is thinking."
    assert not errors


@pytest.mark.browser
def test_the_record_and_trace_widgets_draw(browser):  # noqa: F811
    page, errors = show_in_browser(browser, replay(recorded_game()), "replay")
    page.locator("input[type=range]").fill("0")
    assert page.evaluate("window.sent[window.sent.length - 1].saved.index") == 0 and not errors

    trace = kalah.trace(Position.start(Variant(4, 3)), "pvs", 3, evaluation="store")
    page, errors = show_in_browser(browser, show_trace(trace), "trace")
    page.wait_for_selector('[data-node-id="0"][data-current="true"]')
    assert page.locator("[data-node-id]").count() >= len(trace.children(0)) + 1
    page.click("text=▶")
    page.click("text=▶")
    assert page.get_attribute('[data-current="true"]', "data-node-id") == "2"
    assert "node 3 of" in page.inner_text(".kalah-trace-info") and not errors


def test_outside_a_widget_front_end_the_widgets_show_their_board():
    """nbconvert, GitHub or a console showed `<kalah.notebook.widgets.GameWidget object at 0x...>`: now the
    bundle carries the board as HTML (SVG) and a readable line next to the widget view (issue 32, item 7)."""
    game = play("random:seed=1", variant=Variant(6, 4))
    record = replay(recorded_game())
    trace = show_trace(kalah.trace(Position.start(Variant(4, 3)), "pvs", 3))
    for widget, words in ((game, "Your move"), (record, "move"), (trace, "pvs")):
        data, _ = widget._repr_mimebundle_()
        assert "application/vnd.jupyter.widget-view+json" in data  # a widget-aware front end still gets the widget
        assert "<svg" in data["text/html"] and words in data["text/html"]
        assert " object at 0x" not in data["text/plain"] and words in data["text/plain"]
        assert "<svg" in widget._repr_html_()  # (each drawing has ids of its own)


@pytest.mark.browser
def test_a_wide_trace_tree_scrolls_inside_its_frame_and_nothing_is_cut(browser):  # noqa: F811
    trace = kalah.trace(Position.start(), "pvs", 5)
    page, errors = show_in_browser(browser, show_trace(trace), "trace-narrow", width=700)
    page.wait_for_selector('[data-node-id="0"][data-current="true"]')
    facts = page.evaluate("""() => {
        const frame = document.querySelector('.kalah-trace-frame'), svg = frame.querySelector('svg.tree');
        const box = svg.getBoundingClientRect();
        const nodes = [...svg.querySelectorAll('[data-node-id]')].map((n) => n.getBoundingClientRect());
        return {page: document.documentElement.scrollWidth, frame: frame.clientWidth, scroll: frame.scrollWidth,
                cut: nodes.filter((r) => r.left < box.left - 1 || r.right > box.right + 1).length, nodes: nodes.length};
    }""")
    assert facts["page"] <= 700 and facts["nodes"] > 20, facts  # the page does not widen: the frame scrolls
    assert facts["cut"] == 0 and facts["scroll"] > facts["frame"], facts  # every drawn node can be scrolled to
    page.click("text=▶|")  # the last node: the frame scrolls to it
    seen = page.evaluate("""() => { const frame = document.querySelector('.kalah-trace-frame').getBoundingClientRect();
        const node = document.querySelector('[data-current="true"]').getBoundingClientRect();
        return node.left >= frame.left - 1 && node.right <= frame.right + 1; }""")
    assert seen and not errors
