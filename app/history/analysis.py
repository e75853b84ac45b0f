"""Analysis of finished matches, asked for by players and computed in the background.

A player asks for the analysis of a finished match it may see (``request``); the match gets one
analysis, ever, queued in the store and in this worker's bounded queue. One task takes the
queue in order: it replays the match's log, and for every real choice (``app.bots.analysis``)
sends only that seat's view and the action played to a bot worker process, which answers what
the strongest level's search (the expert's) would have played and what the move cost in
expected game points. The advice is stored once, when every decision is done, and read with
``get``.

The work is bounded: a live match is refused (its log is not public), the queue holds at most
``queue_size`` matches, and a player may ask for ``per_hour`` analyses an hour. Analyses left
unfinished by a stopped server are queued again when one starts.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from concurrent.futures import Executor
from datetime import timedelta
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import async_sessionmaker

from app.bots.analysis import decisions, review
from app.common.errors import STORE_ERRORS, Conflict, NotFound, ServiceError, Unavailable
from app.common.rules import stored_rules
from app.history.service import HistoryService
from app.store import Player
from app.store import analyses as analysis_store
from app.store.db import AsyncSession
from app.store.models import utcnow

log = logging.getLogger(__name__)

NICE = 10
"""How far below the server's CPU priority the analysis's worker process runs: bot decisions at
live tables, which have a clock, get the processor first."""


ANALYSIS_PAGE = 2000
"""The most analysed moves a page holds (and its default)."""


class TooManyAnalyses(ServiceError):
    """A player asked for more analyses than an hour allows."""

    status = 429


class AnalysisService:
    """Queue, compute and read the analyses of finished matches."""

    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        history: HistoryService,
        make_executor: Callable[[], Executor],
        *,
        per_hour: int,
        queue_size: int,
        worlds: int,
    ) -> None:
        self.sessions = sessions
        self.history = history
        self.make_executor = make_executor
        self.per_hour = per_hour
        self.worlds = worlds
        self._queue: asyncio.Queue[tuple[int, str]] = asyncio.Queue(queue_size)
        self._executor: Executor | None = None
        self._runner: asyncio.Task[None] | None = None

    async def start(self) -> int:
        """Queue again the analyses a stopped server left unfinished and start working; how
        many were queued again."""
        async with self.sessions() as session:
            left = await analysis_store.unfinished(session)
        for job in left:
            if self._queue.full():
                break
            self._queue.put_nowait(job)
        self._runner = asyncio.get_running_loop().create_task(self._work())
        return len(left)

    async def request(self, player: Player, match_id: int) -> dict[str, Any]:
        """Ask for the analysis of a finished match ``player`` may see; how it stands.
        ``NotFound`` for a match it may not see, ``Conflict`` ``match_live`` while it runs,
        ``TooManyAnalyses`` past the hourly limit, ``Unavailable`` when the queue is full."""
        record = await self._finished(match_id, player.id)
        if record["analysis"] is not None:
            return {"match_id": match_id, "status": record["analysis"]}
        async with self.sessions.begin() as session:
            since = utcnow() - timedelta(hours=1)
            if await analysis_store.asked_since(session, player.id, since) >= self.per_hour:
                raise TooManyAnalyses(
                    "too_many_analyses",
                    f"You may ask for {self.per_hour} analyses an hour; try again later.",
                    retry_after=3600,
                )
            if self._queue.full():
                raise Unavailable(
                    "analysis_busy", "Too many analyses are waiting; try again in a few minutes."
                )
            try:
                await analysis_store.add_analysis(session, match_id, player.id)
            except IntegrityError:
                return {"match_id": match_id, "status": "queued"}  # asked at the same moment
        self._queue.put_nowait((match_id, player.id))
        return {"match_id": match_id, "status": "queued"}

    async def get(
        self,
        match_id: int,
        viewer_id: str | None,
        *,
        start: int = 0,
        limit: int = ANALYSIS_PAGE,
    ) -> dict[str, Any]:
        """The stored analysis of a match ``viewer_id`` may see: ``{match_id, moves,
        total_moves, next}``, the moves from index ``start`` (at most ``limit``), each
        ``{version, seat, played, best, lost, mark}``, and where the next page starts (None
        on the last). ``Conflict`` ``match_live`` while it runs, ``NotFound``
        ``analysis_not_found`` until it is computed."""
        record = await self._finished(match_id, viewer_id)
        row = None
        if record["analysis"] == "done":
            async with self.sessions() as session:
                row = await analysis_store.get_analysis(session, match_id)
        if row is None or row.moves is None:
            status = record["analysis"] or "not requested"
            raise NotFound(
                "analysis_not_found",
                f"This match has no analysis yet ({status}); ask for one and come back later.",
            )
        moves = row.moves
        end = min(len(moves), start + limit)
        return {
            "match_id": match_id,
            "moves": moves[start:end],
            "total_moves": len(moves),
            "next": end if end < len(moves) else None,
        }

    async def _finished(self, match_id: int, viewer_id: str | None) -> dict[str, Any]:
        """The record of a finished match ``viewer_id`` may see (its ``analysis`` status
        included); ``NotFound`` or ``Conflict`` ``match_live`` otherwise."""
        record = await self.history.get_match(match_id, viewer_id)
        if record["status"] == "aborted":
            raise Conflict("match_aborted", "An aborted match has no play to analyse.")
        if record["status"] != "finished":
            raise Conflict("match_live", "A match is analysed once it is over.")
        return record

    async def close(self) -> None:
        """Stop working (an analysis under way is queued again at the next start)."""
        if self._runner is not None:
            self._runner.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._runner
        if self._executor is not None:
            await asyncio.to_thread(self._executor.shutdown, True, cancel_futures=True)
            self._executor = None

    async def wait_idle(self) -> None:
        """Until every queued analysis is done (for tests and the command line)."""
        await self._queue.join()

    async def _work(self) -> None:
        while True:
            match_id, player_id = await self._queue.get()
            try:
                await self._analyse(match_id, player_id)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("analysis failed", extra={"match_id": match_id})
                with contextlib.suppress(*STORE_ERRORS):
                    async with self.sessions.begin() as session:
                        await analysis_store.set_analysis(session, match_id, "failed")
            finally:
                self._queue.task_done()

    async def _analyse(self, match_id: int, player_id: str) -> None:
        record = await self.history.match_log(match_id, player_id)  # every action
        async with self.sessions.begin() as session:
            await analysis_store.set_analysis(session, match_id, "running")
        rules = stored_rules(record["variant"], record["rules"])
        choices = await asyncio.to_thread(
            lambda: list(decisions(rules, record["seed"], record["dealer"], record["actions"]))
        )
        if self._executor is None:
            self._executor = self.make_executor()
        loop = asyncio.get_running_loop()
        moves = []
        for version, seat, seen, played in choices:
            advice = await loop.run_in_executor(self._executor, review, seen, played, self.worlds)
            moves.append({"version": version, "seat": seat, "played": played, **advice})
        async with self.sessions.begin() as session:
            await analysis_store.set_analysis(session, match_id, "done", moves)
        log.info("match analysed", extra={"match_id": match_id, "decisions": len(moves)})
