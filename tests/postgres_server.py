"""A real PostgreSQL server for the tests, started by the tests themselves from Debian's ``postgresql``.

``initdb`` in a temporary folder, ``postgres`` on a free port of loopback (and
a Unix socket in that folder), run as the ``postgres`` user when the tests
run as root (the server refuses root); stopped when the tests end. Each test
gets a database of its own (:func:`fresh_database`). Without the server's
programs the tests that need it skip, saying why; ``.ci/run`` installs them.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass

import pytest

_counter = itertools.count(1)


def _binaries() -> str | None:
    """The folder of initdb and postgres (Debian keeps them in /usr/lib/postgresql/VERSION/bin)."""
    found = shutil.which("initdb")
    if found and shutil.which("postgres"):
        return os.path.dirname(os.path.realpath(found))
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.path.exists(os.path.join(folder, "postgres")):
            return folder
    return None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class PostgresServer:
    """A running server: its address for the superuser ``kalah`` (trusted on loopback), and its process."""

    port: int
    folder: str
    process: subprocess.Popen[bytes]

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://kalah@127.0.0.1:{self.port}/{database}"

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


def start_server() -> PostgresServer:
    """Start a PostgreSQL server in a new temporary folder (skips the test when PostgreSQL is missing)."""
    pytest.importorskip("psycopg", reason="psycopg is not installed (pip install 'kalah[postgresql]')")
    folder = _binaries()
    if folder is None:
        pytest.skip("PostgreSQL's server programs are not installed (apt-get install postgresql)")
    root = tempfile.mkdtemp(prefix="kalah-pg-")
    as_user: list[str] = []
    if os.geteuid() == 0:  # the server refuses to run as root: as the postgres user of Debian's package
        user = pwd.getpwnam("postgres")
        os.chown(root, user.pw_uid, user.pw_gid)
        as_user = ["runuser", "-u", "postgres", "--"]
    data = os.path.join(root, "data")
    subprocess.run(
        [*as_user, os.path.join(folder, "initdb"), "-D", data, "-U", "kalah", "-A", "trust", "--no-sync", "-E", "UTF8"],
        check=True,
        capture_output=True,
    )
    port = _free_port()
    process = subprocess.Popen(
        [
            *as_user,
            os.path.join(folder, "postgres"),
            "-D",
            data,
            "-p",
            str(port),
            "-k",
            root,
            "-c",
            "listen_addresses=127.0.0.1",
            "-c",
            "fsync=off",
            "-c",
            "synchronous_commit=off",
            "-c",
            "full_page_writes=off",
            "-c",
            "max_connections=200",
        ],
        stdout=subprocess.DEVNULL,
        stderr=open(os.path.join(root, "server.log"), "wb"),  # the server writes it while it runs
    )
    server = PostgresServer(port, root, process)
    import psycopg

    deadline = time.monotonic() + 30
    while True:
        try:
            psycopg.connect(server.url(), connect_timeout=2).close()
            return server
        except psycopg.OperationalError:
            if process.poll() is not None or time.monotonic() > deadline:
                log = open(os.path.join(root, "server.log")).read()[-2000:]
                server.stop()
                raise RuntimeError(f"PostgreSQL did not start: {log}") from None
            time.sleep(0.1)


def fresh_database(server: PostgresServer) -> str:
    """A new empty database on ``server``; its address."""
    import psycopg

    name = f"kalah_test_{os.getpid()}_{next(_counter)}"
    with psycopg.connect(server.url(), autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return server.url(name)
