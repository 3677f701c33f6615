"""Build the compiled core. Everything else is in pyproject.toml.

KALAH_ONLY=board,search limits a development build to some extensions, so
that people working on different parts do not rebuild each other's code.
"""

import glob
import os

from Cython.Build import cythonize
from setuptools import Extension, setup

CORE = "src/kalah/core"
FLAGS = ["-O3", "-std=c11", "-Wall", "-Wno-unused-function", "-pthread"]

# name -> extra C sources (besides the .pyx of the same name)
EXTENSIONS = {
    "board": [],
    "search": ["search.c"],
    "solver": ["solve.c", "endgame.c"],
}

only = {name for name in os.environ.get("KALAH_ONLY", "").split(",") if name}
extensions = [
    Extension(
        f"kalah.core.{name}",
        [f"{CORE}/{name}.pyx", *(f"{CORE}/csrc/{source}" for source in sources)],
        include_dirs=[CORE],
        # The headers hold inline code and struct layouts that every extension compiles in.
        depends=sorted(glob.glob(f"{CORE}/csrc/*.h")) + sorted(glob.glob(f"{CORE}/*.pxd")),
        extra_compile_args=FLAGS,
        extra_link_args=["-pthread"],
    )
    for name, sources in EXTENSIONS.items()
    if not only or name in only
]

setup(ext_modules=cythonize(extensions, language_level=3, quiet=True))
