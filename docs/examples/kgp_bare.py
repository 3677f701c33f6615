"""A KGP agent with nothing but the standard library: it speaks the protocol itself (random moves).

    python kgp_bare.py HOST PORT [TOKEN]
"""

import random
import socket
import sys

sock = socket.create_connection((sys.argv[1], int(sys.argv[2])))
wire = sock.makefile("rw", encoding="utf-8", newline="")


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
    name, args = words[0], words[1:]
    if name == "kgp":  # the server's greeting: say who we are, then ask for games
        send('set info:name "bare-agent"')
        if len(sys.argv) > 3:
            send(f'set auth:token "{sys.argv[3]}"')
        send("mode freeplay")
    elif name == "state":  # <n,my store,their store,my pits...,their pits...>: we are south
        numbers = [int(x) for x in args[0].strip("<>").split(",")]
        size, mine = numbers[0], numbers[3:3 + numbers[0]]
        move = random.choice([pit + 1 for pit in range(size) if mine[pit] > 0])  # pits count from 1
        send(f"@{ident} move {move}")
        send(f"@{ident} yield")
    elif name == "ping":
        send(f"@{ident} pong")
    elif name == "goodbye":
        break
