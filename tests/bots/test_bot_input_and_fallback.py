"""Bots see exactly their seat's view; a failing or slow bot falls back to a weaker level."""

from __future__ import annotations

import copy
import json
import logging
import random
import time

import pytest

from app.bots import arena, choose
from app.bots.choose import choose_action
from app.engine import apply, new_deal, preset, view


@pytest.fixture
def spies(monkeypatch):
    """Replace every level's bot with a spy that records its input and then decides."""
    seen = []
    for level, bot in dict(choose.BOTS).items():

        def spy(v, rng, budget, bot=bot, level=level):
            seen.append((level, copy.deepcopy(v)))
            return bot(v, rng, budget)

        monkeypatch.setitem(choose.BOTS, level, spy)
    return seen


@pytest.mark.parametrize(
    ("variant", "options"),
    [
        ("sixty-six", {"claim": "manual"}),
        ("schnapsen", {"claim": "manual"}),
        ("german-32", {"claim": "manual"}),
        ("german-32", {"players": 3}),
        ("three-hand", {"claim": "manual"}),
        ("four-hand", {}),
        ("german-48", {"partners": True}),
    ],
)
def test_a_bot_receives_its_seats_view_and_nothing_else(spies, variant, options, monkeypatch):
    monkeypatch.setattr(choose, "OVERRUN_GRACE", float("inf"))  # a slow machine: no fallback
    rules = preset(variant, **options)
    rng = random.Random(1)
    for d in range(3):
        state = new_deal(rules, seed=f"input-{d}", dealer=d % rules.players)
        while not state.deal_over:
            seat = state.to_move
            expected = view(state, seat)
            given = copy.deepcopy(expected)
            level = ("hard", "medium")[seat % 2]
            action = choose_action(given, level, rng)
            assert given == expected, "the bot changed the view it was given"
            assert spies[-1] == (level, expected)
            assert json.loads(json.dumps(spies[-1][1])) == expected, "not plain JSON data"
            assert sorted(expected["hand"]) == sorted(c.code for c in state.hands[seat])
            for other in range(state.seats):
                if other != seat:  # nothing of another hand but its size and shown cards
                    assert expected["hand_counts"][other] == len(state.hands[other])
            state, _ = apply(state, action)


def test_the_arena_passes_each_bot_only_the_view_of_its_seat(spies, monkeypatch):
    produced = []

    def recording_view(state, seat):
        v = view(state, seat)
        produced.append(copy.deepcopy(v))
        return v

    monkeypatch.setattr(arena, "view", recording_view)
    tallies = (arena.Tally(), arena.Tally())
    arena.play_deal("schnapsen", "arena-input", 0, ("medium", "easy"), tallies, random.Random(), 1)
    assert [v for _, v in spies] == produced
    assert all(v["seat"] == v["to_move"] for v in produced)


def first_view():
    state = new_deal(preset("schnapsen"), seed="fallback", dealer=0)
    return view(state, state.to_move)


def test_a_bot_that_raises_falls_back_to_the_next_level_and_logs_no_card(monkeypatch, caplog):
    def broken(v, rng, budget):
        raise RuntimeError(f"cannot decide with {v['hand']}")

    monkeypatch.setitem(choose.BOTS, "hard", broken)
    v = first_view()
    with caplog.at_level(logging.WARNING, logger="app.bots"):
        action = choose_action(v, "hard", random.Random(5))
    assert action == choose.BOTS["medium"](v, random.Random(5), 1)
    assert "bot hard failed" in caplog.text and "RuntimeError" in caplog.text
    assert not any(card in caplog.text for card in v["hand"])


def test_a_bot_that_overruns_its_budget_falls_back(monkeypatch, caplog):
    def slow(v, rng, budget):
        time.sleep(budget * 3)
        return v["legal"][0]

    monkeypatch.setitem(choose.BOTS, "medium", slow)
    v = first_view()
    with caplog.at_level(logging.WARNING, logger="app.bots"):
        action = choose_action(v, "medium", random.Random(5), budget_s=0.01)
    assert action == choose.BOTS["easy"](v, random.Random(5), 1)
    assert "overran" in caplog.text


def test_a_failing_expert_falls_back_to_hard_with_hard_s_own_budget(monkeypatch, caplog):
    budgets = []

    def broken(v, rng, budget):
        raise RuntimeError("no")

    def hard(v, rng, budget):
        budgets.append(budget)
        return v["legal"][-1]

    monkeypatch.setitem(choose.BOTS, "expert", broken)
    monkeypatch.setitem(choose.BOTS, "hard", hard)
    v = first_view()
    with caplog.at_level(logging.WARNING, logger="app.bots"):
        action = choose_action(v, "expert", random.Random(5), budget_s=1.0)
    assert action == v["legal"][-1]
    assert budgets == [choose.DEFAULT_BUDGET_S]
    assert "bot expert failed" in caplog.text


def test_an_illegal_choice_falls_back_twice_down_to_easy(monkeypatch, caplog):
    monkeypatch.setitem(choose.BOTS, "hard", lambda v, rng, budget: {"type": "resign"})
    monkeypatch.setitem(choose.BOTS, "medium", lambda v, rng, budget: {"type": "claim"})
    v = first_view()
    with caplog.at_level(logging.WARNING, logger="app.bots"):
        action = choose_action(v, "hard", random.Random(2))
    assert action in v["legal"]
    assert caplog.text.count("not legal") == 2


def test_unknown_levels_and_views_without_a_move_are_refused():
    v = first_view()
    with pytest.raises(ValueError, match="unknown bot level"):
        choose_action(v, "grandmaster")
    with pytest.raises(ValueError, match="no legal action"):
        choose_action({**v, "legal": []}, "easy")


def test_the_double_deck_is_played_by_the_hard_level_without_falling_back(caplog):
    """Two copies of each card do not fit the bitmask players: the engine-card players of
    ``app.bots.group`` and ``app.bots.sampling`` play them, with no fallback."""
    rules = preset("sixty-six", deck=48)
    state = new_deal(rules, seed="double", dealer=0)
    rng = random.Random(3)
    with caplog.at_level(logging.WARNING, logger="app.bots"):
        while not state.deal_over:
            seen = view(state, state.to_move)
            action = choose_action(seen, "hard", rng)
            assert action in seen["legal"]
            state, _ = apply(state, action)
    assert "failed" not in caplog.text
