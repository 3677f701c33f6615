"""Boards in Jupyter: ``Position`` and ``GameRecord`` render as an SVG board.

Nothing needs installing: ``Position._repr_svg_`` and
``GameRecord._repr_html_`` are methods of the classes and draw with
:mod:`kalah.rules.svg` when a notebook asks, so ``kalah.Position.start()`` as
the last line of a cell shows the board. This face gathers the drawing
functions for notebook users:

``board_svg(position, effect=None, *, bottom=0, names=None, width=None)``
    the position as an SVG string, the last move marked when ``effect`` is given;
``record_html(record)``
    a game record as HTML: players, the final board, the moves and the result.
"""

from __future__ import annotations

from kalah.rules.svg import SEED_COLORS, board_svg, record_html

__all__ = ["SEED_COLORS", "board_svg", "record_html"]
