"""The widgets' JavaScript as real ES modules: the page's own files, their imports resolved, no copy.

anywidget loads a widget's ``_esm`` as one module from a string, so a module
cannot import its neighbours by a relative path: there is no server behind it.
:func:`module_graph` turns a module and everything it imports into one string
in which each relative import (``import ... from "./tree.js"``, ``export ...
from "../api.js"``) names a ``data:`` URL holding that module, whose own
imports are resolved the same way. The browser links the graph itself: the
modules keep their scopes, exports and imports exactly as on the page, and a
module reached by two paths is one module (the same text is the same URL).

Nothing is stripped or rewritten but the specifiers. A module that imports
something not found among the package's files, a bare name (``"lodash"``) or
a cycle raises :class:`ModuleLoadError` when the widget's module is made, so a
new import in ``tree.js`` either comes along or fails the tests at once.
"""

from __future__ import annotations

import base64
import re
from pathlib import Path

from kalah.rules import KalahError

__all__ = ["ModuleLoadError", "module_graph"]

#: A static import or re-export at the start of a line: ``import {a, b as c} from "x"``, ``import * as m from
#: "x"``, ``export {a} from "x"``, or ``import "x"``. Between the keyword and ``from`` only names, braces, commas
#: and ``*`` may stand, so neither JSDoc's ``import("x")`` types nor code elsewhere can match.
_STATIC_IMPORT = re.compile(
    r"""^[ \t]*(?:import|export)\b[\w\s{},*$]*?\bfrom[ \t]*(?P<q1>["'])(?P<spec>[^"'\n]+)(?P=q1)"""
    r"""|^[ \t]*import[ \t]*(?P<q2>["'])(?P<bare>[^"'\n]+)(?P=q2)""",
    re.M,
)


class ModuleLoadError(KalahError):
    """A widget's JavaScript module imports something that cannot be loaded."""


def module_graph(entry: Path) -> str:
    """The text of the module at ``entry`` with its relative imports pointing at ``data:`` URLs of the modules.

    :raises ModuleLoadError: a module of the graph is missing, imports a bare name, or is part of a cycle.
    """
    done: dict[Path, str] = {}

    def source(path: Path, importers: tuple[Path, ...]) -> str:
        if path in importers:
            chain = " -> ".join(p.name for p in (*importers, path))
            raise ModuleLoadError(
                f"the widget's modules import each other in a cycle ({chain}): data: URLs cannot hold one"
            )
        if path in done:
            return done[path]
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as error:
            raise ModuleLoadError(f"cannot read the widget's module {path}: {error.strerror or error}") from None

        def resolve(match: re.Match[str]) -> str:
            group = "spec" if match.group("spec") is not None else "bare"
            spec = match.group(group)
            if not spec.startswith(("./", "../")):
                raise ModuleLoadError(
                    f"{path.name} imports {spec!r}: the widgets load only the package's own modules, by relative paths"
                )
            target = (path.parent / spec).resolve()
            if not target.is_file():
                raise ModuleLoadError(f"{path.name} imports {spec}, and there is no {target}")
            url = "data:text/javascript;base64," + base64.b64encode(
                source(target, (*importers, path)).encode("utf-8")
            ).decode("ascii")
            start, end = match.span(group)
            return match.group(0)[: start - match.start()] + url + match.group(0)[end - match.start() :]

        done[path] = _STATIC_IMPORT.sub(resolve, text)
        return done[path]

    return source(entry.resolve(), ())
