"""Match history: finished, aborted and running matches as public records.

A running match shows its players, the results of finished deals and the commitment to its
server seed, never its seeds or contributions; its full log (seeds, contributions and every
action) is public only once the match is over (docs/rules.md, sections 4 and 7; docs/fairness.md).

A private table's matches are not shown to those who did not play them while they run, nor
ever if its players chose ``history: never`` (``app.store.matches.visible_to``); to them such a
match does not exist (404 ``match_not_found``).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any, cast

import orjson
from sqlalchemy.ext.asyncio import async_sessionmaker

from app.common.errors import Conflict, Invalid, NotFound
from app.common.rules import stored_rules
from app.engine import State, seed_commitment
from app.history.byte_cache import ByteCache
from app.history.replay import PIECE, piece_starts, piece_steps, step_count
from app.store import Match
from app.store import analyses as analysis_store
from app.store import matches as match_store
from app.store import tournaments as tournament_store
from app.store.db import AsyncSession
from app.store.matches import OVER, MatchFilter
from app.store.players import SeatRow


def match_json(
    match: Match,
    seats: list[SeatRow],
    analysis: str | None = None,
    tournament: str | None = None,
) -> dict[str, Any]:
    """A match's public record; ``analysis``: how its analysis stands (None: not asked for);
    ``tournament``: the event whose table it was played at."""
    seed = match.server_seed  # its commitment is public from the start (docs/fairness.md)
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
        "server_commitment": None if seed is None else seed_commitment(seed),
        "analysis": analysis,
        "tournament": tournament,
        # Players whose turn clock ran out: a computer player took the seat, or it forfeited.
        "abandoned": [
            {k: entry[k] for k in ("seat", "player_id", "name", "consequence")}
            for entry in match.abandoned or []
        ],
    }


REPLAY_PAGE = 1000
"""The most replay steps a page holds (and how many it holds unless asked for fewer)."""

LOG_PAGE = 1000
"""The most logged actions a page of a match's log holds (and its default)."""

EXPORT_PAGE = 10
"""Matches read at a time for an export: a page of long matches is still a bounded read."""

# Rough sizes for the replay cache's budget: a logged action held as Python objects, and a
# state the replay keeps at a piece's start (its fields are shared tuples; its results list
# holds a pointer per finished deal).
ACTION_BYTES = 400
STATE_BYTES = 6000
RESULT_POINTER_BYTES = 8


class HistoryService:
    """Read-only queries over stored matches."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        page_max: int,
        replay_cache_bytes: int = 48 * 2**20,
    ):
        self.sessions = sessions
        self.page_max = page_max
        # Finished matches never change: their logs, the states where replay pieces start and
        # the pieces' encoded steps are kept, at most ``replay_cache_bytes`` of them (least
        # recently used first out). Pieces are built one at a time, in a thread.
        self.replay_cache: ByteCache[Any] = ByteCache(replay_cache_bytes)
        self._building = asyncio.Lock()

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
            events = await tournament_store.event_of_tables(session, [m.table_id for m in page])
        return {
            "matches": [
                match_json(m, seats[m.id], analyses.get(m.id), events.get(m.table_id)) for m in page
            ],
            "next": page[-1].id if len(matches) > limit else None,
        }

    async def export(self, player_id: str, viewer_id: str | None = None) -> AsyncIterator[str]:
        """Every finished match of a player that ``viewer_id`` may see, newest first, one JSON
        line each (NDJSON); read :data:`EXPORT_PAGE` matches at a time, so a long history (or
        a page of long matches) is never held whole."""
        where = MatchFilter(player_id=player_id, finished_only=True)
        before = None
        while True:
            page = await self.list_matches(
                limit=min(EXPORT_PAGE, self.page_max),
                before=before,
                where=where,
                viewer_id=viewer_id,
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
            events = await tournament_store.event_of_tables(session, [match.table_id])
        status = analysis.status if analysis else None
        return match_json(match, seats[match_id], status, events.get(match.table_id))

    async def match_log(
        self,
        match_id: int,
        viewer_id: str | None = None,
        *,
        start: int = 0,
        limit: int | None = None,
    ) -> dict[str, Any]:
        """Seed and the actions of a match that is over (finished, or aborted) from index
        ``start``, at most ``limit`` of them (None: all), with ``total_actions`` and ``next``
        (the index the next page starts at, or None); ``Conflict`` while it runs."""
        async with self.sessions() as session:
            match = await self._find(session, match_id, viewer_id)
            if match.status not in OVER:
                raise Conflict("match_live", "The log is published once the match is over.")
            seats = await match_store.seats_of_matches(session, [match_id])
            analysis = await analysis_store.get_analysis(session, match_id)
            actions = self.replay_cache.get(("log", match_id))
            if actions is None:
                rows = await match_store.actions_of_match(session, match_id)
                actions = [
                    {"version": row.version, "seat": row.seat, "action": row.action} for row in rows
                ]
                self.replay_cache.put(("log", match_id), actions, ACTION_BYTES * len(actions))
        record = match_json(match, seats[match_id], analysis.status if analysis else None)
        record["seed"] = match.seed
        record["server_seed"] = match.server_seed
        record["contributions"] = match.contributions
        record["dealer"] = match.dealer
        record["base_version"] = match.base_version
        end = len(actions) if limit is None else min(len(actions), start + limit)
        record["actions"] = actions if start == 0 and end == len(actions) else actions[start:end]
        record["total_actions"] = len(actions)
        record["next"] = end if end < len(actions) else None
        return record

    async def replay(
        self,
        match_id: int,
        viewer_id: str | None = None,
        *,
        start: int = 0,
        limit: int = REPLAY_PAGE,
    ) -> bytes:
        """A page of a finished match step by step with every hand open, as JSON: the match's
        log without its actions (``match_log`` decides who may see it), ``steps`` from index
        ``start`` (at most ``limit``), ``total_steps`` and ``next`` (where the next page
        starts, or null). Pieces of steps are built in a thread, one at a time, and kept."""
        if not 1 <= limit <= REPLAY_PAGE:
            raise Invalid("bad_limit", f"limit must be between 1 and {REPLAY_PAGE}.")
        log = await self.match_log(match_id, viewer_id)
        total = step_count(log)
        start = max(0, start)
        end = min(total, start + limit)
        steps: list[bytes] = []
        if start < end:
            for k in range(start // PIECE, (end - 1) // PIECE + 1):
                piece = await self._piece(log, k)
                steps.extend(piece[max(start - k * PIECE, 0) : end - k * PIECE])
        record = {key: value for key, value in log.items() if key != "actions"}
        record["total_steps"] = total
        record["next"] = end if end < total else None
        head = orjson.dumps(record)
        return head[:-1] + b',"steps":[' + b",".join(steps) + b"]}"

    async def _piece(self, log: dict[str, Any], k: int) -> list[bytes]:
        """The encoded steps of piece ``k`` of a finished match, from the cache or built (one
        build at a time, in a thread, so the event loop keeps its share of the processor)."""
        match_id = log["id"]
        piece: list[bytes] | None = self.replay_cache.get(("steps", match_id, k))
        if piece is not None:
            return piece
        async with self._building:
            piece = cast("list[bytes] | None", self.replay_cache.get(("steps", match_id, k)))
            if piece is not None:
                return piece
            starts: list[State] | None = self.replay_cache.get(("starts", match_id))
            if starts is None:
                starts = await asyncio.to_thread(piece_starts, log)
                size = sum(STATE_BYTES + RESULT_POINTER_BYTES * len(s.deal_results) for s in starts)
                self.replay_cache.put(("starts", match_id), starts, size)
            piece = await asyncio.to_thread(piece_steps, log, k, starts[k])
        self.replay_cache.put(("steps", match_id, k), piece, sum(len(raw) for raw in piece))
        return piece

    def replays_cached(self) -> int:
        """How many entries (logs, piece starts, pieces of steps) the replay cache keeps."""
        return len(self.replay_cache)

    @staticmethod
    async def _find(session: AsyncSession, match_id: int, viewer_id: str | None) -> Match:
        match = await match_store.get_visible_match(session, match_id, viewer_id)
        if match is None:
            raise NotFound("match_not_found", "There is no such match.")
        return match
