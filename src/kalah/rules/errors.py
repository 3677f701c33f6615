"""The exceptions of the kalah package.

Every error the library raises on bad input derives from :class:`KalahError`,
so callers can catch one type; the subclasses say what kind of input was bad.
"""


class KalahError(Exception):
    """Base class of every error raised by the kalah package on bad input."""


class InvalidVariantError(KalahError, ValueError):
    """A variant's parameters are out of range."""


class InvalidPositionError(KalahError, ValueError):
    """A board, side to move or JSON document does not describe a valid position."""


class IllegalMoveError(KalahError, ValueError):
    """A move that the rules do not allow in the given position."""
