"""What one seat (or a spectator) may see: ``view`` (RULES.md section 4).

The view is built only from public fields and the viewer's own hand, so no other hand and no
stock card can get into it.
"""

from __future__ import annotations

from typing import Any

from .play import legal_actions
from .state import State


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The JSON-ready picture of ``state`` for ``seat`` (``None``: a spectator).

    Holds the viewer's own hand, counts of the others', every public fact, and ``legal``: the
    viewer's legal actions (empty when it is not the viewer's move). In manual claim mode
    ``scores`` is null for everyone: players count in their heads.
    """
    n = state.seats
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < n):
        raise ValueError(f"no seat {seat!r} at this table")
    manual = state.rules.claim == "manual"
    tricks = [
        {"winner": winner, "cards": [{"seat": s, "card": c.code} for s, c in trick]}
        for trick, winner in state.history
    ]
    over = state.match_over
    return {
        "variant": state.rules.variant,
        "rules": state.rules.options(),
        "seat": seat,
        "seats": n,
        "to_move": state.to_move,
        "hand": [c.code for c in state.hands[seat]] if seat is not None else [],
        "hand_counts": [len(hand) for hand in state.hands],
        "trump": state.trump,
        "trump_card": state.trump_card.code if state.trump_under else None,
        "stock": len(state.stock),
        "closed": state.closed_by is not None,
        "closed_by": state.closed_by,
        "trick": [{"seat": s, "card": c.code} for s, c in state.trick],
        "last_trick": tricks[-1] if tricks else None,
        "tricks": tricks,
        "tricks_won": list(state.tricks_won),
        "scores": None if manual else [state.score(s) for s in range(n)],
        "pending_marriages": list(state.pending),
        "marriages": [{"seat": s, "suit": suit, "points": p} for s, suit, p in state.marriages],
        "shown": [{"seat": s, "card": c.code} for s, c in state.shown],
        "game_points": list(state.game_points),
        "dealer": state.dealer,
        "deal_no": state.deal_no,
        "deal_over": state.deal_over,
        "match_over": over,
        "match_winner": state.match_winner,
        "deal_results": [r.to_json(reveal_seed=over) for r in state.deal_results],
        "commitment": state.commitment,
        "legal": [a.to_json() for a in legal_actions(state, seat)] if seat is not None else [],
    }
