"""The seeded deals a benchmark studies: every decision of each deal, the same every time."""

from __future__ import annotations

from app.bots import arena
from app.engine import apply, new_deal, preset


def test_seeded_decisions_walk_every_move_of_each_deal_the_same_way_every_time():
    """Two medium deals: each action was legal in its view, replaying the actions from the
    seeded deals ends both deals, and a second walk gives the same views and actions."""
    first = list(arena.seeded_decisions("medium", 2, "walk", seed=5))
    assert first == list(arena.seeded_decisions("medium", 2, "walk", seed=5))
    assert all(action in seen["legal"] for seen, action in first)
    moves = iter(action for _, action in first)
    for d in range(2):
        state = new_deal(preset("schnapsen"), seed=f"walk-5-{d}", dealer=d % 2)
        while not state.deal_over:
            state, _ = apply(state, next(moves))
    assert next(moves, None) is None
