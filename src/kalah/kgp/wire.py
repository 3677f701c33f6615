"""The KGP wire format: one command a line, ``[id][@ref] name args...``, parsed strictly.

The grammar is the specification's (KWARC/kalah-game, spec/012-grammar.md):
arguments are integers, reals, words, "quoted strings" (``\\`` escapes the next
character) and board literals ``<n,south_store,north_store,s1..sn,n1..nn>``.
Everything that comes from the network is bounded here: a line has at most
:data:`MAX_LINE` characters, a command at most :data:`MAX_ARGUMENTS`
arguments, a number at most :data:`MAX_DIGITS` digits, so no input makes the
parser slow or big.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kalah.rules import KalahError, Outcome

#: The longest command the specification allows, trailing white space included.
MAX_LINE = 16384
MAX_ARGUMENTS = 32
#: Ids, references and numbers are at most this many digits (far beyond any real id).
MAX_DIGITS = 18


class KgpError(KalahError):
    """Something went wrong speaking KGP (the base of this package's errors)."""


class KgpSyntaxError(KgpError, ValueError):
    """A line that is not a KGP command (too long, bad characters, a malformed argument)."""


@dataclass(frozen=True)
class Board:
    """A board literal as sent on the wire: south is the side to move."""

    south_store: int
    north_store: int
    south: tuple[int, ...]
    north: tuple[int, ...]

    @property
    def size(self) -> int:
        """Pits a side."""
        return len(self.south)

    def __str__(self) -> str:
        numbers = [self.size, self.south_store, self.north_store, *self.south, *self.north]
        return "<" + ",".join(map(str, numbers)) + ">"


@dataclass(frozen=True)
class Word:
    """An unquoted word argument (``freeplay``, ``info:name``); strings come back as ``str``."""

    text: str

    def __str__(self) -> str:
        return self.text


Argument = int | float | str | Word | Board


@dataclass(frozen=True)
class Command:
    """One parsed command."""

    name: str
    args: tuple[Argument, ...] = ()
    id: int | None = None
    ref: int | None = None

    def text(self, index: int) -> str | None:
        """Argument ``index`` as text when it is a word or a string (``set``'s key and value), else None."""
        if index < len(self.args) and isinstance(self.args[index], (str, Word)):
            return str(self.args[index])
        return None


_HEAD = re.compile(rf"(?:(\d{{1,{MAX_DIGITS}}})?(?:@(\d{{1,{MAX_DIGITS}}}))?[ \t]+)?([A-Za-z0-9]{{1,32}})(?=[ \t]|$)")
_INTEGER = re.compile(rf"[+-]?\d{{1,{MAX_DIGITS}}}(?=[ \t]|$)")
_REAL = re.compile(rf"[+-]?\d{{0,{MAX_DIGITS}}}\.\d{{1,{MAX_DIGITS}}}(?=[ \t]|$)")
_WORD = re.compile(r"[A-Za-z0-9:_-]{1,256}(?=[ \t]|$)")
_STRING = re.compile(r'"((?:\\[^\r\n]|[^"\\\r\n])*)"(?=[ \t]|$)')
_BOARD = re.compile(r"<(\d{1,6}(?:,\d{1,6}){2,})>(?=[ \t]|$)")
_ESCAPE = re.compile(r"\\(.)")
_SPACE = re.compile(r"[ \t]+")


def parse_line(line: str) -> Command:
    """Parse one line (its CRLF or LF may still be on it) into a :class:`Command`.

    Raises :class:`KgpSyntaxError` naming what is wrong.
    """
    if len(line) > MAX_LINE:
        raise KgpSyntaxError(f"a line has at most {MAX_LINE} characters, got {len(line)}")
    text = line.rstrip("\r\n").strip(" \t")
    if not text.replace("\t", " ").isprintable():
        raise KgpSyntaxError("a command holds printable characters only")
    head = _HEAD.match(text)
    if head is None:
        raise KgpSyntaxError(f"not a KGP command: {_shorten(text)!r}")
    ident, ref, name = head.groups()
    args: list[Argument] = []
    rest = text[head.end() :]
    while rest:
        space = _SPACE.match(rest)
        if space is None:
            raise KgpSyntaxError(f"arguments are separated by spaces: {_shorten(rest)!r}")
        rest = rest[space.end() :]
        if not rest:
            break
        if len(args) == MAX_ARGUMENTS:
            raise KgpSyntaxError(f"a command has at most {MAX_ARGUMENTS} arguments")
        argument, rest = _argument(rest)
        args.append(argument)
    return Command(name, tuple(args), int(ident) if ident else None, int(ref) if ref else None)


def _argument(text: str) -> tuple[Argument, str]:
    for pattern in (_REAL, _INTEGER, _BOARD, _STRING, _WORD):
        match = pattern.match(text)
        if match is None:
            continue
        rest = text[match.end() :]
        if pattern is _INTEGER:
            return int(match.group(0)), rest
        if pattern is _REAL:
            return float(match.group(0)), rest
        if pattern is _STRING:
            return _ESCAPE.sub(r"\1", match.group(1)), rest
        if pattern is _BOARD:
            return parse_board(match.group(0)), rest
        return Word(match.group(0)), rest
    if text.startswith("<"):  # a board with something wrong in it: say which number
        parse_board(text.split()[0] if ">" in text.split()[0] else text.split()[0] + ">")
    raise KgpSyntaxError(f"not an argument: {_shorten(text)!r}")


def int_or(text: str, default: int = 0) -> int:
    """``text`` as a whole number, or ``default`` when it is none (for naming a board's places)."""
    return int(text) if text.strip().isdigit() else default


def parse_board(text: str) -> Board:
    """A board literal ``<n,south_store,north_store,pits...>`` (KgpSyntaxError when its counts do not add up)."""
    if not (text.startswith("<") and text.endswith(">")):
        raise KgpSyntaxError(f"a board literal is wrapped in < >: {_shorten(text)!r}")
    parts = text[1:-1].split(",")
    numbers = []
    for place, part in enumerate(parts, 1):
        what = (
            "the pits a side"
            if place == 1
            else "south's store"
            if place == 2
            else "north's store"
            if place == 3
            else (
                f"pit {place - 3} of south"
                if place - 3 <= int_or(parts[0])
                else f"pit {place - 3 - int_or(parts[0])} of north"
            )
        )
        if not part.strip().isdigit():
            raise KgpSyntaxError(
                f"number {place} of the board ({what}) is {_shorten(part.strip())!r}, not a count of 0 or more"
            )
        numbers.append(int(part))
    size = numbers[0]
    if size < 1 or len(numbers) != 3 + 2 * size:
        raise KgpSyntaxError(f"a board of {size} pits a side has {3 + 2 * size} numbers, got {len(numbers)}")
    return Board(numbers[1], numbers[2], tuple(numbers[3 : 3 + size]), tuple(numbers[3 + size :]))


def quote(text: str) -> str:
    """``text`` as a KGP string argument (quotes and backslashes escaped; line breaks become spaces)."""
    cleaned = " ".join(text.splitlines())
    return '"' + cleaned.replace("\\", "\\\\").replace('"', '\\"') + '"'


def format_command(name: str, *args: Argument, id: int | None = None, ref: int | None = None) -> str:
    """One command as a line without its CRLF; ``str`` arguments are quoted, the rest written as they are."""
    head = ""
    if id is not None:
        head += str(id)
    if ref is not None:
        head += f"@{ref}"
    parts = [head] if head else []
    parts.append(name)
    for argument in args:
        if isinstance(argument, str):
            parts.append(quote(argument))
        elif isinstance(argument, float):
            parts.append(f"{argument:.4f}" if argument == argument and abs(argument) != float("inf") else "0.0")
        else:
            parts.append(str(argument))
    return " ".join(parts)


#: The class server's extension (``kalah arena serve``): ``set game:result "ID win 40-32"`` tells an agent how
#: its game ended, its own score first. Clients ignore options they do not know; ``kalah kgp`` counts its
#: games by it.
GAME_RESULT = "game:result"
#: The words of ``game:result`` for what the agent did (``Outcome.word``).
_RESULT_WORDS = {"won": "win", "drew": "draw", "lost": "loss"}


@dataclass(frozen=True)
class GameResult:
    """A ``game:result`` as an agent reads it: the agent is player 0 (south, as KGP always shows it). The
    server tells it of games that ended on the board (a forfeit ends the connection instead)."""

    game_id: str
    """The server's id of the game."""
    outcome: Outcome
    """How the game ended, the agent being player 0."""
    scores: tuple[int, int]
    """The final totals: the agent's, then its opponent's."""


def format_game_result(game_id: int | str, outcome: Outcome, scores: tuple[int, int], player: int) -> str:
    """The value of ``set game:result`` for ``player``'s agent (``scores``: player 0's and player 1's totals).

    >>> format_game_result(7, Outcome(1), (20, 28), player=1)
    '7 win 28-20'
    """
    word = _RESULT_WORDS[outcome.word(player)]
    return f"{game_id} {word} {scores[player]}-{scores[1 - player]}"


def parse_game_result(text: str) -> GameResult | None:
    """The ``game:result`` of :func:`format_game_result`; None for anything else (another server's extension
    may say it otherwise).

    >>> parse_game_result("7 win 28-20")
    GameResult(game_id='7', outcome=Outcome(winner=0, termination='board'), scores=(28, 20))
    """
    words = text.split()
    if len(words) != 3 or words[1] not in _RESULT_WORDS.values():
        return None
    mine, dash, theirs = words[2].partition("-")
    if not all(part.isascii() and part.isdigit() and len(part) <= MAX_DIGITS for part in (mine, theirs)) or not dash:
        return None
    winner = {"win": 0, "loss": 1, "draw": None}[words[1]]
    return GameResult(words[0], Outcome(winner), (int(mine), int(theirs)))


def _shorten(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit] + "..."
