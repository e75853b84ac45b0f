"""The German game (seed 002, RULES.md section 3): ``german-32`` for three players and
``german-48`` for four (two 24-card decks, the first of two equal cards wins)."""

from __future__ import annotations

import random

import pytest

from app.engine import Termination, apply, full_deck, legal_actions, new_deal, preset, view

from .helpers import arrange, codes, run
from .playing import random_action


def three(**options: object):
    hands = {
        0: "7C 8C 9C JC QC KC TC",
        1: "AC 7D 8D 9D JD QD KD",
        2: "TD AD 7H 8H 9H JH QH",
    }
    return arrange(
        hands,
        turned="KH",
        stock="7S 8S 9S JS",
        dealer=2,
        variant="german-32",
        players=3,
        **options,
    )


def test_german_32_for_three_deals_7_each_a_talon_and_two_cards_aside():
    state = three()
    assert [len(hand) for hand in state.hands] == [7, 7, 7]
    assert len(state.stock) == 9 and len(state.aside) == 2 and state.trump_card.code == "KH"
    assert state.stock[-1].code == "KH" and state.to_move == 0
    seen = view(state, 0)
    assert seen["stock"] == 9 and seen["aside"] == 2 and seen["trump_card"] == "KH"
    assert "exchange" not in codes(legal_actions(state))  # no trick won yet


def test_the_trick_winner_draws_first_then_the_others_in_seat_order():
    state, events = run(three(), "7C AC 7H")  # seat 2 trumps and wins
    drawn = [(e.data["seat"], e.data["card"]) for e in events if e.type == "card_drawn"]
    assert drawn == [(2, "7S"), (0, "8S"), (1, "9S")]
    assert state.to_move == 2 and len(state.stock) == 6


def test_the_talon_is_drawn_out_evenly_the_last_drawer_takes_the_turned_card():
    state = three()
    rng = random.Random(0)
    while state.stock:
        turned = state.trump_card  # KH, or the seven of hearts once exchanged for it
        state, events = apply(state, random_action(state, rng))
    last = [e for e in events if e.type == "card_drawn"][-1]
    assert last.data == {"seat": last.data["seat"], "card": turned.code, "trump_card": True}
    assert len({len(hand) for hand in state.hands}) == 1 and not state.stock_open


def test_closing_for_three_the_closer_must_reach_66_against_the_best_opponent():
    rules = preset("german-32", players=3)
    seen = 0
    for k in range(300):
        state = new_deal(rules, seed=f"close-{k}", dealer=2)
        rng = random.Random(k)
        while not state.deal_over:
            actions = legal_actions(state)
            close = [a for a in actions if a.type == "close"]
            state, _ = apply(state, close[0] if close else rng.choice(actions))
        result = state.deal_results[-1]
        closer = result.closed_by
        if result.termination is Termination.CLOSE_FAILED:
            seen += 1
            assert result.scores[closer] < 66 or result.winner != closer
            others = [s for s in range(3) if s != closer]
            if max(result.scores[s] for s in others) < 66:  # nobody went out: the best opponent
                assert result.winner == max(others, key=lambda s: result.scores[s])
            assert result.game_points[result.winner] in (2, 3) and sum(result.game_points) in (2, 3)
        elif result.termination is Termination.CLOSED:
            assert result.winner == closer and result.scores[closer] >= 66
    assert seen > 20


def four(**options: object):
    hands = {
        0: "AH 9C JC QC KC TC AC",
        1: "AH 9D JD QD KD TD AD",
        2: "KH QH 9C JC QC KC TC",
        3: "9H JH 9D JD QD KD TD",
    }
    return arrange(hands, turned="9S", dealer=3, variant="german-48", **options)


def test_german_48_deals_two_copies_and_7_each():
    state = four()
    assert sum(c.points for c in full_deck(48)) == 240
    assert [len(hand) for hand in state.hands] == [7, 7, 7, 7] and len(state.stock) == 20
    assert state.to_move == 0


def test_of_two_equal_cards_the_one_played_first_wins():
    state, _ = run(four(), "AH AH KH 9H")
    assert state.history[-1][1] == 0 and state.card_points[0] == 11 + 11 + 4


def test_each_plays_for_himself_unless_partners_pair_the_seats_across():
    alone = four()
    assert alone.sides == 4 and alone.game_points == (0, 0, 0, 0)
    paired = four(partners=True)
    assert paired.sides == 2 and [paired.side_of(s) for s in range(4)] == [0, 1, 0, 1]


def test_with_partners_a_trick_of_the_partner_credits_a_pending_marriage():
    hands = {
        0: "AH 9C JC QC KC TC AC",
        1: "AH 9D JD QD KD TD AD",
        2: "KH QH 9C JC QC KC TC",
        3: "9H JH 9D JD QD KD TD",
    }
    state = arrange(hands, turned="9S", dealer=1, variant="german-48", partners=True)
    assert state.to_move == 2
    state, _ = run(state, "KH*")  # the side has no trick yet: 20 pending
    assert state.pending[2] == 20
    state, events = run(state, "9H AH AH")  # the partner wins (first of the two aces)
    credited = [e.data for e in events if e.type == "marriage_credited"]
    assert credited == [{"seat": 2, "points": 20, "score": 20}]
    assert state.pending[2] == 0 and state.side_score(0) == 20 + 4 + 0 + 11 + 11


def test_partners_seat_counts_are_refused_elsewhere():
    with pytest.raises(ValueError, match="option partners"):
        preset("german-32", partners=True)
    with pytest.raises(ValueError, match="option players must be 2 or 3"):
        preset("german-32", players=4)


@pytest.mark.parametrize(
    ("variant", "options"),
    [("german-32", {"players": 3}), ("german-48", {}), ("german-48", {"partners": True})],
)
def test_with_the_talon_open_every_card_in_hand_is_legal_for_the_followers(variant, options):
    for k in range(20):
        state = new_deal(preset(variant, **options), seed=f"open-{k}", dealer=0)
        rng = random.Random(k)
        while state.stock_open and not state.deal_over:
            if state.trick:
                hand = state.hands[state.to_move]
                assert {a.card for a in legal_actions(state)} == set(hand)
            state, _ = apply(state, random_action(state, rng))
