"""Three-hand 66 (seed 000, RULES.md section 3): 8 cards each, no stock, the dealer's last card
names trump, strict play from the first trick, each for himself, void deals, best opponent."""

from __future__ import annotations

import pytest

from app.engine import (
    Illegal,
    IllegalAction,
    Termination,
    apply,
    legal_actions,
    new_deal,
    new_match,
    preset,
    shuffled_deck,
    view,
)

from .helpers import arrange, codes, run

HANDS = {
    0: "KH 9C JC QC KC TC AC 9D",
    1: "AH 9H QD KD TD AD JD 9S",
    2: "TH JH QH JS KS TS AS QS",
}


def deal(**options: object):
    return arrange(HANDS, dealer=2, variant="three-hand", **options)


def first_legal_play(deck_seed: str, **options: object):
    """A deal from an explicit deck (the order ``deck_seed`` gives), each seat playing its
    first legal action."""
    rules = preset("three-hand", **options)
    state = new_deal(rules, deck=shuffled_deck(24, deck_seed), dealer=2)
    while not state.deal_over:
        state, _ = apply(state, legal_actions(state)[0])
    return state


def test_the_deal_the_dealers_last_card_is_trump_and_stays_in_the_dealers_hand():
    state = deal()
    assert [len(hand) for hand in state.hands] == [8, 8, 8] and state.stock == ()
    assert state.trump == "S" and state.trump_card.code == "QS"
    assert state.hands[2][-1].code == "QS" and state.to_move == 0
    for seat in (0, 1, None):
        seen = view(state, seat)
        assert seen["shown"] == [{"seat": 2, "card": "QS"}] and seen["trump"] == "S"
        assert seen["trump_card"] is None and seen["stock"] == 0
    assert "close" not in codes(legal_actions(state))
    assert "exchange" not in codes(legal_actions(state))


def test_following_and_heading_the_trick_is_compulsory_from_the_first_trick():
    state, _ = run(deal(), "KH")
    assert codes(legal_actions(state)) == ["AH"]
    with pytest.raises(IllegalAction) as info:
        apply(state, {"type": "play", "card": "9H"})
    assert info.value.code is Illegal.MUST_BEAT
    state, _ = run(state, "AH")
    # Seat 2 cannot beat the ace: any heart, and only a heart.
    assert sorted(codes(legal_actions(state))) == ["JH", "QH", "TH"]
    with pytest.raises(IllegalAction) as info:
        apply(state, {"type": "play", "card": "AS"})
    assert info.value.code is Illegal.MUST_FOLLOW_SUIT


def test_void_in_the_suit_led_a_trump_is_compulsory():
    state, _ = run(deal(), "KH AH TH")  # seat 1 wins and leads
    state, _ = run(state, "AD")
    assert sorted(codes(legal_actions(state))) == ["AS", "JS", "KS", "QS", "TS"]
    state, _ = run(state, "JS")
    assert codes(legal_actions(state)) == ["9D"]  # seat 0 follows suit; it cannot beat a trump


def test_nobody_at_66_after_the_last_trick_the_deal_is_void_and_redealt():
    state = first_legal_play("t3")
    result = state.deal_results[-1]
    assert max(result.scores) < 66
    assert result.termination is Termination.VOID and result.winner is None
    assert result.game_points == (0, 0, 0)


def test_option_the_last_trick_wins_a_played_out_deal():
    state = first_legal_play("t3", played_out="last_trick")
    result = state.deal_results[-1]
    last = state.history[-1][1]
    assert result.termination is Termination.LAST_TRICK and result.winner == last
    assert result.game_points[last] == 1 and sum(result.game_points) == 1


def test_a_void_deal_in_a_match_is_followed_by_the_next_deal():
    rules = preset("three-hand")
    state = new_match(rules, seed="void", dealer=2, decks=[shuffled_deck(24, "t3")])
    while state.deal_no == 1:
        state, _ = apply(state, legal_actions(state)[0])
    assert state.deal_results[0].termination is Termination.VOID
    assert state.game_points == (0, 0, 0) and state.dealer == 0 and state.to_move == 1


def test_game_points_count_the_best_placed_opponent_or_option_the_lowest():
    best = first_legal_play("t11").deal_results[-1]
    assert best.termination is Termination.REACHED_66 and best.winner == 2
    assert best.scores[:2] == (0, 52) and best.tricks[:2] == (0, 4)
    assert best.game_points == (0, 0, 1)  # against seat 1: 52 points, over 33
    lowest = first_legal_play("t11", game_points_from="lowest_opponent").deal_results[-1]
    assert lowest.game_points == (0, 0, 3)  # against seat 0: no trick


def test_the_match_goes_to_10_or_to_the_target_chosen():
    assert preset("three-hand").target == 10
    assert preset("three-hand", target=7).target == 7


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"players": 2}, "option players must be 3"),
        ({"close_fail": "closer_minus_3"}, "option close_fail"),
        ({"partners": True}, "option partners"),
        ({"marriages_in_strict_phase": False}, "option marriages_in_strict_phase"),
        ({"defenders_score": True}, "option defenders_score"),
        ({"trump_from": "turned"}, "option trump_from"),
    ],
)
def test_options_that_make_no_sense_for_three_hand_are_refused(options, words):
    with pytest.raises(ValueError, match=words):
        preset("three-hand", **options)


def test_marriages_as_in_the_two_player_game_credited_at_the_declarers_first_trick():
    hands = {
        0: "KH QH AC TC KC QC TD KD",
        1: "AH 9H 9C AD QD JD 9D JS",
        2: "TH JH JC AS TS KS QS 9S",
    }
    state = arrange(hands, dealer=2, variant="three-hand")
    assert "KH*" in codes(legal_actions(state))
    state, _ = run(state, "KH* AH JH")  # seat 1 must head the king: seat 0's 20 stays pending
    assert state.pending[0] == 20 and state.score(0) == 0 and state.to_move == 1
    state, events = run(state, "9C JC AC")  # seat 0 heads the jack and wins: 13, and the 20
    credited = [e.data for e in events if e.type == "marriage_credited"]
    assert credited == [{"seat": 0, "points": 20, "score": 33}]
    assert state.pending[0] == 0 and state.score(0) == 33


def test_a_game_that_turns_no_trump_card_has_no_trump_exchange() -> None:
    three = deal()
    four = new_deal(preset("four-hand"), seed="exchange")
    while four.bidding:
        four, _ = apply(four, legal_actions(four)[0])
    for state in (three, four):
        assert "exchange" not in codes(legal_actions(state))
        with pytest.raises(IllegalAction) as info:
            apply(state, {"type": "exchange"})
        assert info.value.code == Illegal.EXCHANGE_NOT_IN_GAME
        assert "no longer there" not in info.value.message
