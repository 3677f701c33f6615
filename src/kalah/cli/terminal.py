"""Drawing a position in the terminal, and asking a person for a move.

Player 1's pits run along the top from right to left and player 0's along
the bottom from left to right, so seeds travel counter-clockwise as on a real
board; player 1's store is on the left, player 0's on the right.
"""

from __future__ import annotations

from typing import Callable

from rich.console import Console
from rich.text import Text

from kalah.match import MoveEvent
from kalah.rules import IllegalMoveError, Move, Position, move_name, parse_move, pit_letter, store_letter

CELL = 4  # characters per pit


def _cell(count: int, style: str = "") -> Text:
    return Text(f"{count:>{CELL - 1}} ", style=style)


def board_text(position: Position, event: MoveEvent | None = None, names: tuple[str, str] = ("player 0", "player 1")) -> Text:
    """The board as rich Text: pits, stores, letters; the last move's pit, sown
    pits and capture marked."""
    m = position.variant.pits
    base = (0, m + 1)
    sown = set(event.effect.sown) if event else set()
    origin = base[event.player] + event.move if event and event.move != "swap" else None
    captured = event.effect.capture_pit if event else None

    def style(cell: int) -> str:
        if cell == origin:
            return "bold reverse"
        if captured is not None and cell == captured:
            return "bold red"
        return "bold yellow" if cell in sown else ""

    marker = ("▶ " if position.to_move == 0 and not position.is_over else "  ",
              "▶ " if position.to_move == 1 and not position.is_over else "  ")
    pad = " " * (CELL + 2)
    lines = Text()
    lines.append(pad + "".join(f"{pit_letter(1, i):>{CELL - 1}} " for i in reversed(range(m))) + "\n", style="dim")
    top = Text(pad)
    for i in reversed(range(m)):
        top.append_text(_cell(position.cells[base[1] + i], style(base[1] + i)))
    top.append(f"   {marker[1]}{names[1]}")
    lines.append_text(top)
    lines.append("\n")
    store1, store0 = position.cells[base[1] + m], position.cells[base[0] + m]
    middle = Text(f" {store_letter(1)}", style="dim")
    middle.append_text(Text(f"{store1:>3}  ", style=style(base[1] + m)))
    middle.append(" " * (CELL * m))
    middle.append_text(Text(f"{store0:>3}", style=style(base[0] + m)))
    middle.append(f" {store_letter(0)}", style="dim")
    lines.append_text(middle)
    lines.append("\n")
    bottom = Text(pad)
    for i in range(m):
        bottom.append_text(_cell(position.cells[base[0] + i], style(base[0] + i)))
    bottom.append(f"   {marker[0]}{names[0]}")
    lines.append_text(bottom)
    lines.append("\n")
    lines.append(pad + "".join(f"{pit_letter(0, i):>{CELL - 1}} " for i in range(m)), style="dim")
    return lines


def describe_move(event: MoveEvent, names: tuple[str, str]) -> str:
    """One line: who played what, and what happened."""
    text = f"{event.number}. {names[event.player]} plays {move_name(event.player, event.move)}"
    if event.move == "swap":
        text += " (the players exchange sides)"
    if event.effect.captured:
        text += f", captures {event.effect.captured}"
    if event.effect.extra_turn and not event.after.is_over:
        text += ", extra turn"
    notes = []
    if event.seconds >= 0.05:
        notes.append(f"{event.seconds:.2f} s")
    if event.info.get("depth"):
        notes.append(f"depth {event.info['depth']}")
    if event.info.get("outcome"):
        notes.append(str(event.info["outcome"]))
    elif isinstance(event.info.get("value"), (int, float)):
        notes.append(f"value {event.info['value']:+g}")
    if notes:
        text += f" ({', '.join(notes)})"
    return text


def result_line(position: Position, names: tuple[str, str]) -> str:
    """One line with the final score, the winner first (``Ann (0) wins 39-9``)."""
    scores = position.scores
    if scores is None:
        return f"Game not finished: stores {position.store(0)}-{position.store(1)}"
    if position.winner is None:
        return f"Draw, {scores[0]}-{scores[1]}"
    return f"{names[position.winner]} wins {max(scores)}-{min(scores)}"


def terminal_asker(console: Console, read_line: Callable[[str], str]) -> Callable[[Position], Move]:
    """How a human player at the terminal is asked: again and again until legal."""

    def ask(position: Position) -> Move:
        while True:
            legal = " ".join(move_name(position.to_move, move) for move in position.legal_moves())
            answer = read_line(f"Player {position.to_move}, your move [{legal}]: ")
            try:
                return parse_move(answer, position)
            except IllegalMoveError as error:
                console.print(f"[red]{error}[/red]")

    return ask
