"""SQLAlchemy 2.0 models: the durable record of players, tables, matches and every action.

The store knows nothing of the rules: rules, actions and results are opaque JSON documents
written by the service layer.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    UniqueConstraint,
    false,
    true,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def utcnow() -> datetime:
    """The current time, timezone-aware, in UTC."""
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """Declarative base; ``Base.metadata`` is what Alembic compares against."""

    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}


class Player(Base):
    """A player: a guest, or an account once it has a handle and a password.

    ``handle_key`` is the handle's skeleton (``players.names.skeleton``): unique, so no two
    accounts share a handle however it is spelt. ``password_hash`` is an Argon2id hash. A
    deleted player keeps its row (its matches stay public) with its name replaced and
    everything personal cleared.
    """

    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("handle_key", name="uq_players_handle_key"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(24))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    handle: Mapped[str | None] = mapped_column(String(24), nullable=True)
    handle_key: Mapped[str | None] = mapped_column(String(64), nullable=True)
    password_hash: Mapped[str | None] = mapped_column(String(256), nullable=True)
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    @property
    def is_account(self) -> bool:
        """True once the player has a handle and a password."""
        return self.handle is not None and self.password_hash is not None


class PlayerToken(Base):
    """One signed-in device: the SHA-256 of its bearer token. Signing out deletes the row."""

    __tablename__ = "player_tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Passkey(Base):
    """A WebAuthn credential an account signs in with instead of its password.

    ``id`` is the credential id (base64url, as the browser names it); ``public_key`` the
    COSE-encoded key its signatures are checked with; ``sign_count`` the authenticator's
    signature counter as last seen (0 for authenticators that keep none).
    """

    __tablename__ = "passkeys"

    id: Mapped[str] = mapped_column(String(1400), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    public_key: Mapped[bytes] = mapped_column(LargeBinary)
    sign_count: Mapped[int] = mapped_column(BigInteger, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class PasskeyChallenge(Base):
    """A challenge handed out for one passkey ceremony: used at most once, before
    ``expires_at``. ``purpose`` is ``register`` (bound to ``player_id``) or ``sign_in``
    (bound to ``handle_key`` when the account was named, else to nobody)."""

    __tablename__ = "passkey_challenges"

    challenge: Mapped[str] = mapped_column(String(128), primary_key=True)
    purpose: Mapped[str] = mapped_column(String(16))
    player_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    handle_key: Mapped[str | None] = mapped_column(String(64), nullable=True)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class Table(Base):
    """A table: a variant with its options, its seats and its current match.

    ``version`` counts the actions accepted at this table over all its matches.
    """

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    invite_code: Mapped[str] = mapped_column(String(32))
    variant: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    visibility: Mapped[str] = mapped_column(String(16))
    # Whether anyone but the seated players may watch (a private table: with its invite code).
    spectators: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    # When a private table's matches appear in history to those who did not play them:
    # ``after_match`` (once over) or ``never``.
    history: Mapped[str] = mapped_column(
        String(16), default="after_match", server_default="after_match"
    )
    status: Mapped[str] = mapped_column(String(16), index=True)
    seats: Mapped[int] = mapped_column(Integer)
    version: Mapped[int] = mapped_column(Integer, default=0)
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    match_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # The server's secret seed for the table's next match, drawn before anyone contributes;
    # only its SHA-256 is shown until that match is over (docs/fairness.md).
    next_seed: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_by: Mapped[str] = mapped_column(ForeignKey("players.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # The lease (several workers, app/tables/leases.py): the worker that owns the table,
    # until when (seconds since the epoch), and the fencing epoch, which every acquisition
    # moves up and every action's commit checks, so that a former owner can never commit.
    owner: Mapped[str | None] = mapped_column(String(32), nullable=True)
    lease_until: Mapped[float | None] = mapped_column(Float, nullable=True)
    lease_epoch: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # Turn clocks (app/tables/clocks.py): the mode chosen at creation (``none``, ``move``
    # or ``correspondence``), what a timeout does (``takeover``: a computer player takes the
    # seat; ``forfeit``: the match is lost), the running clock of the seat on move (its
    # deadline in seconds since the epoch, the version it was started at and every seat's
    # time bank), and the seats a computer player took over, with the player who left each.
    clock: Mapped[str] = mapped_column(String(16), default="none", server_default="none")
    on_timeout: Mapped[str] = mapped_column(
        String(16), default="takeover", server_default="takeover"
    )
    turn_clock: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    clock_deadline: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
    abandoned: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # The event the table was opened for (``app/tournaments``), or None: there no computer
    # player takes a seat over, the match cannot be aborted and is not replayed.
    tournament_id: Mapped[str | None] = mapped_column(String(32), nullable=True)


class TableSeat(Base):
    """Who sits where at a table."""

    __tablename__ = "table_seats"
    __table_args__ = (UniqueConstraint("table_id", "player_id", name="uq_table_seats_player"),)

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    # The player's secret random contribution to the next match's seed (hex), if it sent one.
    contribution: Mapped[str | None] = mapped_column(String(128), nullable=True)


class Match(Base):
    """One match at a table: its rules, its secret seed (public once over) and its result."""

    __tablename__ = "matches"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    variant: Mapped[str] = mapped_column(String(32), index=True)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[str] = mapped_column(String(128))
    # What the seed was made of (secret until the match is over): the server's committed seed
    # and each seat's contribution, ``[{"seat", "source", "value"}]``. Null for older matches.
    server_seed: Mapped[str | None] = mapped_column(String(64), nullable=True)
    contributions: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)
    dealer: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # ``live``, ``finished`` (played to its end) or ``aborted`` (ended before every seat had
    # acted in its first deal: no winner, no rating change, no statistics).
    status: Mapped[str] = mapped_column(String(16))
    base_version: Mapped[int] = mapped_column(Integer)
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    game_points: Mapped[list[Any]] = mapped_column(JSON, default=list)
    deals: Mapped[list[Any]] = mapped_column(JSON, default=list)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # Rated: a rated table's match between accounts only (decided when it starts). The
    # marker is set in the transaction that stores the result and the new ratings, once.
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    rating_applied: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # The seats whose players ran out of time and left them to a computer player or lost
    # by it: ``[{"seat", "player_id", "consequence"}]``; null when nobody did.
    abandoned: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)


class OfferedSeed(Base):
    """A server seed drawn for the next table a player opens, before it sends its contribution:
    only its SHA-256 is shown (one per player; a new one replaces it)."""

    __tablename__ = "offered_seeds"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    seed: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class MatchSeat(Base):
    """Who played which seat in a match (kept even if the table's seats change later)."""

    __tablename__ = "match_seats"

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)


class ActionRecord(Base):
    """One accepted action. ``version`` is the table version it produced: unique per match
    (the one index; a table's versions are unique because each write steps the table's
    version under its fence, and a match belongs to one table)."""

    __tablename__ = "actions"
    __table_args__ = (Index("uq_actions_match_version", "match_id", "version", unique=True),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"))
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"))
    version: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Rating(Base):
    """A player's rating in one family (``players.ratings.FAMILIES``)."""

    __tablename__ = "ratings"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    family: Mapped[str] = mapped_column(String(16), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (Index("ix_ratings_family_mu", "family", "mu"),)


class RatingChange(Base):
    """What one rated match did to one player's rating (the trend on a profile)."""

    __tablename__ = "rating_changes"

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)
    family: Mapped[str] = mapped_column(String(16))
    mu_before: Mapped[float] = mapped_column(Float)
    sigma_before: Mapped[float] = mapped_column(Float)
    mu_after: Mapped[float] = mapped_column(Float)
    sigma_after: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ChatMessage(Base):
    """One chat line at a table, in its ``room`` (``players`` or ``spectators``): a quick
    ``phrase`` code or a free ``text``. ``id`` is the chat's own sequence (never a table
    version); ``sender_name`` is the name shown when it was sent."""

    __tablename__ = "chat_messages"
    __table_args__ = (Index("ix_chat_messages_table_id", "table_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"))
    room: Mapped[str] = mapped_column(String(16))
    sender_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    sender_name: Mapped[str] = mapped_column(String(24))
    sent_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    phrase: Mapped[str | None] = mapped_column(String(24), nullable=True)
    text: Mapped[str | None] = mapped_column(String(2000), nullable=True)


class ChatReport(Base):
    """A reader's report of a chat message, for an operator: the message as it was sent is
    copied, so it stays readable whatever happens to the table."""

    __tablename__ = "chat_reports"
    __table_args__ = (UniqueConstraint("message_id", "reporter_id", name="uq_chat_reports_once"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    message_id: Mapped[int] = mapped_column(ForeignKey("chat_messages.id"), index=True)
    reporter_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    table_id: Mapped[str] = mapped_column(String(32))
    sender_id: Mapped[str] = mapped_column(String(32))
    room: Mapped[str] = mapped_column(String(16))
    phrase: Mapped[str | None] = mapped_column(String(24), nullable=True)
    text: Mapped[str | None] = mapped_column(String(2000), nullable=True)
    reported_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ChatMute(Base):
    """Who a player has muted at a table: the muted player's lines no longer reach it. An
    operator's mute, refused at every table, is stored with ``*`` as table and player (so
    these columns are plain strings, not foreign keys)."""

    __tablename__ = "chat_mutes"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    muted_id: Mapped[str] = mapped_column(String(32), primary_key=True)


class ChatSetting(Base):
    """A table's chat options (a table without a row: the defaults, no word filter)."""

    __tablename__ = "chat_settings"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    word_filter: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class MatchAnalysis(Base):
    """The analysis of a finished match, asked for once by a player: ``queued``, ``running``,
    ``done`` (with ``moves``, the advice on each decision) or ``failed``."""

    __tablename__ = "match_analyses"
    __table_args__ = (Index("ix_match_analyses_requested_by", "requested_by", "requested_at"),)

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    requested_by: Mapped[str] = mapped_column(ForeignKey("players.id"))
    requested_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    status: Mapped[str] = mapped_column(String(16), default="queued")
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    moves: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)


class PoolEntry(Base):
    """A player waiting in a pool (``app/pools``): one pool per player at a time. ``id`` is
    new at every join, so a wave that read an entry seats it only while that same entry is
    still there. ``rating`` is the player's in the pool's ``family`` (a guest's is the
    starting rating); ``joined_at`` and times of pools are seconds since the epoch."""

    __tablename__ = "pool_entries"
    __table_args__ = (UniqueConstraint("id", name="uq_pool_entries_id"),)

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    id: Mapped[str] = mapped_column(String(32))
    pool_id: Mapped[str] = mapped_column(String(32), index=True)
    account: Mapped[bool] = mapped_column(Boolean)
    rating: Mapped[float] = mapped_column(Float)
    family: Mapped[str] = mapped_column(String(16))
    joined_at: Mapped[float] = mapped_column(Float)
    last_opponents: Mapped[list[Any]] = mapped_column(JSON)


class PoolSeating(Base):
    """The table a pool last seated a player at (its way there), how long it had waited,
    and who it sat with."""

    __tablename__ = "pool_seatings"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    pool_id: Mapped[str] = mapped_column(String(32))
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"))
    seated_at: Mapped[float] = mapped_column(Float)
    waited: Mapped[float] = mapped_column(Float)
    opponents: Mapped[list[Any]] = mapped_column(JSON)


class PoolLease(Base):
    """The lease of a pool: the worker that runs its waves, until when, and the fencing
    epoch every acquisition moves up and every seating checks (as a table's lease)."""

    __tablename__ = "pool_leases"

    pool_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    owner: Mapped[str | None] = mapped_column(String(32), nullable=True)
    lease_until: Mapped[float | None] = mapped_column(Float, nullable=True)
    lease_epoch: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class Challenge(Base):
    """One player's challenge to another (``challenged_id`` None: an open challenge that
    anyone holding its link may accept) to a game of ``variant`` with ``options``.

    ``status`` is ``pending`` until the challenged player accepts or declines it or the
    challenger cancels it; a pending challenge whose ``expires_at`` (seconds since the epoch)
    has passed is expired, whatever its row says. ``table_id`` is the table its acceptance
    opened, ``accepted_by`` who accepted it.
    """

    __tablename__ = "challenges"
    __table_args__ = (
        Index("ix_challenges_challenger_status", "challenger_id", "status"),
        Index("ix_challenges_challenged_status", "challenged_id", "status"),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    challenger_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    challenged_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    variant: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    clock: Mapped[str | None] = mapped_column(String(16), nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    status: Mapped[str] = mapped_column(String(16))
    expires_at: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    accepted_by: Mapped[str | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True)


class Tournament(Base):
    """An arena or Swiss event (``app/tournaments``) and its lease.

    ``status`` is ``upcoming`` until its owner starts it at ``starts_at``, then ``running``,
    then ``finished``. An arena runs until ``ends_at``; a Swiss event ``rounds`` rounds, the
    current one being ``round``. ``access``: ``accounts`` or ``guests`` (anyone may join);
    ``computers``: whether computer entrants may be added. ``owner``, ``lease_until`` and
    ``lease_epoch`` are the event's lease, taken, renewed and fenced as a table's is. Times
    are seconds since the epoch."""

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(60))
    format: Mapped[str] = mapped_column(String(8))
    variant: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seats: Mapped[int] = mapped_column(Integer)
    clock: Mapped[str] = mapped_column(String(16))
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    access: Mapped[str] = mapped_column(String(16))
    computers: Mapped[bool] = mapped_column(Boolean, default=False)
    streak: Mapped[bool] = mapped_column(Boolean, default=True)
    bye_points: Mapped[float] = mapped_column(Float, default=1.0)
    starts_at: Mapped[float] = mapped_column(Float, index=True)
    ends_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    rounds: Mapped[int | None] = mapped_column(Integer, nullable=True)
    round: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(16), index=True)
    created_by: Mapped[str] = mapped_column(ForeignKey("players.id"))
    created_at: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    owner: Mapped[str | None] = mapped_column(String(32), nullable=True)
    lease_until: Mapped[float | None] = mapped_column(Float, nullable=True)
    lease_epoch: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class TournamentEntrant(Base):
    """One entrant of an event: a player, a team of two (four-hand), or a computer entrant
    (``computer``: its level; no members). ``withdrawn``: no longer paired (it withdrew, or
    forfeited twice in a row, or its team was not complete at the start)."""

    __tablename__ = "tournament_entrants"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(60))
    members: Mapped[list[Any]] = mapped_column(JSON)
    computer: Mapped[str | None] = mapped_column(String(16), nullable=True)
    rating: Mapped[float] = mapped_column(Float)
    joined_at: Mapped[float] = mapped_column(Float)
    withdrawn: Mapped[bool] = mapped_column(Boolean, default=False)


class TournamentMember(Base):
    """Which entrant of an event a player plays in (one per player and event)."""

    __tablename__ = "tournament_members"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    entrant_id: Mapped[str] = mapped_column(String(32))


class TournamentRound(Base):
    """A Swiss round paired (its row is written once, in the transaction that pairs it)."""

    __tablename__ = "tournament_rounds"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    paired_at: Mapped[float] = mapped_column(Float)


class TournamentGame(Base):
    """A pairing: entrants ``a`` and ``b`` (``b`` None: ``a``'s bye) in ``round`` (an arena
    numbers its waves). ``status``: ``pending`` (paired, no table yet), ``playing`` (at
    ``table_id``) or ``finished`` (its results stored in the same transaction)."""

    __tablename__ = "tournament_games"
    __table_args__ = (Index("ix_tournament_games_status", "tournament_id", "status"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"))
    round: Mapped[int] = mapped_column(Integer)
    a: Mapped[str] = mapped_column(String(32))
    b: Mapped[str | None] = mapped_column(String(32), nullable=True)
    table_id: Mapped[str | None] = mapped_column(ForeignKey("tables.id"), nullable=True, index=True)
    status: Mapped[str] = mapped_column(String(16))
    paired_at: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class TournamentResult(Base):
    """What one game gave one entrant: ``outcome`` (``win``, ``loss``, ``forfeit_win``,
    ``forfeit_loss``, ``bye``) and the points it scored. ``id`` orders the results as they
    were stored (the arena's streaks run in that order); one row per game and entrant."""

    __tablename__ = "tournament_results"
    __table_args__ = (
        UniqueConstraint("game_id", "entrant_id", name="uq_tournament_results_game_entrant"),
        Index("ix_tournament_results_tournament", "tournament_id", "entrant_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"))
    game_id: Mapped[int] = mapped_column(ForeignKey("tournament_games.id"))
    entrant_id: Mapped[str] = mapped_column(String(32))
    round: Mapped[int] = mapped_column(Integer)
    opponent: Mapped[str | None] = mapped_column(String(32), nullable=True)
    outcome: Mapped[str] = mapped_column(String(16))
    points: Mapped[float] = mapped_column(Float)
