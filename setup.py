"""Build the compiled core. Everything else is in pyproject.toml.

KALAH_ONLY=board,search,trace limits a development build to some extensions, so
that people working on different parts do not rebuild each other's code.

KALAH_DEBUG=1 builds the debug core instead: the invariant checks of
csrc/check.h on, -O1 -g, AddressSanitizer and UndefinedBehaviorSanitizer.
Python must then be started with the sanitizer runtime preloaded; .ci/debug-tests
shows how, and builds it apart from the release install (see DEVELOPING.md).
"""

import glob
import os

from Cython.Build import cythonize
from setuptools import Extension, setup

CORE = "src/kalah/core"
COMMON = ["-std=c11", "-Wall", "-Wno-unused-function", "-pthread"]
RELEASE = ["-O3"]
SANITIZERS = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined"]
# -fno-wrapv undoes Python's -fwrapv, under which signed overflow is defined and UBSan does not report it.
DEBUG = ["-O1", "-g", "-fno-omit-frame-pointer", "-fno-wrapv", "-DKALAH_DEBUG=1", *SANITIZERS]

# name -> extra C sources (besides the .pyx of the same name)
EXTENSIONS = {
    "board": [],
    "search": ["search.c", "smp.c", "mcts.c", "reference.c"],
    # many games stepped together for learning agents (kalah.rl's batched environment), with their compiled
    # opponents (a fixed-depth search of its own, and UCT: mcts.c again, its symbols hidden as below)
    "batch": ["batch.c", "opponents.c", "mcts.c"],
    "solver": ["solve.c", "endgame.c"],
    # search.c and mcts.c again, with the trace hooks of csrc/trace.h and mcts.h compiled in (kalah.trace);
    # the release search above has none. Hidden symbols: its ks_* functions never meet those of "search".
    "trace": ["search_traced.c", "mcts_traced.c"],
    # The big build (csrc/board.h with KALAH_BIG: 16-bit cells, up to 12 pits) of the board and of the
    # search, for the boards the byte build cannot hold; kalah.core picks the build by the board, so
    # every size up to 8 pits keeps the byte build's speed. Hidden symbols, as for "trace".
    "big_board": [],
    "big_search": ["big.c"],
}
BIG = ["-DKALAH_BIG", "-fvisibility=hidden"]
# name -> extra compiler flags
FLAGS = {
    "trace": ["-DKALAH_TRACE", "-fvisibility=hidden"],
    "batch": ["-fvisibility=hidden"],
    "big_board": BIG,
    "big_search": BIG,
}
# name -> C files its sources include (a change rebuilds it)
INCLUDES = {
    "trace": ["search.c", "mcts.c"],
    "big_board": ["../board.pyx"],
    "big_search": ["search.c", "smp.c", "mcts.c", "reference.c", "../search.pyx"],
}

debug = os.environ.get("KALAH_DEBUG", "") not in ("", "0")
only = {name for name in os.environ.get("KALAH_ONLY", "").split(",") if name}
extensions = [
    Extension(
        f"kalah.core.{name}",
        [f"{CORE}/{name}.pyx", *(f"{CORE}/csrc/{source}" for source in sources)],
        include_dirs=[CORE],
        # The headers hold inline code and struct layouts that every extension compiles in.
        depends=sorted(glob.glob(f"{CORE}/csrc/*.h"))
        + sorted(glob.glob(f"{CORE}/*.pxd"))
        + [f"{CORE}/csrc/{source}" for source in INCLUDES.get(name, [])],
        extra_compile_args=(DEBUG if debug else RELEASE) + COMMON + FLAGS.get(name, []),
        extra_link_args=["-pthread", *(SANITIZERS if debug else [])],
    )
    for name, sources in EXTENSIONS.items()
    if not only or name in only
]

setup(ext_modules=cythonize(extensions, language_level=3, quiet=True))
