"""Perft regression: legal action sequence counts from fixed seeds, checked in."""

import json

from app.engine import apply, legal_actions, new_deal, preset

from .perft import FIXTURE, counts, perft


def test_perft_counts_match_the_checked_in_fixture():
    assert counts() == json.loads(FIXTURE.read_text())


def test_perft_two_by_hand_in_the_open_phase():
    """Depth 2 from a fresh deal, counted from the rules instead of by recursion."""
    state = new_deal(preset("sixty-six"), seed="perft-1", dealer=0)
    total = 0
    for action in legal_actions(state):
        after = apply(state, action)[0]
        if action.type == "close":
            # the closer is still on lead: a card of its 6, or a marriage (none in strict phase)
            assert after.to_move == state.to_move
            total += 6
        else:
            total += 6  # open phase: every one of the follower's 6 cards may follow
    assert perft(state, 2) == total


def test_four_hand_perft_two_by_hand_in_the_bidding():
    """Depth 2 from a fresh four-hand deal: after a bid of n the next seat has the 5 - n higher
    bids and a pass; after a Luna (5) the bidder leads one of its 6 cards or a marriage; after a
    pass the next seat has all six calls."""
    state = new_deal(preset("four-hand"), seed="perft-1", dealer=0)
    hand = state.hands[1]
    marriages = sum(
        1
        for c in hand
        if c.rank in "KQ"
        and any(o.suit == c.suit and o.rank in "KQ" and o.rank != c.rank for o in hand)
    )
    expected = sum(5 - n + 1 for n in range(1, 5)) + (6 + marriages) + 6
    assert perft(state, 2) == expected
