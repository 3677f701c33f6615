"""``exec:COMMAND``: a player that is another program speaking the ManKalah protocol.

The program is started at its first move of a game and told everything the
ManKalah engine would tell it: ``START;South`` or ``START;North``, a
``CHANGE`` for every move (its own included; no echo of its own swap), and
at the end (``close``) the last ``CHANGE`` and ``END``. Players only see
positions, so the moves between two of its turns are found by searching the
opponent's moves (a chain of extra turns, or a swap) that lead from the
position after its last move to the new one.

ManKalah has no way to set up a position, so an external program starts from
the variant's start position: as South, or as North after South's first
move(s). Every answer must arrive within ``timeout`` seconds and all of them
within ``total`` seconds (120 s and the protocol's hour by default; the spec
``exec[move=S,total=S]:COMMAND`` sets them); a program that is
late, exits, answers something malformed or plays an illegal move raises
:class:`ExternalEngineError` (the arena scores that as a forfeit).

``choose_move_until(position, stop)`` gives up waiting for the answer soon
after ``stop`` is set (the KGP client's ``stop``) and returns None. The
program is not killed (the protocol cannot start it again mid-game): its late
answer is read and discarded at its next turn, and it is then told the move
the game went on with and the opponent's since (each ``CHANGE`` carries the
whole board).
"""

from __future__ import annotations

import os
import selectors
import shlex
import shutil
import subprocess
import tempfile
import threading
import time
from typing import IO

from kalah.players.base import ComputerPlayer
from kalah.players.spec import PlayerSpecError, float_option, register_player
from kalah.rules import SWAP, KalahError, Move, Position

from .protocol import ProtocolError, parse_agent_message, side_of, state_of

MOVE_TIMEOUT = 120.0
TOTAL_TIME = 3600.0
MAX_CHAIN = 64


class ExternalEngineError(KalahError):
    """An external program broke the protocol, failed or ran out of time."""


class _Stopped(Exception):
    """Waiting for the program's answer was stopped (``choose_move_until``)."""


class ExecPlayer(ComputerPlayer):
    """A program on this machine that plays over the ManKalah protocol (the ``exec:`` player)."""

    def __init__(self, command: str, timeout: float = MOVE_TIMEOUT, total: float = TOTAL_TIME) -> None:
        super().__init__()
        try:
            argv = shlex.split(command)
        except ValueError as error:
            raise PlayerSpecError(f"exec: cannot read the command {command!r}: {error}") from None
        if not argv:
            raise PlayerSpecError("exec needs a command: exec:COMMAND, e.g. exec:java -jar MyAgent.jar")
        if shutil.which(argv[0]) is None:
            raise PlayerSpecError(f"exec: program {argv[0]!r} not found")
        self.argv = argv
        self.command = command
        self.timeout = timeout
        self.total = total
        self.name = os.path.basename(argv[0]) if len(argv) == 1 else f"{os.path.basename(argv[0])} {' '.join(argv[1:])}"
        self.spec = f"exec:{command}"
        self._process: subprocess.Popen[bytes] | None = None
        self._stderr: IO[bytes] | None = None
        self._buffer = b""
        self._me = 0
        self._swapped = False
        self._known: Position | None = None  # the position the program has been told about
        self._used = 0.0
        self._ended = False
        self.exit_code: int | None = None  # the program's, once closed
        self._stop: threading.Event | None = None  # set, the wait for an answer ends (choose_move_until)
        self._owed: Position | None = None  # asked to move here, its answer not read yet (stopped)

    # --- the game ------------------------------------------------------------------------

    def choose_move_until(self, position: Position, stop: threading.Event) -> Move | None:
        """:meth:`choose_move`, or None soon after ``stop`` is set (from another thread)."""
        self._stop = stop
        try:
            return self.choose_move(position)
        except _Stopped:
            return None
        finally:
            self._stop = None

    def choose_move(self, position: Position) -> Move:
        """Tell the program the moves since its last one and read its answer, within the time limits."""
        if self._process is None:
            self._start(position)
        elif self._owed is not None:
            self._settle(position)
        else:
            self._tell_moves_until(position)
        try:
            move = self._read_move(position)
        except _Stopped:
            self._owed = position
            raise
        after = position.play(move)
        if move == SWAP:
            self._swapped = True  # the swapper gets no echo
        else:
            self._send_change(move + 1, after)
        self._known = after
        return move

    def close(self, final: Position | None = None) -> None:
        """End the program's match: the last moves, ``END``, then stop the process."""
        process, self._process = self._process, None
        if process is None:
            return
        try:
            if final is not None and final.is_over and self._known is not None and not self._ended:
                self._process = process
                self._tell_moves_until(final)
                self._process = None
            self._write(process, "END")
        except (ExternalEngineError, OSError):
            pass
        try:
            if process.stdin is not None:
                process.stdin.close()
        except OSError:
            pass
        try:
            self.exit_code = process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None

    def __del__(self) -> None:
        process = getattr(self, "_process", None)
        if process is not None and process.poll() is None:
            process.kill()

    # --- telling the program what happened ---------------------------------------------------

    def _start(self, position: Position) -> None:
        start = Position.start(position.variant)
        self._me = position.to_move
        if self._me == 0 and position != start:
            raise ExternalEngineError(
                f"{self.name} speaks the ManKalah protocol, which starts only from the start position; "
                "play it from the start (e.g. arena --pie-rule, or --random-plies 0)"
            )
        path: list[Move] = []
        if self._me == 1:
            chain = _chain(start, position, 0)
            if chain is None:
                raise ExternalEngineError(
                    f"{self.name} speaks the ManKalah protocol, which starts only from the start position"
                )
            path = chain
        self._stderr = tempfile.TemporaryFile()
        try:
            self._process = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr, bufsize=0
            )
        except OSError as error:
            raise ExternalEngineError(f"cannot start {self.command!r}: {error.strerror or error}") from None
        self._send(f"START;{side_of(self._me, False)}")
        self._known = start
        for move in path:
            if move == SWAP:
                raise ExternalEngineError(f"{self.name} cannot be told of a swap before its first move")
            after = self._known.play(move)
            self._send_change(move + 1, after)
            self._known = after

    def _settle(self, position: Position) -> None:
        """After a stopped wait: read the late answer (checked, then dropped), and tell the program the move
        the game went on with instead (one of its own, chosen elsewhere) and the opponent's since."""
        owed = self._owed
        assert owed is not None and self._known == owed
        self._read_move(owed)  # may be stopped again: then it is still owed
        self._owed = None
        for move in owed.legal_moves():
            after = owed.play(move)
            rest = [] if after == position else _chain(after, position, 1 - self._me)
            if rest is not None and move != SWAP:
                self._send_change(move + 1, after)
                self._known = after
                self._tell_moves_until(position)
                return
        raise ExternalEngineError(f"cannot tell {self.name} how the game reached {position} after its stopped turn")

    def _tell_moves_until(self, position: Position) -> None:
        assert self._known is not None
        if position == self._known:
            return
        path = _chain(self._known, position, 1 - self._me)
        if path is None:
            raise ExternalEngineError(
                f"cannot tell {self.name} how the game reached {position}: no moves of its opponent lead there"
            )
        for move in path:
            after = self._known.play(move)
            if move == SWAP:
                self._swapped = True
                self._send(f"CHANGE;SWAP;{_state(after, True)};YOU")
            else:
                self._send_change(move + 1, after)
            self._known = after

    def _send_change(self, hole: int, after: Position) -> None:
        turn = "END" if after.is_over else ("YOU" if after.to_move == self._me else "OPP")
        self._send(f"CHANGE;{hole};{_state(after, self._swapped)};{turn}")
        if after.is_over:
            self._ended = True

    def _send(self, line: str) -> None:
        assert self._process is not None
        self._write(self._process, line)

    def _write(self, process: subprocess.Popen[bytes], line: str) -> None:
        assert process.stdin is not None  # started with stdin=PIPE
        try:
            process.stdin.write((line + "\n").encode())
            process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise ExternalEngineError(f"{self.name} closed its input{self._exit_note()}") from None

    # --- its answers -----------------------------------------------------------------------

    def _read_move(self, position: Position) -> Move:
        line = self._read_line()
        try:
            move = parse_agent_message(line, position.variant)
        except ProtocolError as error:
            raise ExternalEngineError(f"{self.name}: {error}") from None
        if move not in position.legal_moves():
            shown = "SWAP" if move == SWAP else f"MOVE;{move + 1}"
            raise ExternalEngineError(f"{self.name} played an illegal move {shown} in {position}")
        return move

    def _read_line(self) -> str:
        assert self._process is not None
        stdout = self._process.stdout
        assert stdout is not None  # started with stdout=PIPE
        began = time.perf_counter()
        deadline = began + min(self.timeout, max(0.0, self.total - self._used))
        # A selector, not select(): in a busy server the pipe's descriptor can be above select()'s 1024.
        waiting = selectors.DefaultSelector()
        waiting.register(stdout, selectors.EVENT_READ)
        try:
            while b"\n" not in self._buffer:
                left = deadline - time.perf_counter()
                if left <= 0:
                    limit = (
                        "its time for the match" if self._used + self.timeout > self.total else f"{self.timeout:g} s"
                    )
                    raise ExternalEngineError(f"{self.name} did not answer within {limit}")
                if self._stop is not None and self._stop.is_set():
                    raise _Stopped
                if not waiting.select(min(left, 0.02)):  # a fiftieth of a second: how soon a stop is seen
                    continue
                chunk = os.read(stdout.fileno(), 4096)
                if not chunk:
                    raise ExternalEngineError(f"{self.name} stopped answering{self._exit_note()}")
                self._buffer += chunk
        finally:
            waiting.close()
            self._used += time.perf_counter() - began
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8", "replace").rstrip("\r")

    def _exit_note(self) -> str:
        if self._process is None:
            return ""
        try:
            code = self._process.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            return ""
        last = ""
        if self._stderr is not None:
            self._stderr.seek(0)
            lines = self._stderr.read().decode("utf-8", "replace").strip().splitlines()
            last = f": {lines[-1]}" if lines else ""
        return f" (it exited with code {code}{last})"


def _state(position: Position, swapped: bool) -> str:
    return ",".join(map(str, state_of(position, swapped)))


def _chain(source: Position, target: Position, mover: int) -> list[Move] | None:
    """Moves of ``mover`` that lead from ``source`` to ``target`` (extra turns chain), or None."""
    if source.to_move != mover:
        return None

    def search(position: Position, depth: int) -> list[Move] | None:
        if depth > MAX_CHAIN:
            return None
        for move in position.legal_moves():
            after = position.play(move)
            if after == target:
                return [move]
            if after.to_move == mover and not after.is_over and move != SWAP:
                if min(after.store(0), after.store(1)) > max(target.store(0), target.store(1)):
                    continue
                rest = search(after, depth + 1)
                if rest is not None:
                    return [move] + rest
        return None

    return search(source, 0)


def _exec_player(command: str | None = None, move: str | None = None, total: str | None = None) -> ExecPlayer:
    if not command:
        raise PlayerSpecError("exec needs a command: exec:COMMAND, e.g. exec:java -jar MyAgent.jar")
    return ExecPlayer(command, float_option("move", move, MOVE_TIMEOUT), float_option("total", total, TOTAL_TIME))


register_player(
    "exec",
    _exec_player,
    "another program speaking the ManKalah protocol",
    "exec:COMMAND or exec[move=SECONDS,total=SECONDS]:COMMAND",
    external="runs a program on this machine",
)
