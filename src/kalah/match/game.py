"""The game loop: two players, a start position, and observers told of every move.

Neither the rules nor the players print; displays, record writers and the
game library follow a game by observing it.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from kalah.players.base import ComputerPlayer, GameStopped, Player
from kalah.rules import IllegalMoveError, Move, MoveEffect, Outcome, Position
from kalah.rules.wording import plural


@dataclass(frozen=True)
class MoveEvent:
    """One move of a game, as observers see it."""

    number: int  # 1 for the game's first move
    player: int
    move: Move
    before: Position
    after: Position
    effect: MoveEffect
    seconds: float
    info: dict = field(default_factory=dict)  # what the player said about its choice


@dataclass(frozen=True)
class GameResult:
    """How a game ended: ``finished`` is False when it was stopped early."""

    final: Position
    moves: int
    finished: bool
    stop_reason: str | None = None

    @property
    def scores(self) -> tuple[int, int] | None:
        """Final totals of player 0 and player 1, or None for an unfinished game."""
        return self.final.scores

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended on the board, or None for an unfinished game."""
        return Outcome.of(self.final)

    @property
    def winner(self) -> int | None:
        """0 or 1, or None after a draw or an unfinished game."""
        outcome = self.outcome
        return outcome.winner if outcome is not None else None

    @property
    def margin(self) -> int | None:
        """Player 0's total minus player 1's, or None for an unfinished game."""
        return self.final.margin


class Observer:
    """Follows a game. Override what you need; every method does nothing by default."""

    def game_started(self, start: Position, players: Sequence[Player]) -> None:
        """Called once before the first move."""
        pass

    def move_played(self, event: MoveEvent) -> None:
        """Called after every move with what it did."""
        pass

    def game_ended(self, result: GameResult) -> None:
        """Called once when the game is over or stopped."""
        pass

    def moves_taken_back(self, position: Position, count: int) -> None:
        """Called when a player took back its last move: the last ``count`` moves are gone (0: there was
        nothing to take back) and the game goes on from ``position``."""
        pass


class PlayerMoveError(IllegalMoveError):
    """A player chose a move the rules do not allow."""


class TakeBack(Exception):
    """Raised by a player's ``choose_move`` to take back its own last move and every move after it
    (a person's "undo"): the game goes back to the position before that move, observers hear
    :meth:`Observer.moves_taken_back`, and the same player is asked again."""


def _taken_back(history: list[tuple[Position, int | None]], player: int) -> int:
    """How many moves to take back for ``player``'s undo: back to before its last move (0: it has none)."""
    for index in range(len(history) - 1, 0, -1):
        if history[index][1] == player:
            return len(history) - index
    return 0


def play_game(
    players: Sequence[Player],
    start: Position | None = None,
    observers: Sequence[Observer] = (),
    max_moves: int | None = None,
) -> GameResult:
    """Play from ``start`` until the game is over, a player stops it, or ``max_moves``.

    A player stops the game by raising ``GameStopped`` (its reason is the stop reason),
    ``EOFError`` or ``KeyboardInterrupt`` (a person closing the input or pressing Ctrl-C): observers still hear
    ``game_ended`` with ``finished=False``, so a record asked for is written.
    A player takes back its last move (and the moves after it) by raising
    :class:`TakeBack`.
    """
    if len(players) != 2:
        raise ValueError(f"a game needs two players, got {len(players)}")
    position = start or Position.start()
    for player in players:  # a player that cannot play this board says so before the first move
        check = getattr(player, "check_variant", None)
        if check is not None:
            check(position.variant)
    for observer in observers:
        observer.game_started(position, players)
    number = 0
    stop_reason = None
    history: list[tuple[Position, int | None]] = [(position, None)]  # each position and who moved into it
    try:
        while not position.is_over and (max_moves is None or number < max_moves):
            player = players[position.to_move]
            began = time.perf_counter()
            try:
                move = player.choose_move(position)
            except TakeBack:
                count = _taken_back(history, position.to_move)
                if count:
                    del history[-count:]
                    position = history[-1][0]
                    number -= count
                for observer in observers:
                    observer.moves_taken_back(position, count)
                continue
            seconds = time.perf_counter() - began
            try:
                after, effect = position.play_explained(move)
            except IllegalMoveError as error:
                raise PlayerMoveError(f"{player.name} ({player.spec}) chose an illegal move: {error}") from None
            number += 1
            event = MoveEvent(
                number,
                position.to_move,
                move,
                position,
                after,
                effect,
                seconds,
                dict(getattr(player, "last_info", {}) or {}),
            )
            history.append((after, event.player))
            position = after
            for observer in observers:
                observer.move_played(event)
    except GameStopped as stop:
        stop_reason = stop.reason
    except EOFError:
        stop_reason = "end of input"
    except KeyboardInterrupt:
        stop_reason = "interrupted"
    if stop_reason is None and not position.is_over:
        stop_reason = f"stopped after {plural(number, 'move')}"
    for player in players:
        if isinstance(player, ComputerPlayer):
            player.stop_thinking()
    result = GameResult(position, number, position.is_over, stop_reason)
    for observer in observers:
        observer.game_ended(result)
    return result
