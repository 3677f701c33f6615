"""The ``kalah`` command line.

Each command lives in a module of this package that defines ``register(app)``;
``COMMAND_MODULES`` lists them in the order ``kalah --help`` shows them.
Library errors (``KalahError``) become one line on stderr and exit code 2.
"""

from .app import COMMAND_MODULES, app, main, register_commands
from .exit import fail, interrupted, wait_for

__all__ = ["COMMAND_MODULES", "app", "fail", "interrupted", "main", "register_commands", "wait_for"]
