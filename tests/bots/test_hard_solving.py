"""Where the hard bot stops playing the open stock out and solves sampled worlds exactly: with
the 20-card deck from four stock cards on, with larger decks from two (a world of 24 cards is
too slow to solve from four within hard's budget); the expert from four with either."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from app.bots import expert, hard
from app.engine import apply, legal_actions, new_deal, preset, view


def open_stock_view(variant: str, stock: int) -> dict[str, Any]:
    """A view of ``variant`` with ``stock`` cards in the open stock, a player to lead and a
    choice of more than one action (random play up to there)."""
    for attempt in range(50):
        rng = random.Random(attempt)
        state = new_deal(preset(variant), seed=f"solving-{attempt}", dealer=0)
        while not state.deal_over and state.closed_by is None and len(state.stock) >= stock:
            seen = view(state, state.to_move)
            if len(state.stock) == stock and not state.trick and len(seen["legal"]) > 1:
                return dict(seen)
            plays = [a for a in legal_actions(state) if a.type != "close"]
            state, _ = apply(state, rng.choice(plays))
    raise AssertionError(f"no {variant} deal reached an open stock of {stock} cards")


def way_of_searching(
    monkeypatch: pytest.MonkeyPatch, seen: dict[str, Any], search: hard.Search
) -> str:
    """How ``hard.choose`` with ``search`` values the options: "solved" or "played out"."""
    used: list[str] = []

    def recorder(way: str) -> Callable[..., list[float]]:
        def values(k: Any, legal: list[dict[str, Any]], *rest: Any, **options: Any) -> list[float]:
            used.append(way)
            return [0.0] * len(legal)

        return values

    monkeypatch.setattr(hard, "_solved_values", recorder("solved"))
    monkeypatch.setattr(hard, "_playout_values", recorder("played out"))
    hard.choose(seen, random.Random(0), 0.15, search)
    assert len(used) == 1
    return used[0]


@pytest.mark.parametrize(
    ("variant", "stock", "level", "way"),
    [
        ("schnapsen", 6, "hard", "played out"),
        ("schnapsen", 4, "hard", "solved"),
        ("sixty-six", 4, "hard", "played out"),
        ("sixty-six", 2, "hard", "solved"),
        ("schnapsen", 4, "expert", "solved"),
        ("sixty-six", 4, "expert", "solved"),
    ],
)
def test_the_open_stock_is_solved_from_the_size_the_deck_allows(
    monkeypatch: pytest.MonkeyPatch, variant: str, stock: int, level: str, way: str
) -> None:
    search = hard.HARD if level == "hard" else expert.EXPERT
    seen = open_stock_view(variant, stock)
    assert way_of_searching(monkeypatch, seen, search) == way
