"""The lab in the browser: the ``/lab`` page and the small API it needs beyond ``POST /api/trace``.

``router`` is included by :func:`kalah.web.app.create_app`. The page replays a
search trace (docs/trace.md) node by node; to show the board at a node it asks
:func:`line` for the positions along the moves from the root, so that the
rules stay in Python (kalah.rules) and are not copied into the page.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import threading
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel, Field, ValidationError

from kalah.rules import KalahError, Position
from kalah.search.tracing import tree_facts as facts_of_tree

from .clients import client_of
from .errors import ApiError, busy, invalid
from .models import LineOut, Strict, validation_detail
from .pages import page

#: Most nodes :func:`tree_facts` plays out: well above the largest trace the server sends.
MAX_NODES = 200_000

#: Longest line of moves :func:`line` plays out (a traced search is capped far below this).
MAX_LINE = 64

#: Trees worked out at once: a tree of MAX_NODES takes seconds of Python, so it runs on a thread of its own
#: (the event loop keeps answering others), one at a time; the others wait in the order they came.
TREE_WORKERS = 1
#: Trees one client (kalah.web.scheduler.client_of) may have running or waiting: one worked out and one
#: next (the lab's "Trace both" asks for two at once).
TREES_PER_CLIENT = 2
#: Clients that always find a place: a client with no tree under way is refused (503) only when this many
#: other clients have trees under way, however many requests they send.
TREE_CLIENTS = 8
#: Trees running or waiting, all clients together. Every client holds at most TREES_PER_CLIENT, so these
#: places can all be taken only by TREE_CLIENTS clients or more; a shared queue of five with two a client
#: let three addresses lock every other client out. Its own queue rather than the engine scheduler's
#: (kalah.web.scheduler): a waiting tree holds its parsed request (about 5 MB at the default body limit),
#: so MAX_TREES of them stay within 80 MB where the scheduler's 256 queued jobs would not, and the
#: scheduler's time limit is the computer's move time, which would cut off a large tree.
MAX_TREES = TREES_PER_CLIENT * TREE_CLIENTS
_tree_pool = concurrent.futures.ThreadPoolExecutor(max_workers=TREE_WORKERS, thread_name_prefix="kalah-lab-tree")
_trees_of: dict[str, int] = {}  # client: its trees running or waiting
_trees_lock = threading.Lock()  # the pool's thread gives trees back

router = APIRouter()


class LineIn(Strict):
    """A position and moves to play from it, one after the other."""

    position: dict[str, Any] = Field(..., description="a position in the JSON form of the rules")
    moves: list[int | str] = Field(
        default_factory=list, max_length=MAX_LINE, description='pit indices 0..pits-1 of the mover, or "swap"'
    )


class TreeFactsOut(BaseModel):
    """Who moves at each node of a tree, and the legal moves each cutoff node left unvisited (by node id)."""

    to_move: list[int]
    pruned: dict[str, list[int | str]]


class TreeIn(Strict):
    """The shape of a traced tree: each node's parent (null at a root) and the move that led to it."""

    position: dict[str, Any] = Field(..., description="the position at every root")
    parent: list[int | None] = Field(..., max_length=MAX_NODES)
    move: list[int | str | None] = Field(..., max_length=MAX_NODES)
    cutoff: list[bool] = Field(..., max_length=MAX_NODES)


@router.get("/lab", include_in_schema=False)
async def lab_page() -> HTMLResponse:
    """The lab page (static/lab.html)."""
    return page("lab.html")


@router.get("/lab/mcts", include_in_schema=False)
async def mcts_page() -> HTMLResponse:
    """The lab's Monte-Carlo page (static/lab/mcts.html): UCT iteration by iteration beside alpha-beta."""
    return page("lab/mcts.html")


@router.post(
    "/api/lab/line",
    response_model=LineOut,
    summary="The positions along a line of moves (the board at a node of a search tree)",
)
async def line(request: LineIn) -> dict[str, Any]:
    """The positions along ``moves`` from the position, the first included, and whether the last is over."""
    try:
        position = Position.from_dict(request.position)
        positions = [position.to_dict()]
        for move in request.moves:
            position = position.play(move)  # type: ignore[arg-type]  # Move is int | "swap"; play checks it
            positions.append(position.to_dict())
    except KalahError as error:
        raise invalid(str(error)) from None
    return {"positions": positions, "over": position.is_over}


#: The request body of POST /api/lab/tree, documented in /openapi.json (the route reads it itself).
TREE_BODY = {
    "required": True,
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/TreeIn"}}},
}


@router.post(
    "/api/lab/tree",
    summary="Who moves at each node of a traced tree, and the moves each cutoff left unvisited",
    response_model=TreeFactsOut,
    openapi_extra={"requestBody": TREE_BODY},
)
async def tree_facts(http: Request) -> Response:
    """Who moves at each node of a traced tree, and the legal moves each cutoff node left unvisited (429 when
    the client has TREES_PER_CLIENT trees under way, 503 when MAX_TREES trees are, which takes TREE_CLIENTS
    clients or more). The body (a tree of 100,000 nodes is a megabyte) is read here, but parsed, checked,
    worked out and answered in the tree's thread: on the event loop, parsing and checking it held every other
    client for hundreds of milliseconds."""
    client = client_of(http)
    with _trees_lock:
        if _trees_of.get(client, 0) >= TREES_PER_CLIENT:
            raise ApiError(
                429,
                f"this client already has {TREES_PER_CLIENT} lab trees being worked out or waiting;"
                " send the next when one has answered",
                {"Retry-After": "1"},
            )
        if sum(_trees_of.values()) >= MAX_TREES:
            raise busy(f"the server is working out {MAX_TREES} other trees; try again in a moment")
        _trees_of[client] = _trees_of.get(client, 0) + 1
    try:
        body = await http.body()
    except BaseException:
        _tree_done(client)
        raise
    work = _tree_pool.submit(_tree_facts, body)
    # A tree counts for its client until its thread is done with it, also when the request went away
    # meanwhile: hanging up and asking again must not pile trees behind everyone else's.
    work.add_done_callback(lambda _: _tree_done(client))
    return await asyncio.wrap_future(work)  # a request that goes away drops its tree if it still waits


def _tree_done(client: str) -> None:
    """Called by the pool's thread (or at once, for a tree dropped while waiting)."""
    with _trees_lock:
        left = _trees_of[client] - 1
        if left:
            _trees_of[client] = left
        else:
            del _trees_of[client]  # nothing is kept of a client with no tree under way


def _tree_facts(body: bytes) -> Response:
    try:
        request = TreeIn.model_validate_json(body)
    except ValidationError as error:
        return JSONResponse({"detail": validation_detail(error.errors())}, status_code=422)
    try:
        to_move, pruned = facts_of_tree(
            Position.from_dict(request.position),
            request.parent,
            request.move,  # type: ignore[arg-type]  # play checks moves
            request.cutoff,
        )
    except KalahError as error:
        raise invalid(str(error)) from None
    facts = {"to_move": to_move, "pruned": {str(node_id): moves for node_id, moves in pruned.items()}}
    return Response(json.dumps(facts, separators=(",", ":")), media_type="application/json")  # encoded here too
