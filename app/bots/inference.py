"""What the others' past decisions say about their hands, at tables without a stock.

At `three-hand` and `four-hand` every card is dealt at the start, so a sampled world (an engine
:class:`State` from :meth:`app.bots.seen.Seen.world`) fixes every other seat's whole hand for the
deal: its hand now plus the cards it has played since. :func:`misfits` replays the deal's bids
and cards in that world and counts the opponents' decisions the rules-based policy of
:mod:`app.bots.group` would not have taken with those hands (the policy sees what the seat saw:
its hand and the cards played). The hard bot prefers worlds that explain the play
(:func:`likely_world`); with opponents who play by other rules it loses little, since it only
ranks worlds that all agree with the view.
"""

from __future__ import annotations

import random

from app.engine import Card, State, legal_actions

from .group import decide, picture_of_state
from .seen import Seen

WORLD_CHOICES = 10
"""Worlds dealt to find one that explains the opponents' play (the best of them is kept)."""


def likely_world(seen: Seen, rng: random.Random, choices: int = WORLD_CHOICES) -> State:
    """A world of ``seen`` (:meth:`Seen.world`) in which the opponents' past decisions are
    those of the rules-based policy, or the one of ``choices`` worlds with the fewest
    exceptions. At tables with a stock (where hands change by drawing) the first world."""
    best = seen.world(rng)
    if seen.rules.has_stock or choices <= 1:
        return best
    fewest = misfits(seen, best)
    for _ in range(choices - 1):
        if fewest == 0:
            break
        world = seen.world(rng)
        count = misfits(seen, world, fewest)
        if count < fewest:
            best, fewest = world, count
    return best


def misfits(seen: Seen, world: State, stop: int | None = None) -> int:
    """How many of the opponents' bids and played cards in this deal the rules-based policy
    would not have chosen with the hands ``world`` gives them (counting stops at ``stop``)."""
    rules = seen.rules
    me = rules.side_of(seen.seat)
    tricks = [cards for cards, _ in seen.history]
    winners = [winner for _, winner in seen.history]
    if seen.trick:
        tricks.append(seen.trick)
    played: dict[int, list[Card]] = {s: [] for s in range(seen.seats)}
    for cards in tricks:
        for s, card in cards:
            played[s].append(card)
    hands = [tuple(world.hands[s]) + tuple(played[s]) for s in range(seen.seats)]
    state = object.__new__(State)
    state.__dict__.update(world.__dict__)
    zeros = (0,) * seen.seats
    state._set(
        hands=tuple(hands),
        trick=(),
        card_points=zeros,
        tricks_won=zeros,
        marriage_points=zeros,
        pending=zeros,
        bonus=zeros,
        deal_over=False,
    )
    count = 0
    limit = stop if stop is not None else len(hands) * 64

    def differs(seat: int, taken: Card | None, level: int | None = None) -> bool:
        """The policy would not take the card (or bid) ``seat`` took. The seat's hand order is
        not known, and the policy takes the first of equal cards, so the card taken goes first:
        it is chosen whenever some order of the hand would choose it."""
        if taken is not None:
            held = list(state.hands[seat])
            held.remove(taken)
            hand = (taken, *held)
            state._set(hands=(*state.hands[:seat], hand, *state.hands[seat + 1 :]))
        state._set(to_move=seat)
        action = decide(picture_of_state(state, seat), legal_actions(state, seat))
        if taken is None:
            return action.level != level
        return action.card != taken

    bids = seen.view["bids"] if rules.bidding else []
    if bids:
        high: tuple[int, int] | None = None
        state._set(bidding=True, trump="", high_bid=None)
        for bid in bids:
            seat, level = bid["seat"], bid["level"]
            if rules.side_of(seat) != me:
                state._set(high_bid=high)
                count += differs(seat, None, level)
                if count >= limit:
                    return count
            if level:
                high = (seat, level)
        state._set(bidding=False, high_bid=world.high_bid)
    trump = world.trump
    points = list(zeros)
    won = list(zeros)
    for i, cards in enumerate(tricks):
        for j, (seat, card) in enumerate(cards):
            if rules.side_of(seat) != me:
                named = i == 0 and j == 0 and rules.trump_from == "first_led"
                state._set(
                    trick=cards[:j],
                    trump="" if named else trump,
                    card_points=tuple(points),
                    tricks_won=tuple(won),
                )
                count += differs(seat, card)
                if count >= limit:
                    return count
            held = list(state.hands[seat])
            held.remove(card)
            state._set(hands=(*state.hands[:seat], tuple(held), *state.hands[seat + 1 :]))
        if i < len(winners):
            points[winners[i]] += sum(card.points for _, card in cards)
            won[winners[i]] += 1
    return count
