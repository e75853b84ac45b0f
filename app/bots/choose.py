"""``choose_action``: one entry point for every bot level, with fallback to weaker levels.

A bot sees only its seat's view. If a level raises, returns an action that is not in
``view["legal"]``, or takes longer than its budget, the move is decided by the next weaker
level (expert, then hard, then medium, then easy) and the failure is logged with the level,
the variant and the kind of failure, never with any card.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from typing import Any

from . import easy, expert, hard, medium

LEVELS = ("easy", "medium", "hard", "expert")
"""Bot levels from the weakest to the strongest."""
DEFAULT_BUDGET_S = 0.15
"""Thinking time per move of every level but expert (seconds)."""
LEVEL_BUDGETS_S = {"expert": expert.BUDGET_S}
"""Levels that think longer than :data:`DEFAULT_BUDGET_S` by default."""
OVERRUN_GRACE = 2.0
"""A decision counts as overrun when it takes more than this many times its budget."""

log = logging.getLogger("app.bots")

Bot = Callable[[dict[str, Any], random.Random, float], dict[str, Any]]

BOTS: dict[str, Bot] = {
    "easy": lambda view, rng, budget: easy.choose(view, rng),
    "medium": lambda view, rng, budget: medium.choose(view, rng),
    "hard": hard.choose,
    "expert": expert.choose,
}
"""The bot of each level (tests may replace one to check the fallback)."""

FailureHook = Callable[[str, dict[str, Any], Exception], None]
on_failure: FailureHook | None = None
"""Called with the level, the view and the exception when a level fails (the arena sets it to
keep failing views in a local file; the server never does, so no card reaches its logs)."""


class BotFailure(Exception):
    """A bot raised, overran its budget, or chose an action that is not legal."""


def choose_action(
    view: dict[str, Any],
    level: str,
    rng: random.Random | None = None,
    budget_s: float = DEFAULT_BUDGET_S,
) -> dict[str, Any]:
    """The JSON action the bot of ``level`` takes in ``view`` (the seat's view, nothing more).

    ``view["legal"]`` must not be empty (it is the bot's move). Falls back to weaker levels as
    the module docstring says; the easy level cannot fail on a view with legal actions. A
    weaker level that takes over thinks no longer than its own default budget.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r} (use one of {', '.join(LEVELS)})")
    if not view.get("legal"):
        raise ValueError("the bot has no legal action in this view (it is not its move)")
    rng = rng or random.Random()
    for current in reversed(LEVELS[: LEVELS.index(level) + 1]):
        try:
            budget = budget_s if current == level else min(budget_s, default_budget(current))
            return _decide(current, view, rng, budget)
        except Exception as exc:
            if current == "easy":
                raise
            if on_failure is not None:
                on_failure(current, view, exc)
            log.warning(
                "bot %s failed in %s (seat %s, deal %s): %s; falling back",
                current,
                view.get("variant"),
                view.get("seat"),
                view.get("deal_no"),
                _describe(exc),
            )
    raise AssertionError("unreachable")


def default_budget(level: str) -> float:
    """The thinking time per move ``level`` gets unless told otherwise (seconds)."""
    return LEVEL_BUDGETS_S.get(level, DEFAULT_BUDGET_S)


def _decide(
    level: str, view: dict[str, Any], rng: random.Random, budget_s: float
) -> dict[str, Any]:
    start = time.perf_counter()
    action = BOTS[level](view, rng, budget_s)
    elapsed = time.perf_counter() - start
    if action not in view["legal"]:
        raise BotFailure("chose an action that is not legal")
    if level != "easy" and elapsed > budget_s * OVERRUN_GRACE:
        raise BotFailure(f"overran its budget ({elapsed * 1000:.0f} ms)")
    return action


def _describe(exc: Exception) -> str:
    """The kind of failure, without the exception's text (which might name a card)."""
    if isinstance(exc, BotFailure):
        return str(exc)
    return type(exc).__name__
