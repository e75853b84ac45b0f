"""Match history: finished and running matches as public records.

A running match shows its players, the results of finished deals and the commitment to its
server seed, never its seeds or contributions; its full log (seeds, contributions and every
action) is public only once the match is over (RULES.md 4 and 7, docs/fairness.md).

A private table's matches are not shown to those who did not play them while they run, nor
ever if its players chose ``history: never`` (``app.store.matches.visible_to``); to them such a
match does not exist (404 ``match_not_found``).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import AsyncIterator
from typing import Any

import orjson
from sqlalchemy.ext.asyncio import async_sessionmaker

from app.services.errors import Conflict, Invalid, NotFound
from app.services.fairness import commitment_of
from app.services.replay import replay_steps
from app.services.rules import stored_rules
from app.store import Match
from app.store import analyses as analysis_store
from app.store import matches as match_store
from app.store.db import AsyncSession
from app.store.matches import MatchFilter
from app.store.players import SeatRow


def match_json(match: Match, seats: list[SeatRow], analysis: str | None = None) -> dict[str, Any]:
    """A match's public record; ``analysis``: how its analysis stands (None: not asked for)."""
    return {
        "id": match.id,
        "table_id": match.table_id,
        "variant": match.variant,
        "rules": match.rules,
        "status": match.status,
        "rated": match.rated,
        "players": [{"seat": s, "player_id": p.id, "name": p.name} for s, p in seats],
        # Winners and game points count sides: a seat each, or two partners together.
        "sides": stored_rules(match.variant, match.rules).seat_sides(),
        "winner": match.winner,
        "game_points": list(match.game_points),
        # Stored without their seeds while the match is live (DealResult.to_json).
        "deals": list(match.deals),
        "started_at": match.started_at.isoformat(),
        "finished_at": match.finished_at.isoformat() if match.finished_at else None,
        "server_commitment": commitment_of(match.server_seed),
        "analysis": analysis,
        # Players whose turn clock ran out: a computer player took the seat, or it forfeited.
        "abandoned": [
            {k: entry[k] for k in ("seat", "player_id", "name", "consequence")}
            for entry in match.abandoned or []
        ],
    }


class HistoryService:
    """Read-only queries over stored matches."""

    def __init__(
        self, sessions: async_sessionmaker[AsyncSession], page_max: int, replays_kept: int = 64
    ):
        self.sessions = sessions
        self.page_max = page_max
        # Replays of finished matches, computed once (off the event loop) and kept for the
        # most recently asked ``replays_kept``: a finished match never changes.
        self.replays_kept = replays_kept
        self._replays: OrderedDict[int, asyncio.Future[list[dict[str, Any]]]] = OrderedDict()

    async def list_matches(
        self,
        *,
        player_id: str | None = None,
        variant: str | None = None,
        limit: int,
        before: int | None,
        where: MatchFilter | None = None,
        viewer_id: str | None = None,
    ) -> dict[str, Any]:
        """A page of the matches ``viewer_id`` (None: anyone) may see, newest first, with the
        cursor of the next page (or None). ``where`` narrows it (opponent, result, rated, dates;
        see ``MatchFilter``)."""
        if not 1 <= limit <= self.page_max:
            raise Invalid("bad_limit", f"limit must be between 1 and {self.page_max}.")
        where = where or MatchFilter(player_id=player_id, variant=variant)
        if (where.result or where.opponent) and where.player_id is None:
            raise Invalid("bad_filter", "result and opponent need player (whose result).")
        if where.result not in (None, "won", "lost"):
            raise Invalid("bad_filter", "result must be 'won' or 'lost'.")
        async with self.sessions() as session:
            matches = await match_store.list_matches(
                session, before=before, limit=limit + 1, where=where, viewer_id=viewer_id
            )
            page = matches[:limit]
            seats = await match_store.seats_of_matches(session, [m.id for m in page])
            analyses = await analysis_store.statuses(session, [m.id for m in page])
        return {
            "matches": [match_json(m, seats[m.id], analyses.get(m.id)) for m in page],
            "next": page[-1].id if len(matches) > limit else None,
        }

    async def export(self, player_id: str, viewer_id: str | None = None) -> AsyncIterator[str]:
        """Every finished match of a player that ``viewer_id`` may see, newest first, one JSON
        line each (NDJSON); read a page at a time, so a long history is never held whole."""
        where = MatchFilter(player_id=player_id, finished_only=True)
        before = None
        while True:
            page = await self.list_matches(
                limit=self.page_max, before=before, where=where, viewer_id=viewer_id
            )
            for record in page["matches"]:
                yield orjson.dumps(record).decode() + "\n"
            before = page["next"]
            if before is None:
                return

    async def get_match(self, match_id: int, viewer_id: str | None = None) -> dict[str, Any]:
        """One match's public record."""
        async with self.sessions() as session:
            match = await self._find(session, match_id, viewer_id)
            seats = await match_store.seats_of_matches(session, [match_id])
            analysis = await analysis_store.get_analysis(session, match_id)
        return match_json(match, seats[match_id], analysis.status if analysis else None)

    async def match_log(self, match_id: int, viewer_id: str | None = None) -> dict[str, Any]:
        """Seed and every action of a finished match; ``Conflict`` while it runs."""
        async with self.sessions() as session:
            match = await self._find(session, match_id, viewer_id)
            if match.status != "finished":
                raise Conflict("match_live", "The log is published once the match is over.")
            seats = await match_store.seats_of_matches(session, [match_id])
            rows = await match_store.actions_of_match(session, match_id)
            analysis = await analysis_store.get_analysis(session, match_id)
        record = match_json(match, seats[match_id], analysis.status if analysis else None)
        record["seed"] = match.seed
        record["server_seed"] = match.server_seed
        record["contributions"] = match.contributions
        record["dealer"] = match.dealer
        record["base_version"] = match.base_version
        record["actions"] = [
            {"version": row.version, "seat": row.seat, "action": row.action} for row in rows
        ]
        return record

    async def replay(self, match_id: int, viewer_id: str | None = None) -> dict[str, Any]:
        """A finished match step by step with every hand open (``match_log`` decides who may
        see it); the steps are computed once per match, in a thread, and kept."""
        log = await self.match_log(match_id, viewer_id)
        steps = self._replays.get(match_id)
        if steps is None:
            steps = asyncio.ensure_future(asyncio.to_thread(replay_steps, log))
            self._replays[match_id] = steps
            while len(self._replays) > self.replays_kept:
                self._replays.popitem(last=False)
        else:
            self._replays.move_to_end(match_id)
        try:
            computed = await asyncio.shield(steps)
        except Exception:
            self._replays.pop(match_id, None)
            raise
        return {**{k: v for k, v in log.items() if k != "actions"}, "steps": computed}

    def replays_cached(self) -> int:
        """How many finished matches' replays are kept."""
        return len(self._replays)

    @staticmethod
    async def _find(session: AsyncSession, match_id: int, viewer_id: str | None) -> Match:
        match = await match_store.get_visible_match(session, match_id, viewer_id)
        if match is None:
            raise NotFound("match_not_found", "There is no such match.")
        return match
