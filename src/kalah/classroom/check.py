"""``kalah arena agents check``: build each submission in its sandbox, as the server would, and say how it went."""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from collections import deque
from pathlib import Path

from .manifest import Manifest
from .sandbox import SandboxLimits, agent_uid, build, bwrap, fresh_copy


async def build_all(manifests: list[Manifest], limits: SandboxLimits) -> list[tuple[Manifest, str | None]]:
    """Each manifest with why its build failed (None: it built, or it has no build command); one at a time,
    in a temporary folder removed at the end, its last lines of output named on failure."""
    bwrap()
    work = Path(tempfile.mkdtemp(prefix="kalah-check-"))
    work.chmod(0o711)
    hidden = [work, *{manifest.folder.parent for manifest in manifests}]
    results: list[tuple[Manifest, str | None]] = []
    try:
        for index, manifest in enumerate(manifests):
            if manifest.build is None:
                results.append((manifest, None))
                continue
            uid = agent_uid(index)
            copy, sockets = work / manifest.name, work / f"{manifest.name}.socket"
            await asyncio.to_thread(fresh_copy, manifest.folder, copy, sockets, uid)
            with open(work / f"{manifest.name}.log", "wb") as output:
                results.append((manifest, await build(manifest, copy, uid, limits, hidden, output, deque(maxlen=20))))
    finally:
        await asyncio.to_thread(shutil.rmtree, work, True)
    return results
