"""Random legal play for property tests: seeded, so every failure replays."""

from __future__ import annotations

import random
from collections.abc import Iterator

from app.engine import Action, State, apply, legal_actions
from app.engine.events import Event

PASS = Action.simple("pass")


def random_action(state: State, rng: random.Random) -> Action:
    """A random legal action. In a four-hand auction: the first caller mostly bids 1 and the
    others mostly pass, with any legal call now and then, so that random matches stay short and
    varied (random bids climb to Luna, which mostly fails at once)."""
    actions = legal_actions(state)
    if state.bidding and rng.random() > 0.05:
        return actions[0] if state.high_bid is None and rng.random() < 0.7 else PASS
    return rng.choice(actions)


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
            action = random_action(state, rng)
        after, events = apply(state, action, seat)
        yield state, action, seat, after, events
        state = after
