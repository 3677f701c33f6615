"""The teacher's log: one line an event, with the agent's name and id, never a token.

Every module of the class server logs under ``kalah.classroom``: connections,
sign-ins and refusals with the reason (:mod:`.session`, :mod:`.server`),
kicks, forfeits and late moves, each game's start and result (:mod:`.games`),
the tournament's stages and standings (:mod:`.tournament`), the submitted
agents' builds, starts and ends (:mod:`.submissions`). At ``info`` (the
default) it answers "why can't my agent connect?"; ``warning`` keeps only
refusals, kicks, forfeits and agents put out; ``debug`` adds the rest.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

FORMAT = "%(asctime)s %(levelname)-7s %(message)s"


def configure(level: str = "info", file: Path | None = None) -> logging.Handler:
    """Send the class server's log at ``level`` to ``file`` (appended) or to standard error."""
    handler: logging.Handler = (
        logging.FileHandler(file, encoding="utf-8") if file is not None else logging.StreamHandler(sys.stderr)
    )
    handler.setFormatter(logging.Formatter(FORMAT, "%Y-%m-%d %H:%M:%S"))
    logger = logging.getLogger("kalah.classroom")
    logger.setLevel(level.upper())
    logger.addHandler(handler)
    logger.propagate = False
    return handler
