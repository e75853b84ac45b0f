"""Wire schemas: the JSON bodies of the REST API (separate from the database models)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

BotLevel = Literal["easy", "medium", "hard"]


class ErrorDetail(BaseModel):
    """A stable machine code and a sentence for people."""

    code: str
    message: str


class ErrorBody(BaseModel):
    """Every error the API returns."""

    error: ErrorDetail


class PlayerCreate(BaseModel):
    """``POST /api/players``."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=200, examples=["Anna"])


class PlayerOut(BaseModel):
    """A player as anyone may see it."""

    id: str
    name: str


class PlayerCreated(PlayerOut):
    """A new guest with its bearer token (shown only this once)."""

    token: str


class TableCreate(BaseModel):
    """``POST /api/tables``."""

    model_config = ConfigDict(extra="forbid")
    variant: str = Field(default="sixty-six", examples=["sixty-six", "schnapsen"])
    options: dict[str, Any] = Field(default_factory=dict, examples=[{"target": 10}])
    visibility: Literal["public", "private"] = "public"
    spectators: bool = Field(
        default=True,
        description="Whether anyone but the players may watch (a private table: with its "
        "invite link).",
    )
    history: Literal["after_match", "never"] = Field(
        default="after_match",
        description="When a private table's matches appear in history to those who did not "
        "play them: once over, or never.",
    )
    bots: dict[int, BotLevel] = Field(
        default_factory=dict,
        description="Seats (other than 0) given to computer players, with their strength.",
        examples=[{"1": "hard"}],
    )


class BotRequest(BaseModel):
    """``POST /api/tables/{id}/bots``: give an empty seat to a computer player."""

    model_config = ConfigDict(extra="forbid")
    seat: int | None = Field(default=None, description="The first empty seat when omitted.")
    level: BotLevel = "medium"


class JoinRequest(BaseModel):
    """``POST /api/tables/{id}/join``."""

    model_config = ConfigDict(extra="forbid")
    invite_code: str | None = Field(default=None, max_length=64)
    seat: int | None = None


class SeatOut(BaseModel):
    """One seat: empty when ``player_id`` is null."""

    seat: int
    player_id: str | None
    name: str | None


class TableOut(BaseModel):
    """A table. ``invite_code`` is shown to seated players only."""

    id: str
    variant: str
    options: dict[str, Any]
    visibility: str
    spectators: bool
    history: str
    status: Literal["open", "live", "finished"]
    seats: list[SeatOut]
    match_id: int | None
    version: int
    invite_code: str | None
    invite_url: str


class TableList(BaseModel):
    """``GET /api/tables``."""

    tables: list[TableOut]


class MatchPlayer(BaseModel):
    """Who played a seat."""

    seat: int
    player_id: str
    name: str


class MatchOut(BaseModel):
    """A match's public record; ``deals`` are the engine's per-deal results."""

    id: int
    table_id: str
    variant: str
    rules: dict[str, Any]
    status: Literal["live", "finished"]
    players: list[MatchPlayer]
    winner: int | None
    game_points: list[int]
    deals: list[dict[str, Any]]
    started_at: str
    finished_at: str | None


class MatchPage(BaseModel):
    """A page of matches, newest first; pass ``next`` as ``before`` for the next page."""

    matches: list[MatchOut]
    next: int | None


class LoggedAction(BaseModel):
    """One accepted action."""

    version: int
    seat: int
    action: dict[str, Any]


class MatchLog(MatchOut):
    """A finished match's full record: its seed and every action, enough to replay it."""

    seed: str
    dealer: int | None
    base_version: int
    actions: list[LoggedAction]


class ReplayStep(BaseModel):
    """One step of a replay: the action (null for the start), its events, and the picture after."""

    version: int
    seat: int | None
    action: dict[str, Any] | None
    events: list[dict[str, Any]]
    view: dict[str, Any]
    hands: list[list[str]]


class MatchReplay(MatchOut):
    """A finished match step by step, every hand open (from its seed and log)."""

    seed: str
    dealer: int | None
    base_version: int
    steps: list[ReplayStep]


class Health(BaseModel):
    """``GET /healthz``."""

    status: Literal["ok"]
    database: Literal["ok"]
