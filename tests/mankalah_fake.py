"""A scripted fake ManKalah engine for the tests: it referees one agent
against a scripted opponent, playing the engine's side of the protocol and
the opponent's moves, and checks every message the agent sends."""

from __future__ import annotations

import select
import subprocess
from collections import deque
from collections.abc import Callable

from kalah.mankalah import MANKALAH, SOUTH, Agent, parse_agent_message, state_of
from kalah.rules import SWAP, Position


class InProcess:
    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.pending: deque[str] = deque()

    def send(self, line: str) -> None:
        self.pending.extend(self.agent.handle(line + "\n"))

    def receive(self) -> str | None:
        return self.pending.popleft() if self.pending else None

    def idle(self) -> bool:
        return not self.pending


class OverPipes:
    def __init__(self, process: subprocess.Popen, timeout: float = 30) -> None:
        self.process = process
        self.timeout = timeout

    def send(self, line: str) -> None:
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def receive(self) -> str | None:
        ready, _, _ = select.select([self.process.stdout], [], [], self.timeout)
        if not ready:
            raise AssertionError("the agent did not answer in time")
        line = self.process.stdout.readline()
        return line.rstrip("\n") if line else None

    def idle(self) -> bool:
        ready, _, _ = select.select([self.process.stdout], [], [], 0.05)
        if not ready:
            return True
        # A pipe at end of file is readable too: an agent that has exited after
        # END is silent, one that wrote a line is not.
        return self.process.stdout.readline() == ""


def referee(endpoint, side: str, opponent: Callable[[Position], object], stop_after: int | None = None) -> dict:
    """Play a match: the agent at ``endpoint`` starts as ``side``; ``opponent(position)``
    chooses the other side's moves (pit index or SWAP). Returns what happened."""
    me = 0 if side == SOUTH else 1
    position, swapped = Position.start(MANKALAH), False
    wire: list[str] = []
    agent_moves = 0

    def tell(line: str) -> None:
        wire.append("< " + line)
        endpoint.send(line)

    tell(f"START;{side}")
    while not position.is_over:
        if stop_after is not None and len(wire) >= stop_after:
            return {"wire": wire, "position": position, "swapped": swapped, "stopped": True}
        if position.to_move == me:
            answer = endpoint.receive()
            assert answer is not None, "the agent closed its output"
            wire.append("> " + answer)
            move = parse_agent_message(answer)  # raises on a malformed message
            assert move in position.legal_moves(), f"illegal move {answer} in {position}"
            agent_moves += 1
            position = position.play(move)
            if move == SWAP:
                swapped = True  # no echo to the swapper
                continue
            turn = "END" if position.is_over else ("YOU" if position.to_move == me else "OPP")
            tell(f"CHANGE;{move + 1};{','.join(map(str, state_of(position, swapped)))};{turn}")
        else:
            assert endpoint.idle(), "the agent spoke out of turn"
            move = opponent(position)
            assert move in position.legal_moves()
            position = position.play(move)
            if move == SWAP:
                swapped = True
                tell(f"CHANGE;SWAP;{','.join(map(str, state_of(position, swapped)))};YOU")
                continue
            turn = "END" if position.is_over else ("YOU" if position.to_move == me else "OPP")
            tell(f"CHANGE;{move + 1};{','.join(map(str, state_of(position, swapped)))};{turn}")
    tell("END")
    assert endpoint.idle(), "the agent spoke after the end"
    return {
        "wire": wire,
        "position": position,
        "swapped": swapped,
        "agent_moves": agent_moves,
        "me": me,
        "stopped": False,
    }
