"""The tournament service: events are created, joined and withdrawn from, and shown with
their standings and pairings (any worker); ``owner.EventOwner`` runs them.

Everything lives in the database (``app/store/tournaments.py``), so any worker takes a join
or a withdrawal and a worker that dies loses nothing. Standings are computed from the stored
results with the pure cores (``standings.standings`` for Swiss, the arena's points as stored
with each result); see docs/tournaments.md.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker

from app.bots import LEVELS
from app.common.errors import Conflict, Forbidden, Invalid, NotFound
from app.common.rules import rules_for_table
from app.players import names
from app.players.families import family_of
from app.store import Player, Tournament, TournamentEntrant
from app.store import players as player_store
from app.store import ratings as rating_store
from app.store import tournaments as store
from app.store.db import AsyncSession
from app.tournaments.standings import Bye, Game, standings

FORMATS = ("arena", "swiss")
ACCESS = ("accounts", "guests")
CLOCKS = ("move", "correspondence")
STATUSES = ("upcoming", "running", "finished")
START_RATING = 1500.0
"""The rating a guest, a computer and an account not yet rated in the family are paired by."""
COMPUTER_RATING = {"easy": 1100.0, "medium": 1400.0, "hard": 1700.0, "expert": 2000.0}
MAX_ROUNDS = 15
MIN_DURATION, MAX_DURATION = 10.0, 24 * 3600.0
MAX_START = 30 * 24 * 3600.0
NAME_LENGTH = 60


@dataclass(frozen=True)
class EventForm:
    """What a new event's creator chose (``duration`` for an arena, ``rounds`` for Swiss)."""

    name: str
    format: str
    variant: str
    options: dict[str, Any]
    clock: str = "move"
    rated: bool = False
    starts_in: float = 0.0
    duration: float | None = None
    rounds: int | None = None
    access: str = "accounts"
    computers: bool = False
    streak: bool = True
    bye_points: float = 1.0


class TournamentService:
    """Creating, listing, joining, withdrawing and showing events."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.sessions = sessions
        self.clock = clock

    # -- the list and one event ----------------------------------------------------------------

    async def events(self) -> dict[str, list[dict[str, Any]]]:
        """The upcoming, running and finished events (the latest of each)."""
        async with self.sessions() as session:
            found = {status: await store.events_with(session, status) for status in STATUSES}
            ids = [e.id for rows in found.values() for e in rows]
            counts = await store.entrant_count(session, ids)
        return {
            status: [summary(e, counts.get(e.id, 0)) for e in rows]
            for status, rows in found.items()
        }

    async def event(self, event_id: str, player: Player | None = None) -> dict[str, Any]:
        """The event with its entrants' standings, its pairings and, for ``player``, its
        entrant and its game under way."""
        async with self.sessions() as session:
            event = await _event(session, event_id)
            entrants = await store.entrants_of(session, event_id)
            games = await store.games_of(session, event_id)
            results = await store.results_of(session, event_id)
            mine = await store.entrant_of(session, event_id, player.id) if player else None
        active = [e for e in entrants if not e.withdrawn]
        body = summary(event, len(active))
        body["standings"] = standing_rows(event, entrants, results)
        by_game: dict[int, list[Any]] = {}
        for r in results:
            by_game.setdefault(r.game_id, []).append(r)
        body["pairings"] = [game_json(g, by_game.get(g.id, [])) for g in games]
        body["you"] = None
        if mine is not None:
            playing = next(
                (
                    g.table_id
                    for g in reversed(games)
                    if g.status == "playing" and mine.id in (g.a, g.b)
                ),
                None,
            )
            body["you"] = {"entrant": mine.id, "withdrawn": mine.withdrawn, "table": playing}
        body["teams"] = [
            {"id": e.id, "name": e.name, "members": len(e.members)}
            for e in active
            if event.seats == 4 and e.computer is None and len(e.members) < 2
        ]
        return body

    async def results_lines(self, event_id: str) -> AsyncIterator[str]:
        """Every result of the event, one JSON object per line, in the order stored."""
        async with self.sessions() as session:
            await _event(session, event_id)
            results = await store.results_of(session, event_id)
        for r in results:
            yield (
                json.dumps(
                    {
                        "game": r.game_id,
                        "round": r.round,
                        "entrant": r.entrant_id,
                        "opponent": r.opponent,
                        "outcome": r.outcome,
                        "points": r.points,
                    }
                )
                + "\n"
            )

    # -- creating --------------------------------------------------------------------------------

    async def create(self, player: Player, form: EventForm) -> dict[str, Any]:
        """A new event by an account; ``accounts_only``, ``bad_tournament``,
        ``tournament_seats``, ``unknown_variant``, ``bad_options``, ``bad_clock``."""
        if player.handle is None:
            raise Forbidden("accounts_only", "Only an account can create a tournament.")
        event = self._new_event(player, form)
        async with self.sessions.begin() as session:
            await store.add_event(session, event)
        return await self.event(event.id, player)

    def _new_event(self, player: Player, form: EventForm) -> Tournament:
        name = " ".join(form.name.split())
        if not name or len(name) > NAME_LENGTH:
            raise Invalid("bad_tournament", f"name: 1 to {NAME_LENGTH} characters.")
        if form.format not in FORMATS or form.access not in ACCESS:
            raise Invalid("bad_tournament", "format: arena or swiss; access: accounts or guests.")
        rules = rules_for_table(form.variant, form.options)
        if not (rules.players == 2 or (rules.players == 4 and rules.partners)):
            raise Invalid(
                "tournament_seats",
                "A tournament plays two-player games, or four-hand games in partnerships.",
            )
        if form.clock not in CLOCKS:
            raise Invalid("bad_clock", f"clock must be one of {', '.join(CLOCKS)}.")
        if not 0 <= form.starts_in <= MAX_START:
            raise Invalid("bad_tournament", "starts_in: 0 to 30 days, in seconds.")
        if form.bye_points not in (0.0, 0.5, 1.0):
            raise Invalid("bad_tournament", "bye_points: 0, 0.5 or 1.")
        now = self.clock()
        starts_at = now + form.starts_in
        ends_at, rounds = None, None
        if form.format == "arena":
            if form.duration is None or not MIN_DURATION <= form.duration <= MAX_DURATION:
                raise Invalid("bad_tournament", "An arena needs a duration of 10 s to 24 h.")
            ends_at = starts_at + form.duration
        else:
            if form.rounds is None or not 1 <= form.rounds <= MAX_ROUNDS:
                raise Invalid("bad_tournament", f"A Swiss event needs 1 to {MAX_ROUNDS} rounds.")
            rounds = form.rounds
        return Tournament(
            id=secrets.token_hex(16),
            name=name,
            format=form.format,
            variant=rules.variant,
            options=rules.options(),
            seats=rules.players,
            clock=form.clock,
            rated=form.rated,
            access=form.access,
            computers=form.computers,
            streak=form.streak,
            bye_points=form.bye_points,
            starts_at=starts_at,
            ends_at=ends_at,
            rounds=rounds,
            round=0,
            status="upcoming",
            created_by=player.id,
            created_at=now,
        )

    # -- entering and leaving ------------------------------------------------------------------

    async def join(
        self,
        player: Player,
        event_id: str,
        team: str | None = None,
        partner: str | None = None,
    ) -> dict[str, Any]:
        """Enter ``player``: alone in a two-player event; in a four-hand event, as the first
        member of a new team, or as the second of ``team``, or of the team ``partner`` (an
        account's handle) started. ``registration_closed``, ``accounts_only``,
        ``already_registered``, ``team_not_found``, ``team_full``."""
        async with self.sessions.begin() as session:
            event = await _event(session, event_id)
            self._check_open(event)
            if event.access == "accounts" and player.handle is None:
                raise Forbidden("accounts_only", "Only accounts may join this tournament.")
            if await store.entrant_of(session, event_id, player.id) is not None:
                raise Conflict("already_registered", "You are already in this tournament.")
            try:
                if partner is not None and event.seats == 4:
                    team = await _team_of(session, event, partner)
                if team is not None and event.seats == 4:
                    await self._join_team(session, event, player, team)
                else:
                    rating = await _rating(session, event, player)
                    entrant = _entrant(event, player.name, [player.id], None, rating, self.clock())
                    await store.add_entrant(session, entrant)
            except IntegrityError:  # the same player joining twice at once
                raise Conflict(
                    "already_registered", "You are already in this tournament."
                ) from None
        return await self.event(event_id, player)

    async def _join_team(
        self, session: AsyncSession, event: Tournament, player: Player, team: str
    ) -> None:
        entrant = await store.get_entrant(session, event.id, team)
        if entrant is None or entrant.computer is not None or entrant.withdrawn:
            raise NotFound("team_not_found", "There is no such team in this tournament.")
        if len(entrant.members) >= 2:
            raise Conflict("team_full", "That team has its two players already.")
        entrant.name = f"{entrant.name} & {player.name}"[:NAME_LENGTH]
        entrant.rating = (entrant.rating + await _rating(session, event, player)) / 2
        await store.add_member(session, entrant, player.id)

    async def add_computer(self, player: Player, event_id: str, level: str) -> dict[str, Any]:
        """The creator adds a computer entrant of ``level`` (a team of two in a four-hand
        event); ``not_organizer``, ``computers_not_allowed``, ``registration_closed``,
        ``bad_level``."""
        if level not in LEVELS:
            raise Invalid("bad_level", f"level must be one of {', '.join(LEVELS)}.")
        async with self.sessions.begin() as session:
            event = await _event(session, event_id)
            if event.created_by != player.id:
                raise Forbidden("not_organizer", "Only the tournament's creator may do that.")
            if not event.computers:
                raise Forbidden(
                    "computers_not_allowed", "This tournament has no computer entrants."
                )
            self._check_open(event)
            rating = COMPUTER_RATING.get(level, START_RATING)
            name = f"Computer ({level})"
            await store.add_entrant(session, _entrant(event, name, [], level, rating, self.clock()))
        return await self.event(event_id, player)

    async def withdraw(self, player: Player, event_id: str) -> dict[str, Any]:
        """Take ``player``'s entrant out: before the start it leaves the event (a team with
        it); once it runs (an arena) it is no longer paired and its results stay.
        ``not_registered``, ``registration_closed``."""
        async with self.sessions.begin() as session:
            event = await _event(session, event_id)
            entrant = await store.entrant_of(session, event_id, player.id)
            if entrant is None or entrant.withdrawn:
                raise NotFound("not_registered", "You are not in this tournament.")
            self._check_open(event)
            if event.status == "upcoming":
                await store.remove_entrant(session, entrant)
            else:
                await store.withdraw(session, event_id, [entrant.id])
        return await self.event(event_id, player)

    def _check_open(self, event: Tournament) -> None:
        """Entries change until the start, and in an arena until its end."""
        now = self.clock()
        if event.status == "upcoming":
            return
        arena = event.status == "running" and event.format == "arena"
        if arena and event.ends_at is not None and now < event.ends_at:
            return
        raise Conflict("registration_closed", "This tournament no longer takes entries or leaves.")


# -- plain helpers the owner shares ----------------------------------------------------------


async def _event(session: AsyncSession, event_id: str) -> Tournament:
    event = await store.get_event(session, event_id)
    if event is None:
        raise NotFound("tournament_not_found", "There is no such tournament.")
    return event


async def _team_of(session: AsyncSession, event: Tournament, handle: str) -> str:
    """The team the account ``handle`` plays in at ``event``; ``team_not_found``."""
    found = await player_store.player_by_handle_key(session, names.skeleton(handle))
    entrant = await store.entrant_of(session, event.id, found.id) if found else None
    if entrant is None:
        raise NotFound("team_not_found", "There is no such team in this tournament.")
    return entrant.id


async def _rating(session: AsyncSession, event: Tournament, player: Player) -> float:
    if player.handle is None:
        return START_RATING
    family = family_of(event.variant, event.seats)
    rated = await rating_store.ratings_of(session, player.id)
    return next((r.mu for r in rated if r.family == family), START_RATING)


def _entrant(
    event: Tournament,
    name: str,
    members: list[str],
    computer: str | None,
    rating: float,
    now: float,
) -> TournamentEntrant:
    return TournamentEntrant(
        tournament_id=event.id,
        id=secrets.token_hex(8),
        name=name[:NAME_LENGTH],
        members=members,
        computer=computer,
        rating=rating,
        joined_at=now,
        withdrawn=False,
    )


def summary(event: Tournament, entrants: int) -> dict[str, Any]:
    """An event as the list shows it."""
    return {
        "id": event.id,
        "name": event.name,
        "format": event.format,
        "variant": event.variant,
        "options": event.options,
        "seats": event.seats,
        "clock": event.clock,
        "rated": event.rated,
        "access": event.access,
        "computers": event.computers,
        "streak": event.streak,
        "bye_points": event.bye_points,
        "starts_at": event.starts_at,
        "ends_at": event.ends_at,
        "rounds": event.rounds,
        "round": event.round,
        "status": event.status,
        "created_by": event.created_by,
        "entrants": entrants,
    }


def game_json(game: Any, results: list[Any]) -> dict[str, Any]:
    """A pairing with its result once finished (``results``: the event's, or the game's)."""
    points = {r.entrant_id: (r.outcome, r.points) for r in results if r.game_id == game.id}
    return {
        "id": game.id,
        "round": game.round,
        "a": game.a,
        "b": game.b,
        "table": game.table_id,
        "status": game.status,
        "paired_at": game.paired_at,
        "finished_at": game.finished_at,
        "result": {e: {"outcome": o, "points": p} for e, (o, p) in points.items()} or None,
    }


def swiss_results(results: list[Any]) -> list[Game | Bye]:
    """The stored results as the Swiss standings take them (one ``Game`` per game)."""
    by_game: dict[int, list[Any]] = {}
    for r in results:
        by_game.setdefault(r.game_id, []).append(r)
    out: list[Game | Bye] = []
    for rows in by_game.values():
        first = rows[0]
        if first.outcome == "bye":
            out.append(Bye(first.round, first.entrant_id, first.points))
            continue
        if len(rows) < 2:
            continue
        a, b = rows[0], rows[1]
        forfeit = any(r.outcome.startswith("forfeit") for r in rows)
        out.append(Game(a.round, a.entrant_id, b.entrant_id, a.points, b.points, forfeit))
    return out


def standing_rows(
    event: Tournament, entrants: list[TournamentEntrant], results: list[Any]
) -> list[dict[str, Any]]:
    """The standings: Swiss with Buchholz and Sonneborn-Berger, an arena by points (then
    wins); computer entrants marked."""
    names = {e.id: e for e in entrants}
    computers = [e.id for e in entrants if e.computer is not None]
    if event.format == "swiss":
        rows = standings(
            [e.id for e in entrants],
            swiss_results(results),
            rounds=event.rounds or 1,
            computers=computers,
        )
        return [
            {
                "rank": s.rank,
                "entrant": s.id,
                "name": names[s.id].name,
                "points": s.points,
                "buchholz": s.buchholz,
                "sonneborn_berger": s.sonneborn_berger,
                "games": s.games,
                "wins": s.wins,
                "computer": s.computer,
                "withdrawn": names[s.id].withdrawn,
            }
            for s in rows
        ]
    points: dict[str, float] = {e.id: 0.0 for e in entrants}
    wins: dict[str, int] = {e.id: 0 for e in entrants}
    games: dict[str, int] = {e.id: 0 for e in entrants}
    for r in results:
        if r.entrant_id in points:
            points[r.entrant_id] += r.points
            games[r.entrant_id] += 1
            wins[r.entrant_id] += r.outcome in ("win", "forfeit_win")
    order = sorted(points, key=lambda i: (-points[i], -wins[i], i))
    return [
        {
            "rank": n,
            "entrant": i,
            "name": names[i].name,
            "points": points[i],
            "games": games[i],
            "wins": wins[i],
            "computer": names[i].computer is not None,
            "withdrawn": names[i].withdrawn,
        }
        for n, i in enumerate(order, start=1)
    ]
