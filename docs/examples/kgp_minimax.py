"""A KGP agent with nothing but the standard library that searches: minimax on the KGP board.

    KGP_HOST=127.0.0.1 KGP_PORT=2671 KGP_NAME=me KGP_TOKEN=a-long-secret python3 kgp_minimax.py

The rules of Kalah in 20 lines (``play``), a search of AGENT_DEPTH moves (5 by default) and the protocol
(as kgp_bare.py). A server that runs submitted agents (kalah arena serve --agents) sets the KGP_ variables.
"""

import os
import socket
import sys

DEPTH = int(os.environ.get("AGENT_DEPTH", "5"))
QUIT_AFTER = int(os.environ.get("AGENT_QUIT_AFTER", "0"))  # states: then it ends (a crash, for the tests)


def play(pits, move):
    """The board after ``move`` (0-based) of south: (pits, whose turn next: 0 south, 1 north)."""
    n = len(pits) // 2 - 1  # pits: south 0..n-1, store n, north n+1..2n, store 2n+1
    board = list(pits)
    seeds, board[move] = board[move], 0
    at = move
    while seeds:
        at = (at + 1) % len(board)
        if at == 2 * n + 1:
            continue
        board[at] += 1
        seeds -= 1
    if at < n and board[at] == 1 and board[2 * n - at] > 0:
        board[n] += board[at] + board[2 * n - at]
        board[at] = board[2 * n - at] = 0
    if sum(board[:n]) == 0 or sum(board[n + 1 : 2 * n + 1]) == 0:
        board[n] += sum(board[:n])
        board[2 * n + 1] += sum(board[n + 1 : 2 * n + 1])
        board[:n] = [0] * n
        board[n + 1 : 2 * n + 1] = [0] * n
    return board, 0 if at == n else 1


def flip(board):
    n = len(board) // 2 - 1
    return board[n + 1 :] + board[: n + 1]


def value(board, depth):
    """South's best margin, ``depth`` moves ahead."""
    n = len(board) // 2 - 1
    moves = [pit for pit in range(n) if board[pit]]
    if depth == 0 or not moves:
        return (
            board[n] - board[2 * n + 1] + sum(board[:n]) - sum(board[n + 1 : 2 * n + 1])
            if not moves
            else board[n] - board[2 * n + 1]
        )
    best = None
    for move in moves:
        after, turn = play(board, move)
        score = value(after, depth - 1) if turn == 0 else -value(flip(after), depth - 1)
        best = score if best is None or score > best else best
    return best


def choose(board):
    n = len(board) // 2 - 1
    moves = [pit for pit in range(n) if board[pit]]

    def score(move):
        after, turn = play(board, move)
        return value(after, DEPTH) if turn == 0 else -value(flip(after), DEPTH)

    return max(moves, key=score)


def main():
    host, port = os.environ.get("KGP_HOST", "127.0.0.1"), int(os.environ.get("KGP_PORT", "2671"))
    sock = socket.create_connection((host, port))
    wire = sock.makefile("rw", encoding="utf-8", newline="")

    def send(line):
        wire.write(line + "\r\n")
        wire.flush()

    states = 0
    for line in wire:
        words = line.split()
        ident = words.pop(0).split("@")[0] if words and (words[0][0].isdigit() or words[0][0] == "@") else None
        if not words:
            continue
        if words[0] == "kgp":
            send(f'set info:name "{os.environ.get("KGP_NAME", "minimax")}"')
            if os.environ.get("KGP_TOKEN"):
                send(f'set auth:token "{os.environ["KGP_TOKEN"]}"')
            send("mode freeplay")
        elif words[0] == "state":
            states += 1
            if states == QUIT_AFTER:
                print("quitting after", states, "states", flush=True)
                return 3
            numbers = [int(x) for x in words[1].strip("<>").split(",")]
            n = numbers[0]
            board = numbers[3 : 3 + n] + [numbers[1]] + numbers[3 + n : 3 + 2 * n] + [numbers[2]]
            send(f"@{ident} move {choose(board) + 1}")
            send(f"@{ident} yield")
        elif words[0] == "ping":
            send(f"@{ident} pong")
        elif words[0] == "goodbye":
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
