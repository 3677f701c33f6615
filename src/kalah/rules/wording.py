"""Words for messages: a count with its noun in the right number, a value as the user wrote it, and
what kind of value it is.

Every layer's errors and the command line's output use these, so that none says "1 moves" or
echoes a value in Python's spelling (``True``, ``None``, ``NoneType``) to someone who wrote JSON.
"""

from __future__ import annotations

import json


def plural(count: int, noun: str, many: str | None = None, *, grouped: bool = True) -> str:
    """``count`` and ``noun``, the noun singular for exactly one; ``many`` is the plural where adding
    an s is wrong. Counts of a thousand or more are grouped with commas unless ``grouped`` is false
    (a count that is part of a name, such as a player's, stays as it was given).

    >>> plural(1, "move"), plural(0, "move"), plural(2, "entry", "entries"), plural(1_929, "position")
    ('1 move', '0 moves', '2 entries', '1,929 positions')
    """
    return (f"{count:,}" if grouped else f"{count}") + f" {noun if count == 1 else many or noun + 's'}"


def shown(value: object) -> str:
    """A value a message quotes back, in the spelling of JSON, where such values come from: ``true``,
    ``false``, ``null``, numbers and lists as written; text in quotes as the other messages quote it.

    >>> shown(None), shown(True), shown("yes"), shown(3), shown([1, "a"])
    ('null', 'true', "'yes'", '3', '[1, "a"]')
    """
    if isinstance(value, str):
        return repr(value)
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=True)
    except (TypeError, ValueError):  # not a JSON value (an object of the Python API): Python's own spelling
        return repr(value)


def kind(value: object) -> str:
    """What a value is, in the words of JSON, where positions, variants and records come from: ``an
    object``, ``a list``, ``text``, ``a number``, or the value itself for ``true``, ``false`` and ``null``.

    >>> kind({}), kind([1]), kind("4"), kind(4.5), kind(None)
    ('an object', 'a list', 'text', 'a number', 'null')
    """
    if value is None or isinstance(value, bool):
        return shown(value)
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, str):
        return "text"
    if isinstance(value, (int, float)):
        return "a number"
    return type(value).__name__  # an object of the Python API: its class names it
