"""The analysis's advice on a move depends on the deciding seat's view alone: the same view
gives the same advice whatever the cards it does not show (another hand, the stock)."""

from __future__ import annotations

import random

import pytest

from app.bots import expert, hard
from app.bots.analysis import advise, judge, view_seed
from app.engine import Action, State, apply, legal_actions, new_match, preset, view


def advanced(variant: str, seed: str, moves: int, *, close: bool = False) -> State:
    """A match of ``variant`` after ``moves`` random legal actions (never a resignation; with
    ``close``, then on until someone may close the stock, who does)."""
    state = new_match(preset(variant), seed, None)
    rng = random.Random(seed)
    for _ in range(moves):
        seat = state.to_move
        assert seat is not None
        actions = [a for a in legal_actions(state, seat) if a.type != "resign"]
        state, _ = apply(state, rng.choice(actions), seat)
    while close and state.closed_by is None:
        seat = state.to_move
        assert seat is not None
        actions = [a for a in legal_actions(state, seat) if a.type != "resign"]
        closing = [a for a in actions if a.type == "close"]
        state, _ = apply(state, closing[0] if closing else rng.choice(actions), seat)
    return state


def other_hidden_cards(state: State, seat: int) -> State:
    """``state`` with one card of another hand traded for one the seat cannot see either (a
    card of the stock above the turned trump, or of a third hand)."""
    shown = {card for _, card in state.shown}
    other = next(s for s in range(state.rules.players) if s != seat and state.hands[s])
    card = next(c for c in state.hands[other] if c not in shown)
    hands = [list(hand) for hand in state.hands]
    stock = list(state.stock)
    third = [s for s in range(state.rules.players) if s not in (seat, other) and state.hands[s]]
    if len(stock) > 1:
        swapped, stock[0] = stock[0], card
    else:
        target = third[0]
        swapped = next(c for c in hands[target] if c not in shown)
        hands[target][hands[target].index(swapped)] = card
    hands[other][hands[other].index(card)] = swapped
    changed = State(**state.__dict__)
    changed._set(hands=tuple(tuple(hand) for hand in hands), stock=tuple(stock))
    return changed


@pytest.mark.parametrize(
    ("variant", "moves", "close"),
    [
        ("sixty-six", 3, False),  # the stock open: playout rounds
        ("sixty-six", 2, True),  # the stock closed: solved sampled worlds
        ("three-hand", 4, False),  # three seats: sampled worlds
    ],
)
def test_the_same_view_gets_the_same_advice_whatever_it_hides(
    variant: str, moves: int, close: bool
) -> None:
    for seed in ("a", "b"):
        state = advanced(variant, f"{variant}-{seed}", moves, close=close)
        seat = state.to_move
        assert seat is not None and not state.deal_over
        changed = other_hidden_cards(state, seat)
        assert changed.hands != state.hands  # other cards are hidden
        seen = view(state, seat)
        assert view(changed, seat) == seen  # behind the same view
        values = advise(seen, worlds=4)
        assert advise(view(changed, seat), worlds=4) == values
        assert len(values) == len(seen["legal"])


def test_the_advice_is_the_expert_search() -> None:
    state = advanced("schnapsen", "strongest", 1)
    seat = state.to_move
    assert seat is not None and state.stock
    seen = view(state, seat)

    def values(search: hard.Search) -> list[float]:
        return hard.action_values(seen, random.Random(view_seed(seen)), 4, 0.0, search)

    assert advise(seen, worlds=4) == values(expert.EXPERT)
    assert values(expert.EXPERT) != values(hard.HARD)  # more worlds: other means


def test_a_move_is_marked_by_what_it_lost() -> None:
    legal = [{"type": "play", "card": c} for c in ("AH", "TH", "KH")]
    values = [1.5, 0.9, 0.2]
    assert judge(legal, values, legal[0]) == {"best": legal[0], "lost": 0.0, "mark": None}
    assert judge(legal, values, legal[1])["mark"] == "mistake"
    assert judge(legal, values, legal[2]) == {"best": legal[0], "lost": 1.3, "mark": "blunder"}
    assert judge(legal, [0.0, 0.1, 0.0], legal[0])["mark"] is None  # 0.1 lost: no mark


def test_a_played_action_keeps_its_engine_form() -> None:
    state = advanced("sixty-six", "json", 2)
    seat = state.to_move
    assert seat is not None
    seen = view(state, seat)
    played = Action.from_json(seen["legal"][0]).to_json()  # as the log stores it
    assert judge(seen["legal"], advise(seen, worlds=2), played)["best"] in seen["legal"]
