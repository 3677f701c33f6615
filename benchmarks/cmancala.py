"""CMancala (github.com/LifesLight/CMancala, a binary the user built) as a player, one fresh process a move.

The position goes in with CMancala's ``load CODE`` (its ``encode`` format: the
side to move in bit 0, then the 14 cells, 8 bits each, as 32 hex digits less
the first five); ``step`` lets its AI move with ``time SECONDS`` (checked only
between its iterations, so it may overrun); ``last`` prints the move. Kalah
with six pits and no capture from an empty opposite pit only (its rules).
"""

from __future__ import annotations

import re
import subprocess

from kalah import Position


def encode(position: Position) -> str:
    """CMancala's code of ``position`` (its player 1 is our player 0, cells in the same order)."""
    if position.variant.pits != 6 or position.variant.empty_capture or position.variant.pie_rule:
        raise ValueError("CMancala plays Kalah with six pits, captures only opposite seeds, no pie rule")
    value = 1 if position.to_move == 0 else 0
    for index, cell in enumerate(position.cells[:14]):
        value |= cell << (1 + 8 * index)
    return f"{value:032x}"[5:]


def pit_of(move: int, to_move: int) -> int:
    """Our pit index (0-5, from the mover's side) of CMancala's printed move (1-6; player 2's counted backwards)."""
    return move - 1 if to_move == 0 else 6 - move


class CMancalaPlayer:
    """A player (``choose_move``) that asks CMancala for every move, with ``seconds`` a move."""

    is_computer = True

    def __init__(self, binary: str, seconds: float, cache_bits: int = 24) -> None:
        self.binary, self.seconds, self.cache_bits = binary, seconds, cache_bits
        self.name = self.spec = f"cmancala:time={seconds:g}"
        self.last_info: dict[str, object] = {}

    def choose_move(self, position: Position) -> int:
        script = (
            f"time {self.seconds}\ndepth 0\nbook false\ncache {self.cache_bits}\nplayer 1 ai\nplayer 2 ai\n"
            f"progress false\nautoplay false\nstart\nload {encode(position)}\nstep\nlast\nquit\n"
        )
        out = subprocess.run([self.binary], input=script, capture_output=True, text=True, timeout=600).stdout
        move = re.search(r"Move:\s*(\d+)", out)
        if not move:
            raise RuntimeError(f"CMancala gave no move; its output ends with:\n{out[-800:]}")
        depth = re.search(r"Depth:\s*(\d+)", out)
        seconds = re.search(r"Total time:\s*([\d.]+) seconds", out)
        self.last_info = {
            "depth": int(depth.group(1)) if depth else None,
            "seconds": float(seconds.group(1)) if seconds else None,
        }
        pit = pit_of(int(move.group(1)), position.to_move)
        if pit not in position.legal_moves():
            raise RuntimeError(f"CMancala played pit {pit}, not legal in {position!r}")
        return pit

    def reset(self) -> None:
        pass
