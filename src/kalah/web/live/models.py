"""Request and response bodies of the live routes (games between people, the lobby)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, model_validator

from ..models import Expected, GameState, MoveCount, MoveIn, Strict, VariantIn

__all__ = [
    "ChallengeIn",
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


class ClaimIn(Strict):
    """An invitation to take a game's empty seat."""

    invite: str = Field(min_length=8, max_length=100)


class TakeBackIn(Strict):
    """Ask for a take-back, or answer the opponent's request."""

    action: Literal["request", "accept", "decline"]
    moves: MoveCount


class ChallengeIn(Strict):
    """An open challenge in the lobby."""

    variant: VariantIn = Field(default_factory=VariantIn)
    clock: ClockIn = Field(default_factory=ClockIn)


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


class LiveInfoOut(BaseModel):
    """What a game between people has beyond its moves."""

    seats_taken: list[bool]
    connected: list[bool] = Field(description="which seats have a page connected now")
    watchers: int
    clock: ClockOut
    result: dict[str, Any] | None = Field(description="{winner, reason} when the game ended by resignation or time")
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
