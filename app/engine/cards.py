"""Cards, suits, ranks and decks (RULES.md section 1).

A card is written rank then suit: ``TH`` is the ten of hearts, ``9S`` the nine of spades.
Cards are interned values: ``parse_card(str(card)) is card`` for every card, so they compare and
hash cheaply. In the 48-card deck the two copies of a card are the same value; a trick between
equal cards goes to the one played first.
"""

from __future__ import annotations

from functools import cache
from typing import ClassVar, Final

SUITS: Final = ("C", "D", "H", "S")
"""Clubs, diamonds, hearts, spades."""

RANKS: Final = ("7", "8", "9", "J", "Q", "K", "T", "A")
"""All ranks, low to high."""

CARD_POINTS: Final = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}

DECK_RANKS: Final = {
    24: ("9", "J", "Q", "K", "T", "A"),
    20: ("J", "Q", "K", "T", "A"),
    32: ("7", "8", "9", "J", "Q", "K", "T", "A"),
    48: ("9", "J", "Q", "K", "T", "A"),
}
"""The ranks in each deck size; 48 is two copies of the 24-card deck."""


class Card:
    """One card: ``rank`` (one of RANKS), ``suit`` (one of SUITS), ``points``, ``strength``.

    Build cards with :func:`parse_card` or ``Card(rank, suit)``; both return the interned value.

    >>> parse_card("TH").points
    10
    >>> str(Card("9", "S"))
    '9S'
    """

    __slots__ = ("code", "points", "rank", "strength", "suit")
    _interned: ClassVar[dict[tuple[str, str], Card]] = {}

    rank: str
    suit: str
    code: str
    points: int
    strength: int

    def __new__(cls, rank: str, suit: str) -> Card:
        card = cls._interned.get((rank, suit))
        if card is not None:
            return card
        if rank not in CARD_POINTS or suit not in SUITS:
            raise ValueError(f"no such card: rank {rank!r}, suit {suit!r}")
        card = object.__new__(cls)
        for name, value in (
            ("rank", rank),
            ("suit", suit),
            ("code", rank + suit),
            ("points", CARD_POINTS[rank]),
            ("strength", RANKS.index(rank)),
        ):
            object.__setattr__(card, name, value)
        cls._interned[(rank, suit)] = card
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[str, str]]:
        return (Card, (self.rank, self.suit))

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    def __str__(self) -> str:
        return self.code

    def __lt__(self, other: Card) -> bool:
        """Order for display: by suit, then by strength (not trick order)."""
        return (self.suit, self.strength) < (other.suit, other.strength)


for _suit in SUITS:
    for _rank in RANKS:
        Card(_rank, _suit)


def parse_card(code: str) -> Card:
    """Return the card for a code such as ``"TH"`` or ``"9S"``; ValueError if there is none.

    >>> parse_card("QH").rank, parse_card("QH").suit
    ('Q', 'H')
    """
    if not isinstance(code, str) or len(code) != 2:
        raise ValueError(f"not a card code: {code!r} (expected rank then suit, like 'TH')")
    card = Card._interned.get((code[0], code[1]))
    if card is None:
        raise ValueError(f"not a card code: {code!r} (expected rank then suit, like 'TH')")
    return card


@cache
def full_deck(size: int) -> tuple[Card, ...]:
    """The cards of a deck of ``size`` (24, 20, 32 or 48) in a fixed order (suit, then rank).

    >>> sum(card.points for card in full_deck(24))
    120
    """
    try:
        ranks = DECK_RANKS[size]
    except KeyError:
        raise ValueError(f"no deck of {size} cards (use one of 20, 24, 32, 48)") from None
    cards = tuple(Card(rank, suit) for suit in SUITS for rank in ranks)
    return cards * 2 if size == 48 else cards


def beats(card: Card, best: Card, trump: str) -> bool:
    """True if ``card``, played after ``best`` (the card now winning the trick), takes the lead.

    A trump beats any non-trump; within one suit the stronger card wins; a card of another plain
    suit never wins; an equal card (48-card deck) does not beat the one played first.
    """
    if card.suit == best.suit:
        return card.strength > best.strength
    return card.suit == trump
