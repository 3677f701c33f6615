"""Bad input to `kalah kgp` and `kalah arena serve`: one line `kalah: error: ...`, exit code 2."""

from __future__ import annotations

import socket
import subprocess

import pytest

from kgp_interop import kalah_command

MISUSES = [
    (["kgp"], "Missing argument"),
    (["kgp", "nohost"], "a server is host:port"),
    (["kgp", "example.org:99999"], "port 99999 of 'example.org:99999' is out of range: a port is 1 to 65535"),
    (["kgp", "127.0.0.1:1", "--games", "0"], "--games must be at least 1"),
    (["kgp", "127.0.0.1:1", "--player", "nobody"], "unknown player 'nobody'"),
    (["kgp", "127.0.0.1:1", "--player", "human"], "needs a person"),
    (["kgp", "127.0.0.1:1", "--mode", "verify"], "--mode must be freeplay or eval"),
    (["kgp", "127.0.0.1:1", "--token", " "], "--token must not be empty"),
    (["kgp", "127.0.0.1:1", "--retries", "-1"], "--retries"),
    (["arena", "serve", "--port", "70000"], "--port must be a port number"),
    (["arena", "serve", "--move-time", "0"], "--move-time"),
    (["arena", "serve", "--pits", "13"], "pits must be between 1 and 12"),
    (["arena", "serve", "--stage", "13x12", "--tournament"], "pits must be between 1 and 12"),
    (["arena", "serve", "--stage", "big", "--tournament"], "a stage is PITSxSEEDS"),
    (["arena", "serve", "--stage", "8x8"], "--stage needs --tournament"),
    (["arena", "serve", "--swiss", "3"], "--swiss needs --tournament"),
    (["arena", "serve", "--log-level", "loud"], "--log-level must be one of debug, info, warning, error"),
    (["arena", "serve", "--log-file", "{missing}/log"], "--log-file: no directory"),
    (["arena", "serve", "--agents", "{missing}"], "no such directory of submissions"),
    (["arena", "serve", "--agent-processes", "1"], "--agent-processes must be at least 4"),
    (["arena", "agents", "check", "{missing}"], "no such directory of submissions"),
    (["arena", "agents", "list", "--db", "{missing}/lib.sqlite"], "--db: no file"),
    (["arena", "serve", "--games-per-pairing", "3"], "--games-per-pairing"),
    (["arena", "serve", "--field", "1"], "--field"),
    (["arena", "serve", "--db", "{missing}/lib.sqlite", "--port", "0", "--kgp-port", "0"], "no directory"),
    (
        ["arena", "serve", "--standings", "{missing}/final", "--tournament", "--port", "0", "--kgp-port", "0"],
        "no directory",
    ),
    (["arena", "serve", "--nope"], "No such option"),
    (["arena", "serve", "--port", "8799", "--kgp-port", "8799"], "--port and --kgp-port must differ, both are 8799"),
]


@pytest.mark.parametrize("args,message", MISUSES, ids=[" ".join(a) for a, _ in MISUSES])
def test_bad_input_is_one_line_and_exit_2(args, message, tmp_path):
    missing = tmp_path / "no-such-folder"  # a folder that surely does not exist (not a fixed path: others may make it)
    run = subprocess.run(
        [*kalah_command(), *(arg.format(missing=missing) for arg in args)], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 2, run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kalah: error:"), run.stderr
    assert message in lines[0]


@pytest.mark.parametrize("option, other", [("--kgp-port", "--port"), ("--port", "--kgp-port")])
def test_a_port_in_use_is_one_line(tmp_path, option, other):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = subprocess.run(
            [*kalah_command(), "arena", "serve", option, str(port), other, "0", "--db", str(tmp_path / "lib.sqlite")],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert run.returncode == 2 and run.stdout == "", run.stderr
    assert run.stderr == f"kalah: error: port {port} is already in use on 127.0.0.1; give another with {option}\n"


def test_a_web_port_taken_after_the_check_is_an_os_error_not_an_exit(tmp_path):
    """uvicorn exits the process when it cannot bind; the server turns that into an OSError for its caller."""
    import asyncio

    from kalah.classroom import ServerConfig, serve

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(OSError, match=f"cannot listen on 127.0.0.1:{port}"):
            asyncio.run(serve(ServerConfig(), tmp_path / "lib.sqlite", "127.0.0.1", port, 0))


def _client_of_a_closed_port(retries: int) -> tuple[int, subprocess.CompletedProcess]:
    """``kalah kgp`` with ``--retries`` against a port nothing listens on: the port and the finished run."""
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    run = subprocess.run(
        [*kalah_command(), "kgp", f"127.0.0.1:{port}", "--retries", str(retries), "--player", "random"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    return port, run


def test_an_unreachable_server_says_why_it_stopped():
    port, run = _client_of_a_closed_port(1)
    assert run.returncode == 1
    assert "trying again in 1 s" in run.stderr
    assert (
        f"stopped: cannot reach 127.0.0.1:{port}" in run.stderr
        and "gave up after 2 attempts: the first and 1 retry" in run.stderr
    )


def test_retries_count_the_attempts_after_the_first_as_the_help_says():
    port, run = _client_of_a_closed_port(0)
    assert run.returncode == 1 and "trying again" not in run.stderr
    assert "(gave up after 1 attempt, no retries)" in run.stderr
    usage = subprocess.run([*kalah_command(), "kgp", "--help"], capture_output=True, text=True, timeout=60)
    assert "Times to try again after a failed" in " ".join(usage.stdout.split())


class _Refuser:
    """An HTTP server that answers every request, WebSocket handshakes too, with 403 Forbidden."""

    def __enter__(self):
        import threading

        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()
        return self

    def _serve(self):
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            with connection:
                data = b""
                while b"\r\n\r\n" not in data:
                    chunk = connection.recv(4096)
                    if not chunk:
                        break
                    data += chunk
                connection.sendall(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")

    def __exit__(self, *exc):
        self.listener.close()


@pytest.mark.parametrize("retries", [0, 1])
def test_a_refused_websocket_is_one_line_and_exit_2(retries):
    with _Refuser() as server:
        url = f"ws://127.0.0.1:{server.port}/nosocket"
        run = subprocess.run(
            [*kalah_command(), "kgp", url, "--retries", str(retries), "--player", "random"],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert run.returncode == 2, run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 + retries and "Traceback" not in run.stderr, run.stderr
    assert lines[-1].startswith(f"kalah: error: {url}: the server refused the WebSocket connection (HTTP 403)")
    if retries:
        assert "trying again in 1 s" in lines[0]


BAD_MANIFESTS = [
    (None, "no agent.toml"),
    ("name = 'a'\ntoken = 'long-enough'\n", "run is missing"),
    ("name = 'a'\ntoken = 'short'\nrun = 'x'\n", "token has at least 8 characters"),
    ("name = 'a b'\ntoken = 'long-enough'\nrun = 'x'\n", "name 'a b' must be 1 to 40 letters"),
    ("name = 'a'\ntoken = 'long-enough'\nrun = 'x'\nimage = 'y'\n", "unknown key 'image'"),
    ("name = 'a\ntoken", "not TOML"),
    ("name = 'a'\ntoken = 'long-enough'\nrun = 3\n", "run must be a non-empty string"),
]


@pytest.mark.parametrize("text, message", BAD_MANIFESTS, ids=[message for _, message in BAD_MANIFESTS])
@pytest.mark.parametrize("command", [["arena", "agents", "check"], ["arena", "serve", "--port", "0", "--agents"]])
def test_a_bad_manifest_is_one_line_and_exit_2(tmp_path, text, message, command):
    folder = tmp_path / "submissions" / "student"
    folder.mkdir(parents=True)
    if text is not None:
        (folder / "agent.toml").write_text(text)
    run = subprocess.run(
        [*kalah_command(), *command, str(tmp_path / "submissions")], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 2, run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kalah: error:") and message in lines[0], run.stderr


def test_two_submissions_of_one_name_are_one_line_and_exit_2(tmp_path):
    for folder in ("one", "two"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "agent.toml").write_text(f"name = 'same'\ntoken = 'token-{folder}'\nrun = 'x'\n")
    run = subprocess.run(
        [*kalah_command(), "arena", "agents", "check", "--no-build", str(tmp_path)], capture_output=True, text=True
    )
    assert run.returncode == 2 and "have the same name" in run.stderr, run.stderr
