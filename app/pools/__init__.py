"""Pools: quick pairing of players who arrive alone. Pure values and functions only: the
catalogue of pools and one pairing wave; the pool service keeps the entries and runs the waves.
"""

from app.players.families import BOT_RATINGS, family_of, nearest_level

from .catalogue import POOLS, Pool, pool_by_id
from .pairing import (
    POOL_BOT_AFTER_SECONDS,
    BotOffer,
    Entry,
    Group,
    PairingSettings,
    Wave,
    acceptable_range,
    pair_wave,
)

__all__ = [
    "BOT_RATINGS",
    "POOLS",
    "POOL_BOT_AFTER_SECONDS",
    "BotOffer",
    "Entry",
    "Group",
    "PairingSettings",
    "Pool",
    "Wave",
    "acceptable_range",
    "family_of",
    "nearest_level",
    "pair_wave",
    "pool_by_id",
]
