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


def test_a_king_or_queen_led_without_its_marriage_keeps_the_partner_out_of_worlds():
    """Players declare a marriage whenever they lead from one: a king (or queen) led bare
    makes the partner unlikely in the leader's hand. Worlds leave it out while the cards
    allow; the knowledge's facts (``opponent_allowed``) never rule it out."""
    rules = preset("schnapsen")
    rng = random.Random(4)
    checked = 0
    for d in range(60):
        state = new_deal(rules, seed=f"bare-{d}", dealer=d % 2)
        while not state.deal_over:
            actions = legal_actions(state)
            if state.trick and len(state.stock) >= 4 and state.closed_by is None:
                led = state.trick[0][1]
                partner = {"K": "Q", "Q": "K"}.get(led.rank)
                declared = any(suit == led.suit for _, suit, _ in state.marriages)
                k = Knowledge.from_view(view(state, state.to_move))
                bit = 1 << card_id(f"{partner}{led.suit}") if partner else 0
                if bit & k.unseen and not declared:
                    assert k.opponent_unlikely & bit and k.opponent_allowed & bit
                    for world in sample_positions(k, 20, rng):
                        assert not world.hands[1 - state.to_move] & bit
                    checked += 1
            plain = [a for a in actions if not getattr(a, "marriage", False)]
            state, _ = apply(state, rng.choice(plain or actions))
    assert checked > 5
