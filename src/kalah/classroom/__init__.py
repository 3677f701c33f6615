"""The class server (``kalah arena serve``): KGP agents over TCP and WebSocket, practice and tournaments.

A face (layer 5) over :mod:`kalah.kgp`: :mod:`.session` serves one agent's
connection with its limits, :mod:`.games` plays a game between agents and
built-in bots into the game library, :mod:`.server` pairs agents,
:mod:`.tournament` plays a fixed field in stages, :mod:`.agents` keeps agents
(tokens hashed) and results, :mod:`.web` the pages and JSON API, :mod:`.run`
starts it all on one event loop. :mod:`.submissions` builds and runs submitted
agents (:mod:`.manifest`) in a sandbox (:mod:`.sandbox`, :mod:`.relay`).
"""

from .agents import Agent, AgentBook, Standing
from .games import BOT_LEVELS
from .manifest import Manifest, ManifestError, read_submissions
from .run import Agents, Listening, serve
from .sandbox import SandboxError, SandboxLimits
from .server import ClassServer, ServerConfig
from .session import SessionLimits

__all__ = [
    "Agent",
    "Agents",
    "Manifest",
    "ManifestError",
    "SandboxError",
    "SandboxLimits",
    "read_submissions",
    "AgentBook",
    "BOT_LEVELS",
    "ClassServer",
    "SessionLimits",
    "Listening",
    "ServerConfig",
    "Standing",
    "serve",
]
