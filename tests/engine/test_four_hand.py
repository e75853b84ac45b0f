"""Four-hand partnership 66 with bidding (seed 001, RULES.md section 3): partners across, 6 cards
each, no stock, bidding from the dealer's left, the first card led names trump, strict play."""

from __future__ import annotations

import pytest

from app.engine import (
    Action,
    Illegal,
    IllegalAction,
    Termination,
    apply,
    legal_actions,
    new_match,
    preset,
    view,
)
from app.engine.dealing import deck_for

from .helpers import arrange, codes, run

HANDS = {
    0: "AS TS KS QS AH TH",
    1: "9S JS 9H JH QH KH",
    2: "AC TC KC QC AD TD",
    3: "9C JC 9D JD QD KD",
}


def deal(**options: object):
    """Dealer 3: seat 0 calls first and, with seat 2, is one side; seats 1 and 3 the other."""
    return arrange(HANDS, dealer=3, variant="four-hand", **options)


def refused(state, token: str) -> Illegal:
    from .helpers import move

    with pytest.raises(IllegalAction) as info:
        apply(state, move(token))
    return info.value.code


def test_bidding_starts_at_the_dealers_left_and_each_call_must_go_higher():
    state = deal()
    assert state.bidding and state.to_move == 0 and state.trump == ""
    assert codes(legal_actions(state)) == ["bid1", "bid2", "bid3", "bid4", "bid5", "pass"]
    assert refused(state, "AS") is Illegal.BIDDING_NOT_OVER
    state, _ = run(state, "bid2")
    assert state.to_move == 1 and state.high_bid == (0, 2)
    assert codes(legal_actions(state)) == ["bid3", "bid4", "bid5", "pass"]
    assert refused(state, "bid2") is Illegal.BID_TOO_LOW
    assert refused(state, "bid1") is Illegal.BID_TOO_LOW
    seen = view(state, 3)
    assert seen["bids"] == [{"seat": 0, "level": 2}] and seen["high_bid"] == {"seat": 0, "level": 2}
    assert seen["bidding"] and seen["trump"] is None


def test_a_pass_is_final_and_a_partners_higher_bid_replaces_the_sides_bid():
    state, _ = run(deal(), "bid1 pass bid2 pass")
    assert state.to_move == 0 and state.bidding  # seat 1 passed: it is skipped
    state, events = run(state, "pass")
    assert not state.bidding and state.high_bid == (2, 2) and state.to_move == 2
    assert events[-1].type == "bidding_over" and events[-1].data["sitting_out"] is None
    assert refused(state, "bid3") is Illegal.NOT_BIDDING_PHASE


def test_all_pass_the_deal_is_redealt_by_the_next_dealer():
    state = new_match(preset("four-hand"), seed="passes", dealer=3)
    state, _ = run(state, "pass pass pass pass")
    result = state.deal_results[-1]
    assert result.termination is Termination.ALL_PASSED and result.winner is None
    assert state.game_points == (0, 0) and state.deal_no == 2 and state.dealer == 0
    assert state.bidding and state.to_move == 1


def test_option_all_pass_the_same_dealer_deals_again():
    state = new_match(preset("four-hand", all_pass="same_dealer"), seed="passes", dealer=3)
    state, _ = run(state, "pass pass pass pass")
    assert state.deal_no == 2 and state.dealer == 3 and state.to_move == 0


def test_the_highest_bidder_leads_and_the_first_card_led_names_trump():
    state, _ = run(deal(), "bid1 pass pass pass")
    state, events = run(state, "AH")
    assert state.trump == "H" and any(e.type == "trump_named" for e in events)
    # strict play from the first trick: seat 1 must head the ace if able (it cannot), so a heart
    assert sorted(codes(legal_actions(state))) == ["9H", "JH", "KH", "QH"]


def test_a_marriage_counts_only_when_shown_and_made_bid_scores_its_level():
    state, _ = run(deal(), "bid1 pass pass pass")
    state, events = run(state, "KS*")  # names spades trump: the trump marriage, 40
    declared = next(e for e in events if e.type == "marriage_declared")
    assert declared.data["points"] == 40 and not declared.data["credited"]
    state, _ = run(state, "9S QC 9C")  # seat 0 wins 7 and its 40 is credited: 47 of 33
    result = state.deal_results[-1]
    assert result.termination is Termination.BID_MADE and result.winner == 0
    assert result.game_points == (1, 0) and result.bid == (0, 1)
    assert result.scores[0] == 47


def test_a_marriage_not_shown_does_not_count():
    state, _ = run(deal(), "bid1 pass pass pass")
    state, _ = run(state, "KS 9S QC 9C")
    assert not state.deal_over and state.side_score(0) == 7  # the queen of spades counts nothing


def failed_bid4(**options: object):
    """Seat 1 bids 4 and fails (seats 0 and 2 defend); the deal's result."""
    state, _ = run(deal(**options), "pass bid4 pass pass")
    assert state.to_move == 1
    while not state.deal_over:
        state, _ = apply(state, legal_actions(state)[0])  # plays first: never a marriage
    result = state.deal_results[-1]
    assert result.termination is Termination.BID_FAILED and result.winner == 0
    return result


def test_a_failed_bid_gives_its_level_to_the_defenders():
    assert failed_bid4().game_points == (4, 0)


def test_option_a_failed_bid_is_taken_off_the_bidders_and_the_defenders_score_nothing():
    assert failed_bid4(failed_bid="bidders_lose").game_points == (0, -4)


def test_option_the_defenders_score_their_own_made_levels():
    result = failed_bid4(defenders_score=True, failed_bid="bidders_lose")
    defenders = result.scores[0] + result.scores[2]
    assert defenders >= 33 and result.game_points == (min(4, defenders // 33), -4)
    both = failed_bid4(defenders_score=True)
    assert both.game_points == (4 + min(4, defenders // 33), 0)


def test_a_stored_record_without_failed_bid_keeps_the_bidders_losing():
    from app.engine import Rules

    old = preset("four-hand").options()
    del old["failed_bid"]
    assert Rules.from_stored("four-hand", old).failed_bid == "bidders_lose"
    assert Rules.from_stored("four-hand", {**old, "failed_bid": "defenders_gain"}).failed_bid == (
        "defenders_gain"
    )
    two = preset("sixty-six").options()
    del two["failed_bid"]
    assert Rules.from_stored("sixty-six", two) == preset("sixty-six")


def test_luna_the_partner_sits_out_and_the_bidder_takes_every_trick():
    state, events = run(deal(), "bid5")
    assert not state.bidding and state.sitting_out == 2 and state.to_move == 0
    assert events[-1].data == {"seat": 0, "level": 5, "sitting_out": 2}
    state, _ = run(state, "AS")
    assert state.to_move == 1
    state, _ = run(state, "9S JD")  # seat 3 follows seat 1: seat 2 sits out
    assert len(state.history[-1][0]) == 3 and state.to_move == 0
    for lead in ("TS", "KS", "QS", "AH", "TH"):
        assert not state.deal_over
        state, _ = apply(state, Action.play(lead))
        for _ in range(2):
            state, _ = apply(state, legal_actions(state)[0])
    result = state.deal_results[-1]
    assert result.termination is Termination.BID_MADE and result.game_points == (5, 0)
    assert len(state.hands[2]) == 6 and state.tricks_won[0] == 6


def test_luna_fails_at_the_first_trick_the_defenders_score_it():
    for options, points in (({}, (5, 0)), ({"failed_bid": "bidders_lose"}, (0, -5))):
        state, _ = run(deal(**options), "pass bid5")
        assert state.sitting_out == 3 and state.to_move == 1
        state, _ = run(state, "9S QC AS")
        result = state.deal_results[-1]
        assert result.termination is Termination.BID_FAILED and result.game_points == points


def test_option_luna_needs_only_66():
    script = "bid5 KS* 9S JD AS JS QD TS 9H KD"  # 6 + 40, then 16: 62, then 14: 76
    state, _ = run(deal(luna="sixty_six"), script)
    result = state.deal_results[-1]
    assert result.termination is Termination.BID_MADE and result.game_points == (5, 0)
    assert sum(state.tricks_won) == 3
    state, _ = run(deal(), script)  # by default every trick is needed: play goes on
    assert not state.deal_over and state.side_score(0) == 76


def test_partners_hands_are_hidden_from_each_other():
    state, _ = run(deal(), "bid1 pass pass pass")
    seen = view(state, 2)
    assert seen["hand"] == HANDS[2].split() and seen["hand_counts"] == [6, 6, 6, 6]
    text = str(seen)
    assert not any(card in text for card in HANDS[0].split())


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"claim": "manual"}, "option claim"),
        ({"partners": False}, "option partners"),
        ({"players": 3}, "option players must be 4"),
        ({"exchange_needs_trick": False}, "option exchange_needs_trick"),
    ],
)
def test_options_that_make_no_sense_for_four_hand_are_refused(options, words):
    with pytest.raises(ValueError, match=words):
        preset("four-hand", **options)


def test_four_hand_is_dealt_from_the_dealers_left_without_a_trump_card():
    rules = preset("four-hand")
    deck = deck_for(rules, HANDS, dealer=3)
    assert [c.code for c in deck[:3]] == HANDS[0].split()[:3]
    with pytest.raises(ValueError, match="turns no card"):
        deck_for(rules, HANDS, trump="AS", dealer=3)
