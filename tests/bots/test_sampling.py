"""The hard bot's search at tables of three and four: which actions it tries and drops."""

from __future__ import annotations

from app.bots.sampling import _behind, _bids_worth_trying
from app.engine import legal_actions, new_deal, preset


def test_an_action_is_dropped_only_when_clearly_behind():
    assert _behind([6.0, 7.0, 6.0, 8.0, 7.0], [0.0, -1.0, 0.0, 1.0, 0.0]) > 0
    assert _behind([6.0, 0.0, 6.0, 0.0], [0.0, 6.0, 0.0, 6.0]) == 0
    assert _behind([1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]) == 0


def test_the_auction_tries_passing_and_the_two_lowest_bids_never_the_luna():
    state = new_deal(preset("four-hand"), seed="bids", dealer=0)
    tried = _bids_worth_trying(legal_actions(state))
    assert [(a.type, a.level) for a in tried] == [("bid", 1), ("bid", 2), ("pass", None)]
    state._set(high_bid=(1, 3))
    tried = _bids_worth_trying(legal_actions(state))
    assert [(a.type, a.level) for a in tried] == [("bid", 4), ("pass", None)]
