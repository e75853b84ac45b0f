"""Every bot plays only legal actions, in every preset and with several house rules."""

from __future__ import annotations

import random

import pytest

from app.bots.choose import BOTS
from app.engine import PRESETS, apply, new_deal, preset, view

OPTIONS = [
    {},
    {"claim": "manual"},
    {"strict": "follow", "marriages_in_strict_phase": True, "exchange_needs_trick": False},
]

TWO_PLAYER = [name for name in PRESETS if preset(name).players == 2]
"""The bots play two-player games only."""


def play(variant, options, levels, deals, seed):
    """Play deals with the bot of ``levels[s]`` in seat ``s``; check each action is legal."""
    rules = preset(variant, **options)
    rng = random.Random(seed)
    kinds = set()
    for d in range(deals):
        state = new_deal(rules, seed=f"legal-{seed}-{d}", dealer=d % 2)
        while not state.deal_over:
            seat = state.to_move
            seen = view(state, seat)
            action = BOTS[levels[seat]](seen, rng, 0.05)
            assert action in seen["legal"], f"{levels[seat]} chose {action} ({variant} {options})"
            kinds.add(action["type"] + ("+marriage" if action.get("marriage") else ""))
            state, _ = apply(state, action)
    return kinds


@pytest.mark.parametrize("variant", TWO_PLAYER)
@pytest.mark.parametrize("options", range(len(OPTIONS)))
def test_easy_and_medium_play_only_legal_actions(variant, options):
    kinds = play(variant, OPTIONS[options], ("medium", "easy"), 300, seed=options)
    kinds |= play(variant, OPTIONS[options], ("medium", "medium"), 300, seed=10 + options)
    assert {"play", "play+marriage", "close"} <= kinds
    if OPTIONS[options].get("claim") == "manual":
        assert "claim" in kinds


@pytest.mark.parametrize("variant", TWO_PLAYER)
@pytest.mark.parametrize("options", range(len(OPTIONS)))
def test_expert_plays_only_legal_actions(variant, options):
    """The expert's deeper exact search (through the last draws of an open stock) included."""
    kinds = play(variant, OPTIONS[options], ("expert", "hard"), 2, seed=40 + options)
    assert "play" in kinds


@pytest.mark.parametrize("variant", TWO_PLAYER)
@pytest.mark.parametrize("options", range(len(OPTIONS)))
def test_hard_plays_only_legal_actions(variant, options):
    kinds = play(variant, OPTIONS[options], ("hard", "medium"), 4, seed=20 + options)
    assert "play" in kinds
