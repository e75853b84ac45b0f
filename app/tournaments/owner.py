"""The owner of an event: one worker at a time runs each event that is due or running.

The owner holds the event's lease (``owner``, ``lease_until``, ``lease_epoch`` in the
event's row, taken and fenced as a table's lease is). Every ``tick_seconds`` it keeps its
leases and, for each event it holds, takes one step:

1. **start** an upcoming event at its start time (a four-hand team without its second player
   is withdrawn; an event with fewer than two entrants finishes at once);
2. **record** the games whose table's match is over: the first finished match of the table
   decides (its winner's side; a loss by a clock that ran out or a victory claimed over an
   absent player is a forfeit). An event's table never aborts its match (``tables.aborts``);
   at a table opened before it knew its event, a match aborted because a clock ran out
   before the player's first move is a forfeit of the player who left, and a match aborted
   by a player is started again. The game is marked finished and its results stored in one
   transaction, fenced by the lease and conditional on the game still being unfinished: each
   result is stored once, whoever races it;
3. **seat** the pending games: an entrant with a member gone offline when paired forfeits at
   once; the others get a table with the players (and computer entrants) seated, opened
   for the event (no computer takes over a seat there, no abort, no rematch), its clock's
   consequence ``forfeit``; the table's row and the game's move to ``playing`` commit
   together;
4. **pair**: a Swiss round once every game of the round is over (its ``tournament_rounds``
   row makes the round paired once, even if two owners raced), arena waves of the free
   entrants until the end; the event finishes when the last round or the arena's end has
   come and no game is under way.

A killed owner's steps are done again by the next one: every step reads its state from the
database and each write is conditional, so nothing is done twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker

from app.players.online import Online
from app.store import Match, Tournament, TournamentEntrant, TournamentGame, TournamentResult
from app.store import tournaments as store
from app.store.db import AsyncSession
from app.tables.service import Claim, SeatedTable, TableService
from app.tournaments.arena import (
    ArenaOutcome,
    ArenaPlayer,
    ArenaRecord,
    pair_arena,
    record_arena_result,
)
from app.tournaments.forfeits import withdraws
from app.tournaments.swiss import Entrant, pair_swiss_round

log = logging.getLogger(__name__)

FORFEITS = ("forfeit", "claimed")
"""The consequences in a match's record of abandonments that make its loss a forfeit."""
STARTS_AT_ONCE = 8
"""How many of a wave's new tables start their matches at once (as a pool's)."""
SWISS_POINTS = {"win": 1.0, "forfeit_win": 1.0, "loss": 0.0, "forfeit_loss": 0.0}


@dataclass(frozen=True)
class OwnerSettings:
    """How often an owner steps its events and how long its leases last."""

    tick_seconds: float = 1.0
    lease_seconds: float = 10.0


class _Lost(Exception):
    """The event's lease moved to another worker: roll back and stop stepping it."""


class EventOwner:
    """Runs the events whose leases this worker holds."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        tables: TableService,
        online: Online,
        worker: str,
        settings: OwnerSettings | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.sessions = sessions
        self.tables = tables
        self.online = online
        self.worker = worker
        self.settings = settings or OwnerSettings()
        self.clock = clock
        self.held: dict[str, int] = {}  # event id -> lease epoch
        self._task: asyncio.Task[None] | None = None

    # -- leases ----------------------------------------------------------------------------------

    async def keep_leases(self) -> None:
        """Renew the leases of the events held, take those of due events nobody holds, and
        let go of events that are over."""
        now = self.clock()
        seconds = self.settings.lease_seconds
        async with self.sessions() as session:
            due = set(await store.due_events(session, now))
        for event_id in list(self.held):
            if event_id not in due:
                dropped = self.held.pop(event_id)
                async with self.sessions.begin() as session:
                    await store.release(session, event_id, self.worker, dropped)
        for event_id in sorted(due):
            async with self.sessions.begin() as session:
                epoch = self.held.get(event_id)
                if epoch is not None and await store.renew(
                    session, event_id, self.worker, epoch, now, seconds
                ):
                    continue
                self.held.pop(event_id, None)
                taken = await store.acquire(session, event_id, self.worker, now, seconds)
            if taken is not None:
                self.held[event_id] = taken
                log.info("tournament %s: lease taken (epoch %d)", event_id, taken)

    async def _fenced(self, session: AsyncSession, event_id: str) -> None:
        epoch = self.held.get(event_id)
        if epoch is None or not await store.fence(session, event_id, self.worker, epoch):
            self.held.pop(event_id, None)
            raise _Lost

    # -- one step ----------------------------------------------------------------------------------

    async def step(self, event_id: str) -> None:
        """One step of an event this worker holds (see the module's docstring)."""
        try:
            async with self.sessions() as session:
                event = await store.get_event(session, event_id)
            if event is None or event.status == "finished":
                return
            if event.status == "upcoming":
                if self.clock() >= event.starts_at:
                    await self.start(event)
                return
            await self.record_finished(event)
            await self.seat_pending(event)
            await self.pair_or_finish(event)
        except _Lost:
            log.info("tournament %s: lease lost", event_id)

    async def start(self, event: Tournament) -> None:
        """Start the event: incomplete teams withdrawn, too few entrants finish it."""
        async with self.sessions.begin() as session:
            await self._fenced(session, event.id)
            entrants = await store.entrants_of(session, event.id)
            incomplete = [
                e.id
                for e in entrants
                if event.seats == 4 and e.computer is None and len(e.members) < 2
            ]
            await store.withdraw(session, event.id, incomplete)
            active = [e for e in entrants if not e.withdrawn and e.id not in incomplete]
            if len(active) < 2:
                await store.set_event(
                    session, event.id, status="finished", finished_at=self.clock()
                )
                return
            values: dict[str, Any] = {"status": "running"}
            if event.format == "swiss" and event.rounds is not None:
                most = len(active) - 1 + len(active) % 2  # every round pairable without repeats
                values["rounds"] = min(event.rounds, most)
            await store.set_event(session, event.id, **values)
        log.info("tournament %s: started with %d entrants", event.id, len(active))

    # -- recording results -------------------------------------------------------------------------

    async def record_finished(self, event: Tournament) -> None:
        """Record every game under way whose table's match is over (the tables read in one
        go, the results stored in one transaction)."""
        async with self.sessions() as session:
            playing = await store.games_with(session, event.id, "playing")
            if not playing:
                return
            entrants = {e.id: e for e in await store.entrants_of(session, event.id)}
            ids = [g.table_id for g in playing if g.table_id is not None]
            tables = await store.tables_by_id(session, ids)
            matches = await store.matches_at_tables(session, ids)
            seated = await store.seated_at_tables(session, ids)
        decided = []
        for game in playing:
            assert game.table_id is not None
            at = game.table_id
            table = tables[at]
            outcomes = _outcome(game, entrants, matches.get(at, []), seated.get(at, {}))
            if outcomes is not None:
                decided.append((game, outcomes))
            elif table.status == "open" and len(seated.get(at, {})) == table.seats:
                await self.tables.start_if_full(at)  # aborted, or its start was lost
        await self.record_many(event, decided)

    async def record(
        self, event: Tournament, game: TournamentGame, outcomes: dict[str, str]
    ) -> bool:
        """Mark the game finished and store its results, once (False: done already)."""
        return await self.record_many(event, [(game, outcomes)]) == 1

    async def record_many(
        self, event: Tournament, decided: list[tuple[TournamentGame, dict[str, str]]]
    ) -> int:
        """Mark these games finished and store their results, in one transaction behind the
        lease's fence; a game another writer finished first is left out (each result is
        stored once). How many were recorded."""
        if not decided:
            return 0
        now = self.clock()
        recorded = []
        async with self.sessions.begin() as session:
            await self._fenced(session, event.id)
            earlier = await store.results_of(session, event.id)
            for game, outcomes in decided:
                if not await store.finish_game(session, game.id, game.status, now):
                    continue
                rows, out = [], []
                for entrant, outcome in outcomes.items():
                    mine = [r for r in earlier if r.entrant_id == entrant]
                    points, withdrawn = _score(event, mine, outcome)
                    opponent = next((o for o in outcomes if o != entrant), None)
                    rows.append(
                        TournamentResult(
                            tournament_id=event.id,
                            game_id=game.id,
                            entrant_id=entrant,
                            round=game.round,
                            opponent=opponent,
                            outcome=outcome,
                            points=points,
                        )
                    )
                    if withdrawn:
                        out.append(entrant)
                await store.add_results(session, rows)
                await store.withdraw(session, event.id, out)
                earlier.extend(rows)
                recorded.append((game.id, outcomes))
        for game_id, outcomes in recorded:
            log.info("tournament %s: game %d recorded %s", event.id, game_id, outcomes)
        return len(recorded)

    # -- seating -----------------------------------------------------------------------------------

    async def seat_pending(self, event: Tournament) -> None:
        """Open a table for every pending game, the wave's tables in one transaction (or
        forfeit those whose players are gone: one look-up of who is online)."""
        async with self.sessions() as session:
            pending = await store.games_with(session, event.id, "pending")
            if not pending:
                return
            entrants = {e.id: e for e in await store.entrants_of(session, event.id)}
        members = [m for g in pending for e in (g.a, g.b) if e for m in entrants[e].members]
        gone = await self.online.offline(members)
        decided, seating = [], []
        for game in pending:
            assert game.b is not None
            a, b = entrants[game.a], entrants[game.b]
            lost = [e.id for e in (a, b) if set(e.members) & gone]
            if lost:
                outcomes = dict.fromkeys(lost, "forfeit_loss")
                if len(lost) == 1:
                    outcomes[game.b if lost[0] == game.a else game.a] = "forfeit_win"
                decided.append((game, outcomes))
            else:
                seating.append(self._seated(event, game, a, b))
        await self.record_many(event, decided)
        opened: list[str] | None = None
        if seating:
            opened = await self.tables.open_seated_tables(
                seating,
                event.variant,
                rated=event.rated,
                clock=event.clock,
                options=event.options,
                on_timeout="forfeit",
                created_by=event.created_by,
                tournament=event.id,
            )
        starting = asyncio.Semaphore(STARTS_AT_ONCE)

        async def start(table_id: str) -> None:
            async with starting:
                await self.tables.start_if_full(table_id)

        await asyncio.gather(*(start(table_id) for table_id in opened or []))

    def _seated(
        self, event: Tournament, game: TournamentGame, a: TournamentEntrant, b: TournamentEntrant
    ) -> SeatedTable:
        """The game's table: side ``a`` in seats 0 (and 2), ``b`` in 1 (and 3)."""
        players: list[str] = []
        bots: dict[int, str] = {}
        for seat in range(event.seats):
            entrant = a if seat % 2 == 0 else b
            if entrant.computer is not None:
                bots[seat] = entrant.computer
            else:
                players.append(entrant.members[seat // 2])
        return SeatedTable(players, bots, self._claim(event, game))

    def _claim(self, event: Tournament, game: TournamentGame) -> Claim:
        async def claim(session: AsyncSession, table_id: str) -> bool:
            epoch = self.held.get(event.id)
            if epoch is None or not await store.fence(session, event.id, self.worker, epoch):
                self.held.pop(event.id, None)
                return False
            return await store.seat_game(session, game.id, table_id)

        return claim

    # -- pairing -----------------------------------------------------------------------------------

    async def pair_or_finish(self, event: Tournament) -> None:
        """Pair the next Swiss round or an arena wave, or finish the event."""
        async with self.sessions() as session:
            event = await store.get_event(session, event.id) or event
            games = await store.games_of(session, event.id)
            entrants = await store.entrants_of(session, event.id)
            results = await store.results_of(session, event.id)
        under_way = any(g.status != "finished" for g in games)
        if event.format == "swiss":
            if under_way:
                return
            active = [e for e in entrants if not e.withdrawn]
            if event.round >= (event.rounds or 0) or len(active) < 2:
                await self.finish(event)
                return
            await self.pair_round(event, entrants, games, results)
            return
        assert event.ends_at is not None
        if self.clock() >= event.ends_at:
            if not under_way:
                await self.finish(event)
            return
        await self.pair_wave(event, entrants, games, results)

    async def pair_round(
        self,
        event: Tournament,
        entrants: list[TournamentEntrant],
        games: list[TournamentGame],
        results: list[TournamentResult],
    ) -> None:
        """Pair Swiss round ``event.round + 1`` (once: its round row is written first)."""
        number = event.round + 1
        swiss = [_swiss_entrant(e, games, results) for e in entrants]
        paired = await asyncio.to_thread(pair_swiss_round, swiss)
        now = self.clock()
        try:
            async with self.sessions.begin() as session:
                await self._fenced(session, event.id)
                await store.add_round(session, event.id, number, now)
                await store.set_event(session, event.id, round=number)
                for a, b in paired.pairings:
                    await store.add_game(session, _game(event, number, a, b, now))
                if paired.bye is not None:
                    bye = await store.add_game(
                        session, _game(event, number, paired.bye, None, now, "finished")
                    )
                    await store.add_results(
                        session,
                        [
                            TournamentResult(
                                tournament_id=event.id,
                                game_id=bye.id,
                                entrant_id=paired.bye,
                                round=number,
                                opponent=None,
                                outcome="bye",
                                points=event.bye_points,
                            )
                        ],
                    )
        except IntegrityError:  # the round was paired already
            log.warning("tournament %s: round %d was paired already", event.id, number)
            return
        log.info("tournament %s: round %d paired %s", event.id, number, paired)

    async def pair_wave(
        self,
        event: Tournament,
        entrants: list[TournamentEntrant],
        games: list[TournamentGame],
        results: list[TournamentResult],
    ) -> None:
        """Pair the arena's free entrants (not withdrawn, in no game under way)."""
        busy = {x for g in games if g.status != "finished" for x in (g.a, g.b)}
        free = [e for e in entrants if not e.withdrawn and e.id not in busy]
        if len(free) < 2:
            return
        scores: dict[str, float] = {}
        last: dict[str, str | None] = {}
        for r in results:
            scores[r.entrant_id] = scores.get(r.entrant_id, 0.0) + r.points
            last[r.entrant_id] = r.opponent
        players = [
            ArenaPlayer(e.id, int(scores.get(e.id, 0)), e.rating, last.get(e.id)) for e in free
        ]
        pairs = await asyncio.to_thread(pair_arena, players)
        if not pairs:
            return
        number = event.round + 1
        now = self.clock()
        async with self.sessions.begin() as session:
            await self._fenced(session, event.id)
            await store.set_event(session, event.id, round=number)
            for a, b in pairs:
                await store.add_game(session, _game(event, number, a, b, now))

    async def finish(self, event: Tournament) -> None:
        """The event is over."""
        async with self.sessions.begin() as session:
            await self._fenced(session, event.id)
            await store.set_event(session, event.id, status="finished", finished_at=self.clock())
        log.info("tournament %s: finished", event.id)

    # -- running -----------------------------------------------------------------------------------

    async def run(self) -> None:
        """Keep the leases and step the events held, every tick, until cancelled."""
        while True:
            await asyncio.sleep(self.settings.tick_seconds)
            try:
                await self.keep_leases()
                for event_id in list(self.held):
                    await self.step(event_id)
            except asyncio.CancelledError:
                raise
            except Exception:  # the database is away: the next tick tries again
                log.exception("tournament step failed")

    def start_running(self) -> None:
        """Run the owner in the background."""
        self._task = asyncio.get_running_loop().create_task(self.run())

    async def close(self) -> None:
        """Stop and give the leases up (the events go on under another worker)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        held, self.held = self.held, {}
        with contextlib.suppress(Exception):
            async with self.sessions.begin() as session:
                for event_id, epoch in held.items():
                    await store.release(session, event_id, self.worker, epoch)


def _outcome(
    game: TournamentGame,
    entrants: dict[str, TournamentEntrant],
    matches: list[Match],
    seated: dict[int, str],
) -> dict[str, str] | None:
    """The outcome for each entrant of a game from its table's matches and seats, or None
    while it goes on."""
    assert game.b is not None
    sides = {0: game.a, 1: game.b}
    finished = next((m for m in matches if m.status == "finished"), None)
    if finished is not None and finished.winner is not None:
        winner = sides[finished.winner % 2]
        loser = game.b if winner == game.a else game.a
        forfeited = any(
            entry.get("consequence") in FORFEITS and sides[int(entry.get("seat", 0)) % 2] == loser
            for entry in finished.abandoned or []
        )
        if forfeited:
            return {winner: "forfeit_win", loser: "forfeit_loss"}
        return {winner: "win", loser: "loss"}
    if matches and matches[-1].status == "live":
        return None
    gone = {
        side: entrant
        for side, entrant in sides.items()
        if any(m not in seated.values() for m in entrants[entrant].members)
    }
    if gone:  # a clock ran out before its player's first move: that player left
        if len(gone) == 2:
            return {game.a: "forfeit_loss", game.b: "forfeit_loss"}
        (side,) = gone
        return {sides[side]: "forfeit_loss", sides[1 - side]: "forfeit_win"}
    return None


def _score(event: Tournament, mine: list[TournamentResult], outcome: str) -> tuple[float, bool]:
    """The points an entrant scores with ``outcome`` after its results ``mine`` (in order),
    and whether it is withdrawn by forfeits in a row."""
    if event.format == "arena":
        record = ArenaRecord()
        for r in mine:
            record, _ = record_arena_result(record, ArenaOutcome(r.outcome), streak=event.streak)
        record, points = record_arena_result(record, ArenaOutcome(outcome), streak=event.streak)
        return float(points), record.withdrawn
    in_a_row = 0
    for got in [*[r.outcome for r in mine if r.outcome != "bye"], outcome]:
        in_a_row = in_a_row + 1 if got == "forfeit_loss" else 0
    return SWISS_POINTS[outcome], withdraws(in_a_row)


def _swiss_entrant(
    entrant: TournamentEntrant, games: list[TournamentGame], results: list[TournamentResult]
) -> Entrant:
    mine = [r for r in results if r.entrant_id == entrant.id]
    met = frozenset(
        x for g in games if entrant.id in (g.a, g.b) for x in (g.a, g.b) if x and x != entrant.id
    )
    return Entrant(
        id=entrant.id,
        score=sum(r.points for r in mine),
        rating=entrant.rating,
        met=met,
        byes=sum(1 for r in mine if r.outcome == "bye"),
        withdrawn=entrant.withdrawn,
        computer=entrant.computer is not None,
        members=tuple(entrant.members),
    )


def _game(
    event: Tournament, number: int, a: str, b: str | None, now: float, status: str = "pending"
) -> TournamentGame:
    return TournamentGame(
        tournament_id=event.id,
        round=number,
        a=a,
        b=b,
        status=status,
        paired_at=now,
        finished_at=now if status == "finished" else None,
    )
