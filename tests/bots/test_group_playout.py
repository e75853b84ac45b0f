"""The rules-based playout of tables of three and four (``group.play_out``) keeps each seat's
unseen cards up to date instead of rebuilding its picture at every move; it must take exactly
the decisions the picture of the full state gives."""

from __future__ import annotations

import random

import pytest

from app.bots import group
from app.engine import State, apply, legal_actions, new_deal, preset

from .test_every_table import IDS, TABLES


def reference_play_out(state: State) -> State:
    """The deal played out with a picture built afresh from the state at every move."""
    while not state.deal_over:
        seat = state.to_move
        assert seat is not None
        picture = group.picture_of_state(state, seat)
        state, _ = apply(state, group.decide(picture, legal_actions(state, seat)))
    return state


@pytest.mark.parametrize(("variant", "options"), TABLES, ids=IDS)
def test_play_out_takes_the_decisions_of_a_fresh_picture(variant, options):
    rules = preset(variant, **options)
    rng = random.Random(7)
    for i in range(12):
        state = new_deal(rules, seed=f"playout-{i}", dealer=i % rules.players)
        for _ in range(rng.randrange(0, 10)):  # from random points of the deal, mid-trick too
            if state.deal_over:
                break
            state, _ = apply(state, rng.choice(legal_actions(state, state.to_move)))
        if state.deal_over:
            continue
        fast, fresh = group.play_out(state), reference_play_out(state)
        assert fast.history == fresh.history
        assert fast.deal_results == fresh.deal_results
