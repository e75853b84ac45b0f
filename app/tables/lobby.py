"""The lobby's rules: how a table's lobby commands are decided.

``TableLobby.decide`` reads the table (its actor's memory, which is the owner's truth) and
returns a ``Change``: the rows to write, the new seats, status and rematch offer, and the seat
that changes hands or resigns. It writes nothing itself, neither the store nor the actor's
fields: the actor commits the change under its fence, then applies it and tells every viewer
(``TableAuthority.process``). A refusal is a ``ServiceError`` with its code, and changes
nothing.
"""

from __future__ import annotations

import hmac
import logging
from collections.abc import Callable
from typing import Protocol

from sqlalchemy.ext.asyncio import async_sessionmaker

from app.common.errors import Conflict, Forbidden, Invalid
from app.common.rules import stored_rules
from app.engine import new_match
from app.players.bot_players import bot_level, bot_name, bot_player_id, ensure_bot_players
from app.store import matches as match_store
from app.store import players as player_store
from app.store import tables as table_store
from app.store.db import AsyncSession
from app.tables import aborts, fairness
from app.tables.alarms import Alarm
from app.tables.authority import Change, Started, TableAuthority
from app.tables.clocks import start_clock
from app.tables.commands import (
    Abort,
    AddBot,
    ClaimVictory,
    Command,
    DeclineRematch,
    Join,
    Leave,
    OfferRematch,
    Reclaim,
    Rename,
    StartFull,
    unknown,
)
from app.tables.presenter import SeatHolder
from app.tables.rematch import DECLINED, Rematches, RematchOffer, new_offer

log = logging.getLogger(__name__)


class TableLobby:
    """Decides the lobby's commands for every table of this worker."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        new_seed: Callable[[], str],
        rematches: Rematches[TableAuthority],
    ) -> None:
        self.sessions = sessions
        self.new_seed = new_seed
        self.rematches = rematches

    async def decide(self, table: TableAuthority, command: Command) -> Change:
        """The change ``command`` makes at ``table``, or its refusal."""
        match command:
            case Join():
                return self._join(table, command)
            case Leave(player_id=player_id):
                return self._leave(table, player_id)
            case AddBot():
                return await self._add_bot(table, command)
            case StartFull():
                return self._start(table)
            case OfferRematch():
                return self._offer(table, command)
            case DeclineRematch(player_id=player_id):
                return _decline(table, player_id)
            case Reclaim():
                return _reclaim(table, command)
            case ClaimVictory():
                return _claim(table, command)
            case Abort():
                return _abort(table, command)
            case Rename(player_id=player_id, name=name):
                return _rename(table, player_id, name)
            case _:
                raise unknown(command.kind)

    def arm_offer(self, table: TableAuthority, offer: RematchOffer) -> Alarm:
        """The alarm that queues ``offer``'s expiry."""
        return self.rematches.arm(table, offer)

    # -- seats -------------------------------------------------------------------------------

    def _join(self, table: TableAuthority, command: Join) -> Change:
        seat = _seat_to_take(table, command)
        holder = SeatHolder(command.player_id, command.name)
        return self._seat(table, seat, holder, command.contribution)

    async def _add_bot(self, table: TableAuthority, command: AddBot) -> Change:
        seat = command.seat
        if seat is None:
            free = [s for s in range(table.seat_count) if s not in table.seats]
            seat = free[0] if free else -1
        if not 0 <= seat < table.seat_count:
            raise Invalid("bad_seat", f"seat must be between 0 and {table.seat_count - 1}.")
        if table.seat_of(command.player_id) is None:
            raise Forbidden("not_seated", "Only a seated player can add a bot.")
        if table.status != "open":
            raise Conflict("table_not_open", "This table is not waiting for players.")
        if seat in table.seats:
            raise Conflict("seat_taken", "That seat is taken.")
        await ensure_bot_players(self.sessions, {seat: command.level})  # once; idempotent
        bot = SeatHolder(bot_player_id(command.level, seat), bot_name(command.level))
        return self._seat(table, seat, bot, None)

    def _seat(
        self, table: TableAuthority, seat: int, holder: SeatHolder, contribution: str | None
    ) -> Change:
        """``holder`` in ``seat`` with its contribution; when every seat is then taken, the
        new match is stored in the same transaction."""
        seats = {**table.seats, seat: holder}
        players = {s: h.player_id for s, h in seats.items()}

        async def write(session: AsyncSession) -> Started | None:
            await table_store.take_seat(session, table.table_id, seat, holder.player_id)
            await fairness.contribute(session, table.table_id, seat, contribution)
            if len(players) < table.seat_count:
                return None
            return await self._store_new_match(session, table, players)

        return Change(write=write, seats=seats)

    def _leave(self, table: TableAuthority, player_id: str) -> Change:
        seat = table.seat_of(player_id)
        if seat is None:
            raise Conflict("not_seated", "You have no seat at this table.")
        if table.status != "open":
            raise Conflict("match_started", "The match has started; resign instead.")
        seats = {s: h for s, h in table.seats.items() if s != seat}

        async def write(session: AsyncSession) -> None:
            await table_store.free_seat(session, table.table_id, player_id)
            if not seats:
                await table_store.set_status(session, table.table_id, "finished")

        return Change(write=write, seats=seats, status=None if seats else "finished")

    def _start(self, table: TableAuthority) -> Change:
        if table.status != "open":
            return Change()
        players = {s: h.player_id for s, h in table.seats.items()}

        async def write(session: AsyncSession) -> Started:
            return await self._store_new_match(session, table, players)

        return Change(write=write)

    # -- rematch -----------------------------------------------------------------------------

    def _offer(self, table: TableAuthority, command: OfferRematch) -> Change:
        now = table.clock()
        seat = _rematch_seat(table, command.player_id)
        standing = table.rematch
        if standing is not None and seat in standing.accepted:
            return Change(reply=standing.state(now))
        if standing is None:
            computers = [s for s, h in table.seats.items() if bot_level(h.player_id)]
            offer = new_offer(seat, table.seat_count, computers, now + self.rematches.seconds)
        else:
            offer = standing.accept(seat)
        players = {s: h.player_id for s, h in table.seats.items()}

        async def write(session: AsyncSession) -> Started | None:
            await fairness.contribute(session, table.table_id, seat, command.contribution)
            if not offer.complete:
                return None
            return await self._store_new_match(session, table, players)

        return Change(write=write, offer=offer)

    # -- a new match -------------------------------------------------------------------------

    async def _store_new_match(
        self, session: AsyncSession, table: TableAuthority, players: dict[int, str]
    ) -> Started:
        """Store a new live match for the seated players (same transaction as the change);
        it is rated when the table is and every player is an account. Its seed is made of
        the committed server seed and the contributions; the next match's seed is drawn at
        once."""
        rules = stored_rules(table.variant, table.options)
        rated = table.rated and await player_store.all_accounts(session, players.values())
        bots = {seat for seat, player_id in players.items() if bot_level(player_id)}
        parts = await fairness.seed_new_match(
            session, table.table_id, table.seat_count, bots, self.new_seed
        )
        state = new_match(rules, parts.seed, None)
        match = await match_store.add_match(
            session,
            table_id=table.table_id,
            variant=table.variant,
            rules=table.options,
            seed=parts.seed,
            dealer=None,
            base_version=table.version,
            players=sorted(players.items()),
            rated=rated,
        )
        await fairness.record_match_parts(session, match.id, parts)
        await table_store.set_status(session, table.table_id, "live", match_id=match.id)
        next_commitment = await fairness.draw_next_seed(session, table.table_id, self.new_seed)
        turn_clock = None
        rules_of_clock = table.clock_rules
        if rules_of_clock is not None:
            humans = {seat for seat, player_id in players.items() if not bot_level(player_id)}
            turn_clock = start_clock(
                rules_of_clock, state, table.version, table.timekeeper.now(), humans
            )
            await table_store.set_clock(
                session,
                table.table_id,
                turn_clock.to_json(),
                turn_clock.deadline(rules_of_clock),
            )
        return match.id, state, next_commitment, turn_clock


def _seat_to_take(table: TableAuthority, command: Join) -> int:
    """The seat ``command`` takes, or its refusal."""
    if table.status != "open":
        raise Conflict("table_not_open", "This table is not waiting for players.")
    if table.seat_of(command.player_id) is not None:
        raise Conflict("already_seated", "You already have a seat at this table.")
    if table.visibility == "private" and not invite_matches(table, command.invite_code):
        raise Forbidden("bad_invite_code", "This private table needs its invite code.")
    free = [s for s in range(table.seat_count) if s not in table.seats]
    seat = command.seat
    if seat is None:
        if not free:
            raise Conflict("table_full", "Every seat is taken.")
        return free[0]
    if not 0 <= seat < table.seat_count:
        raise Invalid("bad_seat", f"seat must be between 0 and {table.seat_count - 1}.")
    if seat not in free:
        raise Conflict("seat_taken", "That seat is taken.")
    return seat


def _rematch_seat(table: TableAuthority, player_id: str) -> int:
    """The seat of a player who may ask for a rematch now."""
    seat = table.seat_of(player_id)
    if seat is None:
        raise Forbidden("not_seated", "Only a seated player can ask for a rematch.")
    if table.tournament is not None:
        raise aborts.no_rematch_in_event()
    if table.status == "live":
        raise Conflict("match_live", "The match is still under way.")
    # An open table with every seat taken is back to waiting after an aborted match.
    waiting = table.status == "open"
    if len(table.seats) != table.seat_count or (table.match_id is None and not waiting):
        raise Conflict("no_match_to_replay", "This table has not finished a match.")
    return seat


def _decline(table: TableAuthority, player_id: str) -> Change:
    seat = table.seat_of(player_id)
    if seat is None:
        raise Forbidden("not_seated", "Only a seated player can decline a rematch.")
    if table.rematch is None:
        raise Conflict("no_rematch_offer", "No rematch offer stands at this table.")
    return Change(end_offer=(DECLINED, seat))


def _reclaim(table: TableAuthority, command: Reclaim) -> Change:
    seat = next(
        (s for s, left in table.abandoned.items() if left.player_id == command.player_id), None
    )
    if seat is None:
        raise Conflict("nothing_to_reclaim", "No seat of yours was taken over here.")
    if table.status != "live" or table.state is None:
        raise Conflict("match_not_live", "The match is over; the seat cannot be reclaimed.")
    holder = SeatHolder(command.player_id, command.name)
    abandoned = {s: left for s, left in table.abandoned.items() if s != seat}
    return Change(seat_change=(seat, holder, abandoned, None))


def _claim(table: TableAuthority, command: ClaimVictory) -> Change:
    if command.remedy == "bot" and table.tournament is not None:  # whoever asks, whenever
        raise aborts.no_computer_in_event()
    holder = gone_seat(table, command.player_id, command.seat)
    log.info(
        "a seat was claimed against a gone player (%s)",
        command.remedy,
        extra={"table_id": table.table_id, "version": table.version, "seat": command.seat},
    )
    if command.remedy == "bot":
        return Change(take_over=(command.seat, holder, "handed_over"))
    return Change(resign=(command.seat, holder, "claimed"))


def _abort(table: TableAuthority, command: Abort) -> Change:
    """A seated person's abort, while not every seat has acted in the first deal."""
    seat = table.seat_of(command.player_id)
    if seat is None:
        raise aborts.not_seated()
    if table.state is None or table.status != "live" or table.state.match_over:
        raise aborts.no_match()
    if table.tournament is not None:
        raise aborts.no_abort_in_event()
    if not table.abortable:
        raise aborts.too_late()
    return Change(abort=(seat, aborts.PLAYER, command.leave))


def _rename(table: TableAuthority, player_id: str, name: str) -> Change:
    seat = table.seat_of(player_id)
    if seat is None:
        return Change()
    return Change(seats={**table.seats, seat: SeatHolder(player_id, name)})


def gone_seat(table: TableAuthority, player_id: str, seat: int) -> SeatHolder:
    """Who holds ``seat``, which ``player_id`` may claim against: refused with
    ``not_seated``, ``no_match``, ``bad_seat`` (not a seat of the other side) or
    ``player_not_gone``."""
    claimant = table.seat_of(player_id)
    if claimant is None:
        raise Forbidden("not_seated", "Only a seated player can claim a match.")
    state = table.state
    if state is None or table.status != "live" or state.match_over:
        raise Conflict("no_match", "No match is under way at this table.")
    holder = table.seats.get(seat)
    if (
        holder is None
        or not 0 <= seat < state.seats
        or state.side_of(seat) == state.side_of(claimant)
    ):
        raise Invalid("bad_seat", "You can claim only against a seat of the other side.")
    if table.presence.state_of(seat) != "gone":
        raise Conflict(
            "player_not_gone",
            "That player is not gone: a claim is possible only once the grace period is over.",
        )
    return holder


class Invited(Protocol):
    """A table as far as its invite code goes."""

    @property
    def invite_code(self) -> str: ...


def invite_matches(table: Invited, invite_code: str | None) -> bool:
    """True when ``invite_code`` is the table's (compared in constant time)."""
    return hmac.compare_digest((invite_code or "").encode(), table.invite_code.encode())
