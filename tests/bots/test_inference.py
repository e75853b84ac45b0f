"""The hard bot at tables without a stock ranks sampled worlds by how well they explain the
opponents' bids and cards, read as the rules-based policy's (``app.bots.inference``)."""

from __future__ import annotations

import random

import pytest

from app.bots import medium
from app.bots.inference import likely_world, misfits
from app.bots.seen import Seen
from app.engine import Action, apply, new_deal, preset, view


def medium_positions(variant: str, deals: int):
    """Every position of ``deals`` deals played by the medium bot in every seat."""
    rules = preset(variant)
    for i in range(deals):
        state = new_deal(rules, seed=f"inference-{i}", dealer=i % rules.players)
        rng = random.Random(i)
        while not state.deal_over:
            seen = dict(view(state, state.to_move))
            yield state, Seen.from_view(seen)
            state, _ = apply(state, Action.from_json(medium.choose(seen, rng)))


@pytest.mark.parametrize("variant", ["three-hand", "four-hand"])
def test_the_true_deal_explains_the_medium_bots_play_and_random_worlds_often_do_not(variant):
    rng = random.Random(3)
    unexplained = 0
    for state, seen in medium_positions(variant, 6):
        assert misfits(seen, state) == 0
        unexplained += misfits(seen, seen.world(rng)) > 0
    assert unexplained > 10


def test_likely_world_prefers_a_world_that_explains_the_play():
    rng = random.Random(5)
    better = 0
    for _, seen in medium_positions("three-hand", 2):
        plain = [misfits(seen, seen.world(rng)) for _ in range(10)]
        chosen = [misfits(seen, likely_world(seen, rng)) for _ in range(10)]
        assert sum(chosen) <= sum(plain)
        better += sum(chosen) < sum(plain)
    assert better > 5
