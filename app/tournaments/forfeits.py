"""The forfeit rule shared by both formats."""

from __future__ import annotations

FORFEITS_TO_WITHDRAW = 2
"""A player who forfeits this many games in a row (gone when paired, or its clock ran out) is
withdrawn from the event."""


def withdraws(forfeits_in_a_row: int) -> bool:
    """Whether a player with this many consecutive forfeits is withdrawn.

    >>> withdraws(1), withdraws(2)
    (False, True)
    """
    return forfeits_in_a_row >= FORFEITS_TO_WITHDRAW
