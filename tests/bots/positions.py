"""Test helpers: an engine state as a fast-path position (tests may look at the true state)."""

from __future__ import annotations

from app.bots.cards import card_id, mask_of, suit_id
from app.bots.playout import Position
from app.engine import State


def position_from_state(state: State) -> Position:
    """The full position of a two-player deal in progress, every card known."""
    hands = tuple(mask_of(c.code for c in hand) for hand in state.hands)
    return Position(
        hands=(hands[0], hands[1]),
        stock=tuple(card_id(c.code) for c in state.stock),
        trump=suit_id(state.trump),
        to_move=state.to_move,
        lead=card_id(state.trick[0][1].code) if state.trick else -1,
        closed_by=-1 if state.closed_by is None else state.closed_by,
        frozen=None if state.frozen is None else (state.frozen[0], state.frozen[1]),
        card_points=(state.card_points[0], state.card_points[1]),
        marriages=(state.marriage_points[0], state.marriage_points[1]),
        pending=(state.pending[0], state.pending[1]),
        tricks=(state.tricks_won[0], state.tricks_won[1]),
        bonus=(state.bonus[0], state.bonus[1]),
    )
