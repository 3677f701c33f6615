"""A submitted agent's manifest: ``agent.toml`` in the submission's folder.

The folder of submissions holds one folder per agent; its ``agent.toml``
names the agent, its token, the command that starts it and, optionally, the
command that builds it::

    name = "alice-minimax"
    token = "9f2c4d1e7a0b3c5d"
    build = "gcc -O2 -o agent agent.c"   # optional
    run = "./agent"

Both commands run with ``sh -c`` in the agent's folder, inside the sandbox
(:mod:`.sandbox`). The started program connects to the server as any KGP
agent does, at ``KGP_SERVER`` (also ``KGP_HOST`` and ``KGP_PORT``); its
name and token are in ``KGP_NAME`` and ``KGP_TOKEN`` (the server knows it by
the socket it came in on, whatever it sends).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from kalah.rules import KalahError

#: The manifest's file name in each submission's folder.
MANIFEST = "agent.toml"
#: What a name may hold: it names a folder, a sandbox user and a line of the leaderboard.
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")
MIN_TOKEN = 8
KEYS = {"name", "token", "run", "build"}


class ManifestError(KalahError, ValueError):
    """A submission whose manifest is missing or wrong (the message names the folder and the problem)."""


@dataclass(frozen=True)
class Manifest:
    """One submitted agent: where it is and how to build and start it."""

    folder: Path
    name: str
    token: str
    run: str
    build: str | None = None

    def __repr__(self) -> str:  # never the token, wherever a manifest is printed or logged
        return f"Manifest(folder={str(self.folder)!r}, name={self.name!r})"


def read_manifest(folder: Path) -> Manifest:
    """The manifest of the submission in ``folder``; ManifestError says what is wrong."""
    path = folder / MANIFEST
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ManifestError(f"{folder}: no {MANIFEST}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ManifestError(f"{path}: cannot read it ({error})") from None
    except tomllib.TOMLDecodeError as error:
        raise ManifestError(f"{path}: not TOML ({error})") from None
    unknown = sorted(set(data) - KEYS)
    if unknown:
        raise ManifestError(f"{path}: unknown key {unknown[0]!r} (known: build, name, run, token)")
    for key in ("name", "token", "run"):
        if key not in data:
            raise ManifestError(f"{path}: {key} is missing")
    for key in KEYS & set(data):
        if not isinstance(data[key], str) or not data[key].strip():
            raise ManifestError(f"{path}: {key} must be a non-empty string")
    if not NAME.fullmatch(data["name"]):
        raise ManifestError(
            f"{path}: name {data['name']!r} must be 1 to 40 letters, digits, '-', '_' or '.', starting with a "
            "letter or digit"
        )
    if len(data["token"]) < MIN_TOKEN:
        raise ManifestError(f"{path}: token has at least {MIN_TOKEN} characters")
    return Manifest(folder, data["name"], data["token"], data["run"], data.get("build"))


def read_submissions(folder: Path) -> list[Manifest]:
    """Every submission in ``folder`` (one folder each), by name; ManifestError at the first bad one,
    or for two with the same name or token."""
    if not folder.is_dir():
        raise ManifestError(f"{folder}: no such directory of submissions")
    manifests = [read_manifest(entry) for entry in sorted(folder.resolve().iterdir()) if entry.is_dir()]
    if not manifests:
        raise ManifestError(f"{folder}: no submission in it (a folder with an {MANIFEST} each)")
    names: dict[str, Manifest] = {}
    tokens: dict[str, Manifest] = {}
    for manifest in manifests:
        for seen, key in ((names, manifest.name.lower()), (tokens, manifest.token)):
            other = seen.get(key)
            if other is not None:
                what = "name" if seen is names else "token"
                raise ManifestError(f"{manifest.folder} and {other.folder} have the same {what}")
            seen[key] = manifest
    return sorted(manifests, key=lambda manifest: manifest.name)
