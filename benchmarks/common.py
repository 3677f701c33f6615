"""Helpers shared by the benchmark scripts: machine description and markdown output."""

from __future__ import annotations

import os
import platform
import shlex
import sys
from datetime import datetime, timezone
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"


def machine() -> str:
    """CPU, cores, memory, Python and the load when the benchmark started (a busy machine reads slower)."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        memory = f"{int(Path('/proc/meminfo').read_text().split()[1]) // (1024 * 1024)} GiB RAM"
    except (OSError, ValueError, IndexError):
        memory = "RAM unknown"
    load = f", load average {os.getloadavg()[0]:.2f} at start" if hasattr(os, "getloadavg") else ""
    return (f"{cpu}, {os.cpu_count()} cores, {memory}, Python {platform.python_version()}, "
            f"{platform.system()} {platform.release()}{load}")


def command() -> str:
    return "python " + " ".join(shlex.quote(arg) for arg in sys.argv)


def markdown_table(headers: list[str], rows: list[list[object]]) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def report(title: str, body: str, filename: str | None = None) -> str:
    """Print a result with the machine and command, and keep it under results/."""
    text = (f"# {title}\n\nMachine: {machine()}  \nDate: {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC  \n"
            f"Command: `{command()}`\n\n{body}\n")
    print(text)
    if filename:
        RESULTS.mkdir(exist_ok=True)
        (RESULTS / filename).write_text(text)
    return text
