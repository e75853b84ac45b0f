"""The alpha-beta solver agrees with exhaustive search through the public engine."""

from __future__ import annotations

import random

import pytest

from app.bots.playout import Table, option_column
from app.bots.solver import action_values, solve
from app.engine import apply, legal_actions, new_deal, preset

from .positions import position_from_state

CONFIGS = [
    ("sixty-six", {}),
    ("schnapsen", {}),
    ("german-32", {}),
    ("sixty-six", {"claim": "manual", "wrong_claim": "claimer_value"}),
    ("schnapsen", {"strict": "follow", "close_fail": "closer_minus_3"}),
    ("sixty-six", {"close_fail": "closer_value_min_2", "schwarz": "zero_points"}),
    ("schnapsen", {"claim": "manual", "loser_counts_marriages": False}),
]


def exhaustive(state, seat):
    """``seat``'s game-point margin under best play, trying every legal sequence."""
    if state.deal_over:
        points = state.deal_results[-1].game_points
        return points[seat] - points[1 - seat]
    values = [exhaustive(apply(state, a)[0], seat) for a in legal_actions(state)]
    return max(values) if state.to_move == seat else min(values)


def endgames(rules, count, rng, max_cards):
    """Deals played at random into the strict phase, with at most ``max_cards`` in a hand."""
    found = []
    attempt = 0
    while len(found) < count:
        attempt += 1
        state = new_deal(rules, seed=f"end-{attempt}", dealer=attempt % 2)
        close_early = attempt % 2 == 0
        while not state.deal_over:
            strict = state.closed_by is not None or not state.stock
            if strict and max(len(h) for h in state.hands) <= max_cards:
                found.append(state)
                break
            actions = legal_actions(state)
            closing = [a for a in actions if a.type == "close"]
            if close_early and closing and rng.random() < 0.3:
                action = closing[0]
            else:
                action = rng.choice([a for a in actions if a.type != "claim"])
            state, _ = apply(state, action)
    return found


@pytest.mark.parametrize("config", range(len(CONFIGS)))
def test_solver_margin_equals_exhaustive_search_on_small_endgames(config):
    variant, options = CONFIGS[config]
    rules = preset(variant, **options)
    table = Table.from_rules(rules)
    rng = random.Random(config)
    closed = 0
    for state in endgames(rules, 40, rng, max_cards=3):
        closed += state.closed_by is not None
        position = position_from_state(state)
        for seat in (0, 1):
            assert solve(table, position, seat) == exhaustive(state, seat), (
                f"{variant} {options}: seat {seat}, position {position}"
            )
    assert 0 < closed < 40


@pytest.mark.parametrize("config", [0, 1, 3])
def test_solver_values_each_legal_action_exactly(config):
    variant, options = CONFIGS[config]
    rules = preset(variant, **options)
    table = Table.from_rules(rules)
    for state in endgames(rules, 15, random.Random(10 + config), max_cards=3):
        values = action_values(table, position_from_state(state))
        mover = state.to_move
        expected = {
            option_column(a.to_json()): exhaustive(apply(state, a)[0], mover)
            for a in legal_actions(state)
        }
        assert values == expected


def pruned(state, seat, alpha=-1000, beta=1000):
    """``seat``'s margin under best play through the public engine, with alpha-beta pruning
    (the same value as :func:`exhaustive`, in time for positions with an open stock)."""
    if state.deal_over:
        points = state.deal_results[-1].game_points
        return points[seat] - points[1 - seat]
    best = -1000 if state.to_move == seat else 1000
    for action in legal_actions(state):
        value = pruned(apply(state, action)[0], seat, alpha, beta)
        if state.to_move == seat:
            best, alpha = max(best, value), max(alpha, value)
        else:
            best, beta = min(best, value), min(beta, value)
        if alpha >= beta:
            break
    return best


def last_draws(rules, count, rng):
    """Deals played at random until the open stock holds two cards (one trick to draw)."""
    found = []
    attempt = 0
    while len(found) < count:
        attempt += 1
        state = new_deal(rules, seed=f"draw-{attempt}", dealer=attempt % 2)
        while not state.deal_over and not (state.closed_by is None and len(state.stock) == 2):
            actions = [a for a in legal_actions(state) if a.type not in ("close", "claim")]
            state, _ = apply(state, rng.choice(actions))
        if not state.deal_over:
            found.append(state)
    return found


@pytest.mark.parametrize("config", [0, 1, 4])
def test_solver_plays_the_last_draws_of_an_open_stock_exactly(config):
    """With the stock's order known, the winner of the trick draws the next card, the leader
    may still exchange, marry or close: the value equals best play through the engine."""
    variant, options = CONFIGS[config]
    rules = preset(variant, **options)
    table = Table.from_rules(rules)
    for state in last_draws(rules, 3, random.Random(30 + config)):
        position = position_from_state(state)
        assert solve(table, position, 0) == pruned(state, 0), f"{variant} {options}: {position}"
