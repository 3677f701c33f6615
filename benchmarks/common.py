"""Helpers shared by the benchmark scripts: machine description and markdown output."""

from __future__ import annotations

import json
import os
import platform
import shlex
import sys
from datetime import UTC, datetime
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
    return (
        f"{cpu}, {os.cpu_count()} cores, {memory}, Python {platform.python_version()}, "
        f"{platform.system()} {platform.release()}{load}"
    )


def command() -> str:
    return "python " + " ".join(shlex.quote(arg) for arg in sys.argv)


def markdown_table(headers: list[str], rows: list[list[object]]) -> str:
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def report(title: str, body: str, filename: str | None = None) -> str:
    """Print a result with the machine and command, and keep it under results/."""
    text = (
        f"# {title}\n\nMachine: {machine()}  \nDate: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC  \n"
        f"Command: `{command()}`\n\n{body}\n"
    )
    print(text)
    if filename:
        RESULTS.mkdir(exist_ok=True)
        (RESULTS / filename).write_text(text)
    return text


FIGURES = RESULTS / "figures.json"


def figure(key: str, what: str, value: str, source: str) -> None:
    """Keep one figure of the README's table (benchmarks/figures.py draws the table from these).

    ``key`` names the row, ``what`` is its left cell, ``value`` the measured
    figure, ``source`` the results file that holds the full table. The command,
    date and machine of this run go with it, so that every row of the README
    can be traced to the run that measured it.
    """
    figures = json.loads(FIGURES.read_text()) if FIGURES.exists() else {}
    figures[key] = {
        "what": what,
        "figure": value,
        "source": source,
        "command": command(),
        "date": f"{datetime.now(UTC):%Y-%m-%d}",
        "machine": machine(),
    }
    RESULTS.mkdir(exist_ok=True)
    temporary = FIGURES.with_suffix(".json.tmp")
    temporary.write_text(json.dumps(figures, indent=1, ensure_ascii=False) + "\n")
    os.replace(temporary, FIGURES)  # a run stopped halfway never leaves a broken file
