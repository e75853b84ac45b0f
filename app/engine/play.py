"""Legal actions and ``apply``: the rules of play (RULES.md section 2, points 3 to 10, and the
three- and four-player games of section 3 and docs/rules.md section 9).

``apply`` is pure: it validates, copies the state, changes the copy, and returns it with the
events that describe the change. Nothing else in the project decides a rule.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Final

from .actions import BID_LEVELS, CLAIM, CLOSE, EXCHANGE, PASS, Action
from .cards import SUITS, Card, beats
from .dealing import deck_of_deal, start_deal
from .errors import Illegal, IllegalAction
from .events import Event
from .scoring import GOING_OUT, best_opponent, bid_target, judge, judge_bid
from .state import State, Termination

PLAY: Final = {Card(r, s): Action("play", Card(r, s)) for s in SUITS for r in "789JQKTA"}
PLAY_MARRIAGE: Final = {Card(r, s): Action("play", Card(r, s), True) for s in SUITS for r in "KQ"}
PARTNER: Final = {Card("K", s): Card("Q", s) for s in SUITS} | {
    Card("Q", s): Card("K", s) for s in SUITS
}
BID: Final = {level: Action("bid", level=level) for level in BID_LEVELS}


# ---------------------------------------------------------------------------------------------
# What may be played


def marriages_allowed(state: State) -> bool:
    """Marriages may be declared while the stock is open, or always with the strict-phase option."""
    return state.stock_open or state.rules.marriages_in_strict_phase


def marriage_points(state: State, suit: str) -> int:
    """40 for the trump marriage, 20 for another.

    In four-hand the first card led names trump, so a marriage led before then is in trumps.
    """
    return 40 if suit == (state.trump or suit) else 20


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
        and state.trump_card is not Card(rules.exchange_rank, state.trump)
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
    allowed to a seated player and is not listed. In the four-hand bidding: the bids above the
    one that stands, and ``pass``.

    >>> from app.engine import new_deal, preset
    >>> [a.to_json() for a in legal_actions(new_deal(preset("four-hand"), seed="b"))][-2:]
    [{'type': 'bid', 'level': 5}, {'type': 'pass'}]
    """
    mover = state.to_move
    if mover is None or (seat is not None and seat != mover):
        return []
    if state.bidding:
        high = state.high_bid[1] if state.high_bid is not None else 0
        return [*(BID[level] for level in BID_LEVELS if level > high), PASS]
    hand = state.hands[mover]
    rules = state.rules
    if rules.deck == 48:
        hand = tuple(dict.fromkeys(hand))
    if state.trick:
        if state.closed_by is None and state.stock:  # open phase: any card
            actions = [PLAY[c] for c in hand]
        else:
            actions = [PLAY[c] for c in follow_cards(state, hand)]
        if rules.claim == "manual":
            actions.append(CLAIM)
        return actions
    actions = [PLAY[c] for c in hand]
    stock_open = state.closed_by is None and bool(state.stock)
    if stock_open or rules.marriages_in_strict_phase:
        for card in hand:
            partner = PARTNER.get(card)
            if partner is not None and partner in hand:
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

    Never changes ``state``. Raises :class:`IllegalAction` with a stable code (an
    :class:`~app.engine.errors.Illegal`) for anything the rules forbid, and :class:`ActionError`
    for a malformed JSON dict; every action type has its rule, and no other type is accepted.
    When a deal ends and the match goes on, the next deal is dealt in the same call.

    >>> from app.engine import new_deal, preset
    >>> s = new_deal(preset("sixty-six"), seed="x")
    >>> s2, events = apply(s, legal_actions(s)[0])
    >>> events[0].type
    'card_played'
    """
    if not isinstance(action, Action):
        action = Action.from_json(action)
    if state.match_over:
        raise IllegalAction(Illegal.MATCH_OVER, "The match is over.")
    if state.deal_over:
        raise IllegalAction(Illegal.DEAL_OVER, "The deal is over.")
    if seat is None:
        seat = state.to_move
    elif isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.seats:
        raise IllegalAction(Illegal.BAD_SEAT, "There is no such seat at this table.")
    assert seat is not None
    kind = action.type
    if kind == "resign":
        return _resign(state, seat)
    refusal = _turn_refusal(state, seat, kind)
    if refusal is not None:
        raise refusal
    if kind == "play":
        return _play(state, seat, action)
    if kind == "exchange":
        return _exchange(state, seat)
    if kind == "close":
        return _close(state, seat)
    if kind == "claim":
        return _claim(state, seat)
    if kind in ("bid", "pass"):
        return _bid(state, seat, action)
    raise IllegalAction(Illegal.UNKNOWN_ACTION, f"There is no rule for the action {kind!r}.")


def _turn_refusal(state: State, seat: int, kind: str) -> IllegalAction | None:
    """Why ``seat`` may not take an action of type ``kind`` (not ``resign``) at all now, or None.

    The checks ``apply`` makes before it looks at the action itself: the match or the deal is
    over, another seat is on move, the four-hand bidding is still going on.
    """
    code = _turn_illegal(state, seat, kind)
    return None if code is None else IllegalAction(code, _TURN_REFUSALS[code])


_TURN_REFUSALS: Final = {
    Illegal.MATCH_OVER: "The match is over.",
    Illegal.DEAL_OVER: "The deal is over.",
    Illegal.NOT_YOUR_TURN: "It is not your turn.",
    Illegal.BIDDING_NOT_OVER: "The bidding is not over yet.",
}
"""The sentence of each refusal ``_turn_refusal`` can give."""


def _turn_illegal(state: State, seat: int, kind: str) -> Illegal | None:
    """The code of ``_turn_refusal``, without the exception (a view asks for every card)."""
    if state.match_over:
        return Illegal.MATCH_OVER
    if state.deal_over:
        return Illegal.DEAL_OVER
    if seat != state.to_move:
        return Illegal.NOT_YOUR_TURN
    if state.bidding and kind not in ("bid", "pass"):
        return Illegal.BIDDING_NOT_OVER
    return None


def _strict_follow(state: State) -> bool:
    """True while a trick is led in the strict phase, when following is restricted."""
    return bool(state.trick) and (state.closed_by is not None or not state.stock)


def unplayable(state: State, seat: int) -> dict[str, Illegal]:
    """Why each card of ``seat``'s hand may not be played now, by card code.

    Playable cards are left out, so the dict is empty when ``seat`` may play any card. Each
    code is the one ``apply`` refuses that card with (played plainly, not as a marriage).

    >>> from app.engine import new_deal, preset
    >>> s = new_deal(preset("sixty-six"), seed="x")
    >>> unplayable(s, s.to_move)
    {}
    >>> set(unplayable(s, 1 - s.to_move).values())
    {<Illegal.NOT_YOUR_TURN: 'not_your_turn'>}
    """
    hand = state.hands[seat]
    refusal = _turn_illegal(state, seat, "play")
    if refusal is not None:
        return {card.code: refusal for card in hand}
    if not _strict_follow(state):
        return {}
    allowed = follow_cards(state, hand)
    return {c.code: _follow_error(state, hand, c).code for c in hand if c not in allowed}


def marriage_pending(state: State, seat: int) -> bool:
    """True if a marriage ``seat`` declared now would wait for its side's first trick."""
    if not state.rules.marriage_needs_trick:
        return False
    if state.rules.partners:
        return state.side_tricks(seat % 2) == 0
    return state.tricks_won[seat] == 0


def marriage_offers(
    state: State, seat: int, legal: list[Action] | None = None
) -> list[tuple[str, int, bool]]:
    """The marriages ``seat`` may declare now: ``(suit, points, pending)`` in suit order.

    ``points`` is what the marriage is worth (:func:`marriage_points`); ``pending`` is True if
    it would wait for the declarer's (side's) first trick (:func:`marriage_pending`).
    ``legal``: ``legal_actions(state, seat)`` when the caller has it already.

    >>> from app.engine import new_deal, preset
    >>> marriage_offers(new_deal(preset("sixty-six"), seed="x"), 0)
    []
    """
    if legal is None:
        legal = legal_actions(state, seat)
    suits = {a.card.suit for a in legal if a.marriage and a.card is not None}
    pending = marriage_pending(state, seat)
    return [(suit, marriage_points(state, suit), pending) for suit in SUITS if suit in suits]


def _check_play(state: State, seat: int, action: Action) -> Card:
    card = action.card
    assert card is not None
    hand = state.hands[seat]
    if card not in hand:
        raise IllegalAction(Illegal.CARD_NOT_IN_HAND, f"You do not hold {card.code}.")
    if action.marriage:
        if state.trick:
            raise IllegalAction(
                Illegal.MARRIAGE_NOT_ALLOWED, "Only the leader declares a marriage."
            )
        if card.rank not in "KQ":
            raise IllegalAction(
                Illegal.NO_MARRIAGE, "A marriage is declared with a king or a queen."
            )
        if PARTNER[card] not in hand:
            raise IllegalAction(
                Illegal.NO_MARRIAGE, f"You need {PARTNER[card].code} as well to declare a marriage."
            )
        if not marriages_allowed(state):
            raise IllegalAction(
                Illegal.MARRIAGE_NOT_ALLOWED, "Marriages cannot be declared once the stock is gone."
            )
        return card
    if _strict_follow(state) and card not in follow_cards(state, hand):
        raise _follow_error(state, hand, card)
    return card


def _follow_error(state: State, hand: tuple[Card, ...], card: Card) -> IllegalAction:
    led = state.trick[0][1]
    if card.suit != led.suit and any(c.suit == led.suit for c in hand):
        return IllegalAction(Illegal.MUST_FOLLOW_SUIT, f"You must follow suit ({led.suit}).")
    if card.suit == led.suit:
        return IllegalAction(Illegal.MUST_BEAT, "You must head the trick with a higher card.")
    if card.suit != state.trump:
        return IllegalAction(
            Illegal.MUST_TRUMP, "You cannot follow suit, so you must play a trump."
        )
    return IllegalAction(Illegal.MUST_BEAT, "You must overtrump if you can.")


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
    if not state.trump:  # four-hand: the first card led names trump
        fields["trump"] = card.suit
        events.append(Event("trump_named", {"seat": seat, "trump": card.suit}))
    if action.marriage and _declare_marriage(new, seat, card, events):
        return _end_early(new, seat, events)
    n = state.rules.players
    out = state.sitting_out
    if out is None:
        if len(trick) < n:
            fields["to_move"] = (seat + 1) % n
            return new, events
    elif len(trick) < n - 1:  # a Luna: the lone bidder's partner sits out
        following = (seat + 1) % n
        fields["to_move"] = (following + 1) % n if following == out else following
        return new, events
    return _complete_trick(new, events)


def _end_early(state: State, seat: int, events: list[Event]) -> tuple[State, list[Event]]:
    """End the deal because ``seat``'s side reached its goal (66, or the level bid)."""
    side = state.side_of(seat)
    if state.rules.bidding:
        return _finish(state, side, Termination.BID_MADE, None, events)
    return _finish(state, side, Termination.REACHED_66, None, events)


def _goal_reached(state: State, seat: int) -> bool:
    """True if ``seat``'s side has reached its goal: 66, or in four-hand the bidders' level."""
    rules = state.rules
    if rules.bidding:
        assert state.high_bid is not None
        bidder, level = state.high_bid
        side = bidder % 2
        if seat % 2 != side or (level == 5 and rules.luna == "every_trick"):
            return False
        return state.side_score(side) >= bid_target(level)
    if rules.partners:
        return state.side_score(seat % 2) >= GOING_OUT
    return state.score(seat) >= GOING_OUT


def _declare_marriage(state: State, seat: int, card: Card, events: list[Event]) -> bool:
    """Record a marriage (credited now if the declarer has a trick); True if that ends the deal."""
    partner = PARTNER[card]
    points = marriage_points(state, card.suit)
    rules = state.rules
    credited = not marriage_pending(state, seat)
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
    if credited and rules.claim == "auto":
        events[-1].data["score"] = state.score(seat)
        return _goal_reached(state, seat)
    return False


def _complete_trick(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """Give the full trick to its winner, credit a pending marriage, draw, and check the end.

    In automatic claim mode each event that changes a score carries the new ``score``.
    """
    trick = state.trick
    trump = state.trump
    winner, best = trick[0]
    points = best.points
    for seat, card in trick[1:]:  # beats(), written out: this is the engine's hottest loop
        points += card.points
        if card.suit == best.suit:
            if card.strength > best.strength:
                winner, best = seat, card
        elif card.suit == trump:
            winner, best = seat, card
    fields = state.__dict__
    fields["trick"] = ()
    fields["history"] = (*state.history, (trick, winner))
    fields["card_points"] = _add(state.card_points, winner, points)
    fields["tricks_won"] = _add(state.tricks_won, winner, 1)
    fields["to_move"] = winner
    rules = state.rules
    if rules.partners:
        return _complete_side_trick(state, winner, points, trick, events)
    pending = state.pending[winner]
    if pending:
        fields["pending"] = _add(state.pending, winner, -pending)
        fields["marriage_points"] = _add(state.marriage_points, winner, pending)
    manual = rules.claim == "manual"
    score = fields["card_points"][winner] + fields["marriage_points"][winner]
    score += state.bonus[winner]
    cards = [{"seat": s, "card": c.code} for s, c in trick]
    data: dict[str, Any] = {"seat": winner, "cards": cards}
    if not manual:
        data["points"] = points
        data["score"] = score - pending
    events.append(Event("trick_won", data))
    if pending:
        events.append(_scored("marriage_credited", state, winner, pending, manual))
    if state.closed_by is None and state.stock:
        _draw(state, winner, events)
    if not manual and score >= GOING_OUT:
        return _finish(state, winner, Termination.REACHED_66, None, events)
    if not any(state.hands):
        bonus = state.rules.last_trick_bonus
        if state.closed_by is None and bonus:
            fields["bonus"] = _add(state.bonus, winner, bonus)
            events.append(_scored("last_trick_bonus", state, winner, bonus, manual))
        return _finish(state, winner, Termination.LAST_TRICK, None, events)
    return state, events


def _complete_side_trick(
    state: State,
    winner: int,
    points: int,
    trick: tuple[tuple[int, Card], ...],
    events: list[Event],
) -> tuple[State, list[Event]]:
    """The rest of ``_complete_trick`` with partners: pending marriages, goals and the end
    are the side's (four-hand and ``german-48`` with ``partners``)."""
    fields = state.__dict__
    rules = state.rules
    side = winner % 2
    manual = rules.claim == "manual"
    cards = [{"seat": s, "card": c.code} for s, c in trick]
    data: dict[str, Any] = {"seat": winner, "cards": cards}
    credits = [(seat, state.pending[seat]) for seat in state.members(side) if state.pending[seat]]
    if not manual:
        data["points"] = points
        data["score"] = state.score(winner)
    events.append(Event("trick_won", data))
    for seat, pending in credits:
        fields["pending"] = _add(state.pending, seat, -pending)
        fields["marriage_points"] = _add(state.marriage_points, seat, pending)
        events.append(_scored("marriage_credited", state, seat, pending, manual))
    if state.closed_by is None and state.stock:
        _draw(state, winner, events)
    out = state.sitting_out
    played_out = not any(hand for seat, hand in enumerate(state.hands) if seat != out)
    if rules.bidding:
        assert state.high_bid is not None
        bidder, level = state.high_bid
        if level == 5 and rules.luna == "every_trick":
            if side != bidder % 2:
                return _finish(state, side, Termination.BID_FAILED, None, events)
            if played_out:
                return _finish(state, side, Termination.BID_MADE, None, events)
            return state, events
    if not manual and _goal_reached(state, winner):
        return _end_early(state, winner, events)
    if played_out:
        bonus = rules.last_trick_bonus
        if state.closed_by is None and bonus:
            fields["bonus"] = _add(state.bonus, winner, bonus)
            events.append(_scored("last_trick_bonus", state, winner, bonus, manual))
            if rules.bidding and _goal_reached(state, winner):
                return _end_early(state, winner, events)
        if rules.bidding:
            return _finish(state, None, Termination.BID_FAILED, None, events)
        return _finish(state, side, Termination.LAST_TRICK, None, events)
    return state, events


def _bid(state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
    """A bid or a pass in the four-hand auction (RULES.md section 3, four-hand bidding)."""
    if not state.bidding:
        message = "The bidding is over." if state.rules.bidding else "This table does not bid."
        raise IllegalAction(Illegal.NOT_BIDDING_PHASE, message)
    high = state.high_bid
    level = action.level or 0
    if level and high is not None and level <= high[1]:
        raise IllegalAction(
            Illegal.BID_TOO_LOW, f"A bid must be higher than the current {high[1]}."
        )
    new = state._evolve()
    bids = (*state.bids, (seat, level))
    if level:
        high = (seat, level)
        events = [Event("bid", {"seat": seat, "level": level})]
    else:
        events = [Event("passed", {"seat": seat})]
    new._set(bids=bids, high_bid=high)
    n = state.seats
    passed = {s for s, bid in bids if bid == 0}
    if high is None and len(passed) == n:
        new._set(bidding=False, to_move=None)
        return _finish(new, None, Termination.ALL_PASSED, None, events)
    if high is not None and (high[1] == BID_LEVELS[-1] or len(passed) == n - 1):
        bidder, won = high
        out = (bidder + 2) % n if won == BID_LEVELS[-1] else None
        new._set(bidding=False, to_move=bidder, sitting_out=out)
        events.append(Event("bidding_over", {"seat": bidder, "level": won, "sitting_out": out}))
        return new, events
    following = (seat + 1) % n
    while following in passed:
        following = (following + 1) % n
    new._set(to_move=following)
    return new, events


def _scored(kind: str, state: State, seat: int, points: int, manual: bool) -> Event:
    """An event that adds ``points`` to ``seat``; with the new score unless scores are hidden."""
    data = {"seat": seat, "points": points}
    if not manual:
        data["score"] = state.score(seat)
    return Event(kind, data)


def _draw(state: State, winner: int, events: list[Event]) -> None:
    """After a trick the winner draws first, then the others in turn, while the stock lasts.

    The stock always shares out evenly (cards that would not are set aside when dealing), so
    every seat draws; whoever draws the stock's last card takes the turned trump card.
    """
    n = state.rules.players
    stock = state.stock
    drawn = stock[:n]
    rest = stock[n:]
    hands = list(state.hands)
    seat = winner
    for card in drawn:
        hands[seat] = (*hands[seat], card)
        events.append(Event("card_drawn", {"seat": seat, "card": card.code}, seat, {"seat": seat}))
        seat = (seat + 1) % n
    fields = state.__dict__
    if not rest and state.trump_under:
        last = events[-1]
        last.data["trump_card"] = True  # the turned card: everyone saw it
        last.only = last.redacted = None
        fields["trump_under"] = False
        fields["shown"] = (*state.shown, (last.data["seat"], drawn[-1]))  # and who took it
    fields["stock"] = rest
    fields["hands"] = tuple(hands)


def _exchange(state: State, seat: int) -> tuple[State, list[Event]]:
    if not state.rules.has_stock:
        raise IllegalAction(
            Illegal.EXCHANGE_NOT_IN_GAME,
            "This game turns no trump card, so it has no trump exchange.",
        )
    if not can_exchange(state, seat):
        raise IllegalAction(Illegal.EXCHANGE_NOT_ALLOWED, _exchange_reason(state, seat))
    rules = state.rules
    low = Card(rules.exchange_rank, state.trump)
    taken = state.trump_card
    assert taken is not None
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
        raise IllegalAction(Illegal.CLOSE_NOT_ALLOWED, reason)
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
            Illegal.CLAIM_NOT_ALLOWED,
            "This table counts automatically; there is nothing to claim.",
        )
    side = state.side_of(seat)
    score = state.side_score(side)
    correct = score >= GOING_OUT
    events = [Event("claim", {"seat": seat, "correct": correct, "score": score})]
    if not correct:
        winner = best_opponent(state, side)
        return _finish(state._evolve(), winner, Termination.WRONG_CLAIM, seat, events)
    winner = side
    for other in range(state.sides):
        if state.side_score(other) >= GOING_OUT and state.side_score(other) > score:
            winner, score = other, state.side_score(other)
    return _finish(state._evolve(), winner, Termination.CLAIM, seat, events)


def _resign(state: State, seat: int) -> tuple[State, list[Event]]:
    """``seat`` resigns: the match ends for the other side with the most game points."""
    new = state._evolve()
    events = [Event("resigned", {"seat": seat})]
    side = state.side_of(seat)
    others = [other for other in range(state.sides) if other != side]
    winner = max(others, key=lambda other: state.game_points[other])
    new, events = _finish(new, winner, Termination.RESIGN, seat, events)
    if not new.match_over:
        new._set(match_over=True, match_winner=winner, to_move=None, deal_over=True)
        events.append(_match_over_event(new))
    return new, events


def _finish(
    state: State,
    winner: int | None,
    termination: Termination,
    actor: int | None,
    events: list[Event],
) -> tuple[State, list[Event]]:
    """End the deal won by side ``winner``: score it, then end the match or deal the next."""
    rules = state.rules
    result = judge_bid(state, termination) if rules.bidding else None
    if result is None:
        result = judge(state, winner, termination, actor)
    if termination is Termination.RESIGN:
        result = replace(result, resigned=actor)
    elif termination in (Termination.CLAIM, Termination.WRONG_CLAIM):
        result = replace(result, claimed=actor)
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
    best = max(totals)
    if best >= rules.target and totals.count(best) == 1 and termination is not Termination.RESIGN:
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
    dealer = state.dealer
    if termination is not Termination.ALL_PASSED or rules.all_pass == "next_dealer":
        dealer = (dealer + 1) % state.seats
    seed, cards = deck_of_deal(rules, state.seed, state.decks, deal_no)
    new, more = start_deal(
        state,
        rules,
        match_seed=state.seed,
        deal_no=deal_no,
        dealer=dealer,
        seed=seed,
        cards=cards,
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
