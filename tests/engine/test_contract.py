"""The engine's contract: one error base, every code enumerated and documented, actions that
check themselves, exhaustive dispatch, outcomes, explicit decks for whole matches."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from app.engine import (
    PRESETS,
    Action,
    ActionError,
    EngineError,
    Illegal,
    IllegalAction,
    Outcome,
    Termination,
    apply,
    deck_for,
    full_deck,
    legal_actions,
    new_deal,
    new_match,
    preset,
    shuffled_deck,
)

from .helpers import arrange, run
from .playing import random_action

PROTOCOL = Path(__file__).parents[2] / "docs" / "protocol.md"


def test_both_errors_share_one_base_that_is_a_value_error():
    assert issubclass(ActionError, EngineError) and issubclass(IllegalAction, EngineError)
    assert issubclass(EngineError, ValueError)
    with pytest.raises(EngineError) as info:
        Action.from_json({"type": "play", "card": "1X"})
    assert info.value.code is Illegal.BAD_ACTION


def test_every_code_is_listed_in_the_protocol_document():
    text = PROTOCOL.read_text()
    listed = set(re.findall(r"`([a-z_]+)`", text))
    missing = [code.value for code in Illegal if code.value not in listed]
    assert not missing, f"docs/protocol.md does not list {missing}"


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"type": "bogus"}, "action type must be one of"),
        ({"type": "play"}, "needs a card"),
        ({"type": "close", "card": "QH"}, "takes no card"),
        ({"type": "close", "marriage": True}, "takes no card"),
        ({"type": "bid", "level": 6}, "from 1 to 5"),
        ({"type": "bid", "level": True}, "from 1 to 5"),
        ({"type": "pass", "level": 2}, "takes no level"),
        ({"type": "play", "card": "QH", "marriage": 1}, "true or false"),
    ],
)
def test_an_action_checks_itself_when_built(fields, words):
    from app.engine.cards import parse_card

    card = parse_card(fields["card"]) if "card" in fields else None
    with pytest.raises(ActionError, match=words) as info:
        Action(fields["type"], card, fields.get("marriage", False), fields.get("level"))
    assert info.value.code == "bad_action"


def test_actions_round_trip_through_json():
    for action in [Action.bid(4), Action.simple("pass"), Action.play("QH", True)]:
        assert Action.from_json(action.to_json()) is action
    with pytest.raises(ActionError):
        Action.from_json({"type": "bid", "level": 2, "card": "QH"})
    with pytest.raises(ActionError):
        Action.simple("bid")


def test_an_unknown_action_never_ends_a_manual_deal_as_a_wrong_claim():
    state = new_deal(preset("sixty-six", claim="manual"), seed="bogus")
    with pytest.raises(ActionError):
        apply(state, {"type": "bogus"})
    forged = object.__new__(Action)  # an action that bypassed its own checks
    for name, value in (("type", "bogus"), ("card", None), ("marriage", False), ("level", None)):
        object.__setattr__(forged, name, value)
    with pytest.raises(IllegalAction) as info:
        apply(state, forged)
    assert info.value.code is Illegal.UNKNOWN_ACTION
    assert not state.deal_over and not state.deal_results


@pytest.mark.parametrize("call", [Action.bid(1), Action.simple("pass")])
def test_bidding_at_a_table_without_bidding_is_refused(call):
    state = new_deal(preset("sixty-six"), seed="no-bids")
    with pytest.raises(IllegalAction) as info:
        apply(state, call)
    assert info.value.code is Illegal.NOT_BIDDING_PHASE


def test_a_finished_deal_and_a_finished_match_have_an_outcome():
    state = arrange({1: "AH TH KH QH JH 9H", 0: "AS TS KS QS JS 9S"}, turned="AC", stock="9C")
    assert state.outcome is None
    state, _ = run(state, "AH 9S KH* TS")  # 11, then the credited 20 and 14: 45
    assert state.outcome is None
    state, _ = run(state, "TH JS QH QS JH KS")  # 57, 63, 69
    assert state.deal_over
    result = state.deal_results[-1]
    assert result.outcome == Outcome(winner=1, termination=Termination.REACHED_66)
    assert state.outcome == result.outcome
    match = new_match(preset("sixty-six", target=1), seed="outcome")
    rng = random.Random(1)
    while not match.match_over:
        match, _ = apply(match, random_action(match, rng))
    assert match.outcome == Outcome(match.match_winner, match.deal_results[-1].termination)
    resigned, _ = apply(new_match(preset("sixty-six"), seed="r"), Action.simple("resign"), 0)
    assert resigned.outcome == Outcome(winner=1, termination=Termination.RESIGN)


def test_a_match_plays_its_explicit_decks_in_order_then_deals_from_its_seed():
    rules = preset("sixty-six", target=20)
    decks = [shuffled_deck(24, f"explicit-{k}") for k in range(3)]
    state = new_match(rules, seed="m", dealer=0, decks=decks)
    rng = random.Random(3)
    seen = {}
    while state.deal_no <= 4:
        seen.setdefault(state.deal_no, (state.hands, state.trump_card, state.deal_seed))
        state, _ = apply(state, random_action(state, rng))
    for k in range(3):
        again = new_deal(rules, deck=decks[k], dealer=k % 2)
        assert seen[k + 1][:2] == (again.hands, again.trump_card)
        assert seen[k + 1][2].startswith("deck:")
    assert not seen[4][2].startswith("deck:")
    with pytest.raises(ValueError, match="each card"):
        new_match(rules, seed="m", decks=[decks[0][:-1]])


@pytest.mark.parametrize("name", PRESETS)
def test_deck_for_deals_the_hands_it_is_given(name):
    rules = preset(name)
    cards = list(full_deck(rules.deck))
    random.Random(name).shuffle(cards)
    hands = {seat: cards[seat * rules.hand_size : (seat + 1) * rules.hand_size] for seat in (0, 1)}
    dealer = rules.players - 1
    if not rules.has_stock and dealer in hands:
        del hands[dealer]
    trump = None
    if rules.has_stock:
        used = [c for hand in hands.values() for c in hand]
        trump = next(c for c in cards if c not in used)
    state = new_deal(rules, deck=deck_for(rules, hands, trump=trump, dealer=dealer), dealer=dealer)
    for seat, hand in hands.items():
        assert list(state.hands[seat]) == hand
    if trump is not None:
        assert state.trump_card is trump and state.stock[-1] is trump
    assert legal_actions(state)


def test_deck_for_refuses_what_no_deck_holds():
    rules = preset("sixty-six")
    with pytest.raises(ValueError, match="more often"):
        deck_for(rules, {0: "AH AH TH KH QH JH"})
    with pytest.raises(ValueError, match="turns no card"):
        deck_for(preset("three-hand"), {0: "AH"}, trump="TH")
