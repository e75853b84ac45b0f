"""A seat's knowledge, worked out from its view alone, agrees with the true hidden state."""

from __future__ import annotations

import random

import pytest

from app.bots.cards import SUIT_MASK, card_id, mask_of, suit_id
from app.bots.knowledge import LEAKS, Knowledge, follow_clues, lead_clues, sample_positions
from app.engine import Action, apply, full_deck, legal_actions, new_deal, preset, view
from app.engine.cards import CARD_POINTS

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
                if bit & k.unseen & ~k.opponent_known and not declared:
                    assert k.opponent_unlikely & bit and k.opponent_allowed & bit
                    for world in sample_positions(k, 20, rng):
                        assert not world.hands[1 - state.to_move] & bit
                    checked += 1
            plain = [a for a in actions if not getattr(a, "marriage", False)]
            state, _ = apply(state, rng.choice(plain or actions))
    assert checked > 5


def test_follow_clues_name_the_cards_a_follow_says_were_missing():
    """A follow to a plain ten with a cheap plain card says the follower lacked the suit's
    ace, any trump and any cheaper plain card (and, with a queen, the king to marry it);
    trumping says it lacked the suit above the
    led card; taking in suit says it lacked the suit above its own card."""
    spades = suit_id("S")
    clues = dict(follow_clues(card_id("TH"), card_id("QC"), spades))
    assert clues["ducked_high"] == mask_of(["AH"])
    assert clues["no_trump_on_high"] == int(SUIT_MASK[spades])
    cheaper = clues["discarded"] & mask_of(c.code for c in full_deck(20))
    assert cheaper == mask_of(["JC", "JD", "JH"])
    assert clues["spent_marriage"] == mask_of(["KC"])
    assert follow_clues(card_id("KH"), card_id("JS"), spades) == [
        ("trumped", mask_of(["TH", "AH"]))
    ]
    assert follow_clues(card_id("QH"), card_id("TH"), spades) == [("took_in_suit", mask_of(["AH"]))]
    assert follow_clues(card_id("QS"), card_id("AS"), spades) == []


def test_lead_clues_name_the_cheaper_plain_cards_a_low_lead_says_were_missing():
    """A plain king, queen or jack led while the stock is open says the leader held no
    cheaper plain card; an ace, a ten or a trump says nothing."""
    spades = suit_id("S")
    deck = mask_of(c.code for c in full_deck(20))

    def clues(card: str) -> list[tuple[str, int]]:
        return [(name, cards & deck) for name, cards in lead_clues(card_id(card), spades)]

    assert clues("KH") == [("led_low", mask_of(["JC", "QC", "JD", "QD", "JH", "QH"]))]
    assert clues("QD") == [("led_low", mask_of(["JC", "JD", "JH"]))]
    assert clues("JD") == [("led_low", 0)]
    for card in ("AH", "TD", "KS", "JS"):
        assert clues(card) == []


def _cheap_plain(k: Knowledge, worlds: int, seed: int) -> float:
    cheap = mask_of(
        c.code for c in full_deck(20) if suit_id(c.suit) != k.trump and CARD_POINTS[c.rank] < 4
    )
    hands = [w.hands[k.opponent] for w in sample_positions(k, worlds, random.Random(seed))]
    return sum((h & cheap).bit_count() for h in hands) / worlds


def test_worlds_give_fewer_cheap_cards_to_a_player_who_led_a_plain_king(monkeypatch):
    """The clue ``led_low`` weighs the worlds: after the opponent led a plain king, the
    worlds give it fewer cheaper plain cards than without the clue."""
    rules = preset("schnapsen")
    views = []
    for d in range(200):
        state = new_deal(rules, seed=f"lead-{d}", dealer=d % 2)
        leader, trump = state.to_move, state.trump
        kings = [c for c in state.hands[leader] if c.suit != trump and c.rank == "K"]
        if not kings:
            continue
        state, _ = apply(state, Action.play(kings[0]))
        views.append(dict(view(state, 1 - leader)))
        if len(views) == 12:
            break
    assert len(views) == 12
    clued = [Knowledge.from_view(v) for v in views]
    assert all(any(leak == LEAKS["led_low"] for _, _, leak in k.opponent_hints) for k in clued)
    monkeypatch.setattr("app.bots.knowledge.LEAKS", {**LEAKS, "led_low": 1.0})
    plain = [Knowledge.from_view(v) for v in views]
    with_clue = sum(_cheap_plain(k, 400, n) for n, k in enumerate(clued))
    without = sum(_cheap_plain(k, 400, n) for n, k in enumerate(plain))
    assert with_clue < 0.92 * without


def _mean_trumps(k: Knowledge, worlds: int, seed: int) -> float:
    trumps = int(SUIT_MASK[k.trump])
    hands = [w.hands[k.opponent] for w in sample_positions(k, worlds, random.Random(seed))]
    return sum((h & trumps).bit_count() for h in hands) / worlds


def _ducked_aces(count: int) -> list[dict]:
    """Views of the leader after its plain ace or ten was let through by a cheap plain card
    (one card drawn since), from seeded Schnapsen deals."""
    rules = preset("schnapsen")
    found = []
    for d in range(200):
        state = new_deal(rules, seed=f"duck-{d}", dealer=d % 2)
        leader, trump = state.to_move, state.trump
        high = [c for c in state.hands[leader] if c.suit != trump and c.rank in "AT"]
        if not high:
            continue
        state, _ = apply(state, Action.play(high[0]))
        follower = state.to_move
        cheap = [c for c in state.hands[follower] if c.suit not in (trump, high[0].suit)]
        if not cheap or not any(c.suit == trump for c in state.hands[follower]):
            continue
        state, _ = apply(state, Action.play(min(cheap, key=lambda c: CARD_POINTS[c.rank])))
        found.append(dict(view(state, leader)))
        if len(found) == count:
            break
    return found


def test_worlds_give_fewer_trumps_to_a_player_who_let_an_ace_or_ten_through(monkeypatch):
    """The clue ``no_trump_on_high`` weighs the worlds: a player who let a plain ace or ten
    win without trumping it gets fewer trumps in the worlds than without the clue."""
    views = _ducked_aces(12)
    assert len(views) == 12
    others = dict.fromkeys(LEAKS, 1.0)
    one_clue = {**others, "no_trump_on_high": LEAKS["no_trump_on_high"]}
    monkeypatch.setattr("app.bots.knowledge.LEAKS", one_clue)
    with_clue = [Knowledge.from_view(v) for v in views]
    assert all(k.opponent_hints for k in with_clue)
    monkeypatch.setattr("app.bots.knowledge.LEAKS", others)
    without = [Knowledge.from_view(v) for v in views]
    clued = sum(_mean_trumps(k, 400, n) for n, k in enumerate(with_clue))
    plain = sum(_mean_trumps(k, 400, n) for n, k in enumerate(without))
    assert clued < 0.8 * plain


def test_worlds_give_more_trumps_to_a_player_who_closed(monkeypatch):
    """A player closes the stock mostly with trumps in hand: worlds after the opponent
    closed give it more trumps than without the closing odds."""
    rules = preset("schnapsen")
    views = []
    for d in range(100):
        state = new_deal(rules, seed=f"close-{d}", dealer=d % 2)
        closer = state.to_move
        if Action.simple("close") not in legal_actions(state):
            continue
        state, _ = apply(state, Action.simple("close"))
        state, _ = apply(state, legal_actions(state)[0])
        views.append(dict(view(state, 1 - closer)))
        if len(views) == 12:
            break
    assert len(views) == 12
    with_odds = [Knowledge.from_view(v) for v in views]
    assert all(k.opponent_closed_with >= 0 for k in with_odds)
    closed = sum(_mean_trumps(k, 400, n) for n, k in enumerate(with_odds))
    monkeypatch.setattr("app.bots.knowledge.CLOSING_ODDS", (1.0, 1.0, 1.0, 1.0))
    plain = sum(_mean_trumps(k, 400, n) for n, k in enumerate(with_odds))
    assert closed > 1.1 * plain


def test_without_clues_keeps_the_facts_and_the_rules_of_leading():
    """``without_clues`` drops the follows' clues and the closing odds, nothing else."""
    views = _ducked_aces(3)
    for v in views:
        k = Knowledge.from_view(v)
        bare = k.without_clues()
        assert any(leak for _, _, leak in k.opponent_hints)
        assert all(leak == 0 for _, _, leak in bare.opponent_hints)
        assert bare.opponent_allowed == k.opponent_allowed
        assert bare.opponent_known == k.opponent_known
        assert bare.opponent_closed_with == -1
