"""The hard bot at tables of three and four seats and with the 48-card deck.

Determinized search: it deals the cards it cannot see at random many times, consistent with its
view (:meth:`app.bots.seen.Seen.world`: hand sizes, shown cards, known voids; at tables without
a stock, preferring worlds that explain the opponents' play, :mod:`app.bots.inference`), plays
each action in every world and the rest of the deal with the rules-based policy of
:mod:`app.bots.group` in every seat (its partner's included), and takes the action with the best
mean result for its side: game points won minus the best other side's, plus a weight for winning
the deal and for the score margin. Actions that clearly trail the best are dropped along the way.
The four-hand auction is searched the same way (passing and the two lowest bids, the rest of the
auction played by the policy). :func:`action_values` (the analysis) values a bid by playing the
hand out as the bidder: the level L is worth L x (2 P(made) - 1).
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from app.engine import Action, State, apply
from app.engine.scoring import bid_target

from .group import decide, picture_of_seen, play_out
from .inference import likely_world
from .seen import Seen

PLAYOUT_SHARE = 0.7
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
PRUNE_AFTER = 4
"""Worlds played before an action may be dropped as clearly behind."""
PRUNE_Z = 2.0
"""Standard errors by which an action must trail the best to be dropped."""
PRUNE_FLOOR = 0.5
"""Added to the spread of the differences, so that a few equal worlds prove nothing."""
LUNA = 5
BID_CHOICES = 2
"""Bids tried in the auction besides passing: the lowest ones (see :func:`_bids_worth_trying`)."""


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
        legal = _bids_worth_trying(legal)
    prior = legal.index(decide(picture_of_seen(seen, seen.world(rng)), legal))
    values = _play_values(seen, legal, rng, deadline, cutoff, MAX_WORLDS, TABLE_WIN_WEIGHT, prior)
    # Ties go to passing in the auction (a bid expected to break even is not worth its risk).
    best = max(range(len(legal)), key=lambda i: (values[i], legal[i].type == "pass", -i))
    return legal[best].to_json()


def _bids_worth_trying(legal: list[Action]) -> list[Action]:
    """Passing and the two lowest bids below the Luna (never bid, as by the rules-based
    policy): a higher bid only adds risk, unless it keeps a stronger bid out."""
    levels = sorted(a.level for a in legal if a.type == "bid" and a.level is not None)
    keep = [level for level in levels if level < LUNA][:BID_CHOICES]
    return [a for a in legal if a.type != "bid" or a.level in keep]


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
    policy's bonus.

    With a ``prior`` (the bot's own decisions), an action that falls clearly behind the best
    (:func:`_behind`, on the worlds both were played in) is dropped, so that the worlds left
    go to the actions still in the running; a dropped action is worth minus infinity."""
    scores: list[list[float]] = [[] for _ in legal]
    dropped: dict[int, float] = {}
    active = list(range(len(legal)))
    worlds = 0
    slowest = 0.0
    while worlds < max_worlds:
        begun = time.perf_counter()
        if worlds >= MIN_WORLDS and begun + slowest > deadline:
            break
        world = seen.world(rng) if prior is None else likely_world(seen, rng)
        values = []
        for i in active:
            if worlds and time.perf_counter() > cutoff:
                break  # a world cut short is not counted
            after, _ = apply(world, legal[i])
            value = _value(play_out(after), seen.seat, win_weight)
            values.append(value + (POLICY_PRIOR if i == prior else 0.0))
        if len(values) < len(active):
            break
        for i, value in zip(active, values, strict=True):
            scores[i].append(value)
        worlds += 1
        slowest = max(slowest, time.perf_counter() - begun)
        if prior is not None and len(active) > 1 and worlds >= PRUNE_AFTER:
            lead = max(active, key=lambda i: sum(scores[i]))
            for i in list(active):
                gap = _behind(scores[lead], scores[i])
                if i != lead and gap > 0:
                    active.remove(i)
                    dropped[i] = -math.inf
                    slowest = 0.0  # the worlds to come are cheaper
    return [dropped[i] if i in dropped else sum(v) / max(len(v), 1) for i, v in enumerate(scores)]


def _behind(best: list[float], other: list[float]) -> float:
    """How far ``other`` is clearly behind ``best`` (0 if not clearly): the mean of their
    differences on the worlds both were played in, less ``PRUNE_Z`` standard errors."""
    diffs = [b - o for b, o in zip(best, other, strict=False)]
    n = len(diffs)
    mean = sum(diffs) / n
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else math.inf
    return max(0.0, mean - PRUNE_Z * (spread + PRUNE_FLOOR) / math.sqrt(n))


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
