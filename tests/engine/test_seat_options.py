"""What a seat's view says it may do: ``unplayable`` and ``declarable`` agree with ``apply``.

Over random positions of every preset, for every seat: each card of the seat's hand is
playable exactly when ``apply`` accepts it, and otherwise ``unplayable`` names the very code
``apply`` refuses it with; each marriage in ``declarable`` is worth the points ``apply``
declares and is pending exactly when ``apply`` leaves it uncredited. Neither field holds
anything the seat may not know: it is the same whatever the hidden cards are.
"""

import random

import pytest

from app.engine import (
    PRESETS,
    Action,
    IllegalAction,
    State,
    apply,
    new_match,
    preset,
    seat_options,
    view,
)

from .playing import random_playthrough

CASES = [(name, {}) for name in PRESETS] + [
    ("german-32", {"players": 3}),
    ("german-48", {"partners": True}),
    ("sixty-six", {"strict": "follow", "marriages_in_strict_phase": True}),
]


def positions(variant: str, options: dict[str, object], seeds: int) -> list[State]:
    """Every position of ``seeds`` random matches, the final ones included."""
    found = []
    for seed in range(seeds):
        state = new_match(preset(variant, **options), seed=f"options-{seed}")
        found.append(state)
        for _, _, _, after, _ in random_playthrough(state, random.Random(seed), 0.002):
            found.append(after)
    return found


def refusal(state: State, seat: int, action: Action) -> str | None:
    """The code ``apply`` refuses ``action`` by ``seat`` with, or None if it accepts it."""
    try:
        apply(state, action, seat)
    except IllegalAction as error:
        return str(error.code)
    return None


@pytest.mark.parametrize(("variant", "options"), CASES)
def test_every_card_s_reason_is_the_code_apply_refuses_it_with(variant, options):
    checked = refused = 0
    for state in positions(variant, options, 12):
        for seat in range(state.seats):
            unplayable = view(state, seat)["unplayable"]
            assert set(unplayable) <= {c.code for c in state.hands[seat]}
            for card in set(state.hands[seat]):
                expected = refusal(state, seat, Action.play(card))
                assert unplayable.get(card.code) == expected, (state, seat, card.code)
                checked += 1
                refused += expected is not None
    assert checked > 1000 and refused > 100


@pytest.mark.parametrize(("variant", "options"), CASES)
def test_every_declarable_marriage_is_worth_what_apply_declares(variant, options):
    declared = pending = 0
    for state in positions(variant, options, 12):
        for seat in range(state.seats):
            offers = view(state, seat)["declarable"]
            marriages = [
                Action.play(card, marriage=True)
                for card in set(state.hands[seat])
                if card.rank == "K" and refusal(state, seat, Action.play(card, True)) is None
            ]
            assert sorted(o["suit"] for o in offers) == sorted(a.card.suit for a in marriages)
            for offer in offers:
                action = next(a for a in marriages if a.card.suit == offer["suit"])
                _, events = apply(state, action, seat)
                (event,) = [e for e in events if e.type == "marriage_declared"]
                assert event.data["points"] == offer["points"]
                assert event.data["credited"] is not offer["pending"]
                declared += 1
                pending += offer["pending"]
    assert declared > 10 and pending > 0


def without_hidden_cards(state: State, seat: int, rng: random.Random) -> State:
    """``state`` with the cards ``seat`` cannot see dealt anew among the other hands and the
    stock (each hand keeps its size; the turned trump card stays where it is)."""
    others = [s for s in range(state.seats) if s != seat]
    turned = state.trump_card if state.trump_under else None
    stock = list(state.stock[:-1] if turned is not None else state.stock)
    shown = {card for _, card in state.shown}
    pool = [c for s in others for c in state.hands[s] if c not in shown] + stock
    rng.shuffle(pool)
    hands = list(state.hands)
    for s in others:
        kept = [c for c in hands[s] if c in shown]
        take = len(hands[s]) - len(kept)
        hands[s], pool = (*kept, *pool[:take]), pool[take:]
    new = state._evolve()
    new._set(hands=tuple(hands), stock=(*pool, *([turned] if turned is not None else [])))
    return new


@pytest.mark.parametrize(("variant", "options"), CASES)
def test_what_a_seat_may_do_tells_nothing_about_hidden_cards(variant, options):
    """Dealing the unseen cards anew changes neither field for the seat, nor anything a
    spectator is told (a spectator is told nothing)."""
    rng = random.Random(7)
    for state in positions(variant, options, 4):
        for seat in range(state.seats):
            other = without_hidden_cards(state, seat, rng)
            assert seat_options(other, seat) == seat_options(state, seat)
        assert seat_options(state, None) == {"legal": [], "unplayable": {}, "declarable": []}


def test_a_resigned_deal_s_result_names_who_resigned():
    """The client names the loser of a resignation from the result, never by counting seats."""
    for variant, options in CASES:
        state = new_match(preset(variant, **options), seed="resign")
        for seat in range(state.seats):
            after, _ = apply(state, Action.simple("resign"), seat)
            (result,) = view(after, None)["deal_results"]
            assert result["termination"] == "resign" and result["resigned"] == seat
