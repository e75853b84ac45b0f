"""Tournament cores: Swiss and arena pairing, scoring and standings.

Plain values in, plain values out: no database, no clock, no asyncio. The tournament service
stores events and results and calls these functions to decide pairings and standings.
"""

from .arena import ArenaPlayer, ArenaRecord, pair_arena, record_arena_result
from .forfeits import FORFEITS_TO_WITHDRAW, withdraws
from .standings import Bye, Game, Standing, standings
from .swiss import Entrant, SwissOptions, SwissRound, pair_swiss_round

__all__ = [
    "FORFEITS_TO_WITHDRAW",
    "ArenaPlayer",
    "ArenaRecord",
    "Bye",
    "Entrant",
    "Game",
    "Standing",
    "SwissOptions",
    "SwissRound",
    "pair_arena",
    "pair_swiss_round",
    "record_arena_result",
    "standings",
    "withdraws",
]
