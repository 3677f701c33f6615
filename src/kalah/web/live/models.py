"""Request and response bodies of the live routes (games between people, the lobby)."""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, Field, TypeAdapter, model_validator

from kalah.records import NAME_LENGTH

from ..models import Expected, GameState, MoveCount, MoveIn, Strict, VariantIn

__all__ = [
    "AcceptIn",
    "NameIn",
    "ChallengeIn",
    "ClientMessage",
    "ServerMessage",
    "ChallengeOut",
    "ClockIn",
    "LiveInfoOut",
    "LiveOut",
    "MoveIn",
    "NewLiveGame",
    "SeatOut",
    "TakeBackIn",
    "ClaimIn",
    "Expected",
    "PlayerName",
]


def _one_line(text: str) -> str:
    """A player's name as shown: one line, spaces between words only; no control or format characters (a
    right-to-left override would turn the names around it). Pages show it as text, never as HTML."""
    name = " ".join(text.split())
    if any(unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn") for char in name):
        raise ValueError("a name holds letters, digits, signs and spaces, not control characters")
    return name


#: A name a player gives for a game between people: empty means none (the seat's "Player 1" or "Player 2").
PlayerName = Annotated[
    str,
    Field(max_length=NAME_LENGTH, description=f"the player's name, up to {NAME_LENGTH} characters"),
    AfterValidator(_one_line),
]


class ClockIn(Strict):
    """A game's time limit: ``minutes`` + ``increment`` seconds a move, or ``days`` a move; neither: no clock."""

    minutes: float | None = Field(None, gt=0, le=180, description="minutes for the whole game, each")
    increment: float = Field(0, ge=0, le=60, description="seconds added after each of one's moves")
    days: int | None = Field(None, ge=1, le=14, description="correspondence: days for each move")

    @model_validator(mode="after")
    def _one_kind(self) -> ClockIn:
        if self.minutes is not None and self.days is not None:
            raise ValueError("a clock has minutes or days a move, not both")
        return self


class NewLiveGame(Strict):
    """A game between two people: the variant, the clock, and the side of the one who invites."""

    variant: VariantIn = Field(default_factory=VariantIn)
    clock: ClockIn = Field(default_factory=ClockIn)
    seat: Literal[0, 1] = Field(0, description="the side of the one who creates the game (0 moves first)")
    name: PlayerName = ""


class ClaimIn(Strict):
    """An invitation to take a game's empty seat, and the name of the one who takes it."""

    invite: str = Field(min_length=8, max_length=100)
    name: PlayerName = ""


class NameIn(Strict):
    """The name of the player of the seat whose token comes with it."""

    name: PlayerName = Field(min_length=1)


class AcceptIn(Strict):
    """The name of the one who accepts a challenge."""

    name: PlayerName = ""


class TakeBackIn(Strict):
    """Ask for a take-back, or answer the opponent's request."""

    action: Literal["request", "accept", "decline"]
    moves: MoveCount


class ChallengeIn(Strict):
    """An open challenge in the lobby: the variant, the clock, the author's name and side."""

    variant: VariantIn = Field(default_factory=VariantIn)
    clock: ClockIn = Field(default_factory=ClockIn)
    name: PlayerName = ""
    seat: Literal[0, 1] | None = Field(None, description="the author's side (0 moves first); none: drawn by lot")


class SeatOut(BaseModel):
    """A seat taken: the game, the side, and the token that moves it (keep it secret)."""

    game_id: int
    seat: int
    token: str
    invite: str | None = Field(None, description="the invitation to the other seat (for the link), if it is empty")


class ClockOut(BaseModel):
    """The game's clock as the server keeps it."""

    kind: Literal["none", "clock", "days"]
    text: str = Field(description="'3 min + 2 s', '2 days a move' or 'no clock'")
    ms: list[int] = Field(description="milliseconds left for each player, now")
    running: int | None = Field(description="whose time runs")


class ResultOut(BaseModel):
    """How a game between people ended off the board."""

    winner: int | None = Field(description="the player who won (none when nobody joined)")
    reason: Literal["resign", "time", "abandoned"] = Field(
        description="the other resigned, ran out of time, or nobody joined or began the game in time"
    )


class LiveInfoOut(BaseModel):
    """What a game between people has beyond its moves."""

    seats_taken: list[bool]
    connected: list[bool] = Field(description="which seats have a page connected now")
    watchers: int
    clock: ClockOut
    result: ResultOut | None = Field(description="how the game ended, when it ended by resignation or time")
    takeback_from: int | None = Field(description="the player asking for a take-back, if one is asking")
    rematch_from: list[int] = Field(description="players who asked for a rematch")
    rematch_game: int | None = Field(description="the rematch's game id, once both asked")


class LiveOut(BaseModel):
    """A live game: its state (as /api/games/{id}) and its live part."""

    state: GameState
    live: LiveInfoOut


class ChallengeOut(BaseModel):
    """An open challenge in the lobby."""

    id: str
    variant: dict[str, Any]
    variant_name: str
    clock: str
    author: str = Field(description="the author's name ('' when none was given)")
    seat: int | None = Field(description="the author's side (0 moves first); none: drawn by lot at the accept")


# --- push messages (the WebSockets /api/games/{id}/live and /api/lobby/live) ------------------------------


class HelloIn(BaseModel):
    """The first message of a game's push connection: a seat's token, or nothing for a watcher."""

    token: str | None = Field(None, max_length=100)


class ChallengeMessage(ChallengeIn):
    """Offer a challenge in the lobby."""

    type: Literal["challenge"]


class CancelMessage(Strict):
    """Withdraw one's challenge."""

    type: Literal["cancel"]
    id: str = Field(max_length=40)


class ResumeMessage(Strict):
    """Take one's challenge back after a reload, with its key."""

    type: Literal["resume"]
    key: str = Field(max_length=100)


#: What a page sends on the lobby's push connection.
ClientMessage = Annotated[ChallengeMessage | CancelMessage | ResumeMessage, Field(discriminator="type")]
CLIENT_MESSAGE: TypeAdapter[ChallengeMessage | CancelMessage | ResumeMessage] = TypeAdapter(ClientMessage)


class HelloMessage(LiveOut):
    """The answer to a game connection's first message: the seat it holds (none: a watcher) and the game."""

    type: Literal["hello"] = "hello"
    seat: int | None


class StateMessage(LiveOut):
    """The game after a change (a move, a flag, a request, a seat taken)."""

    type: Literal["state"] = "state"


class PresenceMessage(BaseModel):
    """Who is connected to the game now."""

    type: Literal["presence"] = "presence"
    connected: list[bool]
    watchers: int


class ChallengesMessage(BaseModel):
    """The lobby's open challenges, after every change."""

    type: Literal["challenges"] = "challenges"
    challenges: list[ChallengeOut]


class OfferedMessage(BaseModel):
    """One's challenge is open: its id, the key that takes it back after a reload, and the token of the seat
    one will hold when it is accepted (keep both; the token is not sent again)."""

    type: Literal["offered"] = "offered"
    id: str
    key: str
    token: str | None = Field(None, description="the seat's token; none when resumed (the page kept it)")


class MatchedMessage(BaseModel):
    """One's challenge was accepted: the game, one's seat, and its token when this server process knows it."""

    type: Literal["matched"] = "matched"
    game_id: int
    seat: int
    token: str | None = None


class ErrorMessage(BaseModel):
    """A message that could not be acted on."""

    type: Literal["error"] = "error"
    status: int | None = None
    detail: str


#: What the server sends on a push connection.
ServerMessage = Annotated[
    HelloMessage | StateMessage | PresenceMessage | ChallengesMessage | OfferedMessage | MatchedMessage | ErrorMessage,
    Field(discriminator="type"),
]
