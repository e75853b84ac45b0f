"""The state of a match and its current deal: an immutable value.

``apply`` never changes a state; it copies it and changes the copy (through ``_evolve``), so a
state handed out once stays as it was. Seats are numbered 0..n-1 and every per-seat field is a
tuple of length n, so three- and four-hand variants need no new shape; ``side_of`` maps a seat to
its side (a partnership later, the seat itself in the two-player presets).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .cards import Card
from .rules import Rules


class Termination(StrEnum):
    """How a deal ended."""

    REACHED_66 = "reached_66"
    """A player reached 66 (automatic claim mode)."""
    CLAIM = "claim"
    """A player claimed 66 rightly (manual claim mode)."""
    WRONG_CLAIM = "wrong_claim"
    """A player claimed 66 without having it (manual claim mode)."""
    LAST_TRICK = "last_trick"
    """The stock was played out and all cards were played."""
    CLOSED = "closed"
    """The player who closed the stock went out."""
    CLOSE_FAILED = "close_failed"
    """The player who closed the stock did not reach 66."""
    VOID = "void"
    """All cards were played and nobody reached 66 (``played_out="redeal"``): nobody scores."""
    ALL_PASSED = "all_passed"
    """Everyone passed in the bidding (four-hand): nobody scores, the deal is dealt again."""
    BID_MADE = "bid_made"
    """The bidding side reached its level (four-hand)."""
    BID_FAILED = "bid_failed"
    """The bidding side did not reach its level (four-hand)."""
    RESIGN = "resign"
    """A player resigned the match."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished deal or match came out: the winning side (None: nobody) and how.

    For a match, ``termination`` is how its last deal ended (``resign`` for a resigned match).

    >>> Outcome(winner=1, termination=Termination.CLOSED).to_json()
    {'winner': 1, 'termination': 'closed'}
    """

    winner: int | None
    termination: Termination

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"winner": self.winner, "termination": self.termination.value}


@dataclass(frozen=True, slots=True)
class DealResult:
    """The outcome of one deal.

    ``winner`` and ``game_points`` are per side (a side is a seat except with ``partners``);
    ``winner`` is None for a void deal. ``card_points``, ``scores`` and ``tricks`` are per seat.
    ``bid`` is the winning bid ``(seat, level)`` of a four-hand deal; ``resigned`` the seat
    that resigned the match in this deal; ``claimed`` the seat that claimed 66 (rightly or
    not) to end it; ``played_out`` is true when the deal was played to
    the last trick with nobody at 66, so the ``played_out`` rule gave its 1 point (its JSON form
    has each only when set).
    """

    deal_no: int
    dealer: int
    trump: str
    seed: str
    commitment: str
    winner: int | None
    termination: Termination
    card_points: tuple[int, ...]
    scores: tuple[int, ...]
    tricks: tuple[int, ...]
    game_points: tuple[int, ...]
    closed_by: int | None
    bid: tuple[int, int] | None = None
    resigned: int | None = None
    played_out: bool = False
    claimed: int | None = None

    @property
    def outcome(self) -> Outcome:
        """The deal's :class:`Outcome`."""
        return Outcome(self.winner, self.termination)

    def to_json(self, reveal_seed: bool = True) -> dict[str, Any]:
        """JSON form; the seed is left out unless ``reveal_seed`` (it is secret until match end)."""
        data: dict[str, Any] = {
            "deal_no": self.deal_no,
            "dealer": self.dealer,
            "trump": self.trump,
            "commitment": self.commitment,
            "winner": self.winner,
            "termination": self.termination.value,
            "card_points": list(self.card_points),
            "scores": list(self.scores),
            "tricks": list(self.tricks),
            "game_points": list(self.game_points),
            "closed_by": self.closed_by,
        }
        if self.bid is not None:
            data["bid"] = {"seat": self.bid[0], "level": self.bid[1]}
        if self.resigned is not None:
            data["resigned"] = self.resigned
        if self.played_out:
            data["played_out"] = True
        if self.claimed is not None:
            data["claimed"] = self.claimed
        if reveal_seed:
            data["seed"] = self.seed
        return data


class State:
    """A match in progress and its current deal. Read its fields; never assign them.

    Fields:

    * match: ``rules``, ``seed`` (the match seed), ``game_points``, ``deal_results``,
      ``match_over``, ``match_winner``, ``continues`` (a match deals on; a lone deal from
      ``new_deal`` stops after one), ``decks`` (explicit deck orders for the match's first
      deals; later deals come from the seed); :attr:`outcome` once it is over;
    * deal: ``deal_no``, ``deal_seed``, ``commitment``, ``dealer``, ``deal_over``;
    * cards: ``hands`` (per seat), ``stock`` (top first; while ``trump_under`` its last card is
      the turned trump card), ``aside`` (cards out of this deal, unseen), ``trump`` (suit; ``""``
      until the first card is led in four-hand), ``trump_card`` (the turned card, or the dealer's
      last card in three-hand, None in four-hand), ``trump_under``;
    * bidding (four-hand): ``bidding`` (the auction is on), ``bids`` (``(seat, level)``, level 0
      for a pass), ``high_bid`` (``(seat, level)`` or None), ``sitting_out`` (the lone bidder's
      partner in a Luna);
    * closing: ``closed_by``, ``frozen`` (per seat (card points, marriages, tricks) at closing);
    * play: ``to_move``, ``trick`` (``(seat, card)`` pairs), ``history`` (the deal's completed
      tricks with their winners; ``last_trick``, ``last_winner`` and ``won`` derive from it);
    * score (per seat; ``game_points`` per side): ``card_points``, ``tricks_won``,
      ``marriage_points`` (credited), ``pending`` (declared, not yet credited), ``marriages``
      (``(seat, suit, points)``), ``shown`` (``(seat, card)`` known to be in a hand: a marriage
      partner, the card taken by an exchange, the turned trump card taken with the stock's last
      draw, the three-hand dealer's trump card), ``bonus`` (last trick).
    """

    rules: Rules
    seed: str
    deal_no: int
    deal_seed: str
    commitment: str
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    aside: tuple[Card, ...]
    trump: str
    trump_card: Card | None
    trump_under: bool
    closed_by: int | None
    frozen: tuple[tuple[int, int, int], ...] | None
    to_move: int | None
    trick: tuple[tuple[int, Card], ...]
    history: tuple[tuple[tuple[tuple[int, Card], ...], int], ...]
    card_points: tuple[int, ...]
    tricks_won: tuple[int, ...]
    marriage_points: tuple[int, ...]
    pending: tuple[int, ...]
    marriages: tuple[tuple[int, str, int], ...]
    shown: tuple[tuple[int, Card], ...]
    bonus: tuple[int, ...]
    bidding: bool
    bids: tuple[tuple[int, int], ...]
    high_bid: tuple[int, int] | None
    sitting_out: int | None
    game_points: tuple[int, ...]
    deal_results: tuple[DealResult, ...]
    deal_over: bool
    match_over: bool
    match_winner: int | None
    continues: bool
    decks: tuple[tuple[Card, ...], ...]

    def __init__(self, **fields: Any) -> None:
        self.__dict__.update(fields)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("a State is immutable; use apply() to get a new one")

    def _evolve(self) -> State:
        """A shallow copy for ``apply`` to change (its fields are tuples, so this is safe)."""
        copy = object.__new__(State)
        copy.__dict__.update(self.__dict__)
        return copy

    def _set(self, **fields: Any) -> None:
        self.__dict__.update(fields)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.__dict__ == other.__dict__

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"State({self.rules.variant}, deal {self.deal_no}, to_move={self.to_move}, "
            f"stock={len(self.stock)}, game_points={self.game_points})"
        )

    @property
    def outcome(self) -> Outcome | None:
        """The match's :class:`Outcome` once it is over (a lone deal's once that deal is over).

        None while play goes on.
        """
        if not self.deal_over or not self.deal_results:
            return None
        last = self.deal_results[-1]
        if self.match_over:
            return Outcome(self.match_winner, last.termination)
        return last.outcome

    @property
    def seats(self) -> int:
        """The number of seats."""
        return self.rules.players

    @property
    def stock_open(self) -> bool:
        """True while cards are still drawn: the stock holds cards and is not closed."""
        return bool(self.stock) and self.closed_by is None

    @property
    def last_trick(self) -> tuple[tuple[int, Card], ...] | None:
        """The last completed trick of this deal, or None before the first."""
        return self.history[-1][0] if self.history else None

    @property
    def last_winner(self) -> int | None:
        """Who won the last completed trick, or None before the first."""
        return self.history[-1][1] if self.history else None

    def won(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` has won in this deal's tricks."""
        return tuple(card for trick, winner in self.history if winner == seat for _, card in trick)

    def score(self, seat: int) -> int:
        """Card points won plus credited marriages plus the last-trick bonus of ``seat``."""
        return self.card_points[seat] + self.marriage_points[seat] + self.bonus[seat]

    @property
    def sides(self) -> int:
        """The number of sides (two with partners, else one per seat)."""
        return self.rules.sides

    def side_of(self, seat: int) -> int:
        """The side ``seat`` plays for (``Rules.side_of``)."""
        return self.rules.side_of(seat)

    def members(self, side: int) -> tuple[int, ...]:
        """The seats of ``side``."""
        return (side, side + 2) if self.rules.partners else (side,)

    def side_score(self, side: int) -> int:
        """The :meth:`score` of ``side``: its seats' scores together."""
        if not self.rules.partners:
            return self.card_points[side] + self.marriage_points[side] + self.bonus[side]
        return self.score(side) + self.score(side + 2)

    def side_tricks(self, side: int) -> int:
        """Tricks won by ``side``."""
        return sum(self.tricks_won[seat] for seat in self.members(side))

    def opponents(self, seat: int) -> tuple[int, ...]:
        """The seats playing against ``seat``."""
        return tuple(s for s in range(self.seats) if self.side_of(s) != self.side_of(seat))
