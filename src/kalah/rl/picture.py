"""The board as a picture for ``render_mode="rgb_array"``: an ``(H, W, 3)`` array of bytes, as
Gymnasium's ``RecordVideo`` and ``HumanRendering`` wrappers take it.

Drawn with Pillow (which Matplotlib, a dependency of kalah, needs too) in the
colours of the browser board (``kalah/rules/board.json``): the bottom row is the
given seat's, with its store on the right, and each pit shows its count of
seeds. A frame takes well under a millisecond; its size depends on the pits only,
so that a video of a game has frames of one size.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from kalah.rules import Position
from kalah.rules.svg import BOARD_STYLE

PIT = 64  # pixels a pit takes, its gap included
MARGIN = 12


def _colour(hex_colour: str) -> tuple[int, int, int]:
    return int(hex_colour[1:3], 16), int(hex_colour[3:5], 16), int(hex_colour[5:7], 16)


WOOD = _colour(BOARD_STYLE["wood"][1][1])
RIM = _colour(BOARD_STYLE["wood"][2][1])
HOLE = _colour(BOARD_STYLE["hole"][1][1])
TEXT = (246, 236, 220)
HIGHLIGHT = _colour(BOARD_STYLE["seed_colors"][3][0])


@lru_cache(maxsize=4)
def _font(size: int) -> Any:
    return ImageFont.load_default(size=size)


def board_size(pits: int) -> tuple[int, int]:
    """The picture's (height, width) in pixels for a board of ``pits`` pits a side."""
    return 2 * MARGIN + 2 * PIT + 24, 2 * MARGIN + (pits + 2) * PIT


def board_picture(position: Position, bottom: int = 0) -> np.ndarray:
    """The board of ``position`` with ``bottom``'s row below (its store on the right), as RGB bytes;
    the side to move is underlined, and at the end the result is written under the board."""
    m = position.variant.pits
    height, width = board_size(m)
    image = Image.new("RGB", (width, height), (250, 247, 240))
    draw = ImageDraw.Draw(image)
    board_bottom = MARGIN + 2 * PIT
    draw.rounded_rectangle((MARGIN, MARGIN, width - MARGIN, board_bottom), radius=PIT // 2, fill=WOOD, outline=RIM)
    font, small = _font(22), _font(14)
    top = 1 - bottom

    def hole(box: tuple[float, float, float, float], seeds: int, oval: bool = False) -> None:
        if oval:
            draw.rounded_rectangle(box, radius=PIT // 3, fill=HOLE)
        else:
            draw.ellipse(box, fill=HOLE)
        centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        draw.text(centre, str(seeds), fill=TEXT, font=font, anchor="mm")

    inset = 8
    for column in range(m):
        x = MARGIN + (column + 1) * PIT
        # the top row runs right to left in its sowing order, the bottom row left to right
        hole((x + inset, MARGIN + inset, x + PIT - inset, MARGIN + PIT - inset), position.pits(top)[m - 1 - column])
        hole((x + inset, MARGIN + PIT + inset, x + PIT - inset, board_bottom - inset), position.pits(bottom)[column])
    hole((MARGIN + inset, MARGIN + inset, MARGIN + PIT - inset, board_bottom - inset), position.store(top), oval=True)
    right = width - MARGIN - PIT
    hole((right + inset, MARGIN + inset, right + PIT - inset, board_bottom - inset), position.store(bottom), True)
    if position.is_over:
        margin = position.margin or 0
        caption = "a draw" if margin == 0 else f"player {0 if margin > 0 else 1} wins by {abs(margin)}"
    else:
        caption = f"player {position.to_move} to move"
        y = MARGIN + 3 if position.to_move == top else board_bottom - 5
        draw.line((MARGIN + PIT, y, width - MARGIN - PIT, y), fill=HIGHLIGHT, width=3)
    draw.text((width / 2, board_bottom + 12), caption, fill=(60, 40, 20), font=small, anchor="mm")
    return np.asarray(image, dtype=np.uint8)
