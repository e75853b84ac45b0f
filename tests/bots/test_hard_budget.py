"""The hard bot scales its playout work to the time it measures: on a slow (loaded) machine
it stops after the first round instead of overrunning, on a fast one it plays every round."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from app.bots import hard
from app.bots.knowledge import Knowledge
from app.engine import new_deal, preset, view


class Clock:
    """A fake ``time.perf_counter`` that moves ``step`` seconds at every reading."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def opening_view() -> dict[str, Any]:
    state = new_deal(preset("schnapsen"), seed="budget", dealer=0)
    return view(state, state.to_move)


def rounds_played(monkeypatch: pytest.MonkeyPatch, step: float) -> tuple[int, int]:
    """How many playout rounds and worlds one decision plays when each clock reading
    advances ``step`` seconds (the budget is 0.15 s)."""
    calls: list[int] = []
    real_round = hard._playout_round

    def counting(k: Knowledge, columns: np.ndarray, count: int, *rest: Any) -> np.ndarray:
        calls.append(count)
        return real_round(k, columns, count, *rest)

    monkeypatch.setattr(hard, "_playout_round", counting)
    monkeypatch.setattr(hard.time, "perf_counter", Clock(step))
    seen = opening_view()
    assert hard.choose(seen, random.Random(0), 0.15) in seen["legal"]
    return len(calls), sum(calls)


def test_on_a_slow_machine_only_the_first_round_is_played(monkeypatch):
    rounds, _ = rounds_played(monkeypatch, step=0.05)
    assert rounds == 1


def test_on_a_fast_machine_the_rounds_go_on_up_to_the_playout_cap(monkeypatch):
    rounds, worlds = rounds_played(monkeypatch, step=0.0)
    legal = len(opening_view()["legal"])
    assert rounds > 1
    assert worlds * hard.PLAYOUTS * legal >= hard.MAX_PLAYOUT_ROWS or worlds == hard.MAX_WORLDS


@pytest.mark.parametrize(("step", "worlds"), [(1.0, 1), (0.0, 5)])
def test_the_search_at_larger_tables_plays_as_many_worlds_as_its_clock_allows(
    monkeypatch, step, worlds
):
    """Three-hand: a clock that runs past the deadline at once gets one world, a stopped one
    gets every world allowed."""
    from app.bots import sampling
    from app.bots.seen import Seen

    monkeypatch.setattr(sampling.time, "perf_counter", Clock(step))
    monkeypatch.setattr(sampling, "MAX_WORLDS", 5)
    dealt = []
    original = Seen.world

    def counting(self, rng):
        dealt.append(1)
        return original(self, rng)

    monkeypatch.setattr(Seen, "world", counting)
    state = new_deal(preset("three-hand"), seed="budget", dealer=0)
    seen = view(state, state.to_move)
    assert sampling.choose(seen, random.Random(1), 0.15) in seen["legal"]
    assert len(dealt) == worlds + 1  # one more for the policy's own choice
