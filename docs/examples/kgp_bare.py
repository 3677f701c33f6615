"""A KGP agent with nothing but the standard library: it speaks the protocol itself (random moves).

    python kgp_bare.py [HOST] [PORT] [TOKEN] [--name NAME] [--retries N]

HOST, PORT, TOKEN and NAME default to the variables KGP_HOST, KGP_PORT, KGP_TOKEN and KGP_NAME (a server
that runs submitted agents sets them), else 127.0.0.1, 2671, none and "bare-agent". When the server is not
up (or goes away) it tries again, waiting 1, 2, 4 ... up to 30 seconds, at most N times in a row.
"""

import argparse
import os
import random
import socket
import sys
import time


def play(host, port, name, token):
    """Play on one connection until the server closes it; returns whether a game was played."""
    sock = socket.create_connection((host, port), timeout=60)
    sock.settimeout(None)
    wire = sock.makefile("rw", encoding="utf-8", newline="")
    played = False

    def send(line):
        wire.write(line + "\r\n")
        wire.flush()

    for line in wire:
        words = line.split()
        if not words:
            continue
        ident = None
        if words[0][0].isdigit() or words[0][0] == "@":  # [id][@ref] before the command's name
            ident = words.pop(0).split("@")[0]
        command, args = words[0], words[1:]
        if command == "kgp":  # the server's greeting: say who we are, then ask for games
            send(f'set info:name "{name}"')
            if token:
                send(f'set auth:token "{token}"')
            send("mode freeplay")
        elif command == "state":  # <n,my store,their store,my pits...,their pits...>: we are south
            numbers = [int(x) for x in args[0].strip("<>").split(",")]
            size, mine = numbers[0], numbers[3 : 3 + numbers[0]]
            move = random.choice([pit + 1 for pit in range(size) if mine[pit] > 0])  # pits count from 1
            send(f"@{ident} move {move}")
            send(f"@{ident} yield")
            played = True
        elif command == "ping":
            send(f"@{ident} pong")
        elif command == "error":
            print("the server says:", " ".join(args), file=sys.stderr)
        elif command == "goodbye":
            break
    sock.close()
    return played


def main():
    """Connect, play, and connect again with growing pauses when the server is not there."""
    parser = argparse.ArgumentParser(description="A bare KGP agent that plays random moves.")
    parser.add_argument("host", nargs="?", default=os.environ.get("KGP_HOST", "127.0.0.1"))
    parser.add_argument("port", nargs="?", type=int, default=int(os.environ.get("KGP_PORT", "2671")))
    parser.add_argument("token", nargs="?", default=os.environ.get("KGP_TOKEN"))
    parser.add_argument("--name", default=os.environ.get("KGP_NAME", "bare-agent"))
    parser.add_argument("--retries", type=int, default=8, help="failed attempts in a row before giving up")
    options = parser.parse_args()
    if not 0 < options.port < 65536:
        parser.error(f"the port must be 1 to 65535, got {options.port}")
    failures, pause = 0, 1.0
    while True:
        try:
            if play(options.host, options.port, options.name, options.token):
                failures, pause = 0, 1.0  # a connection that played starts the count afresh
            else:
                failures += 1
        except OSError as error:
            failures += 1
            print(f"cannot reach {options.host}:{options.port} ({error.strerror or error})", file=sys.stderr)
        except KeyboardInterrupt:
            return 0
        if failures > options.retries:
            print(f"giving up after {failures} failed attempts in a row", file=sys.stderr)
            return 1
        print(f"trying again in {pause:g} s", file=sys.stderr)
        time.sleep(pause)
        pause = min(pause * 2, 30.0)


if __name__ == "__main__":
    sys.exit(main())
