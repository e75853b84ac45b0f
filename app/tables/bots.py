"""Computer players in seats: a bot seat is a real seat held by a bot player.

A bot player is an ordinary ``players`` row whose id names its level and seat
(``bot.hard.1``); nobody holds its token. When it is a bot's move, ``BotSeats`` gives the bot
exactly ``view(state, seat)`` (never the state) in a worker process, and submits the action
through the same ``TableAuthority.act`` path as a human (seat and version check, commit,
publish).

The time from a bot's turn starting to its move being published tells nothing about its
hand: each turn's delay is drawn before the bot looks at the position (``BOT_PAUSE`` plus up
to ``BOT_PAUSE_JITTER`` seconds, evenly), and the bot's move waits out whatever its thinking
left of it. A bot with one legal card and a bot weighing six take the same time (unless a
decision outlasts the delay: keep ``BOT_PAUSE`` above twice ``BOT_BUDGET``). The expert level
thinks longer (``BOT_EXPERT_BUDGET``), so its seats' turns last ``BOT_EXPERT_PAUSE`` (kept
above twice that budget) plus the jitter instead; the level of a seat is public. A turn that
comes straight after another bot's move, with nobody else moving in between (the rest of a round
of computer turns at three and four seats), takes ``BOT_FOLLOW_PAUSE`` instead, without jitter
(at least twice the level's budget, at most its full pause): whether a turn follows a bot's
move is public, so the round is brisk and the delay still tells nothing. A bot that fails
or overruns its budget is cut off and the next weaker level decides that move; the failure is
logged without any card.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import random
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor
from typing import Any, TypeVar

from app.bots import LEVELS, choose_action
from app.bots.worker import WorkerContext, start_worker
from app.common.errors import ServiceError, Unavailable
from app.engine import view
from app.players.bot_players import bot_level
from app.tables.authority import ActionRejected, TableAuthority

log = logging.getLogger(__name__)
T = TypeVar("T")

SLACK_S = 2.0
"""Time allowed beyond twice the budget before a decision counts as overrun (start-up of a
worker process, a queue behind other tables' bots)."""
RETRY_S = 1.0
"""Wait before a bot tries again after the store failed."""


def process_pool(workers: int, nice: int = 0) -> ProcessPoolExecutor:
    """Worker processes for bot decisions (started fresh, not forked from the server); each
    exits by itself when the server dies, however it dies (``app.bots.worker``), and runs
    ``nice`` steps below the server's CPU priority (for background work)."""
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=WorkerContext(),
        initializer=functools.partial(start_worker, os.getpid(), nice=nice),
    )


class BotSeats:
    """Moves the bots of every table this worker holds, one decision at a time per table."""

    def __init__(
        self,
        make_executor: Callable[[], Executor],
        pause_s: float,
        budget_s: float,
        choose: Callable[..., dict[str, Any]] = choose_action,
        jitter_s: float = 0.0,
        expert_budget_s: float = 1.0,
        expert_pause_s: float = 2.2,
        follow_pause_s: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        delays: random.Random | None = None,
    ) -> None:
        self._make_executor = make_executor
        self._executor: Executor | None = None
        self.pause_s = pause_s
        self.jitter_s = jitter_s
        self.budget_s = budget_s
        self.expert_budget_s = expert_budget_s
        self.expert_pause_s = expert_pause_s
        self.follow_pause_s = pause_s if follow_pause_s is None else follow_pause_s
        # For each table whose last move was a bot's: the version that move made.
        self._bot_moved: dict[str, int] = {}
        self.choose = choose
        self.clock = clock
        self.sleep = sleep
        self._turns: dict[str, asyncio.Task[None]] = {}
        self._rng = random.Random()
        # Turn delays come from a generator of their own: nothing a bot decides (nor how many
        # numbers its decisions draw) shifts them.
        self._delays = delays or random.Random()

    def executor(self) -> Executor:
        """The pool bots think in, started on the first decision: a server whose tables
        have no bot never starts worker processes."""
        if self._executor is None:
            self._executor = self._make_executor()
        return self._executor

    def pending(self, authority: TableAuthority) -> bool:
        """True while a bot of this table is on move or its turn is under way (such a table
        must stay in memory)."""
        running = self._turns.get(authority.table_id)
        return (running is not None and not running.done()) or (
            self._bot_on_move(authority) is not None
        )

    def watch(self, authority: TableAuthority) -> None:
        """Move this table's bots whenever it changes, starting now if a bot is on move. A
        table with a bot starts the worker processes at once, so that the first decision is
        not cut off while they start. (The table calls ``consider`` after each change: the
        registry gives it at load.)"""
        if self._executor is None and any(
            bot_level(holder.player_id) is not None for holder in authority.seats.values()
        ):
            self.executor().submit(int)
        self.consider(authority)

    def consider(self, authority: TableAuthority) -> None:
        """Schedule the bot's move if a bot seat is on move and none is scheduled yet."""
        seat = self._bot_on_move(authority)
        if seat is None:
            self._bot_moved.pop(authority.table_id, None)
            return
        running = self._turns.get(authority.table_id)
        if running is not None and not running.done():
            return  # that turn re-checks the table when it ends
        task = asyncio.get_running_loop().create_task(self._turn(authority))
        self._turns[authority.table_id] = task
        task.add_done_callback(lambda _: self._done(authority, task))

    def _done(self, authority: TableAuthority, task: asyncio.Task[None]) -> None:
        if self._turns.get(authority.table_id) is task:
            del self._turns[authority.table_id]
        if not task.cancelled():
            self.consider(authority)  # the next move may be a bot's again

    @staticmethod
    def _bot_on_move(authority: TableAuthority) -> int | None:
        state = authority.state
        if authority.status != "live" or state is None or state.match_over:
            return None
        seat = state.to_move
        holder = authority.seats.get(seat) if seat is not None else None
        if holder is None or bot_level(holder.player_id) is None:
            return None
        return seat

    def budget(self, level: str) -> float:
        """Thinking time per move of ``level`` (seconds)."""
        return self.expert_budget_s if level == "expert" else self.budget_s

    def turn_delay(self, level: str = "hard", follows: bool = False) -> float:
        """How long the next turn of a ``level`` bot takes from its start to its move:
        ``pause_s`` (``expert_pause_s`` for the expert) plus up to ``jitter_s``, drawn without
        looking at any position; a turn that ``follows`` another bot's move takes
        ``follow_pause_s`` (kept between twice the budget and the full pause)."""
        pause = self.expert_pause_s if level == "expert" else self.pause_s
        if follows:
            return min(pause, max(self.follow_pause_s, 2 * self.budget(level)))
        return pause + self._delays.uniform(0.0, self.jitter_s)

    async def paced(self, decision: Awaitable[T], level: str = "hard", follows: bool = False) -> T:
        """``decision``'s result, once a delay drawn before it started (for a ``level`` bot)
        has passed: however long the decision took (within the delay), the caller gets it at
        the same time."""
        started = self.clock()
        delay = self.turn_delay(level, follows)
        result = await decision
        await self.sleep(max(0.0, delay - (self.clock() - started)))
        return result

    async def _turn(self, authority: TableAuthority) -> None:
        seat = self._bot_on_move(authority)
        if seat is None or authority.state is None:
            return
        version = authority.version
        player_id = authority.seats[seat].player_id
        level = bot_level(player_id)
        assert level is not None
        seen = dict(view(authority.state, seat))  # the declared View, as the plain dict bots read
        follows = self._bot_moved.get(authority.table_id) == version
        # Should the table move on meanwhile (a resignation), the version check refuses the
        # move and the next turn decides afresh.
        action = await self.paced(self.decide(seen, level, authority.table_id), level, follows)
        try:
            await authority.act(player_id, version, action, bot=True)
            self._bot_moved[authority.table_id] = authority.version
        except Unavailable:
            log.warning("a bot's move was not stored; retrying", extra=_fields(authority))
            await asyncio.sleep(RETRY_S)
        except ActionRejected as exc:
            # The table moved on meanwhile (a resignation, another worker): decide afresh.
            log.info("a bot's move was refused (%s)", exc.code, extra=_fields(authority))
            if exc.code != "stale_version":
                await asyncio.sleep(RETRY_S)  # never a tight loop of refusals
        except ServiceError as exc:
            log.warning("a bot's move failed (%s)", exc.code, extra=_fields(authority))
            await asyncio.sleep(RETRY_S)

    async def decide(self, seen: dict[str, Any], level: str, table_id: str) -> dict[str, Any]:
        """The bot's action for ``seen`` (a seat's view), decided in the executor; a level
        that fails or overruns is cut off and the next weaker one decides."""
        loop = asyncio.get_running_loop()
        for current in reversed(LEVELS[: LEVELS.index(level) + 1]):
            rng = random.Random(self._rng.getrandbits(64))
            budget = self.budget(current)
            timeout = budget * 2 + SLACK_S
            try:
                call = loop.run_in_executor(
                    self.executor(), self.choose, seen, current, rng, budget
                )
                # Not wait_for: on Python 3.11 it swallows a cancellation that arrives as
                # the decision completes, and a cancelled turn would then wait out its delay.
                async with asyncio.timeout(timeout):
                    return await call
            except TimeoutError:
                kind = "overran its budget"
            except BrokenExecutor:
                # A worker died (killed from outside): the next decision starts a new pool.
                broken, self._executor = self._executor, None
                if broken is not None:
                    broken.shutdown(wait=False)
                kind = "lost its worker process"
            except Exception as exc:  # a failing bot must not stop the table
                kind = type(exc).__name__
            log.warning(
                "bot %s failed in %s (seat %s, deal %s): %s; falling back",
                current,
                seen.get("variant"),
                seen.get("seat"),
                seen.get("deal_no"),
                kind,
                extra={"table_id": table_id},
            )
        return self._rng.choice(seen["legal"])

    async def close(self) -> None:
        """Stop every pending bot move and the worker processes."""
        turns = list(self._turns.values())
        for task in turns:
            task.cancel()
        await asyncio.gather(*turns, return_exceptions=True)
        executor, self._executor = self._executor, None
        if executor is not None:
            # Waits for the workers to exit (a decision under way ends within its budget), so
            # none outlives the server and the pool's pipes and locks are released in order.
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)


def _fields(authority: TableAuthority) -> dict[str, Any]:
    return {"table_id": authority.table_id, "version": authority.version}
