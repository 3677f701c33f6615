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

Live widgets (with ``pip install 'kalah[notebook]'``, which adds anywidget):

``play(opponent="pvs:time=0.5", *, seat=0, variant=None, position=None)``
    a game against the computer: click a pit to move, Take back, New game;
``replay(record)``
    a game record with a slider over its moves;
``show_trace(trace)``
    a search trace (``kalah.trace(...)``) as the lab's interactive tree.

The tutorial notebooks are in docs/notebooks/.
"""

from __future__ import annotations

from typing import Any

from kalah.rules import KalahError
from kalah.rules.svg import SEED_COLORS, board_svg, record_html

__all__ = ["SEED_COLORS", "NotebookError", "board_svg", "play", "record_html", "replay", "show_trace"]


class NotebookError(KalahError, ImportError):
    """The live widgets need anywidget: ``pip install 'kalah[notebook]'``."""


def _widgets() -> Any:
    try:
        from . import widgets
    except ModuleNotFoundError as error:
        if error.name not in ("anywidget", "traitlets", "ipywidgets"):
            raise
        raise NotebookError("the notebook widgets need anywidget: pip install 'kalah[notebook]'") from None
    return widgets


def play(*args: Any, **kwargs: Any) -> Any:
    """A game against the computer on a live board (see :func:`kalah.notebook.widgets.play`)."""
    return _widgets().play(*args, **kwargs)


def replay(record: Any) -> Any:
    """A game record with a slider over its moves (see :func:`kalah.notebook.widgets.replay`)."""
    return _widgets().replay(record)


def show_trace(trace: Any) -> Any:
    """A search trace as the lab's interactive tree (see :func:`kalah.notebook.widgets.show_trace`)."""
    return _widgets().show_trace(trace)
