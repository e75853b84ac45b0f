"""Turn clocks: the bank arithmetic, and the table's owner applying a timeout exactly once,
never after the move was made, across a restart, with the takeover, the reclaim and the
forfeit. Time is a manual clock: nothing here sleeps for a deadline."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from app.common.errors import Conflict, Forbidden
from app.engine import new_match, preset
from app.players.bot_players import bot_level
from app.services import Services
from app.store import Player
from app.store import matches as match_store
from app.store import tables as table_store
from app.tables import presenter
from app.tables.authority import TableAuthority
from app.tables.clocks import (
    ClockRules,
    TurnClock,
    after_move,
    clock_frame,
    millis,
    start_clock,
)
from app.tables.commands import Timeout
from tests.support import settings_for
from tests.tables.helpers import ManualTime, Recorder, settle

MOVE = ClockRules("move", 30.0, 60.0)
T0 = ManualTime().now()


# -- the arithmetic ----------------------------------------------------------------------


def test_a_slow_move_pays_from_its_bank_and_a_new_deal_fills_it_again() -> None:
    state = new_match(preset("sixty-six"), "clock-seed", 0)
    mover = state.to_move
    assert mover is not None
    clock = start_clock(MOVE, state, 0, T0, {0, 1})
    assert clock.seat == mover and clock.deadline(MOVE) == T0 + 90
    # 45 s: 15 beyond the move's 30 come out of the bank.
    moved = after_move(MOVE, clock, state, 1, T0 + 45, {0, 1})
    assert moved.banks[mover] == 45 and moved.banks[1 - mover] == 60
    assert moved.started == T0 + 45 and moved.version == 1
    # Within the 30 s nothing is paid; a bank never goes below nothing.
    assert after_move(MOVE, clock, state, 1, T0 + 29, {0, 1}).banks[mover] == 60
    assert after_move(MOVE, clock, state, 1, T0 + 500, {0, 1}).banks[mover] == 0
    # A new deal fills every bank again.
    spent = TurnClock(mover, 5, T0, state.deal_no - 1, (0.0, 0.0))
    assert after_move(MOVE, spent, state, 6, T0 + 1, {0, 1}).banks == (60.0, 60.0)
    # A computer player on move runs no clock.
    idle = after_move(MOVE, clock, state, 1, T0 + 1, {1 - mover})
    assert (idle.seat is None) == (state.to_move == mover) and idle.deadline(MOVE) is None


def test_the_clock_frame_counts_down_to_the_deadline_from_the_servers_time() -> None:
    state = new_match(preset("sixty-six"), "clock-seed", 0)
    clock = start_clock(MOVE, state, 3, T0, {0, 1})
    frame = clock_frame(MOVE, clock, T0 + 20)
    assert frame["type"] == "clock" and frame["server_time"] == T0 + 20
    assert frame["remaining"][clock.seat] == 70 and frame["remaining"][1 - clock.seat] == 60
    assert frame["version"] == 3 and frame["per_move"] == 30 and frame["bank"] == 60


def test_a_frame_s_seconds_are_rounded_to_the_millisecond() -> None:
    generator = random.Random(3)
    for scale in (1.0, 90.0, 86_400.0, T0):
        for _ in range(2_000):
            seconds = generator.random() * scale
            # As round() gives them, but that a tie may go the other way.
            assert abs(millis(seconds) - round(seconds, 3)) <= 0.001 + 1e-9 * scale
            if abs(seconds * 1000 % 1 - 0.5) > 1e-3:  # no tie in sight
                assert millis(seconds) == round(seconds, 3)
    assert millis(70.0) == 70.0 and millis(12.3456) == 12.346 and millis(0.0004) == 0.0


# -- the table's owner -------------------------------------------------------------------


@contextlib.asynccontextmanager
async def running(
    database_url: str, time: ManualTime, bot_pause: float = 0.0
) -> AsyncIterator[Services]:
    """Started services on the manual clock; bots decide in threads after ``bot_pause``."""
    built = Services.build(settings_for(database_url, bot_pause=bot_pause, bot_workers=0))
    built.tables.timekeeper = time
    await built.start()
    try:
        yield built
    finally:
        await built.close()


async def timed_table(
    services: Services, on_timeout: str = "takeover"
) -> tuple[TableAuthority, list[Player]]:
    """A public two-player table with the default per-move clock, its match started."""
    anna, _ = await services.tables.create_player("Anna")
    bela, _ = await services.tables.create_player("Bela")
    table = await services.tables.create_table(
        anna, "sixty-six", {}, "public", on_timeout=on_timeout
    )
    assert table["clock"] == "move"
    await services.tables.join(bela, table["id"], None, None)
    return await services.tables.authority(table["id"]), [anna, bela]


async def connected_timed_table(services: Services) -> tuple[TableAuthority, list[Player]]:
    """``timed_table`` with both players' sockets open: no presence alarm is set."""
    authority, players = await timed_table(services)
    for player in players:
        await authority.attach(Recorder(None), player.id, None)
    return authority, players


def on_move(authority: TableAuthority) -> int:
    """The seat on move (there is one)."""
    seat = authority.state.to_move if authority.state else None
    assert seat is not None
    return seat


async def legal_move(authority: TableAuthority, seat: int) -> dict[str, Any]:
    if authority.records:
        legal = json.loads(authority.records[-1].frame_for(seat))["legal"]
    else:
        legal = presenter.welcome(authority, seat)["view"]["legal"]
    return next(a for a in legal if a["type"] != "resign")


async def every_seat_acts(authority: TableAuthority, players: list[Player]) -> None:
    """Play until every seat has acted in the first deal (before that, a timeout aborts the
    match: ``test_aborts.py``); no time passes."""
    while authority.abortable:
        seat = on_move(authority)
        await authority.act(players[seat].id, authority.version, await legal_move(authority, seat))


async def stored_row(services: Services, table_id: str) -> Any:
    async with services.tables.sessions() as session:
        return await table_store.get_table(session, table_id)


async def abandonments(services: Services, match_id: int) -> list[Any]:
    async with services.tables.sessions() as session:
        match = await match_store.get_match(session, match_id)
        assert match is not None
        return list(match.abandoned or [])


async def until(check: Callable[[], bool], seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("never happened")


async def test_a_table_works_out_its_clock_once(database_url: str) -> None:
    # A move reads the table's clock four times; its mode and lengths never change.
    async with running(database_url, ManualTime()) as services:
        authority, _ = await timed_table(services)
        rules = authority.clock_rules
        assert rules is not None and rules.mode == "move"
        assert authority.clock_rules is rules


async def test_a_timeout_hands_the_seat_to_a_computer_player_once_and_the_player_reclaims_it(
    database_url: str,
) -> None:
    time = ManualTime()
    async with running(database_url, time) as services:
        authority, players = await timed_table(services)
        await every_seat_acts(authority, players)
        watcher = Recorder(None)
        await authority.attach(watcher, None, None)
        assert watcher.frames[-1]["type"] == "clock"  # a new viewer is told the clock
        seat = on_move(authority)
        assert authority.turn_clock is not None and authority.turn_clock.seat == seat
        row = await stored_row(services, authority.table_id)
        assert row.clock_deadline == T0 + 90  # durable: in the table's row
        await time.advance(89.9, authority)
        assert authority.seat_of(players[seat].id) == seat  # not yet
        version = authority.version
        await time.advance(0.2, authority)
        # A medium computer player holds the seat; who left it is recorded, in the match too.
        assert bot_level(authority.seats[seat].player_id) == "medium"
        assert authority.abandoned[seat].player_id == players[seat].id
        assert authority.match_id is not None
        entries = await abandonments(services, authority.match_id)
        assert [(e["seat"], e["consequence"]) for e in entries] == [(seat, "takeover")]
        info = await services.tables.get_table(authority.table_id, None)
        assert info["abandoned"] == [
            {"seat": seat, "player_id": players[seat].id, "name": players[seat].name}
        ]
        # The player who left still finds the table among its own, to take the seat back.
        [mine] = await services.tables.tables_of(players[seat])
        assert (mine["id"], mine["seat"], mine["taken_over"]) == (authority.table_id, seat, True)
        authority.visibility = "private"  # even a private table shows itself to that player
        await services.tables.check_watcher(authority, players[seat].id, None)
        with pytest.raises(Forbidden, match="invite link"):
            await services.tables.check_watcher(authority, "somebody-else", None)
        authority.visibility = "public"
        # The computer player moves on for it.
        await until(lambda: authority.version > version)
        # Ringing again changes nothing: the timeout belongs to a version gone by.
        await authority.ask(Timeout(version))
        assert len(await abandonments(services, authority.match_id)) == 1
        # The player comes back and takes the seat again.
        with pytest.raises(Conflict, match="No seat of yours"):
            await services.tables.reclaim(players[1 - seat], authority.table_id)
        await settle(authority)
        await services.tables.reclaim(players[seat], authority.table_id)
        assert authority.seats[seat].player_id == players[seat].id and not authority.abandoned
        assert (await stored_row(services, authority.table_id)).abandoned is None
        [mine] = await services.tables.tables_of(players[seat])
        assert not mine["taken_over"]
        welcomes = [f for f in watcher.frames if f["type"] == "welcome"]
        assert len(welcomes) >= 3  # the takeover and the reclaim welcomed every viewer again


async def test_a_move_in_time_stops_the_alarm_and_a_late_ring_changes_nothing(
    database_url: str,
) -> None:
    time = ManualTime()
    async with running(database_url, time) as services:
        authority, players = await connected_timed_table(services)
        seat = on_move(authority)
        before = authority.version
        await time.advance(89, authority)  # one second to spare: 59 s of the bank spent
        await authority.act(players[seat].id, before, await legal_move(authority, seat))
        assert authority.turn_clock is not None and authority.turn_clock.version == before + 1
        assert authority.turn_clock.banks[seat] == 1.0
        await authority.ask(Timeout(before))  # the old clock's alarm, had it rung
        await time.advance(1, authority)
        assert all(bot_level(h.player_id) is None for h in authority.seats.values())
        assert not authority.abandoned and time.pending() == 1  # only the new turn's alarm


async def test_a_move_keeps_the_alarm_and_it_waits_for_the_new_deadline(
    database_url: str,
) -> None:
    time = ManualTime()
    async with running(database_url, time) as services:
        authority, players = await connected_timed_table(services)
        await every_seat_acts(authority, players)
        seat = on_move(authority)
        await time.advance(10, authority)
        alarms = time.alarms_set
        await authority.act(players[seat].id, authority.version, await legal_move(authority, seat))
        # The alarm set for the old deadline (90 s) stays; no other is set for the new one.
        assert time.alarms_set == alarms and time.pending() == 1
        mover = on_move(authority)
        await time.advance(80, authority)  # the old deadline: the alarm rings and waits on
        assert not authority.abandoned and time.pending() == 1
        assert time.alarms_set == alarms + 1
        await time.advance(9.9, authority)
        assert not authority.abandoned  # 0.1 s to go
        await time.advance(0.2, authority)  # the new deadline: the seat on move is taken over
        assert bot_level(authority.seats[mover].player_id) == "medium"
        assert authority.abandoned[mover].player_id == players[mover].id


async def test_a_forfeit_on_time_is_a_resignation_in_the_log(database_url: str) -> None:
    time = ManualTime()
    async with running(database_url, time) as services:
        authority, players = await timed_table(services, on_timeout="forfeit")
        await every_seat_acts(authority, players)
        seat = on_move(authority)
        assert authority.match_id is not None
        await time.advance(90, authority)
        assert authority.state is not None and authority.state.match_over
        assert authority.state.match_winner == 1 - seat
        async with services.tables.sessions() as session:
            log = await match_store.actions_of_match(session, authority.match_id)
        assert [(row.seat, row.action) for row in log][-1] == (seat, {"type": "resign"})
        entries = await abandonments(services, authority.match_id)
        assert [(e["seat"], e["consequence"]) for e in entries] == [(seat, "forfeit")]
        assert authority.turn_clock is not None and authority.turn_clock.seat is None


async def test_a_deadline_that_passed_while_the_server_was_down_fires_once_on_start(
    database_url: str,
) -> None:
    time = ManualTime()
    async with running(database_url, time) as services:
        authority, players = await timed_table(services)
        await every_seat_acts(authority, players)
        table_id, match_id = authority.table_id, authority.match_id
        seat = authority.state.to_move if authority.state else None
    assert match_id is not None and seat is not None
    later = ManualTime(T0 + 3600)  # the server comes back an hour later
    for _ in range(2):  # and once more: the consequence is not applied twice
        # (the computer player does not get to move before the server stops again)
        async with running(database_url, later, bot_pause=60.0) as services:
            authority = await services.tables.authority(table_id)
            await later.advance(0, authority)
            assert bot_level(authority.seats[seat].player_id) == "medium"
            assert len(await abandonments(services, match_id)) == 1
