"""What the server says never names its own files.

An error of the library or of an endgame database carries the file's path
(useful on the command line); a client of the server has no business knowing
where the server keeps its data, so every answer's message passes through
:func:`redact`, which replaces the server's paths by what they are."""

from __future__ import annotations

import os
from pathlib import Path


def server_paths(library_path: Path | None, where: str = "") -> list[tuple[str, str]]:
    """(path, what it is) for the server's own places, the longest first (a path inside another is
    replaced before it); ``where``: how the library names itself (a database server's address)."""
    import platformdirs

    from kalah.endgame import default_directory

    places: list[tuple[Path | str, str]] = []
    if library_path is not None:
        places += [(library_path, "the game library"), (library_path.parent, "the library's folder")]
    elif where:
        places.append((where, "the game library"))
    places += [
        (default_directory(), "the endgame folder"),
        (Path(platformdirs.user_data_dir("kalah")), "the data folder"),
        (Path.home(), "~"),
        (Path.cwd(), "the server's folder"),
    ]
    found: dict[str, str] = {}
    for path, name in places:
        for text in {str(path), os.path.realpath(path) if isinstance(path, Path) else str(path)}:
            if len(text) > 1:  # never "/": it would cut every message
                found.setdefault(text, name)
    return sorted(found.items(), key=lambda item: -len(item[0]))


def redact(message: str, paths: list[tuple[str, str]]) -> str:
    """``message`` with each of the server's ``paths`` replaced by what it is."""
    for path, name in paths:
        message = message.replace(path, name)
    return message
