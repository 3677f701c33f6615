"""CMancala (github.com/LifesLight/CMancala, a binary the user built) as a player, one fresh process a move.

The position goes in with CMancala's ``load CODE`` (its ``encode`` format: the
side to move in bit 0, then the 14 cells, 8 bits each, as 32 hex digits less
the first five); ``step`` lets its AI move with ``time SECONDS`` (checked only
between its iterations, so it may overrun); ``last`` prints the move. Kalah
with six pits and no capture from an empty opposite pit only (its rules).

Each move's CPU time is measured from the operating system's account of the
finished child process (``getrusage(RUSAGE_CHILDREN)`` before and after), so
it counts what CMancala computed, whatever else the machine was doing.
"""

from __future__ import annotations

import os
import re
import resource
import shutil
import subprocess

from kalah import Position

#: CMancala reads ``time 0`` as no limit: the shortest time it is given.
MIN_SECONDS = 0.001


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


def read_move(block: str, output: str, position: Position, cpu: float, budget: float) -> tuple[int, dict]:
    """Our pit of the move CMancala printed in ``block`` (its last answer), and what it said about the search."""
    move = re.search(r"Move:\s*(\d+)", block)
    if not move:
        raise RuntimeError(f"CMancala gave no move; its output ends with:\n{output[-800:]}")
    depth = re.search(r"Depth:\s*(\d+)", block)
    clock = re.search(r"Total time:\s*([\d.]+) seconds", block)
    info = {
        "depth": int(depth.group(1)) if depth else None,
        "seconds": float(clock.group(1)) if clock else None,
        "cpu": cpu,
        "budget": budget,
    }
    pit = pit_of(int(move.group(1)), position.to_move)
    if pit not in position.legal_moves():
        raise RuntimeError(f"CMancala played pit {pit}, not legal in {position!r}")
    return pit, info


def children_cpu() -> float:
    """CPU seconds (user and system) of this process's finished child processes so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class CMancalaPlayer:
    """A player (``choose_move``) that asks CMancala for every move, with ``seconds`` a move.

    ``seconds`` may be changed between moves (the CPU-equalized match does).
    ``book``: CMancala's own opening book (3, 4 and 5 seeds; four plies).
    After each move ``last_info`` holds its depth, its own clock's seconds and
    the CPU seconds the process used (``cpu``).
    """

    is_computer = True

    def __init__(self, binary: str, seconds: float, cache_bits: int = 24, book: bool = False) -> None:
        self.binary, self.seconds, self.cache_bits, self.book = binary, seconds, cache_bits, book
        self.name = self.spec = f"cmancala:time={seconds:g}" + (",book=on" if book else "")
        self.last_info: dict[str, object] = {}

    def overhead(self, position: Position, runs: int = 3) -> float:
        """The CPU seconds of a move that only starts the process and clears its table (a depth-1
        search of ``position``; the median of ``runs``): what each move costs it before thinking."""
        costs = []
        for _ in range(runs):
            before = children_cpu()
            self._run(position, "time 0\ndepth 1")
            costs.append(children_cpu() - before)
        return sorted(costs)[len(costs) // 2]

    def _run(self, position: Position, limits: str) -> str:
        script = (
            f"{limits}\nbook {'true' if self.book else 'false'}\ncache {self.cache_bits}\n"
            "player 1 ai\nplayer 2 ai\n"
            f"progress false\nautoplay false\nstart\nload {encode(position)}\nstep\nlast\nquit\n"
        )
        return subprocess.run([self.binary], input=script, capture_output=True, text=True, timeout=600).stdout

    def choose_move(self, position: Position) -> int:
        seconds = max(self.seconds, MIN_SECONDS)
        before = children_cpu()
        out = self._run(position, f"time {seconds:.4f}\ndepth 0")
        cpu = children_cpu() - before
        pit, self.last_info = read_move(out, out, position, cpu, seconds)
        return pit

    def reset(self) -> None:
        pass


def process_cpu(pid: int) -> float:
    """CPU seconds (user and system) of a live process so far, from /proc (to the clock tick, 10 ms)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class CMancalaSession:
    """CMancala as one process for a whole game (the same ``choose_move`` as :class:`CMancalaPlayer`).

    Between moves it goes back to its configuration (``config``), takes the
    move's ``time``, starts a game, loads the position and steps: its table
    (allocated and cleared once, by a depth-1 search of ``warm`` when given,
    before the game) stays from one move to the next, as ours does. Its CPU time a move is read from ``/proc`` before and after (to the
    10 ms clock tick; the match sums it over the game). ``close`` ends it.
    """

    is_computer = True

    def __init__(
        self, binary: str, seconds: float, cache_bits: int = 24, book: bool = False, warm: Position | None = None
    ) -> None:
        self.seconds, self.book = seconds, book
        self.name = self.spec = f"cmancala:time={seconds:g}" + (",book=on" if book else "") + ",session"
        self.last_info: dict[str, object] = {}
        command = [binary] if shutil.which("stdbuf") is None else ["stdbuf", "-oL", binary]  # line by line
        self._process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1
        )
        self._count = 0
        self._send(
            f"depth 0\nbook {'true' if book else 'false'}\ncache {cache_bits}\nplayer 1 ai\nplayer 2 ai\n"
            "progress false\nautoplay false\n"
        )
        if warm is not None:  # a depth-1 search: its table is allocated and cleared now, not in a move
            self._send(f"time 0\ndepth 1\nstart\nload {encode(warm)}\nstep\nlast\n")
            self._until_marker()
            self._send("config\ndepth 0\n")

    def _send(self, text: str) -> None:
        assert self._process.stdin is not None
        self._process.stdin.write(text)
        self._process.stdin.flush()

    def _until_marker(self) -> list[str]:
        """The lines it prints up to the answer to an unknown command sent as a marker."""
        self._count += 1
        marker = f"kalah-marker-{self._count}"
        self._send(marker + "\n")
        assert self._process.stdout is not None
        lines = []
        for line in self._process.stdout:
            if marker in line and "Unknown command" in line:
                return lines
            lines.append(line)
        raise RuntimeError("CMancala ended unexpectedly; its last lines:\n" + "".join(lines[-20:]))

    def choose_move(self, position: Position) -> int:
        seconds = max(self.seconds, MIN_SECONDS)
        before = process_cpu(self._process.pid)
        self._send(f"time {seconds:.4f}\nstart\nload {encode(position)}\nstep\nlast\n")
        lines = self._until_marker()
        cpu = process_cpu(self._process.pid) - before
        self._send("config\n")  # back to the configuration for the next move's time
        output = "".join(lines)
        pit, self.last_info = read_move(output.rpartition("Metadata:")[2], output, position, cpu, seconds)
        return pit

    def reset(self) -> None:
        pass

    def close(self) -> None:
        try:
            self._send("quit\n")
            self._process.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self._process.kill()
            self._process.wait()
