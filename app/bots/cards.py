"""Cards as small integers and hands as bitmasks, for the bots' fast paths.

A card's id is ``suit * 8 + strength``: suits in the order C, D, H, S and strengths 0..7 for the
ranks 7, 8, 9, J, Q, K, T, A (low to high). Every deck of the two-player presets (20, 24 and 32
cards) fits in 32 bits, so a hand is one integer with bit ``id`` set for each card it holds.
Sorting cards by id sorts them by suit, then by strength: the canonical order of the playout
policy (see :mod:`app.bots.playout`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

import numpy as np

from app.engine import new_deal, preset
from app.engine.cards import CARD_POINTS, RANKS, SUITS, Card, beats
from app.engine.play import marriage_points

SUIT_ORDER: Final = "".join(SUITS)
RANK_ORDER: Final = "".join(RANKS)
RANK_POINTS: Final = CARD_POINTS
"""Card points by rank (the engine's table)."""


def _marriage_values() -> tuple[int, int]:
    """The engine's value of a trump marriage and of a plain one, read from a dealt state."""
    state = new_deal(preset("sixty-six"), seed="marriage values")
    plain = next(suit for suit in SUITS if suit != state.trump)
    return marriage_points(state, state.trump), marriage_points(state, plain)


TRUMP_MARRIAGE, PLAIN_MARRIAGE = _marriage_values()
"""What a marriage in trumps and in another suit scores (the engine's values)."""

QUEEN: Final = RANK_ORDER.index("Q")
KING: Final = RANK_ORDER.index("K")

POINTS: Final = np.array([RANK_POINTS[RANK_ORDER[i % 8]] for i in range(32)], dtype=np.int64)
"""Card points by card id."""

POINTS_LIST: Final = [int(p) for p in POINTS]

CLOSING_SCORE: Final = 30
"""The medium bot and the playouts' greedy leader close the stock only from this score on,
when the points of their sure tricks would bring them to 66."""

SUIT_MASK: Final = np.array([0xFF << (8 * s) for s in range(4)], dtype=np.int64)
"""The bits of every card of a suit."""

ABOVE: Final = np.array(
    [((0xFF << (i % 8 + 1)) & 0xFF) << (8 * (i // 8)) for i in range(32)], dtype=np.int64
)
"""For each card id, the bits of the stronger cards of its suit."""


def card_id(code: str) -> int:
    """The id of a card code such as ``"TH"``."""
    return SUIT_ORDER.index(code[1]) * 8 + RANK_ORDER.index(code[0])


def card_code(card: int) -> str:
    """The code of a card id (``card_code(card_id(c)) == c``)."""
    return RANK_ORDER[card % 8] + SUIT_ORDER[card // 8]


def suit_id(letter: str) -> int:
    """0..3 for C, D, H, S."""
    return SUIT_ORDER.index(letter)


def mask_of(codes: Iterable[str]) -> int:
    """The bitmask of some card codes."""
    mask = 0
    for code in codes:
        mask |= 1 << card_id(code)
    return mask


def _takers(trump: int, led: int) -> int:
    """The cards that take a trick led by ``led`` when ``trump`` is trumps, by the engine's
    rule (:func:`app.engine.cards.beats`)."""
    best = Card(RANK_ORDER[led % 8], SUIT_ORDER[led // 8])
    trump_suit = SUIT_ORDER[trump]
    return mask_of_ids(
        c for c in range(32) if beats(Card(RANK_ORDER[c % 8], SUIT_ORDER[c // 8]), best, trump_suit)
    )


def mask_of_ids(cards: Iterable[int]) -> int:
    """The bitmask of some card ids."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


TAKERS: Final = [[_takers(trump, led) for led in range(32)] for trump in range(4)]
"""``TAKERS[trump][led]``: the bits of the cards that take a trick led by ``led``."""


def cards_of(mask: int) -> list[int]:
    """The card ids in a bitmask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def counts_in_bits(view: dict[str, Any]) -> bool:
    """True for a two-seat table with a single deck: the bitmask players of
    :mod:`app.bots.knowledge`, :mod:`app.bots.playout` and :mod:`app.bots.solver` serve it;
    other tables are played by :mod:`app.bots.group` and :mod:`app.bots.sampling`."""
    return bool(view["seats"] == 2 and view["rules"]["deck"] != 48)
