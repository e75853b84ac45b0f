"""Positions that once made the hard bot fail: the knowledge must stay consistent with the
count of cards even when the view carries a fact it should not (a stale shown card)."""

from __future__ import annotations

import random
from typing import Any

from app.bots import hard
from app.bots.knowledge import Knowledge, sample_positions
from app.engine import apply, legal_actions, new_deal, preset, view


def exhausted_stock_view(seed: str) -> dict[str, Any] | None:
    """A sixty-six view after the stock is exhausted, with the opponent having played a card
    in the strict phase and the viewer on move with a choice."""
    rng = random.Random(seed)
    state = new_deal(preset("sixty-six"), seed=seed, dealer=0)
    while not state.deal_over:
        seat = state.to_move
        seen = view(state, seat)
        strict = [t for t in seen["tricks"][6:] if t["cards"][0]["seat"] != seat]
        if seen["stock"] == 0 and strict and not seen["trick"] and len(seen["legal"]) > 1:
            return seen
        state, _ = apply(state, rng.choice(legal_actions(state)))
    return None


def with_stale_shown_card(seen: dict[str, Any]) -> dict[str, Any]:
    """The view as an engine that forgot to drop a played card from ``shown`` gave it (a
    card shown for a marriage and known from an exchange, then played, stayed listed)."""
    opponent = 1 - seen["seat"]
    played = next(
        c["card"] for t in seen["tricks"][6:] for c in t["cards"] if c["seat"] == opponent
    )
    return {**seen, "shown": [*seen["shown"], {"seat": opponent, "card": played}]}


def test_a_stale_shown_card_leaves_nothing_in_an_exhausted_stock() -> None:
    checked = 0
    for n in range(40):
        seen = exhausted_stock_view(f"stale-{n}")
        if seen is None:
            continue
        stale = with_stale_shown_card(seen)
        k = Knowledge.from_view(stale)
        assert k.all_known and not k.stock_open
        for world in sample_positions(k, 8, random.Random(n)):
            assert world.stock == (), "a card was left in the exhausted stock"
            assert world.hands[1 - k.seat].bit_count() == seen["hand_counts"][1 - k.seat]
            assert world.hands[1 - k.seat] & k.played == 0, "a played card is in a hand"
        assert hard.choose(stale, random.Random(n), 0.05) in seen["legal"]
        checked += 1
    assert checked >= 10
