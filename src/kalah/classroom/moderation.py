"""The teacher's clean-up of the class server's agents: list, hide, rename, merge, remove.

Ratings are fitted from the results whenever they are shown
(:meth:`AgentBook.standings`), so each change here shows in the next
leaderboard: a hidden agent's games count for nobody, a merged agent's games
are the other's, a removed agent's results are gone (its games stay in the
game library). Each change is one transaction.
"""

from __future__ import annotations

from typing import Any

from kalah.rules import KalahError

from .agents import MAX_TEXT, AgentBook


class ModerationError(KalahError, ValueError):
    """A change that cannot be made (no such agent, a name another token holds, a bot)."""


def list_agents(book: AgentBook) -> list[dict[str, Any]]:
    """Every agent, bots included: id, name, kind, whether anonymous or hidden, games, last seen."""
    hidden = book.hidden()
    with book.transaction() as db:
        rows = db.execute(
            "SELECT a.id, a.name, a.kind, a.token_hash, a.last_seen,"
            " (SELECT COUNT(*) FROM kgp_results r WHERE r.south = a.id OR r.north = a.id)"
            " FROM kgp_agents a ORDER BY a.id"
        ).fetchall()
    return [
        {
            "id": row[0],
            "name": row[1],
            "kind": row[2],
            "anonymous": row[3] is None,
            "hidden": row[0] in hidden,
            "last_seen": row[4],
            "games": row[5],
        }
        for row in rows
    ]


def _agent(book: AgentBook, agent_id: int) -> str:
    agent = book.agent(agent_id)
    if agent is None:
        raise ModerationError(f"no agent {agent_id} (kalah arena agents list shows them)")
    return agent.name


def hide(book: AgentBook, agent_id: int, hidden: bool = True) -> str:
    """Hide an agent (off the leaderboard, its games unrated) or show it again; returns its name."""
    name = _agent(book, agent_id)
    with book.transaction() as db:
        db.execute("DELETE FROM kgp_hidden WHERE agent_id = ?", (agent_id,))
        if hidden:
            db.execute("INSERT INTO kgp_hidden (agent_id) VALUES (?)", (agent_id,))
    return name


def rename(book: AgentBook, agent_id: int, name: str) -> str:
    """Give an agent another name (not one another token holds); returns its old name.

    An agent with a token takes the name it sends at its next sign-in: tell its student.
    """
    old = _agent(book, agent_id)
    name = "".join(c for c in name if c.isprintable()).strip()[:MAX_TEXT]
    if not name:
        raise ModerationError("a name must have a printable character")
    with book.transaction() as db:
        taken = db.execute(
            "SELECT id FROM kgp_agents WHERE LOWER(name) = LOWER(?) AND token_hash IS NOT NULL AND id <> ?",
            (name, agent_id),
        ).fetchone()
        if taken is not None:
            raise ModerationError(f"the name {name!r} belongs to agent {taken[0]}")
        db.execute("UPDATE kgp_agents SET name = ? WHERE id = ?", (name, agent_id))
    return old


def merge(book: AgentBook, source: int, target: int) -> tuple[str, str]:
    """Move every result of agent ``source`` to agent ``target`` and remove ``source`` (its games against
    ``target`` are dropped: an agent does not play itself); returns both names."""
    if source == target:
        raise ModerationError("an agent cannot be merged into itself")
    names = (_agent(book, source), _agent(book, target))
    with book.transaction() as db:
        kinds = {row[0] for row in db.execute("SELECT kind FROM kgp_agents WHERE id IN (?, ?)", (source, target))}
        if "bot" in kinds:
            raise ModerationError("a built-in bot cannot be merged")
        db.execute(
            "DELETE FROM kgp_results WHERE (south = ? AND north = ?) OR (south = ? AND north = ?)",
            (source, target, target, source),
        )
        db.execute("UPDATE kgp_results SET south = ? WHERE south = ?", (target, source))
        db.execute("UPDATE kgp_results SET north = ? WHERE north = ?", (target, source))
        db.execute("UPDATE kgp_tournament_field SET agent_id = ? WHERE agent_id = ?", (target, source))
        _delete(db, source)
    return names


def remove(book: AgentBook, agent_id: int) -> tuple[str, int]:
    """Remove an agent and its results (its games stay in the game library); returns its name and how
    many results went."""
    name = _agent(book, agent_id)
    with book.transaction() as db:
        gone = db.execute("DELETE FROM kgp_results WHERE south = ? OR north = ?", (agent_id, agent_id)).rowcount
        db.execute("DELETE FROM kgp_tournament_field WHERE agent_id = ?", (agent_id,))
        _delete(db, agent_id)
    return name, int(gone)


def _delete(db: Any, agent_id: int) -> None:
    db.execute("DELETE FROM kgp_hidden WHERE agent_id = ?", (agent_id,))
    db.execute("DELETE FROM kgp_agents WHERE id = ?", (agent_id,))
