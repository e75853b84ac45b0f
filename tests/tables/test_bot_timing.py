"""A bot's timing tells nothing about its cards: the hard bot used to answer at once with one
legal card after a fixed pause, so a player could tell "the computer had only one legal card".

Time here is a test clock: ``sleep`` moves it on, and the bot's "thinking" moves it on by as
much as the real bots' decisions differ (none with one legal move, most of the budget with
many). Nothing depends on the machine's speed.
"""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from app.bots import choose_action
from app.engine import apply, new_deal, preset, view
from app.tables.bots import BotSeats

PAUSE_S, JITTER_S, BUDGET_S = 0.6, 0.8, 0.15
TURNS = 100


class FakeClock:
    """A clock that only moves when told: by ``sleep`` and by the bot's thinking."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        assert seconds >= 0
        self.now += seconds


def position(legal_count: int) -> dict[str, Any]:
    """The view of a seat on move with exactly one legal action, or with at least four."""
    rng = random.Random(66)
    for deal in range(1_000):
        state = new_deal(preset("sixty-six"), seed=f"timing-{deal}")
        while not state.deal_over:
            seen = view(state, state.to_move)
            playable = [a for a in seen["legal"] if a["type"] != "resign"]
            if (len(playable) == 1) == (legal_count == 1) and len(playable) >= min(legal_count, 4):
                return {**seen, "legal": playable}
            state, _ = apply(state, rng.choice(playable), state.to_move)
    raise AssertionError("no such position")


def thinking_bot(clock: FakeClock):  # type: ignore[no-untyped-def]
    """A real bot (the medium one, quick in real time) whose thinking takes test-clock time
    as the hard bot's does: none for one legal move, nearly the whole budget for several."""

    def choose(seen: dict[str, Any], level: str, rng: random.Random, budget: float) -> Any:
        action = choose_action(seen, level, rng, budget)
        clock.now += 0.0 if len(seen["legal"]) == 1 else budget * 0.9
        return action

    return choose


async def turn_times(seen: dict[str, Any], seed: int) -> list[float]:
    """How long each of ``TURNS`` bot turns at ``seen`` takes from start to move."""
    clock = FakeClock()
    seats = BotSeats(
        lambda: ThreadPoolExecutor(1),
        PAUSE_S,
        BUDGET_S,
        choose=thinking_bot(clock),
        jitter_s=JITTER_S,
        clock=clock,
        sleep=clock.sleep,
        delays=random.Random(seed),
    )
    times = []
    try:
        for _ in range(TURNS):
            started = clock.now
            action = await seats.paced(seats.decide(seen, "medium", "table"))
            assert action in seen["legal"]
            times.append(clock.now - started)
    finally:
        await seats.close()
    return times


async def test_one_legal_move_and_many_take_the_same_time() -> None:
    one, many = position(1), position(4)
    assert len(one["legal"]) == 1 and len(many["legal"]) >= 4
    forced, chosen = await turn_times(one, seed=7), await turn_times(many, seed=7)
    # Drawn from the same generator, the delays are the same numbers: the position changes
    # nothing a player can time.
    assert forced == chosen
    # Jittered, human-like: spread over [pause, pause + jitter], not one fixed value.
    assert all(PAUSE_S <= t <= PAUSE_S + JITTER_S for t in forced)
    assert max(forced) - min(forced) > JITTER_S / 2
    assert len({round(t, 6) for t in forced}) > TURNS // 2


async def test_the_delay_is_drawn_before_the_bot_looks_at_its_cards() -> None:
    """Different seeds give different delays, the same seed the same ones, whatever the
    bot's decisions drew from their own generator meanwhile."""
    many = position(4)
    first, again = await turn_times(many, seed=1), await turn_times(many, seed=1)
    other = await turn_times(many, seed=2)
    assert first == again and first != other


async def test_a_turn_cancelled_as_its_decision_completes_is_cancelled() -> None:
    """A server stopping cancels its bots' turns; a cancellation that arrives just as the
    decision completes must not be lost (the turn would then wait out its whole delay, and
    the server's shutdown with it)."""
    seats = BotSeats(
        lambda: ThreadPoolExecutor(1),
        3600.0,
        BUDGET_S,
        choose=lambda seen, *_: seen["legal"][0],
    )
    seen, rng = position(4), random.Random(5)
    try:
        for _ in range(300):
            turn = asyncio.ensure_future(seats.paced(seats.decide(seen, "easy", "table")))
            await asyncio.sleep(rng.choice([0, 0, 0.0002, 0.0005, 0.001]))
            turn.cancel()
            await asyncio.wait([turn], timeout=2)
            assert turn.cancelled(), "the cancellation was lost"
    finally:
        await seats.close()


async def expert_turn_times(seen: dict[str, Any], budgets: list[float]) -> list[float]:
    """Turn times of an expert seat whose thinking takes nearly twice its budget (none with
    one legal move), the longest it may take before it is cut off."""
    clock = FakeClock()

    def long_thinker(seen: dict[str, Any], level: str, rng: random.Random, budget: float) -> Any:
        budgets.append(budget)
        clock.now += 0.0 if len(seen["legal"]) == 1 else budget * 1.95
        return seen["legal"][0]

    seats = BotSeats(
        lambda: ThreadPoolExecutor(1),
        PAUSE_S,
        BUDGET_S,
        choose=long_thinker,
        jitter_s=JITTER_S,
        expert_budget_s=1.0,
        expert_pause_s=2.2,
        clock=clock,
        sleep=clock.sleep,
        delays=random.Random(3),
    )
    times = []
    try:
        for _ in range(20):
            started = clock.now
            await seats.paced(seats.decide(seen, "expert", "table"), "expert")
            times.append(clock.now - started)
    finally:
        await seats.close()
    return times


async def test_an_expert_seat_s_longer_thinking_is_hidden_by_its_longer_pause() -> None:
    """The expert thinks with its own budget; its turns last ``expert_pause_s`` plus the
    jitter, so even a think of nearly twice that budget does not show."""
    budgets: list[float] = []
    forced = await expert_turn_times(position(1), budgets)
    chosen = await expert_turn_times(position(4), budgets)
    assert set(budgets) == {1.0}
    assert forced == chosen
    assert all(2.2 <= t <= 2.2 + JITTER_S for t in chosen)
