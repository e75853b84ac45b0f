"""A seat's knowledge, worked out from its view alone, agrees with the true hidden state."""

from __future__ import annotations

import random

import pytest

from app.bots.cards import card_id, mask_of
from app.bots.knowledge import Knowledge, sample_positions
from app.engine import apply, legal_actions, new_deal, preset, view

CONFIGS = [
    ("sixty-six", {}),
    ("schnapsen", {}),
    ("german-32", {}),
    ("sixty-six", {"claim": "manual", "strict": "follow"}),
]


@pytest.mark.parametrize("config", range(len(CONFIGS)))
def test_knowledge_counts_scores_and_never_rules_out_the_true_cards(config):
    variant, options = CONFIGS[config]
    rules = preset(variant, **options)
    rng = random.Random(config)
    voids_seen = 0
    for d in range(150):
        state = new_deal(rules, seed=f"know-{config}-{d}", dealer=d % 2)
        while not state.deal_over:
            seat, opp = state.to_move, 1 - state.to_move
            k = Knowledge.from_view(view(state, seat))
            assert k.card_points == state.card_points
            assert k.marriages == state.marriage_points
            assert k.pending == state.pending
            assert k.tricks == state.tricks_won
            if state.frozen is not None:
                assert k.frozen == tuple(state.frozen)
            opponent_hand = mask_of(c.code for c in state.hands[opp])
            assert opponent_hand & ~k.opponent_allowed == 0, "a card it holds was ruled out"
            assert k.opponent_known & ~opponent_hand == 0
            hidden = state.stock[:-1] if state.trump_under else state.stock
            assert k.unseen == opponent_hand | mask_of(c.code for c in hidden)
            voids_seen += k.opponent_allowed != (1 << 32) - 1
            for world in sample_positions(k, 2, rng):
                assert world.hands[seat] == mask_of(c.code for c in state.hands[seat])
                assert world.hands[opp].bit_count() == len(state.hands[opp])
                assert world.hands[opp] & ~k.opponent_allowed == 0
                assert len(world.stock) == len(state.stock)
                if state.trump_under:
                    assert world.stock[-1] == card_id(state.trump_card.code)
            state, _ = apply(state, rng.choice(legal_actions(state)))
    assert voids_seen > 0
