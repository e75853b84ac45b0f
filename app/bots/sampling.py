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

from .group import decide, picture_of_seen, play_out
from .seen import Seen

PLAYOUT_SHARE = 0.6
"""Share of the budget the playouts may use; the rest covers the machine's hiccups."""
CUTOFF_SHARE = 0.9
"""Past this share of the budget a world under way is dropped (one world is always played)."""
MIN_WORLDS = 1
"""Worlds always played, whatever the clock says."""
MAX_WORLDS = 200
WIN_WEIGHT = 2.0
"""What winning the deal is worth on top of the game-point margin."""
SCORE_WEIGHT = 1 / 66
"""What each point of score margin over the best other side is worth (it tells options apart
when few worlds were played, or when no deal in them was won)."""
POLICY_PRIOR = 0.05
"""A bonus per world for the action the rules-based policy itself would take (ties go to it)."""
LUNA = 5


def choose(view: dict[str, Any], rng: random.Random, budget_s: float = 0.15) -> dict[str, Any]:
    """The hard bot's action for ``view`` at any table, decided within about ``budget_s``."""
    start = time.perf_counter()
    deadline = start + budget_s * PLAYOUT_SHARE
    cutoff = start + budget_s * CUTOFF_SHARE
    legal = [Action.from_json(a) for a in view["legal"]]
    if len(legal) == 1:
        return legal[0].to_json()
    seen = Seen.from_view(view)
    if view["bidding"]:
        return _bid(seen, legal, rng, deadline).to_json()
    totals = [0.0] * len(legal)
    prior = legal.index(decide(picture_of_seen(seen, seen.world(rng)), legal))
    worlds = 0
    slowest = 0.0
    while worlds < MAX_WORLDS:
        begun = time.perf_counter()
        if worlds >= MIN_WORLDS and begun + slowest > deadline:
            break
        world = seen.world(rng)
        values = []
        for action in legal:
            if worlds and time.perf_counter() > cutoff:
                break  # a world cut short is not counted
            after, _ = apply(world, action)
            values.append(_value(play_out(after), seen.seat))
        if len(values) < len(legal):
            break
        totals = [t + v for t, v in zip(totals, values, strict=True)]
        totals[prior] += POLICY_PRIOR
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
    lead = end.side_score(side) - max(end.side_score(s) for s in range(end.sides) if s != side)
    return margin + WIN_WEIGHT * (result.winner == side) + SCORE_WEIGHT * lead


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
