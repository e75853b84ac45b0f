"""Analysis of a finished match's decisions: what the strongest level's search (the expert's)
would have played from the deciding seat's view, and what the move played cost in expected game
points.

Only the seat's view goes in (never the state), and the search runs a fixed amount of work with
a random generator seeded by the view itself, so a view gets the same advice whatever the cards
it does not show. ``advise`` runs in a bot worker process; ``judge`` marks a move.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from typing import Any

from app.engine import Action, Rules, apply, new_match, view

from . import expert, hard

WORLDS = 64
"""Sampled worlds per decision where the search counts worlds (solved positions with hidden
cards, and tables of three and four); with two seats and an open stock every playout round of
the expert's search is played (about as many solved worlds as the expert gets through in its
second at four stock cards; `benchmarks/analysis_noise.py` measures what more would change)."""

MARKS = (("blunder", 1.0), ("mistake", 0.5), ("inaccuracy", 0.2))
"""A move that lost at least this many expected game points against the best one gets the
mark (the first that applies)."""


def view_seed(view: dict[str, Any]) -> int:
    """A seed made of the view alone (its canonical JSON)."""
    text = json.dumps(view, sort_keys=True, separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def is_choice(view: dict[str, Any]) -> bool:
    """True when the mover of ``view`` had a real choice: more than one legal action (a
    resignation, never listed as legal, is no choice)."""
    return len(view["legal"]) > 1


def advise(view: dict[str, Any], worlds: int = WORLDS) -> list[float]:
    """The expected game-point margin of each of ``view["legal"]`` for the mover's side, by
    the expert's search with a fixed amount of work."""
    rng = random.Random(view_seed(view))
    return hard.action_values(view, rng, worlds, win_weight=0.0, search=expert.EXPERT)


def judge(
    legal: list[dict[str, Any]], values: list[float], played: dict[str, Any]
) -> dict[str, Any]:
    """The advice on one decision: the best action, what the played one lost against it
    (never below 0) and its mark (None: a good move)."""
    best = max(range(len(legal)), key=lambda i: (values[i], -i))
    lost = max(0.0, values[best] - values[legal.index(played)])
    mark = next((name for name, threshold in MARKS if lost >= threshold), None)
    return {"best": legal[best], "lost": round(lost, 2), "mark": mark}


def review(view: dict[str, Any], played: dict[str, Any], worlds: int = WORLDS) -> dict[str, Any]:
    """The advice on one decision (a bot worker's job): ``judge`` of ``advise``."""
    return judge(view["legal"], advise(view, worlds), played)


def decisions(
    rules: Rules, seed: str, dealer: int | None, actions: list[dict[str, Any]]
) -> Iterator[tuple[int, int, dict[str, Any], dict[str, Any]]]:
    """``(version, seat, view, played)`` of every real choice in a match's log: the seat's
    view just before it acted, when it had more than one legal action (a resignation, never
    listed as legal, is no choice)."""
    state = new_match(rules, seed, dealer)
    for entry in actions:
        seat, played = entry["seat"], entry["action"]
        # Without the finished deals' results: no bot reads them, and they would make a long
        # match's decisions grow with its length times its deals.
        seen: dict[str, Any] = dict(view(state, seat, results=False))
        if is_choice(seen) and played in seen["legal"]:
            yield entry["version"], seat, seen, played
        state, _ = apply(state, Action.from_json(played), seat)
