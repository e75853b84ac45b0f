"""The hard bot at tables of three and four seats and with the 48-card deck.

Determinized search: it deals the cards it cannot see at random many times, consistent with its
view (:meth:`app.bots.seen.Seen.world`: hand sizes, shown cards, known voids), plays each legal
action in every world and the rest of the deal with the rules-based policy of
:mod:`app.bots.group` in every seat (its partner's included), and takes the action with the best
mean result for its side: game points won minus the best other side's, plus a weight for winning
the deal. In the four-hand auction it plays its hand out in sampled worlds as the bidder and bids
the level whose expected game points are highest (or passes when none is above zero).
"""

from __future__ import annotations

import random
import time
from typing import Any

from app.engine import Action, State, apply
from app.engine.scoring import bid_target

from .group import play_out
from .seen import Seen

PLAYOUT_SHARE = 0.6
"""Share of the budget the playouts may use; the rest covers the machine's hiccups."""
MIN_WORLDS = 2
"""Worlds always played, whatever the clock says."""
MAX_WORLDS = 200
WIN_WEIGHT = 2.0
"""What winning the deal is worth on top of the game-point margin."""
LUNA = 5


def choose(view: dict[str, Any], rng: random.Random, budget_s: float = 0.15) -> dict[str, Any]:
    """The hard bot's action for ``view`` at any table, decided within about ``budget_s``."""
    start = time.perf_counter()
    deadline = start + budget_s * PLAYOUT_SHARE
    legal = [Action.from_json(a) for a in view["legal"]]
    if len(legal) == 1:
        return legal[0].to_json()
    seen = Seen.from_view(view)
    if view["bidding"]:
        return _bid(seen, legal, rng, deadline).to_json()
    totals = [0.0] * len(legal)
    worlds = 0
    slowest = 0.0
    while worlds < MAX_WORLDS:
        begun = time.perf_counter()
        if worlds >= MIN_WORLDS and begun + slowest > deadline:
            break
        world = seen.world(rng)
        for i, action in enumerate(legal):
            after, _ = apply(world, action)
            totals[i] += _value(play_out(after), seen.seat)
        worlds += 1
        slowest = max(slowest, time.perf_counter() - begun)
    best = max(range(len(legal)), key=lambda i: (totals[i], -i))
    return legal[best].to_json()


def _value(end: State, seat: int) -> float:
    """The seat's side's margin in game points over the best other side, plus the win weight."""
    result = end.deal_results[-1]
    side = end.side_of(seat)
    others = [p for s, p in enumerate(result.game_points) if s != side]
    margin = result.game_points[side] - max(others)
    return margin + WIN_WEIGHT * (result.winner == side)


def _bid(seen: Seen, legal: list[Action], rng: random.Random, deadline: float) -> Action:
    """Play the hand out as the bidder in sampled worlds; bid the level worth most."""
    levels = [a.level for a in legal if a.type == "bid" and a.level is not None and a.level < LUNA]
    passing = next(a for a in legal if a.type == "pass")
    if not levels:
        return passing
    reached: list[int] = []
    slowest = 0.0
    while len(reached) < MAX_WORLDS:
        begun = time.perf_counter()
        if len(reached) >= MIN_WORLDS and begun + slowest > deadline:
            break
        world = seen.world(rng)
        world._set(bidding=False, high_bid=(seen.seat, 4), to_move=seen.seat, sitting_out=None)
        end = play_out(world)
        reached.append(end.side_score(end.side_of(seen.seat)))
        slowest = max(slowest, time.perf_counter() - begun)
    best_value, best = 0.0, passing
    for level in levels:
        made = sum(points >= bid_target(level) for points in reached) / len(reached)
        value = level * (2 * made - 1)
        if value > best_value:
            best_value, best = value, next(a for a in legal if a.level == level)
    return best
