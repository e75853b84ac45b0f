"""Rules-based play for tables of three and four seats and the 48-card deck.

One policy, :func:`decide`, plays from a :class:`Picture`: the mover's hand, the trick, the
trump, the cards still out of its sight and the scores. The medium bot builds the picture from
its view (:func:`picture_of_seen`); the hard bot's playouts build it from a sampled world
(:func:`picture_of_state`), where the cards out of the mover's sight are exactly the other
hands, the stock and the cards aside, so both pictures hold the same facts.

The policy: in the four-hand auction it bids the level its hand is worth (:func:`hand_worth`).
On lead it claims when right, exchanges, declares marriages (the trump one first), and otherwise
leads its masters once play is strict and low cards while the stock is open; on the first lead
of four-hand it leads the top of its longest suit, which names trump. Following, it never takes
a trick its partner is winning unless the rules force it (it adds points when the partner's
card is safe), takes an opponent's trick when the card is safe or it plays last and the trick is
worth it, and otherwise throws its cheapest card.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from app.engine import Action, Card, Rules, State, legal_actions
from app.engine.cards import beats
from app.engine.scoring import GOING_OUT, bid_target

from .cards import PLAIN_MARRIAGE, TRUMP_MARRIAGE
from .seen import Seen

PARTNER_SHARE = 0.25
"""The share of the deal's card points a bidder counts on from its partner's unseen hand."""


@dataclass(frozen=True, slots=True)
class Picture:
    """What the mover may know when it decides."""

    rules: Rules
    seat: int
    hand: tuple[Card, ...]
    trick: tuple[tuple[int, Card], ...]
    trump: str
    strict: bool
    """Play is strict: no stock to draw from (or it is closed)."""
    partner: int | None
    behind: int
    """Seats still to play to this trick after the mover."""
    side_score: int
    """The mover's side's score (card points and credited marriages)."""
    goal: int
    """What the mover's side needs to win the deal now (66, or its bid's target)."""
    unseen: Counter[Card]
    top: dict[str, int]
    """The strength of the strongest unseen card of each suit."""
    high_bid: int
    """The level of the bid that stands (0: none yet)."""


def picture_of_state(state: State, seat: int) -> Picture:
    """The mover's picture in a full engine state (a sampled world)."""
    unseen: Counter[Card] = Counter(state.stock)
    unseen.update(state.aside)
    for other, held in enumerate(state.hands):
        if other != seat:
            unseen.update(held)
    return _picture(state.rules, seat, state, unseen)


def picture_of_seen(seen: Seen, state: State) -> Picture:
    """The mover's picture from its knowledge (``state`` is any world of ``seen``: only its
    public fields are read)."""
    unseen = Counter(seen.unseen)
    for cards in seen.shown.values():
        unseen.update(cards)
    if state.trump_under and state.trump_card is not None:
        unseen[state.trump_card] += 1
    return _picture(seen.rules, seen.seat, state, unseen)


def _picture(rules: Rules, seat: int, state: State, unseen: Counter[Card]) -> Picture:
    n = state.seats
    playing = n - (state.sitting_out is not None)
    partner = (seat + 2) % 4 if rules.partners and state.sitting_out is None else None
    side = state.side_of(seat)
    goal = GOING_OUT
    if state.high_bid is not None:
        bidder, level = state.high_bid
        goal = bid_target(level) if state.side_of(bidder) == side else GOING_OUT
    return Picture(
        rules=rules,
        seat=seat,
        hand=state.hands[seat],
        trick=state.trick,
        trump=state.trump,
        strict=not state.stock_open,
        partner=partner,
        behind=playing - 1 - len(state.trick),
        side_score=state.side_score(side),
        goal=goal,
        unseen=unseen,
        top=_tops(unseen),
        high_bid=state.high_bid[1] if state.high_bid is not None else 0,
    )


def _tops(unseen: Counter[Card]) -> dict[str, int]:
    top: dict[str, int] = {}
    for card in unseen:
        if card.strength > top.get(card.suit, -1):
            top[card.suit] = card.strength
    return top


def play_out(state: State) -> State:
    """Play ``state`` to the end of its deal with :func:`decide` in every seat.

    The same decisions as building :func:`picture_of_state` at every move, cheaper: a forced
    move needs no picture, and each seat's unseen cards are kept up to date as cards are
    played (rebuilt whenever anything but a card played changes them: a draw, an exchange).
    """
    from app.engine import apply

    unseen = _unseen_by_seat(state)
    stock = len(state.stock)
    while not state.deal_over:
        seat = state.to_move
        assert seat is not None
        legal = legal_actions(state, seat)
        if len(legal) == 1:
            action = legal[0]
        else:
            action = decide(_picture(state.rules, seat, state, unseen[seat]), legal)
        state, _ = apply(state, action)
        if action.type == "play" and len(state.stock) == stock:
            card = _card(action)
            for other, cards in enumerate(unseen):
                if other != seat:
                    left = cards[card] - 1
                    if left:
                        cards[card] = left
                    else:
                        del cards[card]
        elif action.type != "bid" and action.type != "pass":
            unseen = _unseen_by_seat(state)
            stock = len(state.stock)
    return state


def _unseen_by_seat(state: State) -> list[Counter[Card]]:
    """The cards out of each seat's sight in a full state (as :func:`picture_of_state`)."""
    return [
        Counter(c for other, held in enumerate(state.hands) if other != seat for c in held)
        + Counter(state.stock)
        + Counter(state.aside)
        for seat in range(state.seats)
    ]


# ---------------------------------------------------------------------------------------------
# Bidding


def hand_worth(hand: tuple[Card, ...], rules: Rules) -> float:
    """The card points (and marriages) a four-hand bidder's side may expect with ``hand``,
    leading first and naming its longest suit trump: its aces and tens, its trumps, its
    marriages, and a share of the deal from its partner."""
    trump = _longest_suit(hand)
    worth = PARTNER_SHARE * sum(card.points for card in _deck(rules)) / 2
    for card in hand:
        if card.rank == "A":
            worth += card.points + 8
        elif card.rank == "T":
            worth += card.points / 2
        if card.suit == trump:
            worth += 6 + card.points / 2
    for suit in {card.suit for card in hand}:
        if Card("K", suit) in hand and Card("Q", suit) in hand:
            worth += TRUMP_MARRIAGE if suit == trump else PLAIN_MARRIAGE
    return worth


def _deck(rules: Rules) -> tuple[Card, ...]:
    from app.engine import full_deck

    return full_deck(rules.deck)


def _bid(p: Picture, legal: list[Action]) -> Action:
    worth = hand_worth(p.hand, p.rules)
    bids = [a for a in legal if a.type == "bid" and a.level is not None and a.level < 5]
    affordable = [a for a in bids if bid_target(a.level or 0) <= worth]
    if affordable:
        return max(affordable, key=lambda a: a.level or 0)
    return next(a for a in legal if a.type == "pass")


# ---------------------------------------------------------------------------------------------
# Play


def decide(p: Picture, legal: list[Action]) -> Action:
    """The policy's action for the mover of ``p`` among ``legal`` (engine actions)."""
    if len(legal) == 1:
        return legal[0]
    types = {a.type for a in legal}
    if "bid" in types or "pass" in types:
        return _bid(p, legal)
    if "claim" in types and p.side_score >= GOING_OUT:
        return next(a for a in legal if a.type == "claim")
    plays = [a for a in legal if a.type == "play"]
    if p.trick:
        return _follow(p, plays)
    if "exchange" in types:
        return next(a for a in legal if a.type == "exchange")
    marriages = [a for a in plays if a.marriage]
    if marriages:
        trump = p.trump or _longest_suit(p.hand)
        return min(marriages, key=lambda a: (_suit(a) != trump, a.card is None or a.card.rank))
    return _lead(p, [a for a in plays if not a.marriage] or plays)


def _suit(action: Action) -> str:
    assert action.card is not None
    return action.card.suit


def _card(action: Action) -> Card:
    assert action.card is not None
    return action.card


def _longest_suit(hand: tuple[Card, ...]) -> str:
    counts = Counter(card.suit for card in hand)
    return max(counts, key=lambda s: (counts[s], sum(c.points for c in hand if c.suit == s)))


def _is_master(p: Picture, card: Card) -> bool:
    """No card still out of sight beats ``card`` in its own suit."""
    return p.top.get(card.suit, -1) <= card.strength


def _married(p: Picture, card: Card) -> bool:
    """A king or queen whose partner is in hand (worth keeping while marriages count)."""
    if card.rank not in "KQ" or (p.strict and not p.rules.marriages_in_strict_phase):
        return False
    other = Card("Q" if card.rank == "K" else "K", card.suit)
    return other in p.hand


def _cost(p: Picture, card: Card) -> float:
    """How much giving this card away hurts: its points, more for trumps and marriage cards."""
    cost = float(card.points)
    if card.suit == p.trump:
        cost += 8 + card.strength
    if _married(p, card):
        cost += 15
    return cost


def _lead(p: Picture, plays: list[Action]) -> Action:
    if not p.trump:  # four-hand's first lead names trump: the top of the longest suit
        suit = _longest_suit(tuple(_card(a) for a in plays))
        return max((a for a in plays if _suit(a) == suit), key=lambda a: _card(a).strength)
    if p.strict:
        trumps_out = p.trump in p.top
        masters = [a for a in plays if _is_master(p, _card(a))]
        trump_masters = [a for a in masters if _suit(a) == p.trump]
        if trump_masters and trumps_out:
            return max(trump_masters, key=lambda a: _card(a).strength)
        plain = [a for a in masters if _suit(a) != p.trump]
        if plain and not trumps_out:
            return max(plain, key=lambda a: _card(a).points)
        if masters:
            return max(masters, key=lambda a: _card(a).points)
    return min(plays, key=lambda a: (_cost(p, _card(a)), _card(a).code))


def _winning(p: Picture) -> tuple[int, Card]:
    """The seat and card winning the trick so far."""
    best = p.trick[0]
    for seat, card in p.trick[1:]:
        if beats(card, best[1], p.trump):
            best = (seat, card)
    return best


def _safe(p: Picture, card: Card) -> bool:
    """Nobody still to play can beat ``card`` as far as the mover knows."""
    if p.behind == 0:
        return True
    if card.suit == p.trump:
        return _is_master(p, card)
    return _is_master(p, card) and p.trump not in p.top


def _follow(p: Picture, plays: list[Action]) -> Action:
    winner, best = _winning(p)
    trick_points = sum(card.points for _, card in p.trick)
    takers = [a for a in plays if beats(_card(a), best, p.trump)]
    keep = [a for a in plays if a not in takers]
    cheapest = min(plays, key=lambda a: (_cost(p, _card(a)), _card(a).code))
    if winner == p.partner:
        if not keep:  # the rules make the mover beat its partner: as cheaply as it can
            return cheapest
        if _safe(p, best):
            return max(
                keep, key=lambda a: (_card(a).points - 2 * (_suit(a) == p.trump), _card(a).code)
            )
        return min(keep, key=lambda a: (_cost(p, _card(a)), _card(a).code))
    if not takers:
        return cheapest
    by_cost = sorted(takers, key=lambda a: (_cost(p, _card(a)), _card(a).code))
    for action in by_cost:
        if _safe(p, _card(action)) and (
            p.side_score + trick_points + _card(action).points >= p.goal
        ):
            return action
    safe = [a for a in by_cost if _safe(p, _card(a))]
    if safe and (trick_points >= 10 or p.strict or _suit(safe[0]) != p.trump):
        return safe[0]
    if trick_points >= 10 and p.behind == 0:
        return by_cost[0]
    return cheapest
