"""The fast playouts and the public engine agree on every deal played with the same policy."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from app.bots.playout import TERMINATIONS, Batch, Table, play_out, random_decks
from app.engine import apply, legal_actions, new_deal, preset

from .engine_policy import play_engine_deal, play_engine_on
from .positions import position_from_state

CONFIGS = [
    ("sixty-six", {}),
    ("schnapsen", {}),
    ("german-32", {}),
    ("sixty-six", {"claim": "manual"}),
    ("sixty-six", {"strict": "follow", "close_fail": "closer_minus_3", "schwarz": "zero_points"}),
    (
        "schnapsen",
        {
            "claim": "manual",
            "wrong_claim": "claimer_value",
            "close_fail": "closer_value_min_2",
            "loser_counts_marriages": False,
        },
    ),
    (
        "sixty-six",
        {
            "hand_size": 5,
            "exchange_needs_trick": False,
            "close_fail": "closer_value_min_2",
            "schwarz": "zero_points",
        },
    ),
    (
        "german-32",
        {
            "marriages_in_strict_phase": True,
            "exchange_min_stock": 5,
            "close_min_stock": 5,
            "last_trick_bonus": 0,
        },
    ),
    ("schnapsen", {"strict": "follow", "claim": "manual", "exchange_needs_trick": True}),
]
DEALS = 1500


@pytest.mark.parametrize("config", range(len(CONFIGS)))
def test_fast_playouts_reach_the_engine_outcome_of_every_deal(config):
    variant, options = CONFIGS[config]
    rules = preset(variant, **options)
    table = Table.from_rules(rules)
    rng = np.random.default_rng(1000 + config)
    decks = random_decks(table, DEALS, rng)
    dealers = rng.integers(0, 2, DEALS)
    uniforms = rng.random((DEALS, rules.deck + 4))
    fast = play_out(Batch.from_decks(table, decks, dealers), uniforms=uniforms)
    seen: Counter[str] = Counter()
    for i in range(DEALS):
        result, decisions = play_engine_deal(rules, decks[i], int(dealers[i]), uniforms[i])
        expected = {
            "winner": result.winner,
            "termination": result.termination.value,
            "game_points": list(result.game_points),
            "card_points": list(result.card_points),
            "scores": list(result.scores),
            "tricks": list(result.tricks),
            "decisions": decisions,
        }
        got = {
            "winner": int(fast.winner[i]),
            "termination": TERMINATIONS[fast.termination[i]],
            "game_points": fast.game_points[i].tolist(),
            "card_points": fast.card_points[i].tolist(),
            "scores": fast.scores[i].tolist(),
            "tricks": fast.tricks[i].tolist(),
            "decisions": int(fast.decisions[i]),
        }
        assert got == expected, f"deal {i} of {variant} {options}: fast {got}, engine {expected}"
        seen[expected["termination"]] += 1
    # The comparison only means something if the deals went through the rules that differ.
    assert seen["close_failed"] + seen["closed"] > 0
    assert seen["reached_66"] + seen["claim"] > 0
    if rules.claim == "manual":
        assert seen["wrong_claim"] > 0
    else:
        assert seen["last_trick"] > 0


@pytest.mark.parametrize("config", range(len(CONFIGS)))
def test_fast_playouts_continue_a_deal_from_any_position_as_the_engine_does(config):
    """A position taken mid-deal (open stock, closed stock, exhausted stock, mid-trick)."""
    variant, options = CONFIGS[config]
    rules = preset(variant, **options)
    table = Table.from_rules(rules)
    py_rng = random.Random(config)
    rng = np.random.default_rng(2000 + config)
    states = []
    for i in range(300):
        state = new_deal(rules, seed=f"mid-{config}-{i}", dealer=i % 2)
        for _ in range(py_rng.randrange(1, rules.deck)):
            nxt, _ = apply(state, py_rng.choice(legal_actions(state)))
            if nxt.deal_over:
                break
            state = nxt
        states.append(state)
    uniforms = rng.random((len(states), rules.deck + 4))
    fast = play_out(
        Batch.from_positions(table, [position_from_state(s) for s in states]), uniforms=uniforms
    )
    phases = Counter()
    for i, state in enumerate(states):
        phases["closed" if state.closed_by is not None else "open" if state.stock else "empty"] += 1
        result, decisions = play_engine_on(state, uniforms[i])
        got = (int(fast.winner[i]), TERMINATIONS[fast.termination[i]])
        got += (fast.game_points[i].tolist(), fast.scores[i].tolist(), int(fast.decisions[i]))
        expected = (result.winner, result.termination.value, list(result.game_points))
        expected += (list(result.scores), decisions)
        assert got == expected, f"position {i} of {variant} {options}"
    assert min(phases.values()) > 0 and len(phases) == 3
