"""Legal actions and ``apply``: the rules of play (RULES.md section 2, points 3 to 10).

``apply`` is pure: it validates, copies the state, changes the copy, and returns it with the
events that describe the change. Nothing else in the project decides a rule.
"""

from __future__ import annotations

from typing import Any, Final

from .actions import CLAIM, CLOSE, EXCHANGE, Action, IllegalAction
from .cards import SUITS, Card, beats
from .dealing import deal_seed, shuffled_deck, start_deal
from .events import Event
from .scoring import GOING_OUT, judge
from .state import State, Termination

PLAY: Final = {Card(r, s): Action("play", Card(r, s)) for s in SUITS for r in "789JQKTA"}
PLAY_MARRIAGE: Final = {Card(r, s): Action("play", Card(r, s), True) for s in SUITS for r in "KQ"}
PARTNER: Final = {Card("K", s): Card("Q", s) for s in SUITS} | {
    Card("Q", s): Card("K", s) for s in SUITS
}


# ---------------------------------------------------------------------------------------------
# What may be played


def marriages_allowed(state: State) -> bool:
    """Marriages may be declared while the stock is open, or always with the strict-phase option."""
    return state.stock_open or state.rules.marriages_in_strict_phase


def marriage_points(state: State, suit: str) -> int:
    """40 for the trump marriage, 20 for another."""
    return 40 if suit == state.trump else 20


def can_exchange(state: State, seat: int) -> bool:
    """True if ``seat``, on lead, may swap the trump nine (or jack) for the turned trump card."""
    rules = state.rules
    return (
        not state.trick
        and state.to_move == seat
        and state.trump_under
        and state.closed_by is None
        and len(state.stock) >= rules.exchange_min_stock
        and (not rules.exchange_needs_trick or state.tricks_won[seat] > 0)
        and Card(rules.exchange_rank, state.trump) in state.hands[seat]
    )


def can_close(state: State, seat: int) -> bool:
    """True if ``seat``, on lead, may close the stock."""
    return (
        not state.trick
        and state.to_move == seat
        and state.closed_by is None
        and len(state.stock) >= state.rules.close_min_stock
    )


def follow_cards(state: State, hand: tuple[Card, ...]) -> tuple[Card, ...]:
    """The cards of ``hand`` that may follow to the current trick.

    Open phase: any card. Strict phase: follow the led suit, heading the trick if able
    (``strict=head``); void in it, trump (overtrumping if able); else any card.
    """
    if state.stock_open:
        return hand
    led = state.trick[0][1]
    same = tuple(c for c in hand if c.suit == led.suit)
    if state.rules.strict == "follow":
        return same or hand
    best = led
    for _, card in state.trick[1:]:
        if beats(card, best, state.trump):
            best = card
    if same:
        if best.suit == led.suit:
            higher = tuple(c for c in same if c.strength > best.strength)
            if higher:
                return higher
        return same
    trumps = tuple(c for c in hand if c.suit == state.trump)
    if trumps:
        if best.suit == state.trump:
            higher = tuple(c for c in trumps if c.strength > best.strength)
            if higher:
                return higher
        return trumps
    return hand


def legal_actions(state: State, seat: int | None = None) -> list[Action]:
    """The legal actions of the seat on move (``state.to_move``).

    With ``seat``, the actions of that seat: empty unless it is on move. ``resign`` is always
    allowed to a seated player and is not listed.
    """
    mover = state.to_move
    if mover is None or (seat is not None and seat != mover):
        return []
    hand = state.hands[mover]
    rules = state.rules
    if rules.deck == 48:
        hand = tuple(dict.fromkeys(hand))
    if state.trick:
        actions = [PLAY[c] for c in follow_cards(state, hand)]
        if rules.claim == "manual":
            actions.append(CLAIM)
        return actions
    actions = [PLAY[c] for c in hand]
    stock_open = state.closed_by is None and bool(state.stock)
    if stock_open or rules.marriages_in_strict_phase:
        for card in hand:
            if card.rank in "KQ" and PARTNER[card] in hand:
                actions.append(PLAY_MARRIAGE[card])
    if stock_open:
        if can_exchange(state, mover):
            actions.append(EXCHANGE)
        if len(state.stock) >= rules.close_min_stock:
            actions.append(CLOSE)
    if rules.claim == "manual":
        actions.append(CLAIM)
    return actions


# ---------------------------------------------------------------------------------------------
# apply


def apply(
    state: State, action: Action | dict[str, Any], seat: int | None = None
) -> tuple[State, list[Event]]:
    """Apply ``action`` by ``seat`` (default: the seat on move); return the new state and events.

    Never changes ``state``. Raises :class:`IllegalAction` with a stable code for anything the
    rules forbid (and :class:`ActionError` for a malformed JSON dict). When a deal ends and the
    match goes on, the next deal is dealt in the same call.

    >>> from app.engine import new_deal, preset
    >>> s = new_deal(preset("sixty-six"), seed="x")
    >>> s2, events = apply(s, legal_actions(s)[0])
    >>> events[0].type
    'card_played'
    """
    if not isinstance(action, Action):
        action = Action.from_json(action)
    if state.match_over:
        raise IllegalAction("match_over", "The match is over.")
    if state.deal_over:
        raise IllegalAction("deal_over", "The deal is over.")
    if seat is None:
        seat = state.to_move
    elif isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.seats:
        raise IllegalAction("bad_seat", "There is no such seat at this table.")
    assert seat is not None
    if action.type == "resign":
        return _resign(state, seat)
    if seat != state.to_move:
        raise IllegalAction("not_your_turn", "It is not your turn.")
    if action.type == "play":
        return _play(state, seat, action)
    if action.type == "exchange":
        return _exchange(state, seat)
    if action.type == "close":
        return _close(state, seat)
    return _claim(state, seat)


def _check_play(state: State, seat: int, action: Action) -> Card:
    card = action.card
    assert card is not None
    hand = state.hands[seat]
    if card not in hand:
        raise IllegalAction("card_not_in_hand", f"You do not hold {card.code}.")
    if action.marriage:
        if state.trick:
            raise IllegalAction("marriage_not_allowed", "Only the leader declares a marriage.")
        if card.rank not in "KQ":
            raise IllegalAction("no_marriage", "A marriage is declared with a king or a queen.")
        if PARTNER[card] not in hand:
            raise IllegalAction(
                "no_marriage", f"You need {PARTNER[card].code} as well to declare a marriage."
            )
        if not marriages_allowed(state):
            raise IllegalAction(
                "marriage_not_allowed", "Marriages cannot be declared once the stock is gone."
            )
        return card
    if state.trick and card not in follow_cards(state, hand):
        raise _follow_error(state, hand, card)
    return card


def _follow_error(state: State, hand: tuple[Card, ...], card: Card) -> IllegalAction:
    led = state.trick[0][1]
    if card.suit != led.suit and any(c.suit == led.suit for c in hand):
        return IllegalAction("must_follow_suit", f"You must follow suit ({led.suit}).")
    if card.suit == led.suit:
        return IllegalAction("must_beat", "You must head the trick with a higher card.")
    if card.suit != state.trump:
        return IllegalAction("must_trump", "You cannot follow suit, so you must play a trump.")
    return IllegalAction("must_beat", "You must overtrump if you can.")


def _play(state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
    card = _check_play(state, seat, action)
    new = state._evolve()
    fields = new.__dict__
    hands = state.hands
    hand = hands[seat]
    i = hand.index(card)
    fields["hands"] = (*hands[:seat], hand[:i] + hand[i + 1 :], *hands[seat + 1 :])
    trick = (*state.trick, (seat, card))
    fields["trick"] = trick
    if state.shown and (seat, card) in state.shown:
        shown = list(state.shown)
        shown.remove((seat, card))
        fields["shown"] = tuple(shown)
    events = [Event("card_played", {"seat": seat, "card": card.code})]
    if action.marriage and _declare_marriage(new, seat, card, events):
        return _finish(new, seat, Termination.REACHED_66, None, events)
    n = state.rules.players
    if len(trick) < n:
        fields["to_move"] = (seat + 1) % n
        return new, events
    return _complete_trick(new, events)


def _declare_marriage(state: State, seat: int, card: Card, events: list[Event]) -> bool:
    """Record a marriage (credited now if the declarer has a trick); True if that ends the deal."""
    partner = PARTNER[card]
    points = marriage_points(state, card.suit)
    credited = state.tricks_won[seat] > 0
    if (seat, partner) not in state.shown:  # it may be known already, taken by an exchange
        state._set(shown=(*state.shown, (seat, partner)))
    state._set(marriages=(*state.marriages, (seat, card.suit, points)))
    if credited:
        state._set(marriage_points=_add(state.marriage_points, seat, points))
    else:
        state._set(pending=_add(state.pending, seat, points))
    events.append(
        Event(
            "marriage_declared",
            {
                "seat": seat,
                "suit": card.suit,
                "points": points,
                "shown": partner.code,
                "credited": credited,
            },
        )
    )
    if credited and state.rules.claim == "auto":
        events[-1].data["score"] = state.score(seat)
        return state.score(seat) >= GOING_OUT
    return False


def _complete_trick(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """Give the full trick to its winner, credit a pending marriage, draw, and check the end.

    In automatic claim mode each event that changes a score carries the new ``score``.
    """
    trick = state.trick
    trump = state.trump
    winner, best = trick[0]
    points = best.points
    for seat, card in trick[1:]:
        points += card.points
        if beats(card, best, trump):
            winner, best = seat, card
    fields = state.__dict__
    fields["trick"] = ()
    fields["history"] = (*state.history, (trick, winner))
    fields["card_points"] = _add(state.card_points, winner, points)
    fields["tricks_won"] = _add(state.tricks_won, winner, 1)
    fields["to_move"] = winner
    pending = state.pending[winner]
    if pending:
        fields["pending"] = _add(state.pending, winner, -pending)
        fields["marriage_points"] = _add(state.marriage_points, winner, pending)
    manual = state.rules.claim == "manual"
    cards = [{"seat": s, "card": c.code} for s, c in trick]
    data: dict[str, Any] = {"seat": winner, "cards": cards}
    if not manual:
        data["points"] = points
        data["score"] = state.score(winner) - pending
    events.append(Event("trick_won", data))
    if pending:
        events.append(_scored("marriage_credited", state, winner, pending, manual))
    if state.closed_by is None and state.stock:
        _draw(state, winner, events)
    if not manual and state.score(winner) >= GOING_OUT:
        return _finish(state, winner, Termination.REACHED_66, None, events)
    if not any(state.hands):
        bonus = state.rules.last_trick_bonus
        if state.closed_by is None and bonus:
            fields["bonus"] = _add(state.bonus, winner, bonus)
            events.append(_scored("last_trick_bonus", state, winner, bonus, manual))
        return _finish(state, winner, Termination.LAST_TRICK, None, events)
    return state, events


def _scored(kind: str, state: State, seat: int, points: int, manual: bool) -> Event:
    """An event that adds ``points`` to ``seat``; with the new score unless scores are hidden."""
    data = {"seat": seat, "points": points}
    if not manual:
        data["score"] = state.score(seat)
    return Event(kind, data)


def _draw(state: State, winner: int, events: list[Event]) -> None:
    """After a trick the winner draws first, then the others in turn, while the stock lasts."""
    n = state.seats
    stock = state.stock
    hands = list(state.hands)
    trump_under = state.trump_under
    for k in range(n):
        if not stock:
            break
        seat = (winner + k) % n
        card = stock[0]
        stock = stock[1:]
        hands[seat] = (*hands[seat], card)
        if not stock and trump_under:
            trump_under = False
            events.append(
                Event("card_drawn", {"seat": seat, "card": card.code, "trump_card": True})
            )
        else:
            events.append(
                Event(
                    "card_drawn",
                    {"seat": seat, "card": card.code},
                    only=seat,
                    redacted={"seat": seat},
                )
            )
    fields = state.__dict__
    fields["stock"] = stock
    fields["hands"] = tuple(hands)
    fields["trump_under"] = trump_under


def _exchange(state: State, seat: int) -> tuple[State, list[Event]]:
    if not can_exchange(state, seat):
        raise IllegalAction("exchange_not_allowed", _exchange_reason(state, seat))
    rules = state.rules
    low = Card(rules.exchange_rank, state.trump)
    taken = state.trump_card
    hand = list(state.hands[seat])
    hand[hand.index(low)] = taken
    hands = list(state.hands)
    hands[seat] = tuple(hand)
    new = state._evolve()
    new._set(
        hands=tuple(hands),
        stock=(*state.stock[:-1], low),
        trump_card=low,
        shown=(*state.shown, (seat, taken)),
    )
    event = Event("exchange", {"seat": seat, "gave": low.code, "took": taken.code})
    return new, [event]


def _exchange_reason(state: State, seat: int) -> str:
    rules = state.rules
    if state.trick:
        return "You may exchange only when you lead, before playing."
    if not state.trump_under or state.closed_by is not None:
        return "The turned trump card is no longer there to exchange."
    if len(state.stock) < rules.exchange_min_stock:
        return f"The stock must hold at least {rules.exchange_min_stock} cards to exchange."
    if rules.exchange_needs_trick and state.tricks_won[seat] == 0:
        return "You may exchange only after winning a trick."
    return f"You need the trump {rules.exchange_rank} to exchange."


def _close(state: State, seat: int) -> tuple[State, list[Event]]:
    if not can_close(state, seat):
        if state.trick:
            reason = "You may close only when you lead, before playing."
        elif state.closed_by is not None:
            reason = "The stock is already closed."
        else:
            reason = (
                f"The stock must hold at least {state.rules.close_min_stock} cards to close it."
            )
        raise IllegalAction("close_not_allowed", reason)
    new = state._evolve()
    frozen = tuple(
        (state.card_points[s] + state.bonus[s], state.marriage_points[s], state.tricks_won[s])
        for s in range(state.seats)
    )
    new._set(closed_by=seat, frozen=frozen)
    return new, [Event("closed", {"seat": seat})]


def _claim(state: State, seat: int) -> tuple[State, list[Event]]:
    if state.rules.claim != "manual":
        raise IllegalAction(
            "claim_not_allowed", "This table counts automatically; there is nothing to claim."
        )
    score = state.score(seat)
    correct = score >= GOING_OUT
    events = [Event("claim", {"seat": seat, "correct": correct, "score": score})]
    opponent = state.opponents(seat)[0]
    if not correct:
        return _finish(state._evolve(), opponent, Termination.WRONG_CLAIM, seat, events)
    other = state.score(opponent)
    winner = opponent if other >= GOING_OUT and other > score else seat
    return _finish(state._evolve(), winner, Termination.CLAIM, seat, events)


def _resign(state: State, seat: int) -> tuple[State, list[Event]]:
    new = state._evolve()
    events = [Event("resigned", {"seat": seat})]
    winner = state.opponents(seat)[0]
    new, events = _finish(new, winner, Termination.RESIGN, seat, events)
    if not new.match_over:
        new._set(match_over=True, match_winner=winner, to_move=None, deal_over=True)
        events.append(_match_over_event(new))
    return new, events


def _finish(
    state: State, winner: int, termination: Termination, actor: int | None, events: list[Event]
) -> tuple[State, list[Event]]:
    """End the deal: score it, then end the match or deal the next deal."""
    result = judge(state, winner, termination, actor)
    totals = tuple(a + b for a, b in zip(state.game_points, result.game_points, strict=True))
    state._set(game_points=totals, deal_results=(*state.deal_results, result))
    events.append(
        Event(
            "deal_over",
            {
                "result": result.to_json(reveal_seed=False),
                "game_points": list(totals),
            },
        )
    )
    target = state.rules.target
    if max(totals) >= target and termination is not Termination.RESIGN:
        best = max(totals)
        state._set(
            match_over=True,
            match_winner=totals.index(best),
            deal_over=True,
            to_move=None,
        )
        events.append(_match_over_event(state))
        return state, events
    if termination is Termination.RESIGN or not state.continues:
        state._set(deal_over=True, to_move=None)
        return state, events
    deal_no = state.deal_no + 1
    seed = deal_seed(state.seed, deal_no)
    new, more = start_deal(
        state,
        state.rules,
        match_seed=state.seed,
        deal_no=deal_no,
        dealer=(state.dealer + 1) % state.seats,
        seed=seed,
        cards=shuffled_deck(state.rules.deck, seed),
        game_points=totals,
        continues=True,
    )
    return new, events + more


def _match_over_event(state: State) -> Event:
    return Event(
        "match_over",
        {
            "winner": state.match_winner,
            "game_points": list(state.game_points),
            "seeds": [r.seed for r in state.deal_results],
        },
    )


def _add(values: tuple[int, ...], seat: int, amount: int) -> tuple[int, ...]:
    out = list(values)
    out[seat] += amount
    return tuple(out)
