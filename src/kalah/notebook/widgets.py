"""Live widgets for Jupyter: play a game, step through a record, explore a search trace.

Built on anywidget (``pip install 'kalah[notebook]'``). The kernel keeps the
game and sends each position (``view``: the board, who moves, the legal pits,
what the last move did); the widgets' JavaScript (``static/``) draws it with
the browser page's own board component (``web/static/board.js``, an instance
per widget), animates the moves, and sends clicks back. The trace tree is the
lab page's own tree (``web/static/lab``). Both are imported as ES modules
(:mod:`kalah.notebook.modules`), so a notebook and the pages draw alike.

The computer thinks in a thread of its own, so the notebook stays responsive
(a click while it thinks is refused with a message); :meth:`GameWidget.wait`
waits for it, for scripts and tests.
"""

from __future__ import annotations

import html
import re
import threading
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from kalah.players import Player, make_player
from kalah.records import GameRecord
from kalah.rules import SWAP, KalahError, Move, MoveEffect, Position, Variant
from kalah.rules.notation import move_name
from kalah.rules.svg import BOARD_STYLE, board_svg, result_label
from kalah.rules.wording import plural
from kalah.search.tracing import SearchTrace, tree_facts

from .modules import module_graph

STATIC = Path(__file__).parent / "static"
#: The browser page's static files: the board's stylesheet, the lab's stylesheet (its tree's rules).
WEB = Path(__file__).resolve().parent.parent / "web" / "static"
LAB = WEB / "lab"

__all__ = ["GameWidget", "RecordWidget", "TraceWidget", "play", "replay", "show_trace"]


def _board_style() -> str:
    """The page's board stylesheet (web/static/board.css) and the widgets' own (static/board.css)."""
    return "\n".join(path.read_text(encoding="utf-8") for path in (WEB / "board.css", STATIC / "board.css"))


def _view(
    position: Position,
    before: Position | None,
    effect: MoveEffect | None,
    moves: int,
    names: tuple[str, str],
    legal: list[Move],
) -> dict[str, Any]:
    """A position as the widgets' board draws it: ``last`` is the move that led there, as the web API's
    ``EffectOut`` (the board animates it when ``moves`` is one more than the position it shows)."""
    last = None
    if before is not None and effect is not None:
        last = {
            "player": effect.player,
            "move": effect.move,
            "before": [list(row) for row in before.board],
            "sown": list(effect.sown),
            "extra_turn": effect.extra_turn,
            "captured": effect.captured,
            "capture_pit": effect.capture_pit,
        }
    return {
        "board": [list(row) for row in position.board],
        "to_move": position.to_move,
        "over": position.is_over,
        "legal": legal,
        "last": last,
        "moves": moves,
        "result": result_label(position, names),
    }


class _StaticFallback:
    """What a widget shows where widgets do not run (nbconvert, GitHub, a plain IPython console): its
    board or summary as ``text/html`` and a readable ``text/plain``, next to the widget's own view, which
    a widget-aware front end (JupyterLab, Notebook 7) prefers."""

    def _fallback_html(self) -> str:
        raise NotImplementedError

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        bundle = super()._repr_mimebundle_(**kwargs)  # type: ignore[misc]
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle or {}, {})
        data = {**data, "text/plain": repr(self), "text/html": self._fallback_html()}
        return data, metadata

    def _repr_html_(self) -> str:
        return self._fallback_html()


class GameWidget(_StaticFallback, anywidget.AnyWidget):
    """A game against the computer on a live board: click a pit of yours to move.

    Made by :func:`play`. ``position`` is the current position, ``history``
    the positions before it. :meth:`move`, :meth:`take_back` and
    :meth:`new_game` do what the board's clicks and buttons do.
    """

    _esm = module_graph(STATIC / "board.js")
    _css = _board_style()
    style = traitlets.Dict(BOARD_STYLE).tag(sync=True)
    view = traitlets.Dict().tag(sync=True)
    names = traitlets.List(traitlets.Unicode()).tag(sync=True)
    human = traitlets.Int(0).tag(sync=True)
    message = traitlets.Unicode("").tag(sync=True)
    thinking = traitlets.Bool(False).tag(sync=True)
    can_take_back = traitlets.Bool(False).tag(sync=True)
    can_swap = traitlets.Bool(False).tag(sync=True)

    def __init__(self, start: Position, opponent: Player, human: int, names: tuple[str, str]) -> None:
        super().__init__(human=human, names=list(names))
        self.start = start
        self.opponent = opponent
        self.position = start
        self.history: list[Position] = []
        self._effect: MoveEffect | None = None
        self._thread: threading.Thread | None = None
        self.on_msg(self._on_message)
        self._show()
        self._computer_if_its_turn()

    # --- what the board's clicks and buttons do ---------------------------------

    def move(self, move: Move) -> bool:
        """Play the person's ``move`` (a pit index or ``"swap"``); the computer answers. False if refused."""
        if self.thinking:
            return self._refuse("Wait: the computer is thinking.")
        if self.position.is_over:
            return self._refuse("The game is over: New game starts another.")
        if self.position.to_move != self.human:
            return self._refuse("It is the computer's turn.")
        if move not in self.position.legal_moves():
            why = (
                "pit is empty"
                if isinstance(move, int) and 0 <= move < self.position.variant.pits
                else "is not a move here"
            )
            return self._refuse(f"{move_name(self.human, move)} {why}.")
        self._play(move)
        self._computer_if_its_turn()
        return True

    def take_back(self) -> bool:
        """Undo the person's last move and the computer's answers to it. False if there is none."""
        if self.thinking:
            return self._refuse("Wait: the computer is thinking.")
        while self.history:
            self.position = self.history.pop()
            if self.position.to_move == self.human:
                self._effect = None
                self._show("Move taken back.")
                return True
        self._computer_if_its_turn()
        return self._refuse("There is no move of yours to take back.")

    def new_game(self) -> None:
        """Start again from the first position."""
        if self.thinking:
            self._refuse("Wait: the computer is thinking.")
            return
        self.position, self.history, self._effect = self.start, [], None
        if hasattr(self.opponent, "reset"):
            self.opponent.reset()
        self._show()
        self._computer_if_its_turn()

    def __repr__(self) -> str:
        return (
            f"<kalah game: {self.position.variant.name}, {self.names[0]} (0) against {self.names[1]} (1),"
            f" {len(self.history)} moves: {self.message}>"
        )

    def _fallback_html(self) -> str:
        return f"<div class='kalah-static'>{board_svg(self.position, bottom=self.human)}<p>{html.escape(self.message)}</p></div>"

    def wait(self, timeout: float | None = None) -> None:
        """Wait until the computer has answered (for scripts and tests)."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)

    # --- inside ------------------------------------------------------------------

    def _on_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if not isinstance(content, dict):
            return
        kind = content.get("type")
        if kind == "move":
            if "player" in content and content["player"] != self.human:
                self._refuse("Click a pit on your side of the board (the bottom row).")
                return
            move = content.get("move")
            if move == SWAP or (isinstance(move, int) and not isinstance(move, bool)):
                self.move(move)
            else:
                self._refuse(f"{move!r} is not a move.")
        elif kind == "take_back":
            self.take_back()
        elif kind == "new_game":
            self.new_game()

    def _refuse(self, why: str) -> bool:
        self.message = why
        return False

    def _play(self, move: Move) -> None:
        self.history.append(self.position)
        self.position, self._effect = self.position.play_explained(move)

    def _computer_if_its_turn(self) -> None:
        if self.position.is_over or self.position.to_move == self.human:
            self._show()
            return
        self.thinking = True
        self._show(f"{self.names[1 - self.human]} is thinking…")
        self._thread = threading.Thread(target=self._computer_moves, name="kalah-notebook-computer", daemon=True)
        self._thread.start()

    def _computer_moves(self) -> None:
        try:
            while not self.position.is_over and self.position.to_move != self.human:
                self._play(self.opponent.choose_move(self.position))
                self._show(f"{self.names[1 - self.human]} is thinking…")
            self.thinking = False
            self._show()
        except KalahError as error:
            self.thinking = False
            self._show(f"The computer could not move: {error}")

    def _show(self, message: str | None = None) -> None:
        position = self.position
        mine = not self.thinking and not position.is_over and position.to_move == self.human
        self.view = _view(
            position,
            self.history[-1] if self._effect else None,
            self._effect,
            len(self.history),
            (self.names[0], self.names[1]),
            [m for m in position.legal_moves() if m != SWAP] if mine else [],
        )
        self.can_take_back = any(p.to_move == self.human for p in self.history)
        self.can_swap = not self.thinking and position.to_move == self.human and SWAP in position.legal_moves()
        if message is not None:
            self.message = message
        elif position.is_over:
            self.message = _result_text(position, (self.names[0], self.names[1]))
        elif position.to_move == self.human:
            effect = self._effect
            if effect and effect.player == self.human and effect.extra_turn:
                last = "Your last seed landed in your store: move again. "
            elif effect and effect.player != self.human:
                last = f"{self.names[effect.player]} played {move_name(effect.player, effect.move)}. "
            else:
                last = ""
            self.message = f"{last}Your move: click one of your pits."


def _result_text(position: Position, names: tuple[str, str]) -> str:
    score = position.scores or (0, 0)
    if score[0] == score[1]:
        return f"Game over: a draw, {score[0]}–{score[1]}."
    winner = 0 if score[0] > score[1] else 1
    who = "you win" if names[winner] == "you" else f"{names[winner]} wins"
    return f"Game over: {who} {score[winner]}–{score[1 - winner]}."


def play(
    opponent: str | Player = "pvs:time=0.5",
    *,
    seat: int = 0,
    variant: Variant | None = None,
    position: Position | None = None,
) -> GameWidget:
    """A game against the computer on a live board in the notebook.

    ``opponent`` is a player spec (``"pvs:time=0.5"``, ``"perfect"``,
    ``"random"``… as on the command line) or a player object with
    ``choose_move(position)``; ``seat`` is the person's side (0 moves first);
    ``variant`` or ``position`` sets where the game starts. Click a pit of your
    row to move; Take back and New game are under the board.
    """
    if seat not in (0, 1):
        raise KalahError(f"seat must be 0 or 1, got {seat!r}")
    start = position if position is not None else Position.start(variant or Variant())
    player = make_player(opponent) if isinstance(opponent, str) else opponent
    if not callable(getattr(player, "choose_move", None)):
        raise KalahError(f"an opponent is a player spec or has choose_move(position), got {opponent!r}")
    name = opponent if isinstance(opponent, str) else getattr(player, "name", type(player).__name__)
    names = ("you", str(name)) if seat == 0 else (str(name), "you")
    return GameWidget(start, player, seat, names)


class RecordWidget(_StaticFallback, anywidget.AnyWidget):
    """A game record with a slider: the board after each move. Made by :func:`replay`."""

    _esm = module_graph(STATIC / "replay.js")
    _css = _board_style()
    style = traitlets.Dict(BOARD_STYLE).tag(sync=True)
    view = traitlets.Dict().tag(sync=True)
    names = traitlets.List(traitlets.Unicode()).tag(sync=True)
    index = traitlets.Int(0).tag(sync=True)
    count = traitlets.Int(0).tag(sync=True)
    caption = traitlets.Unicode("").tag(sync=True)

    def __init__(self, record: GameRecord) -> None:
        self.record = record
        self.positions = list(record.positions())
        self.effects: list[MoveEffect | None] = [None]
        for before, recorded in zip(self.positions, record.moves, strict=False):
            self.effects.append(before.play_explained(recorded.move)[1])
        super().__init__(
            count=len(record.moves), index=len(record.moves), names=[record.players[0].name, record.players[1].name]
        )
        self._draw()

    def __repr__(self) -> str:
        return f"<kalah record: {self.record.variant.name}, {self.caption}>"

    def _fallback_html(self) -> str:
        return (
            f"<div class='kalah-static'>{board_svg(self.positions[self.index])}<p>{html.escape(self.caption)}</p></div>"
        )

    @traitlets.validate("index")
    def _valid_index(self, proposal: Any) -> int:
        return max(0, min(self.count, int(proposal["value"])))

    @traitlets.observe("index")
    def _index_changed(self, _change: Any) -> None:
        self._draw()

    def _draw(self) -> None:
        names = (self.record.players[0].name, self.record.players[1].name)
        before = self.positions[self.index - 1] if self.index else None
        self.view = _view(self.positions[self.index], before, self.effects[self.index], self.index, names, [])
        if self.index == 0:
            self.caption = f"start · {plural(self.count, 'move')}"
        else:
            recorded = self.record.moves[self.index - 1]
            self.caption = (
                f"move {self.index} of {self.count}: {names[recorded.player]} plays "
                f"{move_name(recorded.player, recorded.move)}"
            )


def replay(record: GameRecord) -> RecordWidget:
    """A game record in the notebook with a slider to step through its moves."""
    return RecordWidget(record)


def _tree_style() -> str:
    rules = re.findall(r"^svg\.tree[^{]*\{[^}]*\}", (LAB / "lab.css").read_text(encoding="utf-8"), re.M)
    return "\n".join(
        [
            ".kalah-trace { --ink: #2b1d12; --muted: #7a6552; --line: #e3d3bd;"
            " font-family: 'Segoe UI', Arial, sans-serif; max-width: 1100px; }",
            ".kalah-trace-head { font-weight: 600; margin-bottom: 4px; }",
            ".kalah-trace svg.tree { height: 420px; }",
            ".kalah-trace-frame { overflow-x: auto; max-width: 100%; }",  # the tree scrolls, the page does not
            ".kalah-trace-bar { display: flex; flex-wrap: wrap; gap: 4px 6px; align-items: center; margin-top: 6px; }",
            ".kalah-trace-bar input[type=range] { flex: 1; min-width: 120px; }",
            ".kalah-trace-info { margin-top: 4px; font-variant-numeric: tabular-nums; }",
            *rules,
        ]
    )


class TraceWidget(_StaticFallback, anywidget.AnyWidget):
    """A traced search as the lab's interactive tree, with a step slider. Made by :func:`show_trace`."""

    _esm = module_graph(STATIC / "trace_view.js")
    _css = _tree_style()
    trace = traitlets.Dict().tag(sync=True)
    facts = traitlets.Dict().tag(sync=True)

    def __init__(self, trace: dict[str, Any]) -> None:
        super().__init__(trace=trace, facts=_facts(trace))

    def __repr__(self) -> str:
        return f"<kalah search trace: {self._summary()}>"

    def _summary(self) -> str:
        nodes = self.trace.get("nodes") or []
        algorithm = self.trace.get("algorithm", "a search")
        return f"{algorithm}, {len(nodes):,} nodes"

    def _fallback_html(self) -> str:
        position = Position.from_dict(self.trace["position"])
        return (
            f"<div class='kalah-static'>{board_svg(position)}<p>Search trace: {html.escape(self._summary())}."
            " The tree is interactive in a front end that runs widgets (JupyterLab, Notebook 7).</p></div>"
        )


def _facts(trace: dict[str, Any]) -> dict[str, Any]:
    try:
        nodes = trace["nodes"]
        to_move, pruned = tree_facts(
            Position.from_dict(trace["position"]),
            [n["parent"] for n in nodes],
            [n["move"] for n in nodes],
            [n["cutoff"] for n in nodes],
        )
    except (KeyError, TypeError) as error:
        raise KalahError(f"not a search trace (format kalah-trace/1): {error}") from None
    return {"to_move": to_move, "pruned": {str(node_id): moves for node_id, moves in pruned.items()}}


def show_trace(trace: SearchTrace | dict[str, Any]) -> TraceWidget:
    """A search trace (``kalah.trace(...)`` or its ``to_json()``) as an interactive tree in the notebook."""
    return TraceWidget(trace.to_json() if isinstance(trace, SearchTrace) else trace)
