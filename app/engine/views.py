"""What one seat (or a spectator) may see: ``view`` (RULES.md section 4).

The view is built only from public fields and the viewer's own hand, so no other hand (a
partner's included), no stock card and no card set aside can get into it. :class:`View`
declares its shape.
"""

from __future__ import annotations

from typing import Any, TypedDict

from .actions import BID_LEVELS
from .play import legal_actions, marriage_offers, unplayable
from .scoring import bid_goal
from .state import State


class SeatCard(TypedDict):
    """A card and the seat it belongs to (played, shown)."""

    seat: int
    card: str


class Trick(TypedDict):
    """A completed trick: its cards in play order and its winner."""

    winner: int
    cards: list[SeatCard]


class Marriage(TypedDict):
    """A declared marriage."""

    seat: int
    suit: str
    points: int


class MarriageOffer(TypedDict):
    """A marriage the viewer may declare now: its suit, what it is worth, and whether it would
    wait (``pending``) for the declarer's first trick before it counts."""

    suit: str
    points: int
    pending: bool


class Bid(TypedDict):
    """One call of the four-hand auction; ``level`` is None for a pass."""

    seat: int
    level: int | None


class HighBid(TypedDict):
    """The bid that stands: who holds it, at which level."""

    seat: int
    level: int


class BidGoal(TypedDict):
    """What a four-hand bid of ``level`` must reach: ``needs`` card points (with credited
    marriages), or None for a Luna that must take every trick."""

    level: int
    needs: int | None


class View(TypedDict):
    """The JSON-ready picture of a table for one seat or a spectator (see :func:`view`)."""

    variant: str
    rules: dict[str, Any]
    seat: int | None
    seats: int
    sides: list[int]
    """The side of each seat."""
    to_move: int | None
    hand: list[str]
    hand_counts: list[int]
    trump: str | None
    """The trump suit, None until it is named (four-hand)."""
    trump_card: str | None
    """The turned trump card while it lies under the stock."""
    stock: int
    aside: int
    """How many cards are out of this deal, unseen."""
    closed: bool
    closed_by: int | None
    trick: list[SeatCard]
    last_trick: Trick | None
    tricks: list[Trick]
    tricks_won: list[int]
    scores: list[int] | None
    """Per seat; None for everyone in manual claim mode."""
    pending_marriages: list[int]
    marriages: list[Marriage]
    shown: list[SeatCard]
    game_points: list[int]
    """Per side."""
    dealer: int
    deal_no: int
    bidding: bool
    bids: list[Bid]
    high_bid: HighBid | None
    bid_goals: list[BidGoal]
    """Each bid level and what it must reach (empty without bidding)."""
    sitting_out: int | None
    deal_over: bool
    match_over: bool
    match_winner: int | None
    """The winning side."""
    deal_results: list[dict[str, Any]]
    commitment: str
    legal: list[dict[str, Any]]
    """The viewer's legal actions; empty unless it is the viewer's move."""
    unplayable: dict[str, str]
    """Each card of the viewer's own hand that may not be played now, with the code ``apply``
    would refuse it with (``not_your_turn``, ``must_follow_suit``...); playable cards are left
    out. Empty for a spectator."""
    declarable: list[MarriageOffer]
    """The marriages the viewer may declare now; empty unless it is the viewer's lead."""


class SeatOptions(TypedDict):
    """What the viewer may do now: the view's fields that every ``update`` sends afresh."""

    legal: list[dict[str, Any]]
    unplayable: dict[str, str]
    declarable: list[MarriageOffer]


def seat_options(state: State, seat: int | None) -> SeatOptions:
    """The ``legal``, ``unplayable`` and ``declarable`` fields of ``seat``'s view.

    A spectator (``seat`` None) may do nothing and is told nothing.

    >>> from app.engine import new_deal, preset
    >>> seat_options(new_deal(preset("sixty-six"), seed="x"), None)
    {'legal': [], 'unplayable': {}, 'declarable': []}
    """
    if seat is None:
        return {"legal": [], "unplayable": {}, "declarable": []}
    legal = legal_actions(state, seat)
    return {
        "legal": [a.to_json() for a in legal],
        "unplayable": {code: str(reason) for code, reason in unplayable(state, seat).items()},
        "declarable": [
            {"suit": suit, "points": points, "pending": pending}
            # A marriage is declared by a legal action: none to offer without any.
            for suit, points, pending in (marriage_offers(state, seat, legal) if legal else [])
        ],
    }


def view(state: State, seat: int | None, *, results: bool = True) -> View:
    """The picture of ``state`` for ``seat`` (``None``: a spectator).

    Holds the viewer's own hand, counts of the others', every public fact, and what the viewer
    may do (:func:`seat_options`): ``legal``, its legal actions (empty when it is not the
    viewer's move), ``unplayable``, why each other card of its hand may not be played, and
    ``declarable``, the marriages it may declare with their points. In manual claim mode
    ``scores`` is null for everyone: players count in their heads. ``results=False`` leaves
    ``deal_results`` empty, for a caller that sends the match's results once beside many views
    (a replay): the list grows with the match, and the rest of a view does not.
    """
    n = state.seats
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
        raise ValueError(f"no seat {seat!r} at this table")
    manual = state.rules.claim == "manual"
    tricks: list[Trick] = [
        {"winner": winner, "cards": [{"seat": s, "card": c.code} for s, c in trick]}
        for trick, winner in state.history
    ]
    over = state.match_over
    high = state.high_bid
    turned = state.trump_card if state.trump_under else None
    return {
        "variant": state.rules.variant,
        "rules": state.rules.options(),
        "seat": seat,
        "seats": n,
        "sides": [state.side_of(s) for s in range(n)],
        "to_move": state.to_move,
        "hand": [c.code for c in state.hands[seat]] if seat is not None else [],
        "hand_counts": [len(hand) for hand in state.hands],
        "trump": state.trump or None,
        "trump_card": turned.code if turned is not None else None,
        "stock": len(state.stock),
        "aside": len(state.aside),
        "closed": state.closed_by is not None,
        "closed_by": state.closed_by,
        "trick": [{"seat": s, "card": c.code} for s, c in state.trick],
        "last_trick": tricks[-1] if tricks else None,
        "tricks": tricks,
        "tricks_won": list(state.tricks_won),
        "scores": None if manual else [state.score(s) for s in range(n)],
        "pending_marriages": list(state.pending),
        "marriages": [{"seat": s, "suit": suit, "points": p} for s, suit, p in state.marriages],
        "shown": [{"seat": s, "card": c.code} for s, c in state.shown],
        "game_points": list(state.game_points),
        "dealer": state.dealer,
        "deal_no": state.deal_no,
        "bidding": state.bidding,
        "bids": [{"seat": s, "level": level or None} for s, level in state.bids],
        "high_bid": {"seat": high[0], "level": high[1]} if high is not None else None,
        "bid_goals": [
            {"level": level, "needs": bid_goal(state.rules, level)} for level in BID_LEVELS
        ]
        if state.rules.bidding
        else [],
        "sitting_out": state.sitting_out,
        "deal_over": state.deal_over,
        "match_over": over,
        "match_winner": state.match_winner,
        "deal_results": [r.to_json(reveal_seed=over) for r in state.deal_results]
        if results
        else [],
        "commitment": state.commitment,
        **seat_options(state, seat),
    }
