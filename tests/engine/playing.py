"""Random legal play for property tests: seeded, so every failure replays."""

from __future__ import annotations

import random
from collections.abc import Iterator

from app.engine import Action, State, apply, legal_actions
from app.engine.events import Event


def random_playthrough(
    state: State, rng: random.Random, resign_chance: float = 0.0
) -> Iterator[tuple[State, Action, int, State, list[Event]]]:
    """Yield (before, action, seat, after, events) for random legal actions until the end."""
    while not (state.match_over or state.deal_over):
        seat = state.to_move
        assert seat is not None
        if resign_chance and rng.random() < resign_chance:
            action = Action.simple("resign")
            seat = rng.randrange(state.seats)
        else:
            action = rng.choice(legal_actions(state))
        after, events = apply(state, action, seat)
        yield state, action, seat, after, events
        state = after
