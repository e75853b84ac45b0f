"""Service-level helpers: recording subscribers, a started two-player table, and a manual
clock for the table service's alarms."""

from __future__ import annotations

import asyncio
import heapq
import itertools
import json
import random
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from app.services import Services
from app.store import Player
from app.tables import presenter
from app.tables.alarms import Timekeeper
from app.tables.authority import TableAuthority
from app.tables.hub import Frame, viewer_key
from tests.support import settings_for


@pytest.fixture(name="services")
async def instant_bot_services(database_url: str) -> AsyncIterator[Services]:
    """Started services whose computer players move at once, thinking in threads of this
    process. A test module imports it to use it as its ``services``."""
    built = Services.build(settings_for(database_url, bot_pause=0.0, bot_workers=0))
    await built.start()
    try:
        yield built
    finally:
        await built.close()


@dataclass(eq=False)
class Recorder:
    """A subscriber that keeps every frame it is given: ``presence`` frames (unversioned, sent
    whenever a viewer comes or goes) apart from the others, and the order of every type."""

    seat: int | None
    frames: list[Frame] = field(default_factory=list)
    presence: list[dict[str, Any]] = field(default_factory=list)
    kinds: list[str | None] = field(default_factory=list)

    @property
    def viewer(self) -> str:
        return viewer_key(self.seat)

    def deliver(self, frame: Frame) -> None:
        read = json.loads(frame) if isinstance(frame, str) else frame
        kind = read.get("type")
        self.kinds.append(kind)
        (self.presence if kind == "presence" else self.frames).append(read)


async def started_table(
    services: Services, options: dict[str, Any] | None = None, clock: str = "none"
) -> tuple[TableAuthority, list[Player]]:
    """A two-player table whose match has started (untimed unless ``clock`` says)."""
    anna, _ = await services.tables.create_player("Anna")
    bela, _ = await services.tables.create_player("Bela")
    table = await services.tables.create_table(
        anna, "sixty-six", options or {}, "public", clock=clock
    )
    await services.tables.join(bela, table["id"], None, None)
    return await services.tables.authority(table["id"]), [anna, bela]


async def play_random(
    authority: TableAuthority,
    players: list[Player],
    rng: random.Random,
    moves: int,
    marriages: bool = True,
) -> int:
    """Play up to ``moves`` random legal actions (never resigning); how many were played.
    With ``marriages=False`` nobody declares one, so no deal ends within its first seven
    cards played (66 card points take at least four tricks)."""
    played = 0
    while played < moves and authority.state is not None and not authority.state.match_over:
        seat = authority.state.to_move
        assert seat is not None
        if authority.records:
            legal = json.loads(authority.records[-1].frame_for(seat))["legal"]
        else:
            legal = presenter.welcome(authority, seat)["view"]["legal"]
        if not marriages:
            legal = [a for a in legal if not a.get("marriage")]
        await authority.act(players[seat].id, authority.version, rng.choice(legal))
        played += 1
    return played


class ManualTime(Timekeeper):
    """The table service's clock and alarms, moving only when a test says: its ``now`` is
    the wall clock of turn clocks, and called it stands in for the tables' own clock, so
    presence, rematch offers and turn clocks all run on it."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self._now = now
        self._alarms: list[tuple[float, int, ManualAlarm]] = []
        self._order = itertools.count()
        self.alarms_set = 0  # every alarm ever set, rung or cancelled or not

    def __call__(self) -> float:
        return self._now

    def now(self) -> float:
        return self._now

    def call_at(self, when: float, ring: Callable[[], None]) -> ManualAlarm:
        alarm = ManualAlarm(ring)
        heapq.heappush(self._alarms, (when, next(self._order), alarm))
        self.alarms_set += 1
        return alarm

    async def advance(self, seconds: float, *tables: TableAuthority) -> None:
        """Move on by ``seconds``, ring every alarm passed, and let the tables (``tables``,
        or any for a few loop turns) finish what the alarms asked of them."""
        self._now += seconds
        while self._alarms and self._alarms[0][0] <= self._now:
            _, _, alarm = heapq.heappop(self._alarms)
            alarm.fire()
        for _ in range(100):
            await asyncio.sleep(0)
        await settle(*tables)

    def pending(self) -> int:
        """Alarms set and not cancelled."""
        return sum(1 for _, _, alarm in self._alarms if not alarm.cancelled)


class ManualAlarm:
    """An alarm of ``ManualTime``."""

    def __init__(self, ring: Callable[[], None]) -> None:
        self.ring, self.cancelled = ring, False

    def cancel(self) -> None:
        self.cancelled = True

    def fire(self) -> None:
        if not self.cancelled:
            self.cancelled = True
            self.ring()


async def settle(*tables: TableAuthority) -> None:
    """Until no table has a command waiting or running."""
    for _ in range(1000):  # commits run in the committer's thread: real (short) waits
        if not any(table.busy for table in tables):
            return
        await asyncio.sleep(0.005)
    raise AssertionError("a table stayed busy")
