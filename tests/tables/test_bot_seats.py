"""Bot seats: a bot sees only its seat's view, moves through the authority like a human,
falls back when it fails or overruns, resumes after a restart, and never blocks the loop."""

from __future__ import annotations

import asyncio
import logging
import random
import re
import threading
from collections.abc import Callable
from typing import Any

import pytest

from app.bots import choose_action
from app.engine import State, view
from app.players.bot_players import bot_player_id
from app.services import Services
from app.store import Player
from app.tables import bots as bot_service
from app.tables.authority import TableAuthority
from tests.support import settings_for
from tests.tables.helpers import instant_bot_services  # noqa: F401

WAIT_S = 30.0
CARD = re.compile(r"\b[AKQJT9][CDHS]\b")


async def bot_table(
    services: Services, level: str = "medium", variant: str = "sixty-six"
) -> tuple[TableAuthority, Player]:
    """A live table: a human in seat 0 and a bot of ``level`` in seat 1."""
    anna, _ = await services.tables.create_player("Anna")
    table = await services.tables.create_table(anna, variant, {"target": 3}, "public", {1: level})
    assert table["status"] == "live"
    return await services.tables.authority(table["id"]), anna


async def until(condition: Callable[[], bool]) -> None:
    """Wait (bounded) until ``condition`` holds."""
    async with asyncio.timeout(WAIT_S):
        while not condition():
            await asyncio.sleep(0.005)


def human_on_move_or_over(authority: TableAuthority) -> bool:
    state = authority.state
    return state is not None and (state.match_over or state.to_move == 0)


async def play_match(authority: TableAuthority, human: Player, rng: random.Random) -> State:
    """The human plays random legal actions in seat 0 until the match is over."""
    while True:
        await until(lambda: human_on_move_or_over(authority))
        state = authority.state
        assert state is not None
        if state.match_over:
            return state
        legal = view(state, 0)["legal"]
        await authority.act(human.id, authority.version, rng.choice(legal))


async def test_the_bot_sees_exactly_its_seats_view_and_the_match_ends(services: Services) -> None:
    authority, anna = await bot_table(services, "hard")
    seen: list[bool] = []

    def recording(v: Any, level: str, rng: random.Random, budget: float) -> dict[str, Any]:
        # The bot is on move, so the table cannot change while it thinks.
        assert authority.state is not None
        seen.append(isinstance(v, dict) and v == view(authority.state, 1) and v["seat"] == 1)
        return choose_action(v, level, rng, budget)

    services.bots.choose = recording
    state = await play_match(authority, anna, random.Random(1))
    assert state.match_over and max(state.game_points) >= 3
    assert seen and all(seen), f"{seen.count(False)} of {len(seen)} bot inputs were not the view"


async def test_a_failing_bot_falls_back_to_a_weaker_level_and_logs_no_card(
    services: Services, caplog: pytest.LogCaptureFixture
) -> None:
    authority, anna = await bot_table(services, "hard")
    asked: list[str] = []

    def broken_hard(v: Any, level: str, rng: random.Random, budget: float) -> dict[str, Any]:
        asked.append(level)
        if level == "hard":
            raise RuntimeError(f"broken while holding {v['hand']}")
        return choose_action(v, level, rng, budget)

    services.bots.choose = broken_hard
    with caplog.at_level(logging.WARNING, logger="app.tables.bots"):
        state = await play_match(authority, anna, random.Random(2))
    assert state.match_over
    assert "hard" in asked and "medium" in asked and "easy" not in asked
    failures = [r for r in caplog.records if "falling back" in r.getMessage()]
    assert len(failures) == asked.count("hard")
    assert all("RuntimeError" in r.getMessage() for r in failures)
    assert not any(CARD.search(r.getMessage()) for r in caplog.records)


async def test_an_overrunning_bot_is_cut_off_and_the_next_level_moves(
    services: Services, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bot_service, "SLACK_S", 0.05)
    release = threading.Event()

    def stuck_hard(v: Any, level: str, rng: random.Random, budget: float) -> dict[str, Any]:
        if level == "hard":
            release.wait(WAIT_S)  # never answers in time
        return choose_action(v, level, rng, budget)

    services.bots.choose = stuck_hard
    try:
        with caplog.at_level(logging.WARNING, logger="app.tables.bots"):
            authority, anna = await bot_table(services, "hard")
            start = authority.version
            if authority.state is not None and authority.state.to_move == 0:
                await authority.act(anna.id, start, view(authority.state, 0)["legal"][0])
            await until(lambda: human_on_move_or_over(authority))
    finally:
        release.set()
    assert authority.version > start
    assert any("bot hard failed" in r.getMessage() for r in caplog.records)
    assert any("overran its budget" in r.getMessage() for r in caplog.records)


async def test_another_table_answers_while_a_bot_thinks(services: Services) -> None:
    thinking, release = threading.Event(), threading.Event()

    def slow(v: Any, level: str, rng: random.Random, budget: float) -> dict[str, Any]:
        thinking.set()
        release.wait(WAIT_S)
        return choose_action(v, level, rng, budget)

    services.bots.choose = slow
    bots_table, anna = await bot_table(services, "easy")
    if bots_table.state is not None and bots_table.state.to_move == 0:
        await bots_table.act(anna.id, 0, view(bots_table.state, 0)["legal"][0])
    try:
        await until(thinking.is_set)
        # Two humans at another table play a few moves while the bot is still thinking.
        bela, _ = await services.tables.create_player("Bela")
        cleo, _ = await services.tables.create_player("Cleo")
        table = await services.tables.create_table(bela, "schnapsen", {}, "public")
        await services.tables.join(cleo, table["id"], None, None)
        other = await services.tables.authority(table["id"])
        for _ in range(4):
            assert other.state is not None and other.state.to_move is not None
            seat = other.state.to_move
            player = (bela, cleo)[seat]
            await other.act(player.id, other.version, view(other.state, seat)["legal"][0])
        assert other.version == 4
        assert not release.is_set() and not human_on_move_or_over(bots_table)
    finally:
        release.set()
    await until(lambda: human_on_move_or_over(bots_table))


async def test_a_bot_on_move_resumes_after_a_restart(database_url: str) -> None:
    # First server: the bot waits longer than the test, so it is on move when the server stops.
    first = Services.build(settings_for(database_url, bot_pause=3600.0, bot_workers=0))
    await first.start()
    try:
        authority, anna = await bot_table(first, "medium")
        state = authority.state
        assert state is not None
        if state.to_move == 0:
            await authority.act(anna.id, authority.version, view(state, 0)["legal"][0])
        assert authority.state is not None and authority.state.to_move == 1
        table_id, stopped_at = authority.table_id, authority.version
    finally:
        await first.close()

    second = Services.build(settings_for(database_url, bot_pause=0.0, bot_workers=0))
    assert await second.start() == 1
    try:
        rebuilt = await second.tables.authority(table_id)
        await until(lambda: rebuilt.version > stopped_at)
        state = await play_match(rebuilt, anna, random.Random(3))
        assert state.match_over
    finally:
        await second.close()


async def test_bots_are_given_only_to_empty_seats_by_a_seated_player(services: Services) -> None:
    from app.common.errors import Conflict, Forbidden, Invalid

    anna, _ = await services.tables.create_player("Anna")
    bela, _ = await services.tables.create_player("Bela")
    with pytest.raises(Invalid, match="bots: seat 0"):
        await services.tables.create_table(anna, "sixty-six", {}, "public", {0: "hard"})
    with pytest.raises(Invalid, match="level"):
        await services.tables.create_table(anna, "sixty-six", {}, "public", {1: "brilliant"})
    table = await services.tables.create_table(anna, "sixty-six", {}, "public")
    with pytest.raises(Forbidden):
        await services.tables.add_bot(bela, table["id"], 1, "easy")
    with pytest.raises(Conflict):
        await services.tables.add_bot(anna, table["id"], 0, "easy")
    with pytest.raises(Invalid, match="seat"):
        await services.tables.add_bot(anna, table["id"], 2, "easy")
    started = await services.tables.add_bot(anna, table["id"], 1, "easy")
    assert started["status"] == "live"
    assert started["seats"][1]["name"] == "Computer (easy)"
    assert started["seats"][1]["player_id"] == bot_player_id("easy", 1)
    with pytest.raises(Conflict):
        await services.tables.add_bot(anna, table["id"], 1, "hard")


async def test_each_bot_move_waits_out_the_rest_of_its_turn_delay(database_url: str) -> None:
    """Every bot move goes through the pacing (``tests/tables/test_bot_timing.py`` shows
    that the pacing hides how long the bot thought). The pacing's clock stands still, so each
    wait is the whole delay however loaded the machine is."""
    built = Services.build(
        settings_for(database_url, bot_pause=0.3, bot_pause_jitter=0.0, bot_workers=0)
    )
    slept: list[float] = []
    decisions: list[str] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    def counting(v: Any, level: str, rng: random.Random, budget: float) -> dict[str, Any]:
        decisions.append(level)
        return choose_action(v, level, rng, budget)

    built.bots.sleep = sleep
    built.bots.clock = lambda: 0.0
    built.bots.choose = counting
    await built.start()
    try:
        authority, anna = await bot_table(built, "medium")
        state = await play_match(authority, anna, random.Random(3))
    finally:
        await built.close()
    assert state.match_over
    # One wait per bot move, each the whole 0.3 s the clock left. (A match to three game
    # points can end after as few as two moves of the bot: one deal won for three.)
    assert decisions and set(decisions) == {"medium"}  # no move fell back and decided twice
    assert slept == [0.3] * len(decisions)


async def test_a_round_of_computer_turns_pauses_once(database_url: str) -> None:
    """At three seats, a bot's turn straight after another bot's move takes the short follow
    pause; a turn after the human's move takes the whole pause. The pacing's clock stands
    still, so each wait is the whole delay however loaded the machine is."""
    built = Services.build(
        settings_for(
            database_url, bot_pause=0.3, bot_follow_pause=0.1, bot_budget=0.05, bot_workers=0
        )
    )
    slept: list[float] = []
    movers: list[str] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    built.bots.sleep = sleep
    built.bots.clock = lambda: 0.0
    await built.start()
    try:
        anna, _ = await built.tables.create_player("Anna")
        bots = {1: "medium", 2: "medium"}
        table = await built.tables.create_table(anna, "three-hand", {"target": 2}, "public", bots)
        authority = await built.tables.authority(table["id"])
        act = authority.act

        async def recording(player_id: str, *args: Any, **kwargs: Any) -> Any:
            movers.append(player_id)
            return await act(player_id, *args, **kwargs)

        authority.act = recording  # type: ignore[method-assign]
        state = await play_match(authority, anna, random.Random(5))
    finally:
        await built.close()
    assert state.match_over
    # Each bot move's wait, by who moved just before it (the table's first move has nobody).
    expected = [
        0.1 if before is not None and before != anna.id else 0.3
        for before, mover in zip([None, *movers], movers, strict=False)
        if mover != anna.id
    ]
    assert slept == expected
    assert 0.1 in slept and 0.3 in slept
