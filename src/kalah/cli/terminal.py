"""Drawing a position in the terminal, and asking a person for a move.

Player 1's pits run along the top from right to left and player 0's along
the bottom from left to right, so seeds travel counter-clockwise as on a real
board; player 1's store is on the left, player 0's on the right.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.text import Text

from kalah.match import MoveEvent, TakeBack
from kalah.players import GameStopped
from kalah.rules import IllegalMoveError, Move, Position, PovValue, move_name, parse_move, pit_letter, store_letter

CELL = 4  # characters per pit


def _cell(count: int, style: str = "", mark: str = "") -> Text:
    return Text(f"{count:>{CELL - 1 - len(mark)}}{mark} ", style=style)


def board_text(
    position: Position,
    event: MoveEvent | None = None,
    names: tuple[str, str] = ("player 0", "player 1"),
    bottom: int = 0,
) -> Text:
    """The board as rich Text: pits, stores (with their owners' names), letters; the last move's pit,
    sown pits and capture marked. ``bottom`` is the player whose row is drawn at the bottom (the
    person at the terminal), sowing left to right."""
    m = position.variant.pits
    near, far = bottom, 1 - bottom
    base = (0, m + 1)
    sown = set(event.effect.sown) if event else set()
    origin = base[event.player] + event.move if event and event.move != "swap" else None
    captured = event.effect.capture_pit if event else None

    def mark(cell: int) -> str:
        return "x" if captured is not None and cell == captured else ""  # seen without colours too

    def style(cell: int) -> str:
        if cell == origin:
            return "bold reverse"
        if captured is not None and cell == captured:
            return "bold red"
        return "bold yellow" if cell in sown else ""

    marker = ["▶ " if position.to_move == player and not position.is_over else "  " for player in (0, 1)]
    pad = " " * (CELL + 3)  # the far store's letter, a space, three digits (a store can hold 240 seeds)
    lines = Text()
    lines.append(pad + "".join(f"{pit_letter(far, i):>{CELL - 1}} " for i in reversed(range(m))) + "\n", style="dim")
    top = Text(pad)
    for i in reversed(range(m)):
        top.append_text(_cell(position.cells[base[far] + i], style(base[far] + i), mark(base[far] + i)))
    top.append(f"   {marker[far]}{names[far]}")
    lines.append_text(top)
    lines.append("\n")
    far_store, near_store = position.cells[base[far] + m], position.cells[base[near] + m]
    middle = Text(f" {store_letter(far)} ", style="dim")
    middle.append_text(Text(f"{far_store:>3}  ", style=style(base[far] + m)))
    middle.append(" " * (CELL * m))
    middle.append_text(Text(f"{near_store:>3}", style=style(base[near] + m)))
    middle.append(f" {store_letter(near)}", style="dim")
    lines.append_text(middle)
    lines.append("\n")
    low = Text(pad)
    for i in range(m):
        low.append_text(_cell(position.cells[base[near] + i], style(base[near] + i), mark(base[near] + i)))
    low.append(f"   {marker[near]}{names[near]}")
    lines.append_text(low)
    lines.append("\n")
    lines.append(pad + "".join(f"{pit_letter(near, i):>{CELL - 1}} " for i in range(m)) + "\n", style="dim")
    lines.append(f" stores: {store_letter(near)} {names[near]}, {store_letter(far)} {names[far]}", style="dim")
    return lines


def describe_move(event: MoveEvent, names: tuple[str, str], viewer: int | None = None) -> str:
    """One line: the move's number, who played what, and what happened; with ``viewer`` a player's
    value is told from that player's side (the person's).

    Every move has its own number, as on the web pages (``1. C``, ``2. F``, ``3. B``): a player who
    moves again after an extra turn plays several moves in a row, so chess's numbering of move pairs
    (``1. C``, ``1... f``) would give two moves of one player one number."""
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
    value = event.info.get("value")
    if event.info.get("outcome"):
        notes.append(str(event.info["outcome"]) if viewer is None else f"{names[event.player]} {event.info['outcome']}")
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        if viewer is None:
            notes.append(f"value {value:+g}")
        elif viewer == event.player:
            notes.append(f"value {value:+g} for you")
        else:
            # "value +7.25 for you" after the computer's move read as the worth of its move to the person: it is
            # the computer's reckoning of the game, told from the person's side
            kind = "value" if event.info.get("exact") else "estimate"
            notes.append(
                f"{names[event.player]}'s {kind} of the game: {PovValue(value, event.player).pov(viewer):+g} for you"
            )
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


HELP = (
    "Type the letter of one of your pits (or its number, 1 for the first) and press Enter: its seeds are"
    " sown one by one counter-clockwise. Last seed in your store: you move again. Last seed in an empty pit"
    " of yours with seeds opposite: you capture them. 'swap' takes over the first player's side where the"
    " pie rule allows it. 'hint' shows the best move (exact where the solver proves it), 'undo' takes back"
    " your last move and the replies to it. q (or Ctrl-C) stops the game."
)


def why_illegal(answer: str, position: Position) -> str:
    """Why a typed answer is not a legal move, in words a player understands."""
    word = answer.strip()
    me, m = position.to_move, position.variant.pits
    legal = ", ".join(move_name(me, move) for move in position.legal_moves())
    if not word:
        return f"type a pit letter ({legal}), or ? for help"
    for pit in range(m):  # a letter names the mover's pit in either case, as parse_move reads it
        if word.lower() == pit_letter(me, pit).lower() or (word.isascii() and word.isdigit() and int(word) == pit + 1):
            if position.pits(me)[pit] == 0:
                return f"pit {pit_letter(me, pit)} is empty; legal: {legal}"
    if word.lower() == "swap":
        if not position.variant.pie_rule:
            return f"no swap in this game: it is played without the pie rule (--pie-rule); legal: {legal}"
        return f"no swap here: the pie rule lets player 1 swap only as the answer to the first move; legal: {legal}"
    return f"{word!r} is not a pit; legal: {legal} (? for help)"


def hint_text(position: Position, seconds: float | None = None) -> str:
    """The best move of ``position`` with its value for the player to move, marked exact or estimated,
    and the moves as good as it: the analysis ``kalah analyse`` makes (for as long by default), its best
    move named the same way."""
    from kalah.analysis import DEFAULT_TIME, analyse

    from .analyse import best_move_names

    found = analyse(position, seconds or DEFAULT_TIME)
    best, equal = best_move_names(found)
    value = found.value
    shown = "?" if value is None else (f"{value:+d}" if isinstance(value, int) else f"{value:+.2f}")
    how = "exact" if found.exact else f"estimate, depth {found.depth}"
    also = f"; as good: {equal}" if equal else ""
    return f"Hint: {best} (value {shown} for you, {how}{also})"


def terminal_asker(console: Console, read_line: Callable[[str], str]) -> Callable[[Position], Move]:
    """How a human player at the terminal is asked: again and again until legal; ``?`` shows help,
    ``hint`` the best move, ``undo`` takes back the person's last move (:class:`kalah.match.TakeBack`)."""

    def ask(position: Position) -> Move:
        while True:
            legal = " ".join(move_name(position.to_move, move) for move in position.legal_moves())
            answer = read_line(f"Player {position.to_move}, your move [{legal}] (? for help, hint, undo): ")
            if answer.strip() in ("?", "help"):
                console.print(HELP)
                continue
            if answer.strip().lower() == "hint":
                console.print(hint_text(position))
                continue
            if answer.strip().lower() in ("undo", "u", "takeback"):
                raise TakeBack
            if answer.strip().lower() in ("q", "quit", "exit"):
                raise GameStopped(f"player {position.to_move} quit")  # the loop stops it; a record is still written
            try:
                return parse_move(answer, position)
            except IllegalMoveError:
                console.print(f"[red]{why_illegal(answer, position)}[/red]")

    return ask


def building_bar(console: Console | None = None):
    """The progress bar of an endgame database being built (``kalah endgame build``, and ``kalah solve``
    when it builds one first): share done, time spent and time left."""
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

    return Progress(
        TextColumn("[bold]building[/bold]"),
        BarColumn(),
        TextColumn("{task.percentage:>5.1f}%"),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    )
