"""The random playout policy played through the public engine surface, for comparisons."""

from __future__ import annotations

from collections.abc import Sequence

from app.bots.cards import card_code
from app.bots.playout import canonical_order
from app.engine import DealResult, Rules, State, apply, legal_actions, new_deal


def play_engine_deal(
    rules: Rules, deck: Sequence[int], dealer: int, uniforms: Sequence[float]
) -> tuple[DealResult, int]:
    """Play one deal from a deck order (card ids) with the random policy and these numbers.

    Returns the deal's result and the number of decisions taken.
    """
    state = new_deal(rules, deck=[card_code(int(c)) for c in deck], dealer=dealer)
    return play_engine_on(state, uniforms)


def play_engine_on(state: State, uniforms: Sequence[float]) -> tuple[DealResult, int]:
    """Continue a deal in progress with the random policy and these numbers."""
    k = 0
    while not state.deal_over:
        options = canonical_order([a.to_json() for a in legal_actions(state)])
        state, _ = apply(state, options[int(uniforms[k] * len(options))])
        k += 1
    return state.deal_results[-1], k
