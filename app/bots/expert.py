"""The expert level: the hard bot's search with a larger budget and more of it exact.

At two-seat tables with a single deck it samples more worlds and plays out more deals while
the stock is open (:data:`EXPERT`), and solves more sampled worlds exactly (alpha-beta through
the last draws, :mod:`app.bots.solver`) from four stock cards on: with the 20-card deck hard
does too, with fewer worlds; with larger decks hard only from two. At tables of three and four
seats, and with the 48-card deck, it runs the hard level's sampling search
(:mod:`app.bots.sampling`) with its larger budget.
"""

from __future__ import annotations

import random
from typing import Any

from . import hard

BUDGET_S = 1.0
"""The expert's thinking time per move by default (seconds); hard's is 0.15."""

EXPERT = hard.Search(
    max_playout_rows=12_288,
    max_worlds=2048,
    open_solve_stock=4,
    small_deck_solve_stock=4,
    max_solved_worlds=160,
)
"""How much the expert searches within its budget."""


def choose(view: dict[str, Any], rng: random.Random, budget_s: float = BUDGET_S) -> dict[str, Any]:
    """The expert bot's action for ``view``, decided within about ``budget_s`` seconds."""
    return hard.choose(view, rng, budget_s, EXPERT)
