"""Build the browser's engine: the compiled core as WebAssembly, from the same C sources as the extensions.

    python wasm/build.py              # writes src/kalah/web/static/engine/*.wasm
    python wasm/build.py --check      # builds into a temporary folder and compares with those files
    python wasm/build.py --out DIR    # writes into DIR instead

It needs Emscripten's ``emcc`` (Debian: ``apt-get install emscripten node-acorn``; its optimizer
finds Debian's acorn through ``NODE_PATH=/usr/share/nodejs``, which this script sets). The modules
are standalone (no Emscripten JavaScript): ``kalah/web/static/engine/core.js`` loads them with
``WebAssembly.instantiate`` and provides the few imports they have (the clock). The built files are
kept in the repository and the package, so that ``pip install .`` needs no Emscripten;
``tests/test_wasm_build.py`` checks that they equal a fresh build of the current sources.
"""

from __future__ import annotations

import argparse
import filecmp
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CSRC = ROOT / "src" / "kalah" / "core" / "csrc"
OUT = ROOT / "src" / "kalah" / "web" / "static" / "engine"

# The flags of setup.py's release build, with Python's -fwrapv and -DNDEBUG (the extensions get them from
# sysconfig), and POSIX's clock_gettime, which the extensions' sources get from Python.h.
COMMON = ["-O3", "-std=c11", "-Wall", "-Wno-unused-function", "-fwrapv", "-DNDEBUG", "-D_POSIX_C_SOURCE=200809L"]
COMMON += ["-Werror", "-g0", "--no-entry", "-sSTANDALONE_WASM=1"]
# Memory grows with the tables (16 MiB for a search's default 2^20 entries, the solver's more); 2 GiB
# at most, the most a 32-bit module addresses with signed offsets.
MEMORY = [
    "-sALLOW_MEMORY_GROWTH=1",
    "-sINITIAL_MEMORY=33554432",
    "-sMAXIMUM_MEMORY=2147483648",
    "-sTOTAL_STACK=1048576",
]
IO = ["kw_cells_address", "kw_out_address", "kw_now", "malloc", "free"]
SEARCH = ["kw_engine_new", "kw_engine_free", "kw_engine_set_oracle", "kw_search", "kw_mcts"]
SOLVER = [
    "kw_solver_new",
    "kw_solver_free",
    "kw_solver_set_database",
    "kw_solver_search",
    "kw_solver_lookup",
    "kw_database_new",
    "kw_database_free",
    "kw_database_oracle",
    "kw_database_positions",
    "kw_database_value",
]
TRACE = ["kw_trace_search", "kw_trace_mcts", "kw_trace_free"]

#: module -> (C sources, extra flags, exported functions)
MODULES: dict[str, tuple[list[str], list[str], list[str]]] = {
    # the byte build: every board up to 8 pits and 255 seeds, the solver and the endgame databases
    "kalah.wasm": (
        ["wasm_io.c", "wasm_search.c", "wasm_solver.c", "search.c", "smp.c", "mcts.c", "solve.c", "endgame.c"],
        [],
        IO + SEARCH + SOLVER,
    ),
    # the big build (board.h with KALAH_BIG): up to 12 pits, searches and UCT
    "kalah-big.wasm": (["wasm_io.c", "wasm_search.c", "big.c"], ["-DKALAH_BIG"], IO + SEARCH),
    # the trace build (KALAH_TRACE): the lab's traced searches
    "kalah-trace.wasm": (
        ["wasm_io.c", "wasm_trace.c", "search_traced.c", "mcts_traced.c"],
        ["-DKALAH_TRACE"],
        IO + TRACE,
    ),
}


class BuildError(Exception):
    """emcc is missing or failed."""


def emcc() -> str:
    """The path of emcc, or a BuildError saying how to get it."""
    found = shutil.which("emcc")
    if found is None:
        raise BuildError("emcc not found: install Emscripten (Debian: apt-get install emscripten node-acorn)")
    return found


def build(out: Path) -> list[Path]:
    """Build every module into ``out``; the paths written."""
    compiler = emcc()
    environment = dict(os.environ)
    # Debian's emscripten runs its JavaScript optimizer on Debian's acorn package
    environment["NODE_PATH"] = os.pathsep.join(filter(None, ["/usr/share/nodejs", environment.get("NODE_PATH")]))
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, (sources, flags, exports) in MODULES.items():
        target = out / name
        command = [
            compiler,
            *COMMON,
            *MEMORY,
            *flags,
            "-sEXPORTED_FUNCTIONS=" + ",".join("_" + function for function in exports),
            *sources,
            "-o",
            str(target),
        ]
        # relative source names, from the sources' folder: nothing of this machine's paths gets in
        result = subprocess.run(command, cwd=CSRC, env=environment, capture_output=True, text=True)
        if result.returncode != 0:
            raise BuildError(f"emcc failed for {name}:\n{result.stdout}{result.stderr}")
        written.append(target)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT, help="the folder to write the modules into")
    parser.add_argument("--check", action="store_true", help="build apart and compare with the files in --out")
    args = parser.parse_args(argv)
    try:
        if not args.check:
            for path in build(args.out):
                print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: {path.stat().st_size:,} bytes")
            return 0
        with tempfile.TemporaryDirectory() as folder:
            fresh = build(Path(folder))
            stale = [path.name for path in fresh if not filecmp.cmp(path, args.out / path.name, shallow=False)]
    except BuildError as error:
        print(f"build.py: error: {error}", file=sys.stderr)
        return 2
    except FileNotFoundError as error:
        print(f"build.py: error: {error.filename} is missing: run python wasm/build.py", file=sys.stderr)
        return 1
    if stale:
        print(f"stale: {', '.join(stale)} differ from a fresh build: run python wasm/build.py", file=sys.stderr)
        return 1
    print("the WebAssembly modules equal a fresh build of the current sources")
    return 0


if __name__ == "__main__":
    sys.exit(main())
