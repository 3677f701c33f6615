"""Boards in Jupyter: Position._repr_svg_ and GameRecord._repr_html_."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import kalah
from kalah.notebook import board_svg, record_html
from kalah.records import GameRecord, PlayerInfo


def _cells(svg: str) -> tuple[dict[str, int], dict[str, int]]:
    root = ET.fromstring(svg)
    pits = {g.get("data-pit"): int(g.get("data-seeds")) for g in root.iter() if g.get("data-pit")}
    stores = {g.get("data-store"): int(g.get("data-seeds")) for g in root.iter() if g.get("data-store")}
    return pits, stores


def test_position_shows_as_a_board_in_notebooks():
    start = kalah.Position.start()
    svg = start._repr_svg_()
    root = ET.fromstring(svg)  # well-formed SVG
    assert root.tag.endswith("svg") and root.get("data-to-move") == "0" and root.get("data-over") == "false"
    pits, stores = _cells(svg)
    assert pits == {f"{p}-{i}": 4 for p in (0, 1) for i in range(6)}
    assert stores == {"0": 0, "1": 0}
    assert svg.count("<ellipse") == 48  # every seed drawn as a stone


def test_board_matches_any_position_and_marks_the_last_move():
    position = kalah.Position([[0, 3, 1, 9, 0, 2, 12], [5, 0, 0, 2, 1, 7, 6]], 1)
    after, effect = position.play_explained(4)
    svg = board_svg(after, effect, names=("Ann", "Bob"))
    pits, stores = _cells(svg)
    board = after.board
    assert pits == {f"{p}-{i}": board[p][i] for p in (0, 1) for i in range(6)}
    assert stores == {"0": board[0][6], "1": board[1][6]}
    assert "#7fd0ff" in svg  # the pit that was played
    assert "Ann" in svg and "Bob" in svg
    for variant in (kalah.Variant(4, 3), kalah.Variant(7, 7, pie_rule=True)):
        ET.fromstring(board_svg(kalah.Position.start(variant)))


def test_pit_letters_sit_clear_of_the_outline_of_the_row_to_move():
    start = kalah.Position.start()
    for position in (start, start.play(0)):  # the bottom row to move, then the top row
        root = ET.fromstring(board_svg(position))
        outline = next(e for e in root.iter() if e.get("stroke-dasharray") == "10 6")
        edges = (float(outline.get("y")), float(outline.get("y")) + float(outline.get("height")))
        letters = [e for e in root.iter() if e.get("font-family", "").startswith("Georgia")]
        assert len(letters) == 12
        for letter in letters:
            # a letter's box: a font size above its baseline, a quarter below (a descender); the outline's
            # stroke is 3 wide
            size, baseline = float(letter.get("font-size")), float(letter.get("y"))
            assert not any(baseline - size - 1.5 < edge < baseline + size / 4 + 1.5 for edge in edges), letter.text


def test_finished_game_shows_the_result_and_record_html():
    start = kalah.Position.start(kalah.Variant(4, 3))
    record = GameRecord(start, [PlayerInfo("Ann", "human"), PlayerInfo("Bot", "random")])
    position = start
    while not position.is_over:
        move = position.legal_moves()[0]
        after = position.play(move)
        record.add_move(position.to_move, move, after)
        position = after
    html = record._repr_html_()
    assert re.sub(r"kb\d+", "", html) == re.sub(r"kb\d+", "", record_html(record))
    assert "Ann" in html and "Kalah(4,3)" in html
    scores = position.scores
    assert f"{max(scores)} – {min(scores)}" in html and f"won {max(scores)}–{min(scores)}" in html  # winner first
    svg = re.search(r"<svg.*</svg>", html, re.S).group(0)
    assert ET.fromstring(svg).get("data-over") == "true"


def test_the_drawing_lives_with_the_rules_and_the_package_root_loads_no_face():
    import subprocess
    import sys

    code = (
        "import sys, kalah; kalah.Position.start()._repr_svg_();"
        " print(sorted(m for m in sys.modules if m.split('.')[:2] in (['kalah', 'notebook'], ['kalah', 'web'],"
        " ['kalah', 'records'], ['kalah', 'cli'])))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]"
    assert board_svg is kalah.rules.svg.board_svg  # the notebook face re-exports the one drawing


def test_board_colours_and_sizes_come_from_the_shared_style_file():
    from kalah.rules.svg import BOARD_STYLE

    svg = board_svg(kalah.Position.start())
    for light, dark in BOARD_STYLE["seed_colors"]:
        assert f'stop-color="{light}"' in svg and f'stop-color="{dark}"' in svg
    width = 2 * (BOARD_STYLE["margin"] + BOARD_STYLE["store_width"] + BOARD_STYLE["gap"]) + 6 * BOARD_STYLE["pit_step"]
    assert ET.fromstring(svg).get("viewBox") == f"0 0 {width} {BOARD_STYLE['height']}"
