"""The pools a player can join to be paired with strangers: one per game, seat count and clock.

Every two-player preset is a pool with a per-move clock, and so are three-hand, four-hand,
German 32 for three and German 48. A pool's id names its preset and seat count
(``sixty-six-2``, ``german-32-3``); its rating family is the one the ratings use for that
preset and seat count (:func:`family_of`).

>>> [pool.id for pool in POOLS]  # doctest: +NORMALIZE_WHITESPACE
['sixty-six-2', 'schnapsen-2', 'german-32-2', 'german-32-3', 'three-hand-3', 'four-hand-4',
 'german-48-4']
>>> pool_by_id("german-32-3").family
'three-hand'
>>> pool_by_id("four-hand-4").partners
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from app.engine import preset
from app.engine.rules import seats_for
from app.players.families import family_of

POOL_CLOCK: Final = "move"
"""Every pool's tables run the per-move clock (each move has its seconds, with a bank)."""


@dataclass(frozen=True)
class Pool:
    """One pool: the preset its tables play, how many seats they have, their clock, the
    rating family its players are paired (and rated) by, and whether the seats play in two
    partnerships (seats 0 and 2 against 1 and 3)."""

    id: str
    variant: str
    seats: int
    clock: str
    family: str
    partners: bool


POOLED: Final = (
    ("sixty-six", 2),
    ("schnapsen", 2),
    ("german-32", 2),
    ("german-32", 3),
    ("three-hand", 3),
    ("four-hand", 4),
    ("german-48", 4),
)
"""The preset and seat count of every pool: each two-player preset, German 32 for three,
three-hand, four-hand and German 48."""


def _pool(variant: str, seats: int) -> Pool:
    if seats not in seats_for(variant):
        raise ValueError(f"{variant} does not seat {seats}")
    return Pool(
        id=f"{variant}-{seats}",
        variant=variant,
        seats=seats,
        clock=POOL_CLOCK,
        family=family_of(variant, seats),
        partners=preset(variant).partners,
    )


POOLS: Final = tuple(_pool(variant, seats) for variant, seats in POOLED)
"""Every pool, in the order of :data:`POOLED`."""


def pool_by_id(pool_id: str) -> Pool:
    """The pool named ``pool_id`` (KeyError for an unknown one)."""
    for pool in POOLS:
        if pool.id == pool_id:
            return pool
    raise KeyError(f"unknown pool {pool_id!r}")
