"""Scenario tests from explicit decks: one per rule of RULES.md section 2 and per option value.

Seat 0 deals in every scenario, so seat 1 (the non-dealer) leads the first trick.
"""

import pytest

from app.engine import (
    IllegalAction,
    State,
    Termination,
    apply,
    legal_actions,
    new_deal,
    preset,
    view,
)
from app.engine.events import Event

from .helpers import arrange, codes, move, run

# -- Strict phase: the worked checks of RULES.md section 6 ---------------------------------------

LEADER = "KH JC JD TD KD 9D"


def test_open_phase_every_card_may_follow():
    state, _ = run(arrange({1: LEADER, 0: "AH 9H QS TC 9C AC"}, turned="JS"), "KH")
    assert sorted(codes(legal_actions(state))) == sorted("AH 9H QS TC 9C AC".split())


def test_closed_stock_follower_must_head_the_trick():
    state, _ = run(arrange({1: LEADER, 0: "AH 9H QS TC 9C AC"}, turned="JS"), "close KH")
    assert codes(legal_actions(state)) == ["AH"]
    with pytest.raises(IllegalAction) as low:
        apply(state, move("9H"))
    assert low.value.code == "must_beat"
    with pytest.raises(IllegalAction) as trump:
        apply(state, move("QS"))
    assert trump.value.code == "must_follow_suit"


def test_closed_stock_follower_who_cannot_beat_must_still_follow():
    state, _ = run(arrange({1: LEADER, 0: "9H QS TC 9C AC AD"}, turned="JS"), "close KH")
    assert codes(legal_actions(state)) == ["9H"]


def test_closed_stock_void_follower_must_trump():
    state, _ = run(arrange({1: LEADER, 0: "QS TC 9C AC AD QD"}, turned="JS"), "close KH")
    assert codes(legal_actions(state)) == ["QS"]
    with pytest.raises(IllegalAction) as info:
        apply(state, move("TC"))
    assert info.value.code == "must_trump"


def test_strict_follow_option_only_requires_the_suit():
    deal = arrange({1: LEADER, 0: "AH 9H QS TC 9C AC"}, turned="JS", strict="follow")
    state, _ = run(deal, "close KH")
    assert sorted(codes(legal_actions(state))) == ["9H", "AH"]
    void = arrange({1: LEADER, 0: "QS TC 9C AC AD QD"}, turned="JS", strict="follow")
    state, _ = run(void, "close KH")
    assert len(legal_actions(state)) == 6


# -- Marriages ---------------------------------------------------------------------------------


def test_marriage_before_a_trick_stays_pending_and_is_credited_with_the_first_trick():
    deal = arrange({1: "KC QC 9D JD 9H JH", 0: "AC TD AD TH AH 9C"}, turned="JS")
    state, events = run(deal, "KC*")
    declared = next(e for e in events if e.type == "marriage_declared")
    assert declared.data == {
        "seat": 1,
        "suit": "C",
        "points": 20,
        "shown": "QC",
        "credited": False,
    }
    assert view(state, 0)["pending_marriages"] == [0, 20]
    assert view(state, 0)["shown"] == [{"seat": 1, "card": "QC"}]
    state, _ = run(state, "AC")  # seat 0 takes the trick: the marriage stays pending
    assert view(state, 0)["scores"] == [15, 0]
    assert view(state, 0)["pending_marriages"] == [0, 20]
    state, events = run(state, "9C QC")  # seat 1 wins its first trick: 20 credited now
    credited = [e for e in events if e.type == "marriage_credited"]
    assert [e.data["points"] for e in credited] == [20]
    seen = view(state, 0)
    assert seen["scores"] == [15, 23]
    assert seen["pending_marriages"] == [0, 0]
    assert seen["shown"] == []  # the shown queen has been played


def test_trump_marriage_is_worth_40():
    deal = arrange({1: "KS QS 9D JD 9H JH", 0: "AC TD AD TH AH 9C"}, turned="JS")
    _, events = run(deal, "QS*")
    assert [e.data["points"] for e in events if e.type == "marriage_declared"] == [40]


def test_marriage_credited_to_a_player_with_a_trick_can_end_the_deal_at_66():
    deal = arrange({1: "AS TS KS QS KH QH", 0: "9C JC QC 9D QD JD"}, turned="JS")
    state, _ = run(deal, "AS QC TS QD")
    assert view(state, 1)["scores"] == [0, 27]
    state, _events = run(state, "KS*")
    assert state.deal_over
    result = state.deal_results[-1]
    assert (result.winner, result.termination, result.game_points) == (
        1,
        Termination.REACHED_66,
        (0, 3),
    )


@pytest.mark.parametrize(
    ("script", "code"),
    [("KD*", "no_marriage"), ("9D*", "no_marriage"), ("QC*", "card_not_in_hand")],
)
def test_bad_marriages_are_rejected(script, code):
    deal = arrange({1: "KC QS 9D JD KD JH", 0: "AC TD AD TH AH 9C"}, turned="JS")
    with pytest.raises(IllegalAction) as info:
        run(deal, script)
    assert info.value.code == code


def test_only_the_leader_declares_a_marriage():
    deal = arrange({1: "9D JD 9H JH 9C JC", 0: "KC QC TD TH AH AC"}, turned="JS")
    state, _ = run(deal, "9D")
    with pytest.raises(IllegalAction) as info:
        apply(state, move("KC*"))
    assert info.value.code == "marriage_not_allowed"


@pytest.mark.parametrize("allowed", [False, True])
def test_marriages_in_strict_phase_follow_the_option(allowed):
    deal = arrange(
        {1: "KC QC 9D JD 9H JH", 0: "AC TD AD TH AH 9C"},
        turned="JS",
        marriages_in_strict_phase=allowed,
    )
    state, _ = run(deal, "close")
    assert ("KC*" in codes(legal_actions(state))) is allowed
    if allowed:
        run(state, "KC*")
    else:
        with pytest.raises(IllegalAction) as info:
            run(state, "KC*")
        assert info.value.code == "marriage_not_allowed"


# -- Trump exchange ----------------------------------------------------------------------------

EXCHANGE_HANDS = {1: "9S JC JD TD KD 9D", 0: "AH 9H QH TC 9C AC"}


def test_exchange_needs_a_won_trick_by_default():
    deal = arrange(EXCHANGE_HANDS, turned="AS")
    assert "exchange" not in codes(legal_actions(deal))
    with pytest.raises(IllegalAction) as info:
        apply(deal, move("exchange"))
    assert info.value.code == "exchange_not_allowed"
    state, _ = run(deal, "JC 9C")  # seat 1 wins a trick and leads again
    assert "exchange" in codes(legal_actions(state))


def test_exchange_swaps_the_trump_nine_for_the_turned_card():
    deal = arrange(EXCHANGE_HANDS, turned="AS", exchange_needs_trick=False)
    state, events = run(deal, "exchange")
    assert [e.for_viewer(0) for e in events] == [
        {"type": "exchange", "seat": 1, "gave": "9S", "took": "AS"}
    ]
    mine = view(state, 1)
    assert "AS" in mine["hand"] and "9S" not in mine["hand"]
    assert mine["trump_card"] == "9S" and mine["to_move"] == 1
    assert view(state, 0)["shown"] == [{"seat": 1, "card": "AS"}]


def test_schnapsen_exchanges_the_trump_jack():
    deal = arrange({1: "JS TC KD QD AH", 0: "AC QH KH TD JD"}, turned="AS", variant="schnapsen")
    state, _ = run(deal, "exchange")
    assert "AS" in [c.code for c in state.hands[1]] and state.trump_card.code == "JS"


def test_a_card_taken_by_exchange_and_shown_again_in_a_marriage_is_listed_once():
    deal = arrange(
        {1: "9S QS JD TD KD 9D", 0: "AH 9H QH TC 9C AC"}, turned="KS", exchange_needs_trick=False
    )
    state, _ = run(deal, "exchange QS*")
    assert view(state, 0)["shown"] == [{"seat": 1, "card": "KS"}]
    state, _ = run(state, "9H")  # seat 1 wins with the trump queen, then leads the king
    state, _ = run(state, "KS")
    assert view(state, 0)["shown"] == []


@pytest.mark.parametrize(
    ("options", "script"),
    [
        ({"exchange_min_stock": 13}, ""),
        ({}, "close"),
    ],
)
def test_exchange_needs_enough_open_stock(options, script):
    deal = arrange(EXCHANGE_HANDS, turned="AS", exchange_needs_trick=False, **options)
    state, _ = run(deal, script)
    with pytest.raises(IllegalAction) as info:
        apply(state, move("exchange"))
    assert info.value.code == "exchange_not_allowed"


# -- Closing -----------------------------------------------------------------------------------


def test_closing_stops_drawing_and_starts_the_strict_phase():
    deal = arrange({1: LEADER, 0: "AH 9H QS TC 9C AC"}, turned="JS")
    state, events = run(deal, "close")
    assert [e.for_viewer(None) for e in events] == [{"type": "closed", "seat": 1}]
    assert view(state, None)["closed"] is True
    state, events = run(state, "KH AH")
    assert [len(h) for h in state.hands] == [5, 5]
    assert not [e for e in events if e.type == "card_drawn"]
    assert len(state.stock) == 12


def test_close_is_refused_with_too_small_a_stock_or_to_the_follower():
    small = arrange({1: LEADER, 0: "AH 9H QS TC 9C AC"}, turned="JS", close_min_stock=13)
    with pytest.raises(IllegalAction) as info:
        apply(small, move("close"))
    assert info.value.code == "close_not_allowed"
    state, _ = run(arrange({1: LEADER, 0: "AH 9H QS TC 9C AC"}, turned="JS"), "KH")
    with pytest.raises(IllegalAction) as info:
        apply(state, move("close"))
    assert info.value.code == "close_not_allowed"


def test_close_is_refused_once_only_two_stock_cards_remain():
    state = arrange({1: LEADER, 0: "AH 9H QS TC 9C AC"}, turned="JS")
    while len(state.stock) > 2:
        plays = [a for a in legal_actions(state) if a.type == "play" and not a.marriage]
        state, _ = apply(state, plays[0])
        assert not state.deal_over
    assert not state.trick
    assert "close" not in codes(legal_actions(state))
    with pytest.raises(IllegalAction) as info:
        apply(state, move("close"))
    assert info.value.code == "close_not_allowed"


FREEZE = {1: "AS TS KS QS AH 9D", 0: "JS TH TC TD 9H AD"}
FREEZE_SCRIPT = "close 9D AD 9H AH AS JS TS TH KS TC QS TD"


@pytest.mark.parametrize("schwarz", ["no_tricks", "zero_points"])
def test_closer_who_goes_out_scores_against_the_points_frozen_at_closing(schwarz):
    state, _ = run(arrange(FREEZE, turned="9S", schwarz=schwarz), FREEZE_SCRIPT)
    result = state.deal_results[-1]
    assert result.termination is Termination.CLOSED
    assert result.winner == 1 and result.scores == (11, 71)
    assert result.tricks == (1, 5)  # seat 0 took a trick after the close...
    assert result.game_points == (0, 3)  # ...but had none (and 0 points) when it was closed


# Seat 1 wins a trick after seat 0 won one, closes, and seat 0 goes out first.
FAILED = {1: "9D AH 9C JC JH QH", 0: "AD 9H AS TS KS QS"}
FAILED_SCRIPT = "9D AD 9H AH close 9C TC AS JH TS QH KS KC QS TD"


@pytest.mark.parametrize(
    ("close_fail", "points"),
    [
        ("opponent_2_or_3", (2, 0)),
        ("closer_minus_3", (0, -3)),
        ("closer_value_min_2", (2, 0)),
    ],
)
def test_failed_close_costs_what_close_fail_says(close_fail, points):
    deal = arrange(FAILED, turned="JS", stock="TC KC TD KD", close_fail=close_fail)
    state, _ = run(deal, FAILED_SCRIPT)
    result = state.deal_results[-1]
    assert result.termination is Termination.CLOSE_FAILED
    assert result.winner == 0 and result.closed_by == 1
    assert result.game_points == points


@pytest.mark.parametrize(
    ("close_fail", "points"),
    [("opponent_2_or_3", (3, 0)), ("closer_minus_3", (0, -3)), ("closer_value_min_2", (3, 0))],
)
def test_failed_close_against_an_opponent_without_a_trick(close_fail, points):
    hands = {1: "9D JD 9C JC 9H JH", 0: "AS TS KS QS AD TD"}
    deal = arrange(hands, turned="9S", close_fail=close_fail)
    state, _ = run(deal, "close 9D AD AS 9C TS 9H KS JC QS JD TD JH")
    result = state.deal_results[-1]
    assert result.termination is Termination.CLOSE_FAILED
    assert result.game_points == points


# -- Claims (manual mode) ---------------------------------------------------------------------

CLAIM_HANDS = {1: "AS TS AH TH KH QH", 0: "9C JC QC 9D JD QD"}


def test_manual_claim_right():
    deal = arrange(CLAIM_HANDS, turned="9S", claim="manual")
    state, events = run(deal, "AS 9C KH* JC TS QC AH 9D TH JD")
    assert not state.deal_over  # 73 points, but nobody claimed yet
    assert view(state, 1)["scores"] is None
    assert all("points" not in e.data for e in events if e.type == "trick_won")
    state, events = run(state, "claim")
    result = state.deal_results[-1]
    assert (result.winner, result.termination, result.game_points) == (
        1,
        Termination.CLAIM,
        (0, 3),
    )
    assert result.scores == (0, 73)
    assert result.claimed == 1 and result.to_json()["claimed"] == 1


@pytest.mark.parametrize(("wrong_claim", "points"), [("opponent_2_or_3", 2), ("claimer_value", 1)])
def test_manual_claim_wrong(wrong_claim, points):
    hands = {1: "AS TS AH 9D JD QD", 0: "9C JC QC 9H JH TD"}
    deal = arrange(hands, turned="9S", claim="manual", wrong_claim=wrong_claim)
    state, _ = run(deal, "AS 9C TS JC AH QC 9D claim")  # seat 0 claims on its move with 0
    result = state.deal_results[-1]
    assert result.termination is Termination.WRONG_CLAIM
    assert result.winner == 1 and result.scores == (0, 37)
    assert result.game_points == (0, points)
    assert result.claimed == 0  # the claimer, not the winner


def test_claim_is_refused_in_automatic_mode():
    with pytest.raises(IllegalAction) as info:
        apply(arrange(CLAIM_HANDS, turned="9S"), move("claim"))
    assert info.value.code == "claim_not_allowed"


# -- Turn order, resign, end of deal and match ----------------------------------------------------


def test_acting_out_of_turn_or_with_a_card_not_held():
    deal = arrange(CLAIM_HANDS, turned="9S")
    with pytest.raises(IllegalAction) as info:
        apply(deal, move("9C"), seat=0)
    assert info.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as info:
        apply(deal, move("9C"))
    assert info.value.code == "card_not_in_hand"
    assert info.value.message == "You do not hold 9C."


def test_resign_ends_the_match_for_the_other_seat_even_out_of_turn():
    state, events = apply(arrange(CLAIM_HANDS, turned="9S"), move("resign"), seat=0)
    assert state.match_over and state.match_winner == 1
    assert [e.type for e in events] == ["resigned", "deal_over", "match_over"]
    with pytest.raises(IllegalAction) as info:
        apply(state, move("AS"))
    assert info.value.code == "match_over"


@pytest.mark.parametrize(("target", "over"), [(7, True), (10, False)])
def test_match_ends_when_the_target_is_reached(target, over):
    deal = arrange(FREEZE, turned="9S", game_points=(0, 6), target=target)
    state, events = run(deal, FREEZE_SCRIPT)
    assert state.game_points == (0, 9)
    assert state.match_over is over and state.deal_over
    assert ("match_over" in [e.type for e in events]) is over
    if not over:
        with pytest.raises(IllegalAction) as info:
            apply(state, move("AS"))
        assert info.value.code == "deal_over"


# -- Played-out deals and the value of a win (explicit decks, RULES.md section 8 order) ----------

PLAYED_OUT_DECK = "AC QD KD JC KH 9H QS KS KC JD TS JS AH AD JH QC 9D TH 9C QH 9S TD TC AS"
PLAYED_OUT_SCRIPT = "AC JC QD KH 9H KD JD QS TS KS JS KC JH AH AD TD 9D TH QC TC 9C QH AS 9S"


@pytest.mark.parametrize(("bonus", "scores"), [(10, (70, 60)), (0, (60, 60))])
def test_the_last_trick_of_a_played_out_stock_earns_the_bonus_and_wins(bonus, scores):
    deal = new_deal(
        preset("sixty-six", last_trick_bonus=bonus), deck=PLAYED_OUT_DECK.split(), dealer=0
    )
    state, events = run(deal, PLAYED_OUT_SCRIPT)
    result = state.deal_results[-1]
    assert result.card_points == (60, 60)
    assert [e.data for e in events if e.type == "last_trick_bonus"] == (
        [{"seat": 0, "points": 10, "score": 70}] if bonus else []
    )
    assert (result.winner, result.termination, result.scores) == (
        0,
        Termination.LAST_TRICK,
        scores,
    )
    assert result.game_points == (1, 0)  # 70 against 60: one point; under 66: one point too


def test_the_last_trick_wins_the_deal_even_with_fewer_card_points():
    deck = "KC KS AC 9S TS AS 9H JS KD 9D JD JH QC QH 9C QS JC TD AH TH AD QD KH TC"
    script = "KC 9S KS TS AS AC 9H 9D JS JD KD JH QH AH 9C JC TD AD QS TC TH KH QD QC"
    state, _ = run(new_deal(preset("sixty-six"), deck=deck.split(), dealer=0), script)
    result = state.deal_results[-1]
    assert result.card_points == (55, 65) and result.scores == (65, 65)
    assert (result.winner, result.game_points) == (0, (1, 0))


def test_one_game_point_when_the_loser_has_33_or_more():
    deck = "9S TS 9H KS JC QD 9C AD JS TD JD JH AH TH KD QH 9D TC AC QC AS KC KH QS"
    script = "9S KS JC TS QD 9H 9C TD AD JD JS JH TH AH KD QH AC TC AS 9D KH QC"
    state, _ = run(new_deal(preset("sixty-six"), deck=deck.split(), dealer=0), script)
    result = state.deal_results[-1]
    assert (result.termination, result.scores) == (Termination.REACHED_66, (66, 47))
    assert result.game_points == (1, 0)


def _plain_plays_until_the_stock_is_gone(variant: str) -> tuple[State, list[Event]]:
    """A deal of ``variant`` played with plain cards (no marriage, exchange or closing) until
    its stock is gone, and the events of the step that took its last card."""
    for seed in range(100):
        state = new_deal(preset(variant), seed=f"turned-{seed}", dealer=0)
        events: list[Event] = []
        while state.stock and not state.deal_over:
            plain = [a for a in legal_actions(state) if a.type == "play" and not a.marriage]
            state, events = apply(state, plain[0])
        if not state.deal_over:
            return state, events
    raise AssertionError("no seed played out its stock")


@pytest.mark.parametrize("variant", ["schnapsen", "sixty-six"])
def test_whoever_draws_the_turned_card_is_known_to_hold_it(variant):
    state, events = _plain_plays_until_the_stock_is_gone(variant)
    (last,) = [e.data for e in events if e.type == "card_drawn" and e.data.get("trump_card")]
    drawer, turned = last["seat"], last["card"]
    for viewer in (0, 1, None):
        assert {"seat": drawer, "card": turned} in view(state, viewer)["shown"]
    played = False
    while not played:  # play it as soon as it may be
        legal = legal_actions(state)
        assert legal, "the deal ended with the turned card still in hand"
        action = next((a for a in legal if a.card and a.card.code == turned), legal[0])
        played = action.card is not None and action.card.code == turned
        state, _ = apply(state, action)
    assert {"seat": drawer, "card": turned} not in view(state, 1 - drawer)["shown"]
