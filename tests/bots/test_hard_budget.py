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


def rounds_played(
    monkeypatch: pytest.MonkeyPatch, step: float, search: hard.Search = hard.HARD
) -> list[int]:
    """The worlds of each playout round one decision plays when each clock reading advances
    ``step`` seconds (the budget is 0.15 s)."""
    calls: list[int] = []
    real_round = hard._playout_round

    def counting(k: Knowledge, columns: np.ndarray, count: int, *rest: Any) -> np.ndarray:
        calls.append(count)
        return real_round(k, columns, count, *rest)

    monkeypatch.setattr(hard, "_playout_round", counting)
    monkeypatch.setattr(hard.time, "perf_counter", Clock(step))
    seen = opening_view()
    assert hard.choose(seen, random.Random(0), 0.15, search) in seen["legal"]
    return calls


def test_on_a_slow_machine_only_the_first_round_is_played(monkeypatch):
    assert len(rounds_played(monkeypatch, step=0.05)) == 1


def test_on_a_fast_machine_the_rounds_go_on_up_to_the_playout_cap(monkeypatch):
    worlds = sum(rounds_played(monkeypatch, step=0.0))
    legal = len(opening_view()["legal"])
    rows = worlds * hard.PLAYOUTS * legal
    assert rows > hard.MAX_PLAYOUT_ROWS - hard.MIN_ROUND_ROWS or worlds == hard.MAX_WORLDS
    assert rows <= hard.MAX_PLAYOUT_ROWS


def test_the_later_rounds_fill_the_time_left(monkeypatch):
    """Each clock reading moves 5 ms: the first round seems to take 5 ms, so the next is as
    large as a round may be, and the rounds stop when the deadline's time runs out (the caps
    on worlds and playouts out of the way)."""
    uncapped = hard.Search(max_playout_rows=10**6, max_worlds=10**6)
    rounds = rounds_played(monkeypatch, step=0.005, search=uncapped)
    per_world = hard.PLAYOUTS * len(opening_view()["legal"])
    assert rounds[0] * per_world <= hard.FIRST_ROUND_ROWS
    assert rounds[1] == hard.MAX_ROUND_ROWS // per_world
    assert 2 < len(rounds) < 0.15 * hard.PLAYOUT_SHARE / 0.005


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
