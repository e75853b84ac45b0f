"""The lobby: players, tables, seats, match starts and rematches.

``TableService`` is the registry of this worker's tables (``registry.TableRegistry``) with the
lobby's entry points: each change of one table is a command (``tables.commands``) sent to the
table's owner, decided by the lobby's rules (``lobby.py``) and made by the table's actor.
Table info and lobby lists are read from store rows, without loading any match.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from app.bots import LEVELS
from app.common.errors import (
    Conflict,
    Forbidden,
    Invalid,
    NotFound,
    ServiceError,
)
from app.common.rules import rules_for_table, seat_count
from app.engine import Rules
from app.players import identity
from app.players.bot_players import bot_player_id, ensure_bot_players
from app.store import Player
from app.store import players as player_store
from app.store import tables as table_store
from app.store.db import AsyncSession
from app.tables import fairness
from app.tables.authority import TableAuthority
from app.tables.clocks import (
    CONSEQUENCES,
    MODES,
    default_mode,
)
from app.tables.commands import (
    Abort,
    AddBot,
    ClaimVictory,
    DeclineRematch,
    Join,
    Leave,
    OfferRematch,
    Reclaim,
    Rename,
    StartFull,
)
from app.tables.lobby import invite_matches
from app.tables.registry import TableRegistry
from app.tables.relay import RemoteTable
from app.tables.snapshot import StoredTable, load_snapshot, stored_table

log = logging.getLogger(__name__)
VISIBILITIES = ("public", "private")
HISTORIES = ("after_match", "never")
LISTABLE = ("open", "live")
Write = Callable[[AsyncSession, str], Awaitable[None]]
"""A write joined to a new table's transaction, given the table's id."""
YOUR_TABLES = 50
"""How many of a player's own open and live tables ``tables_of`` lists."""


Claim = Callable[[AsyncSession, str], Awaitable[bool]]
"""What a pool does in the transaction that opens its table: take its entries (False: they
are gone, open nothing)."""


@dataclass(frozen=True)
class SeatedTable:
    """One table of ``open_seated_tables``: its players (in the seats the bots leave free,
    in order), its bots (seat -> level) and its claim."""

    players: Sequence[str]
    bots: dict[int, str]
    claim: Claim


class _Refused(Exception):
    """The claim of a table being opened was refused: roll its transaction back."""


class TableService(TableRegistry):
    """The lobby's operations over the registry of this worker's tables."""

    async def create_player(self, name: str) -> tuple[Player, str]:
        """A new guest and its bearer token (shown once, stored only as a hash)."""
        clean = identity.clean_name(name)
        token = identity.new_token()
        async with self.sessions.begin() as session:
            player = await player_store.add_player(
                session, identity.new_id(), clean, identity.hash_token(token)
            )
        return player, token

    async def identify(self, token: str) -> Player:
        """The player holding this token (``Unauthorized`` otherwise)."""
        async with self.sessions() as session:
            return await identity.find_player(session, token)

    async def leave_open_tables(self, player: Player) -> None:
        """Give up every seat the player holds at a table still waiting for players (before
        the player is deleted, so no table waits for someone who is gone)."""
        async with self.sessions() as session:
            table_ids = await table_store.open_tables_of(session, player.id)
        for table_id in table_ids:
            with contextlib.suppress(Conflict):  # it started or was left meanwhile
                await self.leave(player, table_id)

    async def renamed(self, player: Player) -> None:
        """Show a player's new name at every table this worker holds where it sits (a
        ``Rename`` command at each: a ``table`` frame to its viewers). Other workers pick it
        up when they next load the table."""
        seated = [a for a in self._authorities.values() if a.seat_of(player.id) is not None]
        for authority in seated:
            with contextlib.suppress(ServiceError):  # the table moved meanwhile
                await authority.ask(Rename(player.id, player.name))

    async def create_table(
        self,
        player: Player,
        variant: str,
        options: dict[str, Any],
        visibility: str,
        bots: dict[int, str] | None = None,
        spectators: bool = True,
        history: str = "after_match",
        *,
        rated: bool = False,
        contribution: str | None = None,
        commitment: str | None = None,
        clock: str | None = None,
        on_timeout: str = "takeover",
        seated: dict[int, Player] | None = None,
        also: Write | None = None,
    ) -> dict[str, Any]:
        """A new table with the creator in seat 0 and ``bots`` (seat -> level) in other
        seats; when that fills every seat, the match starts. ``spectators``: whether anyone
        but the players may watch (a private table: with its invite code); ``history``: when
        a private table's matches are shown to others (``after_match`` or ``never``). A
        ``rated`` table's matches between accounts change their ratings. ``contribution``:
        the creator's random contribution to the first match's seed, ``commitment``: that of
        the server seed offered to the creator for it (``offer_seed``; ``tables.fairness``).
        ``clock``: the turn clock (``tables.clocks``; by default a per-move clock at a
        public table that waits for strangers, else none), ``on_timeout``: what happens to a
        seat whose time runs out (``takeover`` or ``forfeit``). ``seated``: other players
        (seat -> player) seated with the creator, as a challenge's acceptance seats both;
        ``also``: a write done in the same transaction, given the new table's id (a refusal
        there opens no table)."""
        fairness.check_contribution(contribution)
        if clock is not None and clock not in MODES:
            raise Invalid("bad_clock", f"clock must be one of {', '.join(MODES)}.")
        if on_timeout not in CONSEQUENCES:
            raise Invalid("bad_on_timeout", f"on_timeout must be one of {', '.join(CONSEQUENCES)}.")
        if visibility not in VISIBILITIES:
            raise Invalid("bad_visibility", "visibility must be 'public' or 'private'.")
        if history not in HISTORIES:
            raise Invalid("bad_history", "history must be 'after_match' or 'never'.")
        if history != "after_match" and visibility != "private":
            raise Invalid("bad_history", "Only a private table can keep its matches unlisted.")
        rules = rules_for_table(variant, options)
        bots = bots or {}
        seated = seated or {}
        for seat in seated:
            if not 1 <= seat < seat_count(rules) or seat in bots:
                raise Invalid("bad_seat", f"seat {seat} is not another free seat of this table.")
        for seat, level in bots.items():
            if not 1 <= seat < seat_count(rules):
                raise Invalid("bad_bots", f"bots: seat {seat} is not another seat of this table.")
            self._check_level(level)
        await ensure_bot_players(self.sessions, bots)  # once; nobody holds their token
        if clock is None:
            clock = default_mode(visibility, len(bots), seat_count(rules))
        table_id = identity.new_id()
        seats = {0: player.id, **{seat: other.id for seat, other in seated.items()}}
        seats |= {seat: bot_player_id(level, seat) for seat, level in bots.items()}
        async with self.sessions.begin() as session:
            await add_table_rows(
                session,
                table_id,
                rules,
                seats,
                creator=player.id,
                new_seed=self.new_seed,
                commitment=commitment,
                visibility=visibility,
                spectators=spectators,
                history=history,
                rated=rated,
                clock=clock,
                on_timeout=on_timeout,
            )
            # The creator's part of the first match's seed (``tables.fairness``).
            await fairness.contribute(session, table_id, 0, contribution)
            if also is not None:
                await also(session, table_id)
        authority = await self.authority(table_id)
        if len(authority.seats) == authority.seat_count:
            await self._start_full_table(authority)
        return self.table_json(authority, player.id)

    async def open_seated_table(
        self,
        players: Sequence[str],
        variant: str,
        claim: Claim,
        *,
        rated: bool,
        clock: str,
        bots: dict[int, str] | None = None,
        start: bool = True,
        options: dict[str, Any] | None = None,
        on_timeout: str = "takeover",
        created_by: str | None = None,
        tournament: str | None = None,
    ) -> str | None:
        """A new public table of ``variant`` (``options``, by default none) with ``bots``
        (seat -> level) in their seats and ``players`` in the other seats, in order, opened
        for a pool or a tournament. Its rows are written in one transaction with
        ``claim(session, table_id)`` (which takes the pool's entries); when that answers
        False, nothing is written and the answer is None. Then, unless ``start`` is False
        (the caller starts it with ``start_if_full``), the match starts through the table's
        actor (``StartFull``). ``on_timeout``: as ``create_table``'s; ``created_by``: the
        table's creator when no player sits at it (computers only); ``tournament``: the event
        the table is opened for (``tables.aborts``: no computer takeover, no abort, no
        rematch there). The new table's id."""
        opened = await self.open_seated_tables(
            [SeatedTable(players, bots or {}, claim)],
            variant,
            rated=rated,
            clock=clock,
            options=options,
            on_timeout=on_timeout,
            created_by=created_by,
            tournament=tournament,
        )
        if opened is None:
            return None
        (table_id,) = opened
        if start:
            await self.start_if_full(table_id)
        return table_id

    async def open_seated_tables(
        self,
        tables: Sequence[SeatedTable],
        variant: str,
        *,
        rated: bool,
        clock: str,
        options: dict[str, Any] | None = None,
        on_timeout: str = "takeover",
        created_by: str | None = None,
        tournament: str | None = None,
    ) -> list[str] | None:
        """Several tables as ``open_seated_table`` opens one, all of the same game and clock,
        written in one transaction (a tournament's wave: one commit instead of one per
        table), each with its claim after its rows; when any claim answers False nothing is
        written and the answer is None. None is started (``start_if_full``). The new
        tables' ids, in order."""
        rules = rules_for_table(variant, options or {})
        for bots in {tuple(sorted(t.bots.items())) for t in tables}:  # each seat and level once
            await ensure_bot_players(self.sessions, dict(bots))
        ids = [identity.new_id() for _ in tables]
        try:
            async with self.sessions.begin() as session:
                for table_id, table in zip(ids, tables, strict=True):
                    free = [seat for seat in range(seat_count(rules)) if seat not in table.bots]
                    seats = dict(zip(free, table.players, strict=False))
                    seats |= {
                        seat: bot_player_id(level, seat) for seat, level in table.bots.items()
                    }
                    await add_table_rows(
                        session,
                        table_id,
                        rules,
                        seats,
                        creator=created_by or table.players[0],
                        new_seed=self.new_seed,
                        rated=rated,
                        clock=clock,
                        on_timeout=on_timeout,
                        tournament=tournament,
                    )
                    if not await table.claim(session, table_id):
                        raise _Refused
        except _Refused:
            return None
        return ids

    async def start_if_full(self, table_id: str) -> None:
        """Start the match of a table whose seats are all taken and whose match has not
        started (``StartFull`` at its owner: nothing at a table under way)."""
        try:
            await self.send(table_id, StartFull(), None)
        except ServiceError as error:  # the pool's next wave tries again (pools.service)
            log.warning("table %s did not start: %s", table_id, error.code)

    async def offer_seed(self, player: Player) -> dict[str, str]:
        """The commitment to a server seed kept for the next table this player opens, so that
        its contribution to that table's first match is sent after the commitment."""
        async with self.sessions.begin() as session:
            return {"commitment": await fairness.offer_seed(session, player.id, self.new_seed)}

    async def add_bot(
        self, player: Player, table_id: str, seat: int | None, level: str
    ) -> dict[str, Any]:
        """A seated player gives an empty seat of an open table to a bot of ``level``;
        when every seat is then taken, the match starts."""
        self._check_level(level)
        return await self.send(table_id, AddBot(player.id, seat, level), player.id)

    @staticmethod
    def _check_level(level: str) -> None:
        if level not in LEVELS:
            raise Invalid("bad_level", f"level must be one of {', '.join(LEVELS)}.")

    async def _start_full_table(self, authority: TableAuthority) -> None:
        """Start the match of a table created with every seat taken (the creator and bots)."""
        await authority.ask(StartFull())

    async def list_tables(self, status: str, player_id: str | None) -> list[dict[str, Any]]:
        """Public tables waiting for players (``open``) or under way (``live``)."""
        if status not in LISTABLE:
            raise Invalid("bad_status", "status must be 'open' or 'live'.")
        async with self.sessions() as session:
            # Live tables are listed to be watched: not those whose players keep spectators out.
            listed = await table_store.list_tables(session, status, watchable=status == "live")
            seats = await table_store.seats_of(session, [t.id for t in listed])
        return [self.table_json(stored_table(t, seats[t.id]), player_id) for t in listed]

    async def tables_of(self, player: Player) -> list[dict[str, Any]]:
        """The tables waiting or under way where ``player`` holds a seat (private and computer
        tables included), newest first, each with the player's ``seat`` and the seat whose move
        it is (``to_move``, None when nobody is to move). A live table where a computer player
        took over the player's seat is listed too, with ``taken_over`` true: the player may
        reclaim it there."""
        async with self.sessions() as session:
            rows = await table_store.tables_of(session, player.id, YOUR_TABLES)
            known = {row.id for row in rows}
            more = await table_store.taken_over_from(session, player.id, YOUR_TABLES)
            rows += [row for row in more if row.id not in known]
            rows.sort(key=lambda row: row.created_at, reverse=True)
            seats = await table_store.seats_of(session, [row.id for row in rows])
            listed = []
            for row in rows[:YOUR_TABLES]:
                table = stored_table(row, seats[row.id])
                held = [s for s, h in table.seats.items() if h.player_id == player.id]
                left = [s for s, h in table.abandoned.items() if h.player_id == player.id]
                if not held and not (left and table.status == "live"):
                    continue  # the store's match on the text was loose
                info = self.table_json(table, player.id)
                info["seat"] = (held or left)[0]
                info["taken_over"] = not held
                info["to_move"] = await self._to_move(session, table)
                listed.append(info)
        return listed

    async def _to_move(self, session: AsyncSession, table: StoredTable) -> int | None:
        """Whose move it is at a live table: from memory when the table is loaded, else from
        its log (read only: nothing is kept)."""
        if table.status != "live":
            return None
        loaded = self._authorities.get(table.table_id)
        if loaded is not None:
            state = loaded.state
        else:
            state = (await load_snapshot(session, table.table_id, keep=0)).state
        return None if state is None or state.match_over else state.to_move

    async def get_table(self, table_id: str, player_id: str | None) -> dict[str, Any]:
        """One table, from its store rows (its match is not loaded for this)."""
        return self.table_json(await self.stored(table_id), player_id)

    async def check_watcher(
        self,
        authority: TableAuthority | RemoteTable,
        player_id: str | None,
        invite_code: str | None,
    ) -> None:
        """Refuse to show the table to someone not seated at it, unless spectators may
        watch: ``Forbidden`` ``no_spectators`` when the players keep them out, and
        ``invite_required`` at a private table without its invite code. A player whose seat
        a computer player took over still holds its place: it may watch, and reclaim it."""
        if authority.seat_of(player_id) is not None or former_holder(authority, player_id):
            return
        if not authority.spectators:
            raise Forbidden("no_spectators", "The players at this table do not allow spectators.")
        if authority.visibility == "private" and not invite_matches(authority, invite_code):
            raise Forbidden(
                "invite_required", "This private table can be watched only with its invite link."
            )

    async def join(
        self,
        player: Player,
        table_id: str,
        invite_code: str | None,
        seat: int | None,
        contribution: str | None = None,
    ) -> dict[str, Any]:
        """Seat the player with its ``contribution`` to the match seed (``tables.fairness``);
        when every seat is then taken, the match starts."""
        fairness.check_contribution(contribution)
        command = Join(player.id, player.name, invite_code, seat, contribution)
        return await self.send(table_id, command, player.id)

    async def leave(self, player: Player, table_id: str) -> dict[str, Any]:
        """Give up a seat before the match starts; an emptied table is closed."""
        return await self.send(table_id, Leave(player.id), player.id)

    async def rematch(
        self, player: Player, table_id: str, contribution: str | None = None
    ) -> dict[str, Any]:
        """Offer a rematch once the last match is over, or accept the standing offer
        (``tables.rematch``): the new match, with the same seats, starts when every seat
        has accepted. ``contribution``: the player's part of its seed (``tables.fairness``),
        stored with the acceptance. Asking again after accepting changes nothing. The answer
        is the table with the offer's state (``rematch``)."""
        fairness.check_contribution(contribution)
        return await self.send(table_id, OfferRematch(player.id, contribution), player.id)

    async def decline_rematch(self, player: Player, table_id: str) -> dict[str, Any]:
        """Decline the standing rematch offer (the offerer withdraws it): it ends for
        everyone. ``no_rematch_offer`` when none stands."""
        return await self.send(table_id, DeclineRematch(player.id), player.id)

    async def abort(self, player: Player, table_id: str, leave: bool = False) -> dict[str, Any]:
        """Abort the live match while not every seat has acted in its first deal
        (``tables.aborts``): no winner, no rating change, the table open again; ``leave``:
        give up the seat too."""
        return await self.send(table_id, Abort(player.id, leave), player.id)

    async def player(self, player_id: str) -> Player:
        """A player by id (a table socket's, which greeted with its token)."""
        async with self.sessions() as session:
            player = await player_store.get_player(session, player_id)
        if player is None:
            raise NotFound("player_not_found", "There is no such player.")
        return player

    async def reclaim(self, player: Player, table_id: str) -> dict[str, Any]:
        """The player whose seat a computer player took over when its clock ran out takes
        it back, while the match is under way; its clock starts afresh if it is on move."""
        return await self.send(table_id, Reclaim(player.id, player.name), player.id)

    async def claim_victory(
        self, player: Player, table_id: str, seat: int, remedy: str = "win"
    ) -> dict[str, Any]:
        """A seated player acts against ``seat``, of the other side, which is ``gone``
        (``tables.presence``). ``remedy`` ``win``: that seat resigns, through the table's
        own path for actions (stored in the log, rated and replayed like any resignation);
        ``bot``: a computer player takes the seat until its player reclaims it. Either way
        the match's record lists that player as having abandoned it."""
        return await self.send(table_id, ClaimVictory(player.id, seat, remedy), player.id)


async def add_table_rows(
    session: AsyncSession,
    table_id: str,
    rules: Rules,
    seats: dict[int, str],
    *,
    creator: str,
    new_seed: Callable[[], str],
    commitment: str | None = None,
    visibility: str = "public",
    spectators: bool = True,
    history: str = "after_match",
    rated: bool = False,
    clock: str,
    on_timeout: str = "takeover",
    tournament: str | None = None,
) -> None:
    """The rows of a new table in ``session``: the table, its committed server seed (the one
    offered to ``creator`` as ``commitment``, or drawn now) and ``seats`` (seat -> player
    id, computers' included). Every way a table is opened writes it through here."""
    await table_store.add_table(
        session,
        id=table_id,
        invite_code=secrets.token_urlsafe(6),
        variant=rules.variant,
        options=rules.options(),
        visibility=visibility,
        spectators=spectators,
        history=history,
        seats=seat_count(rules),
        created_by=creator,
        rated=rated,
        clock=clock,
        on_timeout=on_timeout,
        tournament_id=tournament,
    )
    await fairness.seed_new_table(session, table_id, creator, commitment, new_seed)
    for seat, player_id in sorted(seats.items()):
        await table_store.take_seat(session, table_id, seat, player_id)


def former_holder(table: TableAuthority | RemoteTable, player_id: str | None) -> bool:
    """True when a computer player took over a seat of ``player_id`` at this table."""
    return player_id is not None and any(
        holder.player_id == player_id for holder in table.abandoned.values()
    )
