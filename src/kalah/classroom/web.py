"""The class server's web face: the WebSocket at ``/socket``, pages, and the same as a JSON API.

Pages (server-drawn HTML, no script but a reload and a replay slider):
``/`` the leaderboard, ``/agents/{id}`` an agent's games, ``/live`` the games
under way on the board, ``/games/{id}`` a replay. The JSON API:
``/api/leaderboard``, ``/api/agents/{id}``, ``/api/live``, ``/api/games/{id}``,
``/api/tournament``. Every name shown comes from an agent: it is escaped. The
socket refuses pages of other websites (403), the API their pages' requests,
and no page may be framed by another site (:mod:`kalah.web.guard`, as for
``kalah serve``).
"""

from __future__ import annotations

import asyncio
import html
from typing import Annotated, Any

from fastapi import FastAPI, HTTPException, Path, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, Response
from pydantic import BeforeValidator

from kalah.kgp.wire import MAX_LINE
from kalah.records import LibraryError
from kalah.rules.svg import board_svg, record_html
from kalah.rules.wording import plural
from kalah.web.guard import SameOriginOnly, deny_socket, socket_same_origin
from kalah.web.models import MAX_ID, GameId, digits_only, validation_error

from .agents import outcome_of
from .pages import PAGE, PageNumber, grades_table, graph_html, tournament_html, who_beat_whom
from .pages import paged as _paged
from .pages import standings_table as _standings_table
from .pages import submissions_table as _submissions_table
from .server import ClassServer
from .tournament import Tournament

#: An agent's id in a URL path: written as kalah serve's game ids are (digits only, in SQLite's range).
AgentId = Annotated[
    int, BeforeValidator(digits_only("an agent id")), Path(ge=1, le=MAX_ID, description="the agent's id (digits only)")
]


STYLE = """
body{font-family:system-ui,sans-serif;margin:0 auto;max-width:980px;padding:12px;color:#222;background:#faf7f0}
a{color:#7a4b12}table{border-collapse:collapse;width:100%}td,th{padding:4px 8px;border-bottom:1px solid #ddd;
text-align:right}td:first-child,th:first-child,td.name,th.name{text-align:left}nav a{margin-right:14px}
svg{max-width:100%;height:auto}.game{margin:14px 0}h1{font-size:1.4em}
@media (max-width:500px){td,th{padding:3px 4px;font-size:.9em}.wide{display:none}}
"""


class StarletteConnection:
    """KGP over the server's WebSocket (Starlette): one command a message."""

    def __init__(self, socket: WebSocket) -> None:
        self.socket = socket
        self.peer = socket.client.host if socket.client else "local"
        self._pending: list[str] = []

    async def read_line(self) -> str | None:
        """The next line without its line end, or None when the other side has closed."""
        from kalah.kgp import LineError

        while not self._pending:
            message = await self.socket.receive()
            if message["type"] == "websocket.disconnect":
                return None
            text = message.get("text")
            if text is None:
                try:
                    text = (message.get("bytes") or b"").decode("utf-8")
                except UnicodeDecodeError:
                    raise LineError("a line is not valid UTF-8") from None
            lines = [line for line in text.replace("\r\n", "\n").split("\n") if line.strip()]
            if any(len(line) > MAX_LINE for line in lines):
                raise LineError(f"a line has at most {MAX_LINE} characters")
            self._pending = lines
        return self._pending.pop(0)

    async def send_line(self, line: str) -> None:
        """Send one line (the line end is added)."""
        await self.socket.send_text(line + "\r\n")

    async def close(self) -> None:
        """Close the connection (safe to call twice)."""
        try:
            await asyncio.wait_for(self.socket.close(), 2)
        except Exception:  # already closed by the other side
            pass


def _page(title: str, body: str, refresh: int | None = None) -> HTMLResponse:
    meta = f'<meta http-equiv="refresh" content="{refresh}">' if refresh else ""
    return HTMLResponse(
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" '
        f'content="width=device-width,initial-scale=1">{meta}<title>{html.escape(title)}</title>'
        f'<style>{STYLE}</style></head><body><nav><a href="/">Leaderboard</a><a href="/live">Live games</a>'
        f'<a href="/tournament">Tournament</a></nav><h1>{html.escape(title)}</h1>{body}</body></html>'
    )


def create_app(server: ClassServer) -> FastAPI:
    """The web app of ``server`` (routes above)."""
    app = FastAPI(title="kalah arena serve", docs_url=None, redoc_url=None)
    # Refusals read as kalah serve's do: one sentence in "detail", not pydantic's list.
    app.add_exception_handler(RequestValidationError, validation_error)  # type: ignore[arg-type]
    # As kalah serve's: no other site may frame the pages (and trick a click) or call the API from a page.
    app.add_middleware(SameOriginOnly)
    book, library = server.book, server.library

    def leaderboard(event: str | None = None, anonymous: bool = False) -> list[dict[str, Any]]:
        shown = anonymous or server.config.show_anonymous
        grades = book.grades()
        return [
            {**line.to_dict(), "grade": grades[line.agent.id].to_dict() if line.agent.id in grades else None}
            for line in book.standings(event, anonymous=shown)
        ]

    def agent_json(agent_id: int) -> dict[str, Any]:
        agent = book.agent(agent_id)
        if agent is None:
            raise HTTPException(404, f"no agent {agent_id}")
        return {"agent": agent.to_dict(), "results": book.results(agent_id=agent_id)[:500]}

    def game_json(game_id: int) -> dict[str, Any]:
        try:
            record = library.record(game_id)
        except LibraryError:
            raise HTTPException(404, f"no game {game_id}") from None
        if not library.summary(game_id).tags.get("kgp"):
            raise HTTPException(404, f"no game {game_id}")
        grades = book.grades(game_id)
        graded = [grades[side].to_dict() if side in grades else None for side in (0, 1)]
        return {**record.to_dict(), "grades": graded if any(graded) else None}

    @app.websocket("/socket")
    async def socket(websocket: WebSocket) -> None:
        # An agent is a program and sends no Origin; a browser always does. Without the check a page of
        # any website could open agents' connections through a visitor's browser, from the visitor's
        # address inside the class's network (taking that address's connections and new agents). None
        # of this server's pages opens the socket; one that did would name this server and pass.
        if not socket_same_origin(websocket.headers):
            await deny_socket(websocket, 403, "the KGP socket is not open to pages of other websites")
            return
        await websocket.accept()
        await server.serve_connection(StarletteConnection(websocket))

    @app.websocket("/{path:path}")
    async def no_socket(websocket: WebSocket, path: str) -> None:
        # Starlette answers a WebSocket to an unknown path 403, which reads as "you are not allowed".
        await deny_socket(websocket, 404, f"no WebSocket at /{path[:100]}: agents connect to /socket")

    @app.get("/api/leaderboard")
    async def api_leaderboard(event: str | None = None, anonymous: bool = False) -> list[dict[str, Any]]:
        return await asyncio.to_thread(leaderboard, event, anonymous)

    @app.get("/api/graph")
    async def api_graph(event: str | None = None) -> list[dict[str, Any]]:
        """Who beat whom: one edge a pair of agents, from the winner, with the wins, draws and losses."""
        return await asyncio.to_thread(who_beat_whom, book, event)

    @app.get("/api/submissions")
    async def api_submissions() -> list[dict[str, object]]:
        if server.submissions is None:
            raise HTTPException(404, "this server runs no submitted agents")
        return server.submissions.to_dict()

    @app.get("/tournament/standings.csv")
    async def tournament_csv() -> Response:
        tournament = server.tournament
        if not isinstance(tournament, Tournament):
            raise HTTPException(404, "no tournament on this server")
        text = await asyncio.to_thread(tournament.standings_csv)
        return Response(text, media_type="text/csv; charset=utf-8")

    @app.get("/api/agents/{agent_id}")
    async def api_agent(agent_id: AgentId) -> dict[str, Any]:
        return await asyncio.to_thread(agent_json, agent_id)

    @app.get("/api/live")
    async def api_live() -> list[dict[str, Any]]:
        return [game.to_dict() for game in list(server.live.values())]

    @app.get("/api/games/{game_id}")
    async def api_game(game_id: GameId) -> dict[str, Any]:
        return await asyncio.to_thread(game_json, game_id)

    @app.get("/api/tournament")
    async def api_tournament() -> dict[str, Any]:
        tournament = server.tournament
        if tournament is None:
            raise HTTPException(404, "no tournament on this server")
        return await asyncio.to_thread(tournament.to_dict)

    @app.get("/", response_class=HTMLResponse)
    async def page_leaderboard(page: PageNumber = 1, anonymous: bool = False) -> HTMLResponse:
        rows = await asyncio.to_thread(leaderboard, None, anonymous)
        connected = len([s for s in server.sessions if s.mode])
        shown, pages = _paged(rows, page, "/?" + ("anonymous=true&" if anonymous else ""))
        return _page(
            "Leaderboard",
            f"<p>{plural(connected, 'agent')} connected, {plural(len(server.live), 'game')} under way. "
            f"{html.escape(server.config.variant.name)}, {server.config.move_time:g} s a move. "
            '<a href="/graph">Who beat whom</a>.</p>'
            + _standings_table(shown, first=(page - 1) * PAGE + 1)
            + pages
            + _submissions_table(server.submissions.to_dict() if server.submissions else []),
        )

    @app.get("/graph", response_class=HTMLResponse)
    async def page_graph(event: str | None = None) -> HTMLResponse:
        edges = await asyncio.to_thread(who_beat_whom, book, event)
        return _page("Who beat whom", graph_html(edges))

    @app.get("/agents/{agent_id}", response_class=HTMLResponse)
    async def page_agent(agent_id: AgentId, page: PageNumber = 1) -> HTMLResponse:
        data = await asyncio.to_thread(agent_json, agent_id)
        agent = data["agent"]
        names: dict[int, str] = {}
        rows = []
        results, pages = _paged(data["results"], page, f"/agents/{agent_id}?")
        for result in results:
            for other in (result["south"], result["north"]):
                if other not in names:
                    found = await asyncio.to_thread(book.agent, other)
                    names[other] = found.name if found else "?"
            side = 0 if result["south"] == agent_id else 1
            outcome = outcome_of(result).word(side)
            opponent = names[result["north"] if side == 0 else result["south"]]
            rows.append(
                f'<tr><td><a href="/games/{result["game_id"]}">game {result["game_id"]}</a></td>'
                f"<td class=name>{'south' if side == 0 else 'north'} vs {html.escape(opponent)}</td>"
                f"<td>{outcome}</td><td class=wide>{html.escape(result['reason'])}</td></tr>"
            )
        about = " ".join(html.escape(agent[key]) for key in ("authors", "description") if agent[key])
        return _page(agent["name"], f"<p>{about}</p><table data-agent-games>{''.join(rows)}</table>{pages}")

    @app.get("/live", response_class=HTMLResponse)
    async def page_live() -> HTMLResponse:
        parts = []
        for game in list(server.live.values())[:24]:
            names = (game.seats[0].agent.name, game.seats[1].agent.name)
            parts.append(
                f'<div class="game" data-live-game="{game.id}"><p><a href="/games/{game.id}">game {game.id}</a>: '
                f"<b>{html.escape(names[0])}</b> (south) vs <b>{html.escape(names[1])}</b>, "
                f"{plural(game.moves, 'move')}</p>{board_svg(game.position, names=names)}</div>"
            )
        return _page("Live games", "".join(parts) or "<p>No game is being played.</p>", refresh=2)

    @app.get("/games/{game_id}", response_class=HTMLResponse)
    async def page_game(game_id: GameId) -> HTMLResponse:
        data = await asyncio.to_thread(game_json, game_id)
        record = await asyncio.to_thread(library.record, game_id)
        positions = list(record.positions())
        names = (record.players[0].name, record.players[1].name)
        frames = "".join(
            f'<div class="frame" data-ply="{i}"{"" if i == len(positions) - 1 else " hidden"}>'
            f"{board_svg(position, names=names)}</div>"
            for i, position in enumerate(positions)
        )
        slider = (
            f'<input type="range" min="0" max="{len(positions) - 1}" value="{len(positions) - 1}" '
            'aria-label="move" style="width:100%" oninput="for(const f of document.querySelectorAll(\'.frame\'))'
            'f.hidden=f.dataset.ply!==this.value">'
        )
        stop = data.get("result", {}).get("stop_reason")
        playing = game_id in server.live  # the page follows the game: reloaded until it ends
        return _page(
            f"Game {game_id}" + (" (being played)" if playing else ""),
            record_html(record)
            + (f"<p>{html.escape(stop)}</p>" if stop else "")
            + grades_table(names, data["grades"])
            + "<h2>Replay</h2>"
            + slider
            + frames,
            refresh=2 if playing else None,
        )

    @app.get("/tournament", response_class=HTMLResponse)
    async def page_tournament() -> HTMLResponse:
        tournament = server.tournament
        if tournament is None:
            return _page("Tournament", "<p>No tournament on this server (practice mode).</p>")
        data = await asyncio.to_thread(tournament.to_dict)
        refresh = None if data["status"] == "finished" else 5
        return _page("Tournament", tournament_html(data), refresh=refresh)

    return app
