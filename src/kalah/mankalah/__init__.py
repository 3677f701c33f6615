"""The ManKalah protocol: our agent for the ManKalah engine, and ``exec:`` players
that drive other programs speaking it."""

from .agent import Agent, ConnectionClosed, MankalahEngine, TimeBudget, run_agent
from .protocol import (
    MANKALAH,
    NORTH,
    SOUTH,
    Change,
    End,
    ProtocolError,
    Start,
    format_agent_move,
    format_engine_message,
    parse_agent_message,
    parse_engine_message,
    position_of,
    side_of,
    state_of,
)

__all__ = [
    "Agent",
    "Change",
    "ConnectionClosed",
    "End",
    "MANKALAH",
    "MankalahEngine",
    "NORTH",
    "ProtocolError",
    "SOUTH",
    "Start",
    "TimeBudget",
    "format_agent_move",
    "format_engine_message",
    "parse_agent_message",
    "parse_engine_message",
    "position_of",
    "run_agent",
    "side_of",
    "state_of",
]
