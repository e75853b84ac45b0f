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

import math
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
TABLE_WIN_WEIGHT = 6.0
"""The win weight of the bot's own decisions: the deal won matters far more than its game
points."""
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
    prior = legal.index(decide(picture_of_seen(seen, seen.world(rng)), legal))
    values = _play_values(seen, legal, rng, deadline, cutoff, MAX_WORLDS, TABLE_WIN_WEIGHT, prior)
    # Ties go to passing in the auction (a bid expected to break even is not worth its risk).
    best = max(range(len(legal)), key=lambda i: (values[i], legal[i].type == "pass", -i))
    return legal[best].to_json()


def action_values(
    view: dict[str, Any], rng: random.Random, worlds: int, win_weight: float = WIN_WEIGHT
) -> list[float]:
    """What each of ``view["legal"]`` is worth to the mover's side, over exactly ``worlds``
    sampled worlds and no clock: the same view and the same ``rng`` give the same values. In
    play: the mean game-point margin over the best other side (plus ``win_weight`` for a deal
    won); in the four-hand auction: the expected game points of each bid (0 for passing)."""
    legal = [Action.from_json(a) for a in view["legal"]]
    seen = Seen.from_view(view)
    if view["bidding"]:
        return _bid_values(seen, legal, rng, math.inf, worlds)
    return _play_values(seen, legal, rng, math.inf, math.inf, worlds, win_weight, None)


def _play_values(
    seen: Seen,
    legal: list[Action],
    rng: random.Random,
    deadline: float,
    cutoff: float,
    max_worlds: int,
    win_weight: float,
    prior: int | None,
) -> list[float]:
    """Mean value of each action over sampled worlds, each played out by the rules-based
    policy, until ``deadline`` (at least one world) or ``max_worlds``; ``prior`` gets the
    policy's bonus."""
    totals = [0.0] * len(legal)
    worlds = 0
    slowest = 0.0
    while worlds < max_worlds:
        begun = time.perf_counter()
        if worlds >= MIN_WORLDS and begun + slowest > deadline:
            break
        world = seen.world(rng)
        values = []
        for action in legal:
            if worlds and time.perf_counter() > cutoff:
                break  # a world cut short is not counted
            after, _ = apply(world, action)
            values.append(_value(play_out(after), seen.seat, win_weight))
        if len(values) < len(legal):
            break
        totals = [t + v for t, v in zip(totals, values, strict=True)]
        if prior is not None:
            totals[prior] += POLICY_PRIOR
        worlds += 1
        slowest = max(slowest, time.perf_counter() - begun)
    return [t / max(worlds, 1) for t in totals]


def _value(end: State, seat: int, win_weight: float) -> float:
    """The seat's side's margin in game points over the best other side, plus the win weight."""
    result = end.deal_results[-1]
    side = end.side_of(seat)
    others = [p for s, p in enumerate(result.game_points) if s != side]
    margin = result.game_points[side] - max(others)
    lead = end.side_score(side) - max(end.side_score(s) for s in range(end.sides) if s != side)
    return margin + win_weight * (result.winner == side) + SCORE_WEIGHT * lead


def _bid_values(
    seen: Seen, legal: list[Action], rng: random.Random, deadline: float, max_worlds: int
) -> list[float]:
    """Play the hand out as the bidder in sampled worlds; each level L (below the Luna) is
    worth L x (2 P(made) - 1), passing 0, and the Luna is never bid (-L)."""
    reached: list[int] = []
    slowest = 0.0
    while len(reached) < max_worlds:
        begun = time.perf_counter()
        if len(reached) >= MIN_WORLDS and begun + slowest > deadline:
            break
        world = seen.world(rng)
        world._set(bidding=False, high_bid=(seen.seat, 4), to_move=seen.seat, sitting_out=None)
        end = play_out(world)
        reached.append(end.side_score(end.side_of(seen.seat)))
        slowest = max(slowest, time.perf_counter() - begun)
    values = []
    for action in legal:
        level = action.level if action.type == "bid" else None
        if level is None:
            values.append(0.0)
        elif level >= LUNA:
            values.append(-float(level))
        else:
            made = sum(points >= bid_target(level) for points in reached) / len(reached)
            values.append(level * (2 * made - 1))
    return values
