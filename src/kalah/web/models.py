"""The web API's request and response bodies.

Pydantic checks what clients send (``VariantIn``, ``NewGame``, ``LeaveIn``, ``MoveIn``,
``AnalyseIn``, ``TraceIn``) and the response models document the answers in the OpenAPI
schema at ``/docs``; the routes are in :mod:`kalah.web.app`, the work in
:mod:`kalah.web.service`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Annotated, Any, Literal

from fastapi import Path, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field

from kalah.records import MAX_GAME_ID
from kalah.rules import KalahError, Variant
from kalah.search.tracing import TRACED_ALGORITHMS

from .errors import invalid

#: Largest id SQLite stores (a signed 64-bit integer): the library's bound on game ids, for every id.
MAX_ID = MAX_GAME_ID
#: A game's id as a URL writes it: ASCII digits only. kalah.web.live's guard matches paths with it, so the
#: routes must read no other spelling as an id.
GAME_ID_DIGITS = "[0-9]{1,19}"


def digits_only(what: str) -> Callable[[object], object]:
    """A validator of ids in paths, ``what`` naming them ("a game id"): ASCII digits, at most 19, in range.

    Lax integers ("1.0", "+1", " 1", "1_0") are refused: the live guard, which matches the raw path, would not
    see them as the game they name; and so are longer spellings ("000...01"), which it would not match either.
    """

    def check(value: object) -> object:
        if isinstance(value, str):
            if not re.fullmatch("[0-9]+", value):
                raise ValueError(f"{what} is written in digits only, as 12; got {value[:40]!r}")
            if not re.fullmatch(GAME_ID_DIGITS, value) or int(value) > MAX_ID:
                shown = value if len(value) <= 40 else value[:40] + "..."
                raise ValueError(f"{what} is at most {MAX_ID} (19 digits); {shown} is out of range")
        return value

    return check


#: A game's id in a URL path.
GameId = Annotated[
    int, BeforeValidator(digits_only("a game id")), Path(ge=1, le=MAX_ID, description="the game's id (digits only)")
]
#: Most moves a game can have: every move sows at least one seed into a store or
#: forward, so even Kalah(8,15) ends far sooner.
MAX_MOVES = 100_000


def _printable(text: str) -> str:
    """Text a client may store: no lone surrogates (they cannot be encoded) and no control characters."""
    if any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        raise ValueError("text holds a lone surrogate (not valid Unicode)")
    if any(ord(c) < 32 or ord(c) == 127 for c in text):
        raise ValueError("text holds control characters")
    return text


#: A name shown for a player.
Name = Annotated[str, Field(max_length=60), AfterValidator(_printable)]
#: 'human', a level name or a player spec.
Spec = Annotated[str, Field(min_length=1, max_length=200), AfterValidator(_printable)]
#: A move count a request expects the game to have (see MoveIn).
MoveCount = Annotated[int, Field(ge=0, le=MAX_MOVES)]


class Strict(BaseModel):
    """Request bodies: unknown fields refused, no NaN or Infinity, and no coercion between types.

    Pydantic's strict mode: ``true`` is not the integer 1 (``"move": true``
    would play pit B, ``"pits": true`` make Kalah(1,n)), ``"5"`` is not a
    number and ``"yes"`` not a boolean; an integer still counts as a number of seconds.
    """

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, strict=True)


# --- requests ----------------------------------------------------------------------


class VariantIn(Strict):
    """The variant of a new game."""

    pits: int = Field(6, ge=1, le=12, description="pits per side, 1 to 12 (the range of the rules)")
    seeds: int = Field(4, ge=1, le=15, description="seeds per pit at the start, 1 to 15")
    empty_capture: bool = Field(
        False, description="a last seed in an empty own pit captures even when the opposite pit is empty"
    )
    pie_rule: bool = Field(False, description="player 1 may swap sides after player 0's first move")

    def to_variant(self) -> Variant:
        """The variant asked for (422 for one the rules refuse, such as more seeds than a board holds)."""
        try:
            return Variant(**self.model_dump())
        except KalahError as error:
            raise invalid(str(error)) from None


class NewGame(Strict):
    """A new game: the variant and, for each side, who plays it."""

    variant: VariantIn = Field(default_factory=VariantIn)
    players: list[Spec] | None = Field(
        None,
        min_length=2,
        max_length=2,
        description="for player 0 and player 1: 'human', a level name or a player spec such as 'pvs:depth=8'"
        " (GET /api/info lists the levels and the player types); default: a human against the medium level",
    )
    names: list[Name | None] | None = Field(None, min_length=2, max_length=2, description="names to show")
    reuse_unstarted: bool = Field(
        False,
        description="return the newest web game with the same settings and no moves yet, if any,"
        " instead of storing another empty game",
    )
    preview: bool = Field(
        False,
        description="store nothing: return the state the new game would have (id 0); the page stores the game"
        " when its first move is played, so that a visit leaves no empty game in the library",
    )


#: Length of the secret ``POST /api/games`` gives the page that stored a game (``secrets.token_urlsafe``'s
#: text of these many random bytes, 32 characters).
LEAVE_TOKEN_BYTES = 24


class LeaveIn(Strict):
    """Who leaves a game: the page that stored it proves so with the secret it was given."""

    token: str | None = Field(
        None,
        max_length=64,
        description="the leave_token of the answer that stored the game (POST /api/games); with it, a game left"
        " before its first move is deleted, without it (any other client) nothing is deleted",
    )


class Expected(Strict):
    """What the client saw: a request that acts on a game says how many moves the game had.

    A stale or repeated request (a double click, a second tab, another server
    on the same library) finds the game moved on and is refused with 409,
    changing nothing.
    """

    moves: MoveCount = Field(..., description="the number of moves the game has, as the client last saw it")


class MoveIn(Expected):
    """A move, and the move count it follows: a human's, or the computer's as the page's engine chose it."""

    move: Annotated[int, Field(ge=0, le=255)] | Annotated[str, Field(min_length=1, max_length=8)] = Field(
        ..., description="a pit index 0..pits-1 of the mover's side, a pit letter, or 'swap'"
    )
    computer: bool = Field(
        False,
        description="the move of the computer player to move, chosen by the engine in the page (WebAssembly):"
        " stored as that player's, with no engine work on the server",
    )


#: The deepest search the lab traces, and the most nodes a trace of the server may hold.
MAX_TRACE_DEPTH = 12
MAX_TRACE_NODES = 20_000
#: The options of ``kalah.trace`` a client may set (not the table's size).
TRACE_OPTIONS = ("move_values", "memo", "ordering", "iterative")


class TraceIn(Strict):
    """A search to trace: ``kalah.trace(position, algorithm, depth, evaluation, **options)``."""

    position: dict[str, Any] = Field(..., description="a position in the JSON form of the rules")
    algorithm: str = Field("alphabeta", max_length=20, description=f"one of {', '.join(TRACED_ALGORITHMS)}")
    depth: int = Field(4, ge=1, le=MAX_TRACE_DEPTH, description="the depth limit in moves")
    evaluation: str = Field("strong", max_length=20, description="strong, store or seed")
    options: dict[str, Any] = Field(
        default_factory=dict,
        max_length=len(TRACE_OPTIONS),
        description="move_values, memo, ordering, iterative: true or false",
    )


#: The most playouts the lab's MCTS page traces (every node is drawn from them), and its alpha-beta depth.
MAX_LAB_PLAYOUTS = 5_000
MAX_LAB_ALPHABETA_DEPTH = 12


class MctsTraceIn(Strict):
    """UCT to trace (``kalah.search.mcts_trace.trace_mcts``), and the alpha-beta search shown beside it."""

    position: dict[str, Any] = Field(..., description="a position in the JSON form of the rules")
    playouts: int = Field(200, ge=1, le=MAX_LAB_PLAYOUTS, description="iterations of UCT")
    seed: int = Field(0, ge=0, le=2**31 - 1, description="the playouts' random seed")
    depth: int = Field(6, ge=1, le=MAX_LAB_ALPHABETA_DEPTH, description="the depth of the alpha-beta search beside it")


class AnalyseIn(Strict):
    """A position to analyse, and for how long."""

    position: dict[str, Any] = Field(..., description="a position in the JSON form of the rules")
    seconds: float = Field(0.5, gt=0, le=10, description="thinking time")


class GameAnalysisIn(Strict):
    """How long to think about a game's current position (a POST: no other site's page can start it with a link)."""

    seconds: float = Field(0.5, gt=0, le=10, allow_inf_nan=False, description="thinking time")


# --- responses ---------------------------------------------------------------------


#: A move on the wire: a pit index of the mover's side, or the pie-rule swap.
MoveOut = int | Literal["swap"]


class VariantOut(BaseModel):
    """The variant of a game (``Variant.to_dict()``)."""

    pits: int
    seeds: int
    empty_capture: bool
    pie_rule: bool


class SideOut(BaseModel):
    """A player of a game in the library list: the name shown and its spec."""

    name: str
    spec: str


class PlayerOut(BaseModel):
    """A player of a game: the name shown, its spec, and the level it came from if any."""

    name: str
    spec: str
    human: bool
    level: str | None


class EffectOut(BaseModel):
    """What a move did, for the page to animate it: the board before, the cells sown, extra turn, capture."""

    number: int
    player: int
    move: MoveOut
    name: str
    before: list[list[int]]
    sown: list[int] = Field(
        description="flat cells that got a seed, in order (player 0's pits, store 0, player 1's pits, store 1)"
    )
    extra_turn: bool
    captured: int
    capture_pit: int | None
    game_over: bool


class GameState(BaseModel):
    """A game as the page shows it: board, whose turn, legal moves, result, last move, history."""

    id: int
    variant: VariantOut
    variant_name: str
    players: list[PlayerOut]
    board: list[list[int]]
    to_move: int
    legal_moves: list[MoveOut]
    over: bool
    status: str
    scores: list[int] | None = Field(description="final totals once the game is over")
    winner: int | None
    margin: int | None
    termination: Literal["board", "resignation", "time", "forfeit"] | None = Field(
        None, description="what ended a finished game: its board, or a resignation, a flag or a forfeit"
    )
    human_to_move: bool
    computer_to_move: bool
    moves: int
    last: EffectOut | None
    history: list[str] = Field(description="the moves so far in pit letters")
    can_take_back: bool
    can_redo: bool
    started_at: str


class NewGameOut(GameState):
    """A game just started: its state, and the secret that lets the page that stored it delete it by leaving."""

    leave_token: str | None = Field(
        None,
        description="give it to POST /api/games/{id}/leave to delete the game if it is left before its first"
        " move; the server keeps it in memory only, until the game's first move (null when this request stored"
        " nothing: a preview, or an unstarted game reused)",
    )


class GameSummaryOut(BaseModel):
    """One game of the library list."""

    id: int
    started_at: str
    players: list[SideOut]
    variant: dict[str, Any] = Field(description="as stored: a damaged game's may not be a variant of the rules")
    variant_name: str
    moves: int
    status: str
    scores: list[int] | None
    winner: int | None
    termination: Literal["board", "resignation", "time", "forfeit"] | None = Field(
        None, description="what ended a finished game: its board, or a resignation, a flag or a forfeit"
    )
    stop_reason: str | None = Field(None, description="why a stopped game ended: left unfinished, interrupted")
    live: bool = Field(False, description="a game between people at two screens (played and watched at /live)")


class FrameOut(BaseModel):
    """One position of a replay and the move that led to it."""

    board: list[list[int]]
    to_move: int
    over: bool
    last: EffectOut | None


class ReplayOut(BaseModel):
    """Every position of a game, for replaying it."""

    id: int
    players: list[PlayerOut]
    variant: VariantOut
    variant_name: str
    frames: list[FrameOut]


class LevelOut(BaseModel):
    """A computer level of the New game dialog."""

    name: str
    spec: str
    summary: str
    available: bool


class PlayerTypeOut(BaseModel):
    """A kind of player a spec can name."""

    name: str
    summary: str
    options: str


class InfoOut(BaseModel):
    """What this server offers: levels, player types, whether analysis works."""

    levels: list[LevelOut]
    default_level: str
    player_types: list[PlayerTypeOut]
    analysis: bool
    can_delete: bool = Field(
        description="whether this client may delete games: the server's own machine, or every client"
        " with kalah serve --allow-delete"
    )


class MoveValueOut(BaseModel):
    """The value of one legal move, for the side to move: proven, or a search's estimate or bound."""

    move: MoveOut
    value: int | float | None = Field(description="an integer where the value is one; None when unknown")
    bound: Literal["exact", "estimate", "lower", "upper"]
    exact: bool = Field(description="proven by the rules, the book, an endgame database or the solver")


class AnalysisOut(BaseModel):
    """The value of every legal move (from the mover's point of view) and the best line.

    The analysis routes answer with the fields that are set: ``best_moves`` only
    when the solver found them, ``reason`` only when analysis is unavailable.
    """

    available: bool
    reason: str | None = Field(None, description="why analysis is unavailable (absent when it is)")
    to_move: int
    moves: list[MoveValueOut]
    pv: list[MoveOut] = Field(description="the best line")
    value: int | float | None
    best_move: MoveOut | None
    best_moves: list[MoveOut] | None = Field(
        None, description="every best move (all of them where every move's value is exact)"
    )
    exact: bool = Field(description="proven (rules, book, endgame database, solver) rather than estimated")
    source: Literal["rules", "book", "endgame", "solver", "search"] | None
    depth: int | None = Field(None, description="the search's depth when the value is estimated")
    pv_names: list[str] = Field(description="the best line in pit letters")


def validation_detail(errors: Sequence[Any]) -> str:
    """pydantic's errors as one sentence: every problem (the first 20), where it is; what the client sent is
    not echoed (it may be megabytes)."""
    problems = []
    for item in list(errors)[:20]:
        where = ".".join(str(part) for part in item.get("loc", ()) if part != "body")
        if item.get("type") == "json_invalid":
            problems.append(f"malformed JSON: {item.get('ctx', {}).get('error', item.get('msg'))}")
        else:
            problems.append(f"{where or 'body'}: {item.get('msg')}")
    return "; ".join(problems)[:2000] or "bad request"


async def validation_error(request: Request, error: RequestValidationError) -> JSONResponse:
    """A request FastAPI's validation refused, answered 422 with one sentence in ``detail`` (every problem,
    where it is) and pydantic's list in ``errors``: pages and clients show ``detail`` as it is."""
    items = error.errors()[:20]
    errors = [{key: value for key, value in item.items() if key not in ("input", "url", "ctx")} for item in items]
    return JSONResponse({"detail": validation_detail(items), "errors": jsonable_encoder(errors)}, status_code=422)


# --- reviews, puzzles, the lab ------------------------------------------------------------------------


class ReviewStatusOut(BaseModel):
    """A game's review: done (with the review, kalah.review's JSON), running (its progress) or failed."""

    status: Literal["done", "running", "failed"]
    review: dict[str, Any] | None = Field(None, description="the review (GameReview.to_dict), once done")
    done: int | None = Field(None, description="positions analysed so far, while running")
    total: int | None = Field(None, description="positions to analyse, while running")
    seconds_per_position: float | None = Field(None, description="engine seconds each position gets, while running")
    error: str | None = Field(None, description="why it failed")


class PositionOut(BaseModel):
    """A position as the rules write it (board rows, the player to move)."""

    board: list[list[int]]
    to_move: int


class PuzzleOut(BaseModel):
    """A shipped puzzle: a position, its solution (the best moves, proven by the solver) and what it teaches."""

    id: str
    variant: VariantOut
    variant_name: str
    position: PositionOut
    legal_moves: list[MoveOut]
    solution: MoveOut = Field(description="the only move that keeps the exact value")
    value: int = Field(description="the exact value (final margin under perfect play) for the player to move")
    margin: int = Field(description="every other move is worth at least this many seeds less")
    theme: list[str]
    difficulty: int = Field(description="from 1 (easy) to 5 (hard)")
    source: str


class LineOut(BaseModel):
    """The positions along a line of moves, the first included, and whether the last is over."""

    positions: list[dict[str, Any]]
    over: bool
