"""Cards, decks, rules options and presets (RULES.md sections 1 and 3)."""

import pytest

from app.engine import PRESETS, Action, ActionError, Card, Rules, full_deck, parse_card, preset
from app.engine.cards import SUITS, beats


@pytest.mark.parametrize("size", [20, 24, 32, 48])
def test_every_card_code_round_trips(size):
    for card in full_deck(size):
        assert parse_card(str(card)) is card
        assert parse_card(card.code) == Card(card.rank, card.suit)


def test_card_points_of_each_deck():
    assert sum(c.points for c in full_deck(24)) == 120
    assert sum(c.points for c in full_deck(20)) == 120
    assert sum(c.points for c in full_deck(32)) == 120
    assert sum(c.points for c in full_deck(48)) == 240
    assert len(full_deck(48)) == 48 and len(set(full_deck(48))) == 24


@pytest.mark.parametrize("bad", ["", "1H", "TX", "TH ", "10H", "th", None, 12])
def test_bad_card_codes_are_rejected(bad):
    with pytest.raises(ValueError):
        parse_card(bad)


def test_no_such_deck():
    with pytest.raises(ValueError, match="no deck of 36"):
        full_deck(36)


def test_trick_order_trump_beats_plain_and_other_suit_never_wins():
    ah, th, nine_s, ks = (parse_card(c) for c in ("AH", "TH", "9S", "KS"))
    assert beats(ah, th, trump="S")
    assert not beats(th, ah, trump="S")
    assert beats(nine_s, ah, trump="S")
    assert not beats(ks, ah, trump="C")  # another plain suit never wins
    assert not beats(ah, ah, trump="S")  # an equal card: the first played wins


def test_presets_and_overrides():
    assert set(PRESETS) == {
        "sixty-six",
        "schnapsen",
        "german-32",
        "three-hand",
        "four-hand",
        "german-48",
    }
    six = preset("sixty-six")
    assert (six.deck, six.hand_size, six.target, six.last_trick_bonus) == (24, 6, 7, 10)
    schnapsen = preset("schnapsen")
    assert (schnapsen.deck, schnapsen.hand_size, schnapsen.exchange_rank) == (20, 5, "J")
    assert schnapsen.exchange_needs_trick is False and schnapsen.marriages_in_strict_phase
    assert schnapsen.last_trick_bonus == 0
    assert preset("german-32").deck == 32
    assert preset("sixty-six", target=10).target == 10


def test_seed_004_online_rules_are_expressible():
    rules = preset(
        "sixty-six",
        hand_size=5,
        exchange_needs_trick=False,
        close_fail="closer_value_min_2",
        schwarz="zero_points",
    )
    assert rules.hand_size == 5 and rules.schwarz == "zero_points"


@pytest.mark.parametrize(
    ("name", "overrides", "message"),
    [
        ("skat", {}, "unknown variant 'skat'"),
        ("sixty-six", {"colour": "red"}, "unknown option 'colour'"),
        ("sixty-six", {"strict": "always"}, "option strict must be one of head, follow"),
        ("sixty-six", {"claim": "sometimes"}, "option claim"),
        ("sixty-six", {"target": 0}, "option target"),
        ("sixty-six", {"target": True}, "option target"),
        ("sixty-six", {"deck": 36}, "option deck"),
        ("sixty-six", {"exchange_rank": "7"}, "option exchange_rank"),
        ("sixty-six", {"close_fail": "x"}, "option close_fail"),
        ("sixty-six", {"wrong_claim": "x"}, "option wrong_claim"),
        ("sixty-six", {"schwarz": "x"}, "option schwarz"),
        ("sixty-six", {"exchange_needs_trick": "yes"}, "option exchange_needs_trick"),
        ("sixty-six", {"hand_size": 12}, "option hand_size"),
        ("schnapsen", {"hand_size": 6}, "option deal_order"),
    ],
)
def test_bad_options_raise_a_clear_error(name, overrides, message):
    with pytest.raises(ValueError, match=message):
        preset(name, **overrides)


def test_rules_round_trip_through_options():
    rules = preset("schnapsen", claim="manual", target=10)
    assert Rules.from_options("schnapsen", rules.options()) == rules
    assert "variant" not in rules.options()


@pytest.mark.parametrize(
    "obj",
    [
        {"type": "play", "card": "QH"},
        {"type": "play", "card": "QH", "marriage": True},
        {"type": "exchange"},
        {"type": "close"},
        {"type": "claim"},
        {"type": "resign"},
    ],
)
def test_actions_round_trip(obj):
    action = Action.from_json(obj)
    assert action.to_json() == obj
    assert Action.from_json(action.to_json()) is action


@pytest.mark.parametrize(
    "obj",
    [
        None,
        "play",
        [],
        {},
        {"type": "dance"},
        {"type": 3},
        {"type": "play"},
        {"type": "play", "card": "ZZ"},
        {"type": "play", "card": 12},
        {"type": "play", "card": "QH", "marriage": "yes"},
        {"type": "play", "card": "QH", "extra": 1},
        {"type": "close", "card": "QH"},
    ],
)
def test_malformed_actions_are_rejected(obj):
    with pytest.raises(ActionError) as info:
        Action.from_json(obj)
    assert info.value.code == "bad_action"
    assert info.value.message


def test_all_suits_present():
    assert SUITS == ("C", "D", "H", "S")


@pytest.mark.parametrize(
    ("name", "overrides", "words"),
    [
        ("sixty-six", {"players": 3}, "option players must be 2 in sixty-six"),
        ("schnapsen", {"partners": True}, "option partners cannot be changed"),
        ("sixty-six", {"game_points_from": "lowest_opponent"}, "option game_points_from"),
        ("german-32", {"luna": "sixty_six"}, "option luna"),
        ("sixty-six", {"bidding": True}, "option bidding"),
        ("german-48", {"trump_from": "dealer_last"}, "option trump_from"),
    ],
)
def test_options_that_make_no_sense_for_a_preset_are_refused_by_name(name, overrides, words):
    with pytest.raises(ValueError, match=words):
        preset(name, **overrides)


def test_restating_a_presets_own_values_is_allowed():
    for name in PRESETS:
        rules = preset(name)
        assert preset(name, **rules.options()) == rules
    three = preset("german-32", players=3)
    assert preset("german-32", **three.options()) == three
