"""A position drawn as an SVG board, and a game record as HTML around it.

An SVG board is a notation of a position, like its JSON: it needs nothing but
the rules. ``Position._repr_svg_`` and ``GameRecord._repr_html_`` import this
module when a notebook asks for them, and the web server's ``/api/board.svg``
draws with it. The sizes and colours come from ``board.json`` next to this
file, which the browser board loads too, so both boards look alike.

>>> from kalah import Position
>>> svg = board_svg(Position.start())
>>> svg.startswith("<svg") and svg.count("<ellipse") == 48   # every seed a stone
True
"""

from __future__ import annotations

import html
import itertools
import json
import math
from collections.abc import Iterable, Sequence
from importlib.resources import files
from typing import Any, Protocol

from .moves import SWAP, Move, MoveEffect, move_name
from .variant import Variant
from .wording import plural

__all__ = ["BOARD_STYLE", "DrawnPosition", "SEED_COLORS", "board_svg", "record_html", "result_label"]

#: The board's sizes and colours, shared with the browser board (``board.json``).
BOARD_STYLE: dict[str, Any] = json.loads(files("kalah.rules").joinpath("board.json").read_text(encoding="utf-8"))

#: Each seed colour as (light, dark), the two ends of its gradient.
SEED_COLORS: list[tuple[str, str]] = [(light, dark) for light, dark in BOARD_STYLE["seed_colors"]]

# Every board gets its own prefix for its gradient ids: a notebook page holds many boards.
_ids = itertools.count(1)


class DrawnPosition(Protocol):
    """What a drawing reads of a position (``kalah.Position``): this module needs nothing else of it, so that
    ``Position._repr_svg_`` can import it without a cycle."""

    @property
    def variant(self) -> Variant:
        """The rules the position is played under."""

    @property
    def to_move(self) -> int:
        """The player to move."""

    @property
    def cells(self) -> tuple[int, ...]:
        """The flat board."""

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""

    @property
    def scores(self) -> tuple[int, int] | None:
        """The final totals, once over."""

    def store(self, player: int) -> int:
        """The seeds in ``player``'s store."""

    def play_explained(self, move: Move) -> tuple[DrawnPosition, MoveEffect]:
        """The position after ``move`` and what the move did."""


class _Player(Protocol):
    @property
    def name(self) -> str: ...


class _RecordedMove(Protocol):
    @property
    def player(self) -> int: ...

    @property
    def move(self) -> Move: ...


class GameLike(Protocol):
    """What :func:`record_html` reads of a game record (``kalah.records.GameRecord``)."""

    @property
    def players(self) -> Sequence[_Player]:
        """Player 0 and player 1 (each with a ``name``)."""

    @property
    def moves(self) -> Sequence[_RecordedMove]:
        """The moves in order."""

    @property
    def variant(self) -> Variant:
        """The variant of the game."""

    @property
    def final(self) -> DrawnPosition:
        """The position after the last move."""

    def positions(self) -> Iterable[DrawnPosition]:
        """The start and the position after each move."""

    def result(self) -> dict[str, Any]:
        """How the game ended."""


def _hash(a: int, b: int) -> float:
    """A number in [0, 1) from two integers: the same scatter of seeds as the browser's ``hash``."""
    h = (a * 374761393 + b * 668265263) ^ 0x5BD1E995
    h &= 0xFFFFFFFF
    h = ((h ^ (h >> 13)) * 1274126177) & 0xFFFFFFFF
    return ((h ^ (h >> 16)) & 0xFFFFFFFF) / 4294967296


def _seed(x: float, y: float, cell: int, k: int, prefix: str) -> str:
    seed = BOARD_STYLE["seed"]
    color = int(_hash(cell * 31 + k, 7) * len(SEED_COLORS))
    rot = int(_hash(k, cell * 13) * 180)
    return (
        f'<ellipse cx="{x:.1f}" cy="{y:.1f}" rx="{seed["rx"]}" ry="{seed["ry"]}" transform="rotate({rot} {x:.1f} {y:.1f})"'
        f' fill="url(#{prefix}s{color})" stroke="rgba(0,0,0,0.35)" stroke-width="0.6"/>'
    )


def _gradient(kind: str, gradient_id: str, stops: list[list[Any]], attributes: str) -> str:
    inner = "".join(f'<stop offset="{offset}" stop-color="{color}"/>' for offset, color in stops)
    return f'<{kind} id="{gradient_id}" {attributes}>{inner}</{kind}>'


def _defs(prefix: str) -> str:
    vertical = 'x1="0" y1="0" x2="0" y2="1"'
    out = [
        "<defs>",
        _gradient("linearGradient", f"{prefix}wood", BOARD_STYLE["wood"], vertical),
        _gradient("radialGradient", f"{prefix}hole", BOARD_STYLE["hole"], 'cx="0.5" cy="0.42" r="0.62"'),
        _gradient("linearGradient", f"{prefix}rim", BOARD_STYLE["rim"], vertical),
    ]
    for i, (light, dark) in enumerate(SEED_COLORS):
        out.append(
            f'<radialGradient id="{prefix}s{i}" cx="0.35" cy="0.3" r="0.75"><stop offset="0" stop-color="#fff"'
            f' stop-opacity="0.85"/><stop offset="0.25" stop-color="{light}"/><stop offset="1" stop-color="{dark}"/>'
            "</radialGradient>"
        )
    out.append("</defs>")
    return "".join(out)


def board_svg(
    position: DrawnPosition,
    effect: MoveEffect | None = None,
    *,
    bottom: int = 0,
    names: tuple[str, str] | None = None,
    width: int | None = None,
) -> str:
    """The position as an SVG board (a string): the board of the browser page.

    A wooden board, round pits with seeds as little stones, counts, the stores
    at the ends and the side to move outlined. ``effect`` (from
    ``Position.play_explained``) marks the last move: its pit, the cells it
    sowed and a capture. ``bottom`` is the player whose pits run along the
    bottom; ``names`` label the two players; ``width`` is the drawn width in
    pixels (default the board's own, at most 720).
    """
    style, seed = BOARD_STYLE, BOARD_STYLE["seed"]
    frame = style["frame"]
    m = position.variant.pits
    prefix = f"kb{next(_ids)}"
    pit_step, radius, store_w, side, gap = (
        style["pit_step"],
        style["pit_radius"],
        style["store_width"],
        style["margin"],
        style["gap"],
    )
    pits_x0 = side + store_w + gap
    W = pits_x0 + m * pit_step + gap + store_w + side
    board_h = style["height"]
    H = board_h + (56 if names else 0)
    top_offset = 28 if names else 0
    row_top, row_bottom = style["row_top"] + top_offset, style["row_bottom"] + top_offset
    store_y, store_h = style["store_top"] + top_offset, style["store_height"]
    stores = {
        "left": (side, store_y, store_w, store_h),
        "right": (pits_x0 + m * pit_step + gap, store_y, store_w, store_h),
    }
    cells = position.cells
    half = m + 1
    sown = set(effect.sown) if effect else set()
    origin = effect.player * half + effect.move if effect and effect.move != SWAP else None
    captured: set[int] = set()
    if effect and effect.capture_pit is not None:
        own = effect.capture_pit
        captured = {own, (1 - effect.player) * half + (m - 1 - own % half)}
    over = position.is_over

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{width or min(W, 720)}"'
        f' class="kalah-board" data-to-move="{position.to_move}" data-over="{str(over).lower()}"'
        f' role="img" aria-label="Kalah board, {html.escape(position.variant.name)}">'
    ]
    out.append(_defs(prefix))
    inset, line_inset = frame["inset"], frame["line_inset"]
    out.append(
        f'<rect x="{inset}" y="{inset + top_offset}" width="{W - 2 * inset}" height="{board_h - 2 * inset}"'
        f' rx="{frame["radius"]}" fill="url(#{prefix}wood)"/>'
    )
    out.append(
        f'<rect x="{line_inset}" y="{line_inset + top_offset}" width="{W - 2 * line_inset}"'
        f' height="{board_h - 2 * line_inset}" rx="{frame["line_radius"]}" fill="none"'
        ' stroke="rgba(255,230,190,0.35)" stroke-width="2"/>'
    )
    if not over:
        # The mover's row glows, out to the middle between the rows: its letters inside, clear of the outline.
        middle = (row_top + row_bottom) / 2
        y0, y1 = (middle, row_bottom + radius + 10) if position.to_move == bottom else (row_top - radius - 10, middle)
        x = pits_x0 + pit_step / 2 - radius - 10
        out.append(
            f'<rect x="{x}" y="{y0}" width="{pit_step * (m - 1) + 2 * radius + 20}"'
            f' height="{y1 - y0}" rx="16" fill="rgba(255,226,150,0.14)"'
            ' stroke="rgba(255,215,122,0.85)" stroke-width="3" stroke-dasharray="10 6"/>'
        )
    badge = 'fill="rgba(45,24,8,0.72)" stroke="rgba(255,225,180,0.35)"'
    text = 'font-family="Segoe UI, Arial, sans-serif" font-weight="700" fill="#fff6e6"'
    columns, dx, dy = seed["store_columns"], seed["store_dx"], seed["store_dy"]
    for cell, count in enumerate(cells):
        player, index = divmod(cell, half)
        at_bottom = player == bottom
        if index == m:
            x, y, w, h = stores["right" if at_bottom else "left"]
            ring = ' stroke="rgba(255,250,210,0.6)" stroke-width="2"' if cell in sown else ""
            out.append(f'<g data-store="{player}" data-seeds="{count}">')
            out.append(
                f'<rect x="{x - 3}" y="{y - 3}" width="{w + 6}" height="{h + 6}" rx="{w / 2 + 3}" fill="url(#{prefix}rim)" opacity="0.8"/>'
            )
            out.append(f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="{w / 2}" fill="url(#{prefix}hole)"{ring}/>')
            x0 = x + w / 2 - (columns - 1) * dx / 2
            for k in range(min(count, seed["max_in_store"])):
                row, col = divmod(k, columns)
                shift = dx / 2 - 4 if row % 2 else 0
                out.append(
                    _seed(
                        x0 + col * dx + shift + (_hash(cell, k) - 0.5) * 4,
                        y + h - 22 - row * dy + (_hash(k, cell) - 0.5) * 4,
                        cell,
                        k,
                        prefix,
                    )
                )
            cy = y + h + 26 if at_bottom else y - 18
            out.append(f'<rect x="{x + w / 2 - 24}" y="{cy - 17}" width="48" height="26" rx="13" {badge}/>')
            out.append(
                f'<text x="{x + w / 2}" y="{cy + 2}" text-anchor="middle" font-size="19" {text}>{count}</text></g>'
            )
            continue
        col = index if at_bottom else m - 1 - index
        x = pits_x0 + pit_step / 2 + col * pit_step
        y = row_bottom if at_bottom else row_top
        letter = move_name(player, index)
        out.append(f'<g data-pit="{player}-{index}" data-seeds="{count}">')
        out.append(f'<circle cx="{x}" cy="{y}" r="{radius + 3}" fill="url(#{prefix}rim)" opacity="0.8"/>')
        out.append(f'<circle cx="{x}" cy="{y}" r="{radius}" fill="url(#{prefix}hole)"/>')
        # A sunflower spiral, a little jittered, so a pit of seeds looks like a heap.
        shown = min(count, seed["max_in_pit"])
        scale = 0 if shown <= 1 else min(seed["spread"], (radius - 9) / math.sqrt(shown))
        for k in range(shown):
            r, a = scale * math.sqrt(k + 0.5), k * 2.39996 + cell * 1.7
            out.append(
                _seed(
                    x + r * math.cos(a) + (_hash(cell, k) - 0.5) * 3,
                    y + r * math.sin(a) + (_hash(k, cell) - 0.5) * 3,
                    cell,
                    k,
                    prefix,
                )
            )
        if cell == origin:
            out.append(
                f'<circle cx="{x}" cy="{y}" r="{radius}" fill="none" stroke="#7fd0ff" stroke-width="4" stroke-dasharray="6 4"/>'
            )
        elif cell in captured:
            out.append(f'<circle cx="{x}" cy="{y}" r="{radius}" fill="none" stroke="#ff5a4a" stroke-width="5"/>')
        elif cell in sown:
            out.append(
                f'<circle cx="{x}" cy="{y}" r="{radius}" fill="none" stroke="rgba(255,250,210,0.6)" stroke-width="2"/>'
            )
        cy = y - radius - 17 if not at_bottom else y + radius + 29
        out.append(f'<rect x="{x - 17}" y="{cy - 17}" width="34" height="24" rx="12" {badge}/>')
        out.append(f'<text x="{x}" y="{cy + 1}" text-anchor="middle" font-size="17" {text}>{count}</text>')
        ly = y + radius + 17 if not at_bottom else y - radius - 8
        out.append(
            f'<text x="{x}" y="{ly}" text-anchor="middle" font-family="Georgia, serif" font-size="13"'
            f' font-weight="600" fill="rgba(60,30,8,0.75)">{letter}</text></g>'
        )
    if names:
        for player in (0, 1):
            at_bottom = player == bottom
            y = H - 14 if at_bottom else 20
            mark = " ●" if not over and position.to_move == player else ""
            out.append(
                f'<text x="{W / 2}" y="{y}" text-anchor="middle" font-family="Segoe UI, Arial, sans-serif"'
                f' font-size="18" font-weight="700" fill="#3b2414">{html.escape(names[player])} '
                f"({position.store(player)}){mark}</text>"
            )
    label = result_label(position, names)
    if label:
        cy = (row_top + row_bottom) / 2
        out.append(
            f'<rect x="{W / 2 - 170}" y="{cy - 26}" width="340" height="52" rx="14" fill="rgba(40,22,8,0.88)"'
            ' stroke="#f2c84b" stroke-width="2"/>'
        )
        out.append(
            f'<text x="{W / 2}" y="{cy + 9}" text-anchor="middle" font-size="24" {text}>{html.escape(label)}</text>'
        )
    out.append("</svg>")
    return "".join(out)


def result_label(position: DrawnPosition, names: tuple[str, str] | None = None) -> str:
    """The result shown over a finished game's board ("you win 30 – 18", "Draw 24 – 24"); "" while it goes on."""
    scores = position.scores  # the final totals, once over
    if scores is None:
        return ""
    winner = 0 if scores[0] >= scores[1] else 1  # the winner's score first, as everywhere
    first, second = scores[winner], scores[1 - winner]
    who = names[winner] if names else f"Player {winner}"
    label = "Draw" if first == second else f"{who} win" if who.lower() == "you" else f"{who} wins"
    return f"{label} {first} – {second}"


def record_html(record: GameLike) -> str:
    """A game record as HTML: who played, the final board (the last move marked), the moves and the result."""
    final = record.final
    last_effect = None
    if record.moves:
        positions = list(record.positions())
        last_effect = positions[-2].play_explained(record.moves[-1].move)[1]
    names = (record.players[0].name, record.players[1].name)
    result = record.result()
    if result["finished"]:
        summary = "draw" if result["winner"] is None else f"{html.escape(names[result['winner']])} won"
        high, low = sorted(result["scores"], reverse=True)  # the winner's score first
        summary += f" {high}–{low}"
    else:
        summary = f"unfinished after {plural(len(record.moves), 'move')}"
    moves = " ".join(
        f"<span>{n}.&nbsp;{html.escape(move_name(m.player, m.move))}</span>" for n, m in enumerate(record.moves, 1)
    )
    return (
        f'<div class="kalah-record"><p><b>{html.escape(names[0])}</b> vs <b>{html.escape(names[1])}</b>,'
        f" {html.escape(record.variant.name)}: {summary}</p>"
        f"{board_svg(final, last_effect, names=names)}"
        f'<p style="font-family:Georgia,serif;line-height:1.6">{moves}</p></div>'
    )
