"""The sandbox a submitted agent is built and run in: bubblewrap (``bwrap``) and resource limits.

What the agent sees (``bwrap``'s mounts, in this order):

- the system's folders read-only (:data:`SYSTEM`: ``/usr``, ``/etc``, ``/opt``
  ...), a fresh ``/dev`` and ``/proc`` of its own process namespace, and
  nothing else of the machine: no ``/home``, ``/root``, ``/srv``, no other
  submission and not the database (those under a system folder are covered
  by empty folders);
- a private, empty, writable ``/tmp`` (a tmpfs of its own);
- its own working copy of its folder, writable, at ``/agent`` (its working
  directory); everything else is read-only, so a write outside fails;
- no network at all (``--unshare-all``: its own network namespace with only
  a loopback), but the server's socket for this agent, a Unix socket bound
  at ``/run/kgp/server.sock``, which the relay (:mod:`.relay`) offers at
  ``127.0.0.1:2671`` inside; nothing else can be reached;
- no environment but ``PATH``, ``HOME=/tmp``, ``LANG`` and the ``KGP_*``
  variables (:mod:`.manifest`).

Limits (``prlimit`` before ``bwrap`` starts, inherited by everything in it):
address space (memory) and CPU time per process, the size of a file it may
write, open files, and its processes and threads. The process limit counts
per user: as root, the server runs each agent as a user of its own (uid
``AGENT_UID + its index``), so one agent's fork bomb stops at its own limit;
as another user, every agent runs as that user and the process limit is
left as it is (the log says so). ``--die-with-parent`` ends the sandbox with
the server; killing its process group ends everything in it.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import sys
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from kalah.rules import KalahError

from .manifest import Manifest

#: The first user id given to agents when the server runs as root (none of them exists in /etc/passwd).
AGENT_UID = 200_000
#: Where the agent's folder, the server's socket and the relay are inside the sandbox.
AGENT_DIR = "/agent"
SOCKET_DIR = "/run/kgp"
#: The system's folders an agent sees (read-only); nothing else of the machine is there (no /home, /root,
#: /srv, /var or the server's files).
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt")
#: Bytes of a program's output kept in its log file (the rest is dropped; its last lines are kept too).
MAX_LOG = 1 << 20
#: The port the relay listens on inside the sandbox (KGP's usual port).
INSIDE_PORT = 2671


class SandboxError(KalahError, RuntimeError):
    """No sandbox can be made here (no ``bwrap``, or it cannot create namespaces)."""


@dataclass(frozen=True)
class SandboxLimits:
    """What one submitted agent may use."""

    memory_mb: int = 2048  # address space of each process (a JVM reserves much more than it uses)
    cpu_seconds: int = 3600  # CPU time of each process, over its whole life
    processes: int = 64  # processes and threads of the agent's user
    file_mb: int = 256  # the largest file it may write
    open_files: int = 256
    build_seconds: float = 300.0  # the build command's wall time
    start_seconds: float = 30.0  # from its start to its sign-in

    def prefix(self, uid: int | None) -> list[str]:
        """The command line that sets these limits (``prlimit``) and, as root, user ``uid`` (``setpriv``)
        before it runs the rest: programs, not code run between fork and exec (the server has threads)."""
        line = [
            _tool("prlimit"),
            f"--as={self.memory_mb << 20}",
            f"--cpu={self.cpu_seconds}",
            f"--fsize={self.file_mb << 20}",
            f"--nofile={self.open_files}",
            "--core=0",
        ]
        if uid is None:
            return [*line, "--"]
        line.append(f"--nproc={self.processes}")
        return [*line, "--", _tool("setpriv"), f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--"]


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise SandboxError(f"the sandbox needs {name} (util-linux)")
    return found


def bwrap() -> str:
    """The path of ``bwrap``; SandboxError when it is not installed."""
    found = shutil.which("bwrap")
    if found is None:
        raise SandboxError("the sandbox needs bubblewrap: apt-get install bubblewrap")
    return found


def agent_uid(index: int) -> int | None:
    """The user the ``index``-th agent runs as: a user of its own as root, else None (the server's)."""
    return AGENT_UID + index if os.geteuid() == 0 else None


def python() -> str:
    """A Python for the relay (it needs only the standard library): the system's, which every agent's user
    can run, else the server's own."""
    for candidate in ("/usr/bin/python3", "/usr/local/bin/python3"):
        if os.access(candidate, os.X_OK):
            return candidate
    return os.path.realpath(sys.executable)


def command(
    work: Path,
    hidden: list[Path],
    argv: list[str],
    environment: dict[str, str],
    sockets: Path | None = None,
) -> list[str]:
    """The ``bwrap`` command line that runs ``argv`` in ``work`` (at /agent), with ``sockets`` (the
    server's socket and the relay) at /run/kgp, hiding ``hidden``."""
    line = [bwrap(), "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"]
    shown = system_folders()
    for folder in shown:
        line += ["--ro-bind", str(folder), str(folder)]
    for path in sorted({path.resolve() for path in hidden}):
        if path.is_dir() and any(path.is_relative_to(folder) for folder in shown):
            line += ["--tmpfs", str(path)]
    line += ["--bind", str(work), AGENT_DIR, "--chdir", AGENT_DIR]
    if sockets is not None:
        line += ["--bind", str(sockets), SOCKET_DIR]
    line += ["--remount-ro", "/"]  # the sandbox's own root too: nothing is writable but /agent and /tmp
    line += ["--unshare-all", "--die-with-parent", "--new-session", "--clearenv", "--hostname", "sandbox"]
    base = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8"}
    for key, value in {**base, **environment}.items():
        line += ["--setenv", key, value]
    return [*line, "--", *argv]


def system_folders() -> list[Path]:
    """The folders of the system an agent sees, read-only: programs, libraries, settings, and the Python
    the relay runs on wherever it is installed."""
    found = {Path(name) for name in SYSTEM if Path(name).exists()}
    relay = Path(python()).parent.parent
    if not any(relay.is_relative_to(folder) for folder in found):
        found.add(relay)
    return sorted(found)


def relay_argv(run: str) -> list[str]:
    """The sandbox's first program: the relay, which starts ``run`` (:mod:`.relay`)."""
    return [python(), "-I", "-S", f"{SOCKET_DIR}/relay.py", f"{SOCKET_DIR}/server.sock", str(INSIDE_PORT), run]


def agent_environment(name: str, token: str) -> dict[str, str]:
    """The ``KGP_*`` variables a submitted agent starts with."""
    return {
        "KGP_SERVER": f"127.0.0.1:{INSIDE_PORT}",
        "KGP_HOST": "127.0.0.1",
        "KGP_PORT": str(INSIDE_PORT),
        "KGP_NAME": name,
        "KGP_TOKEN": token,
    }


async def spawn(
    manifest: Manifest,
    copy: Path,
    uid: int | None,
    limits: SandboxLimits,
    hidden: list[Path],
    argv: list[str],
    sockets: Path | None = None,
) -> asyncio.subprocess.Process:
    """Start ``argv`` in ``manifest``'s sandbox (its working copy ``copy``), output on one pipe."""
    line = command(copy, hidden, argv, agent_environment(manifest.name, manifest.token), sockets)
    return await asyncio.create_subprocess_exec(
        *limits.prefix(uid),
        *line,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        start_new_session=True,  # its own process group: killed as one
    )


async def read_output(process: asyncio.subprocess.Process, file: BinaryIO, tail: deque[str]) -> None:
    """Copy the program's output into ``file`` (up to :data:`MAX_LOG` bytes), its last lines into ``tail``."""
    assert process.stdout is not None
    written = 0
    while line := await process.stdout.readline():
        tail.append(line.decode("utf-8", "replace").rstrip()[:300])
        if written < MAX_LOG:
            file.write(line[: MAX_LOG - written])
            written += len(line)
            file.flush()


async def build(
    manifest: Manifest,
    copy: Path,
    uid: int | None,
    limits: SandboxLimits,
    hidden: list[Path],
    output: BinaryIO,
    tail: deque[str],
) -> str | None:
    """Run the manifest's build command in its sandbox; returns why it failed, or None."""
    assert manifest.build is not None
    process = await spawn(manifest, copy, uid, limits, hidden, ["/bin/sh", "-c", manifest.build])
    reading = asyncio.create_task(read_output(process, output, tail))
    try:
        await asyncio.wait_for(process.wait(), limits.build_seconds)
    except TimeoutError:
        kill(process)
        await process.wait()
        return f"build timed out after {limits.build_seconds:g} s"
    finally:
        await reading
    if process.returncode:
        return "build failed: " + ended(process.returncode, tail)
    return None


def fresh_copy(folder: Path, copy: Path, sockets: Path, uid: int | None) -> None:
    """The submission's working copy and its socket folder, new, owned by the agent's user."""
    for path in (copy, sockets):
        if path.exists():
            shutil.rmtree(path)
    shutil.copytree(folder, copy, symlinks=True)
    sockets.mkdir()
    shutil.copy(Path(__file__).with_name("relay.py"), sockets / "relay.py")
    sockets.chmod(0o755)
    if uid is not None:
        for root, directories, files in os.walk(copy):
            for name in [*directories, *files]:
                os.lchown(Path(root) / name, uid, uid)
        os.chown(copy, uid, uid)


def kill(process: asyncio.subprocess.Process) -> None:
    """Kill the sandbox's process group (bwrap and, with its process namespace, all in it)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def ended(code: int | None, tail: deque[str]) -> str:
    """Why a program ended, in words, with its last line of output."""
    if code is None:
        what = "ended"
    elif code < 0 or code > 128:
        number = -code if code < 0 else code - 128
        name = signal.Signals(number).name if number in signal.Signals.__members__.values() else str(number)
        hint = {"SIGXCPU": " (its CPU time limit)", "SIGKILL": " (killed)", "SIGXFSZ": " (its file size limit)"}
        what = f"ended by {name}{hint.get(name, '')}"
    else:
        what = f"exited with code {code}"
    last = next((line for line in reversed(tail) if line.strip()), "")
    return what + (f": {last}" if last else "")
