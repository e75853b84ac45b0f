"""Rating families and the computer players' published ratings: plain values and one rule,
with no storage, shared by the ratings, the pools and the tournaments.

>>> family_of("german-32", 2), family_of("german-32", 3), family_of("german-48", 4)
('german', 'three-hand', 'four-hand')
>>> nearest_level(1400), nearest_level(1900), nearest_level(1660)
('medium', 'expert', 'medium')
"""

from __future__ import annotations

from typing import Final

FAMILIES: Final = ("sixty-six", "schnapsen", "three-hand", "four-hand", "german")
"""One rating per player per family."""

TWO_PLAYER_FAMILIES: Final = {
    "sixty-six": "sixty-six",
    "schnapsen": "schnapsen",
    "german-32": "german",
}
"""The rating family of each two-player preset (a preset not named counts as ``sixty-six``)."""

BOT_RATINGS: Final[dict[str, int]] = {"easy": 450, "medium": 1500, "hard": 1820, "expert": 1920}
"""The computer players' fixed published ratings, weakest first (two-player 66), measured
against each other by ``benchmarks/bot_ratings.py`` with medium anchored at the starting
1500; 95% intervals easy 370 to 540, hard 1725 to 1910 (docs/ratings.md); expert's is
provisional, not measured (hard's plus 100). Computer players are never rated by play; a
computer has this one rating in every family."""


def family_of(variant: str, seats: int) -> str:
    """The rating family of ``variant`` played by ``seats`` players: every three-seat game is
    ``three-hand``, every four-seat one ``four-hand``, a two-player game its preset's family."""
    if seats == 3:
        return "three-hand"
    if seats == 4:
        return "four-hand"
    return TWO_PLAYER_FAMILIES.get(variant, "sixty-six")


def nearest_level(rating: float) -> str:
    """The computer level whose published rating is nearest ``rating`` (the weaker of two
    equally near)."""
    return min(BOT_RATINGS, key=lambda level: abs(BOT_RATINGS[level] - rating))
