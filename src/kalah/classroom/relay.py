"""The relay inside a submitted agent's sandbox: its only way to the server.

The sandbox has a network of its own with nothing in it but the loopback
(``bwrap --unshare-net``), and the server's socket for this agent is a Unix
socket bound into it. This script, the sandbox's first program, listens on
``127.0.0.1:PORT`` of that loopback, starts the agent's command, and carries
every connection the agent opens there to the Unix socket, byte for byte.
So the agent connects over TCP as it would to any KGP server, and can reach
nothing else. It ends with the agent, with the agent's exit status.

Standard library only, one thread: it runs under the agent's limits (its
processes and threads count against them), by a bare ``python3 -I -S``.

    python3 relay.py SOCKET PORT COMMAND
"""

from __future__ import annotations

import os
import selectors
import signal
import socket
import subprocess
import sys

CHUNK = 65536


def main(arguments: list[str]) -> int:
    """Listen, start the agent, relay until it ends; returns its exit status."""
    unix_path, port, command = arguments[0], int(arguments[1]), arguments[2]
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(16)
    listener.setblocking(False)
    agent = subprocess.Popen(["/bin/sh", "-c", command])
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ)
    peers: dict[socket.socket, socket.socket] = {}

    def drop(one: socket.socket) -> None:
        other = peers.pop(one, None)
        for end in (one, other):
            if end is not None:
                peers.pop(end, None)
                try:
                    selector.unregister(end)
                except (KeyError, ValueError):
                    pass
                end.close()

    while agent.poll() is None:
        for key, _ in selector.select(timeout=0.2):
            sock = key.fileobj
            assert isinstance(sock, socket.socket)
            if sock is listener:
                try:
                    inside, _address = listener.accept()
                except OSError:
                    continue
                outside = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                try:
                    outside.connect(unix_path)
                except OSError:
                    inside.close()
                    outside.close()
                    continue
                for end in (inside, outside):
                    end.setblocking(True)
                    selector.register(end, selectors.EVENT_READ)
                peers[inside], peers[outside] = outside, inside
                continue
            try:
                data = sock.recv(CHUNK)
            except OSError:
                data = b""
            other = peers.get(sock)
            if not data or other is None:
                drop(sock)
                continue
            try:
                other.sendall(data)  # blocking: a reader that does not read stalls only this agent
            except OSError:
                drop(sock)
    code = agent.returncode
    return 128 + -code if code < 0 else code


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    os.environ.pop("PYTHONPATH", None)
    sys.exit(main(sys.argv[1:]))
