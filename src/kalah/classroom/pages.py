"""Parts of the class server's pages: standings, pages of a long list, who beat whom, the tournament.

Server-drawn HTML; every name comes from an agent and is escaped.
"""

from __future__ import annotations

import html
from collections import defaultdict
from typing import Annotated, Any

from fastapi import Query

from kalah.rules.outcome import WORDS

from .agents import AgentBook, outcome_of

#: Lines a page of a list (the leaderboard, an agent's games).
PAGE = 50
#: A page number in a query: 1 and up.
PageNumber = Annotated[int, Query(ge=1, le=1_000_000, description="the page of the list, from 1")]


def paged(rows: list[Any], page: int, link: str) -> tuple[list[Any], str]:
    """The rows of ``page`` (of :data:`PAGE`), and links to the pages before and after (``link`` + page=N)."""
    count = max(1, -(-len(rows) // PAGE))
    shown = rows[(page - 1) * PAGE : page * PAGE]
    if count == 1:
        return shown, ""
    parts = [f"page {min(page, count)} of {count}"]
    if page > 1:
        parts.insert(0, f'<a href="{link}page={min(page, count) - 1}" rel="prev">previous</a>')
    if page < count:
        parts.append(f'<a href="{link}page={page + 1}" rel="next">next</a>')
    return shown, f"<p data-pages>{' · '.join(parts)}</p>"


def standings_table(rows: list[dict[str, Any]], first: int = 1, points: bool = False) -> str:
    """The leaderboard (or a tournament's standings, with ``points``) as a table, from rank ``first``."""
    extra = "<th>points</th><th>qualified</th>" if points else ""
    graded = any(row.get("grade") for row in rows)
    if graded:  # the second ranking: how well each move was chosen, judged against perfect play
        extra += "<th title='exact decisions that lost at most 2 seeds'>accuracy</th><th>seeds lost a move</th>"
    lines = [
        f"<table data-leaderboard><tr><th>#</th><th class=name>agent</th>{extra}<th>games</th><th>wins</th>"
        "<th>draws</th><th>losses</th><th>Elo</th><th class=wide>95% interval</th></tr>"
    ]
    for rank, row in enumerate(rows, first):
        interval = f"{row['elo_low']:+.0f} .. {row['elo_high']:+.0f}" if row["elo_low"] is not None else "-"
        cells = f"<td>{row['points']:g}</td><td>{'yes' if row['qualified'] else 'no'}</td>" if points else ""
        if graded:
            grade = row.get("grade") or {}
            accuracy, loss = grade.get("accuracy"), grade.get("loss_per_move")
            cells += f"<td>{'-' if accuracy is None else f'{accuracy:g}%'}</td>"
            cells += f"<td>{'-' if loss is None else f'{loss:.2f}'}</td>"
        lines.append(
            f'<tr data-agent-id="{row["id"]}"><td>{rank}</td><td class=name><a href="/agents/{row["id"]}">'
            f"{html.escape(row['name'])}</a>{' (bot)' if row['kind'] == 'bot' else ''}</td>{cells}"
            f"<td>{row['games']}</td><td>{row['wins']}</td><td>{row['draws']}</td><td>{row['losses']}</td>"
            f"<td>{round(row['elo']) or 0:+d}</td><td class=wide>{interval}</td></tr>"
        )
    return "".join(lines) + "</table>"


def submissions_table(rows: list[dict[str, object]]) -> str:
    """The submitted agents the server runs: each one's state and, when out, why."""
    if not rows:
        return ""
    lines = ["<h2>Submitted agents</h2><table data-submissions><tr><th class=name>agent</th><th>state</th>"]
    lines.append("<th class=name>why</th></tr>")
    for row in rows:
        lines.append(
            f"<tr><td class=name>{html.escape(str(row['name']))}</td><td>{html.escape(str(row['state']))}</td>"
            f"<td class=name>{html.escape(str(row['reason']))}</td></tr>"
        )
    return "".join(lines) + "</table>"


def who_beat_whom(book: AgentBook, event: str | None = None) -> list[dict[str, Any]]:
    """One edge a pair of agents that met (hidden ones left out), from the one who scored more: its name
    and id, the other's, and its wins, draws and losses against it."""
    hidden = book.hidden()
    tally: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0, 0])
    for result in book.results(event):
        south, north = result["south"], result["north"]
        if south in hidden or north in hidden or south == north:
            continue
        low, high = sorted((south, north))
        tally[(low, high)][WORDS.index(outcome_of(result).word(0 if low == south else 1))] += 1
    names: dict[int, str] = {}
    edges = []
    for (low, high), (wins, draws, losses) in sorted(tally.items()):
        for agent_id in (low, high):
            if agent_id not in names:
                agent = book.agent(agent_id)
                names[agent_id] = agent.name if agent else "?"
        winner, loser = (low, high) if wins >= losses else (high, low)
        won, lost = (wins, losses) if winner == low else (losses, wins)
        edges.append(
            {
                "winner": {"id": winner, "name": names[winner]},
                "loser": {"id": loser, "name": names[loser]},
                "wins": won,
                "draws": draws,
                "losses": lost,
            }
        )
    return edges


def graph_html(edges: list[dict[str, Any]]) -> str:
    """Who beat whom: each agent with the agents it beat (more wins than losses) and drew with."""
    beaten: dict[tuple[int, str], list[str]] = defaultdict(list)
    for edge in edges:
        winner, loser = edge["winner"], edge["loser"]
        even = edge["wins"] == edge["losses"]
        label = f"{html.escape(loser['name'])} ({edge['wins']}-{edge['draws']}-{edge['losses']})"
        beaten[(winner["id"], winner["name"])].append(("drew with " if even else "") + label)
        beaten.setdefault((loser["id"], loser["name"]), [])
    if not beaten:
        return "<p>No game has been played yet.</p>"
    order = sorted(beaten, key=lambda key: (-len(beaten[key]), key[1]))
    lines = ["<p>Each agent, and whom it beat (wins-draws-losses against it).</p><table data-graph>"]
    for agent_id, name in order:
        lines.append(
            f'<tr><td class=name><a href="/agents/{agent_id}">{html.escape(name)}</a></td>'
            f"<td class=name>{', '.join(beaten[(agent_id, name)]) or '-'}</td></tr>"
        )
    return "".join(lines) + "</table>"


def tournament_html(data: dict[str, Any]) -> str:
    """The tournament: what it waits for or plays, its stages, points and qualification, the standings."""
    stages = "".join(
        f"<li>{html.escape(stage['name'])}: {html.escape(stage['status'])}</li>" for stage in data["stages"]
    )
    links = ' <a href="/tournament/standings.csv">standings as CSV</a> · <a href="/api/tournament">as JSON</a>'
    files = ""
    if data["standings_files"]:
        files = "<p>Written to " + " and ".join(html.escape(name) for name in data["standings_files"]) + ".</p>"
    body = (
        f"<p data-status>{html.escape(data['status'])}. {data['games_played']} games played.{links}</p>{files}"
        f"<p>Stage 0: two games against the random bot, more than half the points to qualify; then "
        f"{html.escape(data['kind'])} stages:</p><ol data-stages>{stages}</ol>"
    )
    if not data["standings"]:
        return body + "<p>The standings appear once the field is complete.</p>"
    return body + standings_table(data["standings"], points=True)


def grades_table(names: tuple[str, str], grades: list[dict[str, Any] | None] | None) -> str:
    """A game's grades: each side's decisions, how many were judged exactly, accuracy, seeds lost, blunders."""
    if not grades:
        return ""
    lines = [
        "<h2>Graded against perfect play</h2><table data-grades><tr><th class=name>agent</th><th>decisions</th>"
        "<th>judged exactly</th><th>accuracy</th><th>seeds lost</th><th>blunders</th></tr>"
    ]
    for name, grade in zip(names, grades, strict=True):
        if grade is None:
            continue
        accuracy = "-" if grade["accuracy"] is None else f"{grade['accuracy']:g}%"
        lines.append(
            f"<tr><td class=name>{html.escape(name)}</td><td>{grade['decisions']}</td><td>{grade['exact']}</td>"
            f"<td>{accuracy}</td><td>{grade['seeds_lost']:g}</td><td>{grade['blunders']}</td></tr>"
        )
    return "".join(lines) + "</table>"
