"""Helpers for the KGP interoperability tests: go-kgp and pykgp from ../shared/interop (never copied here).

Each helper skips the test, saying why, where the program or a tool it needs
cannot be had (no copy of the interop folder, no Go, no Debian Go packages).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
#: The unmodified copies of KWARC/kalah-game's go-kgp and pykgp (see ../shared/interop/README.md): shared/
#: beside the checkout (CI's clone), or two levels up (a worktree under wt/), or KALAH_INTEROP_DIR.
_CANDIDATES = [REPO.parent / "shared" / "interop", REPO.parent.parent / "shared" / "interop"]
INTEROP = Path(os.environ.get("KALAH_INTEROP_DIR") or next((p for p in _CANDIDATES if p.is_dir()), _CANDIDATES[0]))
GOPATH_SYSTEM = Path("/usr/share/gocode")


def free_port() -> int:
    """A TCP port nothing listens on now (the OS's choice)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


#: go-kgp's training server: its practice server with one MinMax bot of the depth given by -search-depth. go-kgp's
#: own cmd/train is this with three unused imports, which Go refuses to compile, so the tests build this copy.
_TRAIN_MAIN = """package main

import (
	"flag"

	cmd "go-kgp/cmd"
	"go-kgp/db"
	"go-kgp/proto"
	"go-kgp/sched"
	"go-kgp/web"
)

func main() {
	depth := flag.Uint64("search-depth", 8, "Plies the MinMax bot should search")
	accuracy := flag.Float64("search-accuracy", 1.0, "Share of the bot's moves that are not random")
	flag.Parse()
	var conf cmd.Conf
	st := cmd.MakeState()
	conf.Load()
	db.Register(st, &conf)
	st.Register(sched.MakeSpecificFifo(uint(*depth), *accuracy))
	proto.Register(st, &conf)
	web.Register(st)
	st.Start(&conf)
}
"""


def build_go_kgp_practice(work: Path, command: str = "practice") -> Path:
    """Build go-kgp's practice server (or ``"train"``, its training server) into ``work`` (offline, from
    Debian's Go packages); skip when impossible."""
    source = INTEROP / "go-kgp"
    if not source.is_dir():
        pytest.skip(f"go-kgp is not at {source} (see ../shared/interop/README.md)")
    go = shutil.which("go")
    if go is None:
        pytest.skip("Go is not installed (apt-get install golang-go and the packages in .ci/run)")
    if not (GOPATH_SYSTEM / "src" / "nhooyr.io" / "websocket").is_dir():
        pytest.skip("Debian's Go packages for go-kgp are missing (see .ci/run: golang-nhooyr-websocket-dev, ...)")
    target = work / "src" / "go-kgp"
    shutil.copytree(source, target)
    if command == "train":
        (target / "cmd" / "train" / "main.go").write_text(_TRAIN_MAIN)
    # GOPATH mode: the sources of go-kgp's imports come from Debian's packages, no module proxy is asked.
    env = dict(os.environ, GO111MODULE="off", GOPATH=f"{work}:{GOPATH_SYSTEM}", GOCACHE=str(work / "cache"))
    result = subprocess.run(
        [go, "build", "-o", str(work / command), f"./cmd/{command}"],
        cwd=target,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    if result.returncode != 0:
        pytest.skip(f"go-kgp does not build here: {result.stderr.strip()[-500:]}")
    return work / command


def pykgp_dir() -> Path:
    """The folder of pykgp's kgp.py (skip when it is missing)."""
    folder = INTEROP / "pykgp"
    if not (folder / "kgp.py").is_file():
        pytest.skip(f"pykgp is not at {folder} (see ../shared/interop/README.md)")
    return folder


def kalah_command() -> list[str]:
    """The ``kalah`` command of this interpreter's installation."""
    return [sys.executable, "-m", "kalah.cli"]
