"""Wire schemas: the JSON bodies of the REST API (separate from the database models)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool

BotLevel = Literal["easy", "medium", "hard", "expert"]


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
    """A player as anyone may see it: ``handle`` is null for a guest."""

    id: str
    name: str
    handle: str | None = None


class PlayerCreated(PlayerOut):
    """A new guest with its bearer token (shown only this once)."""

    token: str


class AccountCreate(BaseModel):
    """``POST /api/accounts``: the guest sending it becomes an account."""

    model_config = ConfigDict(extra="forbid")
    handle: str = Field(max_length=200, examples=["anna"])
    password: str = Field(max_length=1024, description="8 to 256 characters; never shown again.")
    name: str | None = Field(
        default=None, max_length=200, description="The display name; the handle when omitted."
    )


class SignIn(BaseModel):
    """``POST /api/accounts/sign-in``."""

    model_config = ConfigDict(extra="forbid")
    handle: str = Field(max_length=200)
    password: str = Field(max_length=1024)


class PasskeyAnswer(BaseModel):
    """The browser's answer to a passkey challenge: the ``PublicKeyCredential`` in WebAuthn's
    JSON form (``id``, ``rawId``, ``type``, ``response`` with base64url fields)."""

    model_config = ConfigDict(extra="forbid")
    credential: dict[str, Any]


class PasskeySignInStart(BaseModel):
    """``POST /api/accounts/passkeys/sign-in/options``: the handle to sign in as, or none for
    a passkey that names its account itself."""

    model_config = ConfigDict(extra="forbid")
    handle: str | None = Field(default=None, max_length=200)


class PasskeyOut(BaseModel):
    """One of the account's passkeys."""

    id: str = Field(description="The credential id (base64url).")
    created_at: datetime
    last_used_at: datetime | None


class PlayerUpdate(BaseModel):
    """``PATCH /api/players/me``: a new display name and, for an account, a new handle."""

    model_config = ConfigDict(extra="forbid")
    name: str | None = Field(default=None, max_length=200)
    handle: str | None = Field(default=None, max_length=200)


class PlayerDelete(BaseModel):
    """``DELETE /api/players/me``: an account confirms with its password."""

    model_config = ConfigDict(extra="forbid")
    password: str | None = Field(default=None, max_length=1024)


# A player's random part of a match seed, sent when it opens a table, sits or asks for a rematch.
SeedPart = Annotated[
    str | None,
    Field(
        max_length=128,
        description="Your random contribution to the match seed: 16 to 128 lower-case "
        "hexadecimal characters, secret until the match is over (docs/fairness.md).",
    ),
]


class TableCreate(BaseModel):
    """``POST /api/tables``."""

    model_config = ConfigDict(extra="forbid")
    variant: str = Field(default="sixty-six", examples=["sixty-six", "schnapsen"])
    options: dict[str, Any] = Field(default_factory=dict, examples=[{"target": 10}])
    visibility: Literal["public", "private"] = "public"
    rated: bool = Field(
        default=False,
        description="Rated: a match between accounts only (no guest, no computer player) "
        "changes their ratings. Casual otherwise.",
    )
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
    chat_filter: bool = Field(
        default=False,
        description="Whether the table's chat stars out listed words in free text.",
    )
    bots: dict[int, BotLevel] = Field(
        default_factory=dict,
        description="Seats (other than 0) given to computer players, with their strength.",
        examples=[{"1": "hard"}],
    )
    contribution: SeedPart = None
    commitment: str | None = Field(
        default=None,
        max_length=64,
        description="The commitment ``POST /api/tables/commitment`` gave you: the table's first "
        "match is made of that server seed (without it the server draws one now).",
    )
    clock: Literal["none", "move", "correspondence"] | None = Field(
        default=None,
        description="The turn clock: ``none``, ``move`` (seconds per move plus a time bank per "
        "deal) or ``correspondence`` (hours per move). By default a public table that waits "
        "for strangers gets ``move``, any other table ``none``.",
    )
    on_timeout: Literal["takeover", "forfeit"] = Field(
        default="takeover",
        description="When a player's clock runs out: a computer player takes the seat until "
        "its player reclaims it (``takeover``), or the player loses the match (``forfeit``).",
    )


class SeedOffer(BaseModel):
    """``POST /api/tables/commitment``: a server seed kept for your next table."""

    commitment: str = Field(
        description="SHA-256 of the server seed your next table's first match will be made of; "
        "name it as ``commitment`` when you open the table."
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
    contribution: SeedPart = None


class RematchRequest(BaseModel):
    """``POST /api/tables/{id}/rematch``."""

    model_config = ConfigDict(extra="forbid")
    contribution: SeedPart = None


class AbortRequest(BaseModel):
    """``POST /api/tables/{id}/abort``: ``leave`` gives up the seat too."""

    model_config = ConfigDict(extra="forbid")
    leave: StrictBool = False


class OnlineCount(BaseModel):
    """``GET /api/online``."""

    players: int


class ClaimRequest(BaseModel):
    """``POST /api/tables/{id}/claim-victory``: the seat, of the other side, that is gone,
    and what to do about it."""

    model_config = ConfigDict(extra="forbid")
    seat: int = Field(ge=0, le=3)
    remedy: Literal["win", "bot"] = Field(
        default="win",
        description="``win``: the gone seat resigns and the match is won; ``bot``: a computer "
        "player takes the seat (its player may reclaim it while the match is under way).",
    )


class SeatOut(BaseModel):
    """One seat: empty when ``player_id`` is null."""

    seat: int
    player_id: str | None
    name: str | None


class AbandonedSeat(BaseModel):
    """A seat a computer player holds because its player's clock ran out."""

    seat: int
    player_id: str
    name: str


class TableOut(BaseModel):
    """A table. ``invite_code`` is shown to seated players only."""

    id: str
    variant: str
    options: dict[str, Any]
    visibility: str
    rated: bool
    spectators: bool
    history: str
    status: Literal["open", "live", "finished"]
    seats: list[SeatOut]
    match_id: int | None
    version: int
    next_commitment: str | None = Field(
        description="SHA-256 of the server's secret seed for the table's next match, "
        "published before anyone contributes to it (docs/fairness.md)."
    )
    invite_code: str | None
    invite_url: str
    clock: Literal["none", "move", "correspondence"] = Field(
        description="The table's turn clock (docs/protocol.md, Turn clocks)."
    )
    on_timeout: Literal["takeover", "forfeit"]
    abandoned: list[AbandonedSeat] = Field(
        description="Seats a computer player took over when their player's clock ran out, "
        "with that player, who may reclaim the seat while the match is under way."
    )
    tournament: str | None = Field(
        default=None,
        description="The tournament the table was opened for: no abort, no computer in a "
        "gone player's seat, no rematch (docs/protocol.md, Tournament tables).",
    )


class RematchState(BaseModel):
    """A rematch offer as every viewer sees it (the ``rematch`` frame's body)."""

    offered_by: int = Field(description="The seat that made the offer.")
    accepted: list[int] = Field(description="Seats that have accepted (computer seats at once).")
    seconds_left: int = Field(description="Until the offer expires (0 once it has ended).")
    outcome: Literal["pending", "started", "declined", "expired"]
    declined_by: int | None = Field(description="The seat that declined (``declined``).")


class RematchOut(TableOut):
    """``POST /api/tables/{id}/rematch`` and ``/rematch/decline``: the table and the offer."""

    rematch: RematchState


class TableList(BaseModel):
    """``GET /api/tables``."""

    tables: list[TableOut]


class AnalysedMove(BaseModel):
    """The advice on one decision of a finished match."""

    version: int = Field(description="The version the move made.")
    seat: int
    played: dict[str, Any]
    best: dict[str, Any] = Field(description="What the expert's search would have played.")
    lost: float = Field(description="Expected game points the move cost against the best one.")
    mark: Literal["inaccuracy", "mistake", "blunder"] | None


class MatchAnalysis(BaseModel):
    """``GET /api/matches/{id}/analysis``."""

    match_id: int
    moves: list[AnalysedMove]
    total_moves: int
    next: int | None = Field(description="the next page's 'from' (null: this is the last)")


class AnalysisAsked(BaseModel):
    """``POST /api/matches/{id}/analysis``: how the match's analysis stands."""

    match_id: int
    status: Literal["queued", "running", "done", "failed"]


class YourTable(TableOut):
    """One of the caller's own tables."""

    seat: int = Field(description="The caller's seat.")
    to_move: int | None = Field(description="The seat whose move it is (null: nobody's).")
    taken_over: bool = Field(
        default=False,
        description="A computer player holds the caller's seat (its clock ran out, or it was "
        "gone and handed over): the caller may reclaim it at the table.",
    )


class YourTables(BaseModel):
    """``GET /api/players/me/tables``."""

    tables: list[YourTable]


class MatchPlayer(BaseModel):
    """Who played a seat."""

    seat: int
    player_id: str
    name: str


class Abandonment(BaseModel):
    """A player who left a match: its turn clock ran out and a computer player took the seat
    (``takeover``; the player may have reclaimed it later) or it lost the match (``forfeit``),
    or it was gone and another player claimed the match (``claimed``) or handed its seat to a
    computer player (``handed_over``)."""

    seat: int
    player_id: str
    name: str
    consequence: Literal["takeover", "forfeit", "claimed", "handed_over"]


class MatchOut(BaseModel):
    """A match's public record; ``deals`` are the engine's per-deal results."""

    id: int
    table_id: str
    variant: str
    rules: dict[str, Any]
    status: Literal["live", "finished", "aborted"] = Field(
        description="aborted: ended before every seat had acted in its first deal (no "
        "winner, no rating change, no statistics)"
    )
    rated: bool = Field(description="A rated table's match between accounts.")
    players: list[MatchPlayer]
    sides: list[int] = Field(description="the side each seat plays for (partners share one)")
    winner: int | None = Field(description="the winning side")
    game_points: list[int] = Field(description="per side")
    deals: list[dict[str, Any]] = Field(
        description="per deal: winner (a side), game points per side, the winning bid (four-hand)"
    )
    started_at: str
    finished_at: str | None
    analysis: Literal["queued", "running", "done", "failed"] | None = Field(
        default=None,
        description="How the match's analysis stands (null: nobody asked for one).",
    )
    tournament: str | None = Field(
        default=None, description="The event whose table it was played at (null: none)."
    )
    server_commitment: str | None = Field(
        description="SHA-256 of the server seed the match seed was made of, as the table "
        "published it before the match (null for matches older than contributions)."
    )
    abandoned: list[Abandonment] = Field(
        default_factory=list,
        description="The players whose turn clock ran out during the match, in order.",
    )


class Contribution(BaseModel):
    """One seat's part of the match seed: a player's, a computer player's, or the default."""

    seat: int
    source: Literal["player", "bot", "missing"]
    value: str


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
    server_seed: str | None
    contributions: list[Contribution] | None
    dealer: int | None
    base_version: int
    actions: list[LoggedAction]
    total_actions: int
    next: int | None = Field(description="the next page's 'from' (null: this is the last)")


class ReplayStep(BaseModel):
    """One step of a replay: the action (null for the start), its events, and the picture after."""

    version: int
    seat: int | None
    action: dict[str, Any] | None
    events: list[dict[str, Any]]
    deals_done: int = Field(description="how many of the record's 'deals' are over by now")
    view: dict[str, Any] = Field(
        description="the spectator's view; its 'deal_results' is empty (see 'deals_done')"
    )
    hands: list[list[str]]


class MatchReplay(MatchOut):
    """A finished match step by step, every hand open (from its seed and log)."""

    seed: str
    server_seed: str | None
    contributions: list[Contribution] | None
    dealer: int | None
    base_version: int
    steps: list[ReplayStep]
    total_steps: int
    next: int | None = Field(description="the next page's 'from' (null: this is the last)")


class RatingPoint(BaseModel):
    """The rating after one rated match."""

    match_id: int
    rating: int


class RatingOut(BaseModel):
    """A rating as shown: estimate, deviation (provisional while it is high), matches."""

    rating: int
    deviation: int
    provisional: bool
    matches: int


class FamilyRating(RatingOut):
    """A player's rating in one family, with its last changes (oldest first)."""

    family: str
    trend: list[RatingPoint]
    last_change: int | None


class Statistics(BaseModel):
    """Figures over a player's finished matches (``abandoned``: lost by resigning)."""

    matches: int
    won: int
    lost: int
    abandoned: int
    deals: int
    deals_won: int
    game_points_per_deal: float | None
    schwarz_wins: int
    closes_made: int
    closes_failed: int
    marriages: int
    favourite_game: str | None


class ComputerRating(BaseModel):
    """A computer player's fixed published rating (never changed by play)."""

    level: BotLevel
    rating: int
    family: str
    fixed: bool


class Profile(BaseModel):
    """``GET /api/players/{id}``."""

    id: str
    name: str
    handle: str | None
    deleted: bool
    computer: ComputerRating | None
    ratings: list[FamilyRating]
    statistics: Statistics
    recent: list[MatchOut]


class LeaderboardEntry(RatingOut):
    """One row of the leaderboard; ``rank`` is shared by equal ratings."""

    rank: int
    id: str
    name: str
    handle: str | None
    deleted: bool


class Leaderboard(BaseModel):
    """``GET /api/leaderboard``: best first; pass ``next`` as ``after`` for the next page."""

    game: str
    min_matches: int
    players: list[LeaderboardEntry]
    next: str | None


class OptionDomainOut(BaseModel):
    """The values one option takes: ``choice`` (one of ``values``), ``flag`` (true or false) or
    ``number`` (from ``min`` to ``max``, or one of ``values``)."""

    kind: Literal["choice", "flag", "number"]
    values: list[Any] | None = None
    min: int | None = None
    max: int | None = None


class VariantOut(BaseModel):
    """One preset as a table creator sees it."""

    variant: str
    seats: list[int] = Field(description="the player counts the game seats")
    partners: bool = Field(description="seats 0 and 2 play against 1 and 3")
    defaults: dict[str, Any] = Field(description="every option's value by default")
    options: dict[str, OptionDomainOut] = Field(description="the options a table may change")
    fixed: dict[str, str] = Field(description="the options it may not change, with the reason")


class VariantList(BaseModel):
    """``GET /api/variants``: every preset the engine offers."""

    variants: list[VariantOut]


class Health(BaseModel):
    """``GET /healthz``."""

    status: Literal["ok"]
    database: Literal["ok"]


class ChallengeCreate(BaseModel):
    """``POST /api/challenges``: name the challenged player by ``player_id`` or by an
    account's ``handle``; with neither, an open challenge that anyone signed in may accept
    through its link."""

    model_config = ConfigDict(extra="forbid")
    player_id: str | None = Field(default=None, max_length=64)
    handle: str | None = Field(default=None, max_length=200)
    variant: str = Field(default="sixty-six", examples=["sixty-six", "schnapsen"])
    options: dict[str, Any] = Field(default_factory=dict, examples=[{"target": 7}])
    clock: Literal["none", "move", "correspondence"] | None = Field(
        default=None, description="The table's turn clock (as for ``POST /api/tables``)."
    )
    rated: bool = Field(default=False, description="Rated: only between two accounts.")


class ChallengePlayer(BaseModel):
    """A player named in a challenge."""

    id: str
    name: str


class ChallengeOut(BaseModel):
    """A challenge: ``status`` ``pending``, ``accepted``, ``declined``, ``cancelled`` or
    ``expired``; ``challenged`` null for an open challenge; ``expires_in`` seconds;
    ``table_id`` the table its acceptance opened; ``url`` its link."""

    id: str
    status: str
    challenger: ChallengePlayer
    challenged: ChallengePlayer | None
    variant: str
    options: dict[str, Any]
    clock: str | None
    rated: bool
    expires_in: float
    table_id: str | None
    url: str


class ChallengeAccepted(ChallengeOut):
    """An accepted challenge with the table it opened (both players seated, match live)."""

    table: TableOut


class ChallengeList(BaseModel):
    """``GET /api/challenges``: your pending challenges, received and made."""

    incoming: list[ChallengeOut]
    outgoing: list[ChallengeOut]
