"""Property tests for every preset and seat count over random seeded matches (hypothesis, and a
plain loop over thousands of matches): cards conserved at every step, every legal action applies,
every other action is refused and leaves the state equal, matches end, the same seed and actions
replay to the same states, and no view of any seat or spectator holds a hidden card."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine import (
    Action,
    Illegal,
    IllegalAction,
    State,
    apply,
    full_deck,
    legal_actions,
    new_match,
    preset,
    view,
)

from .playing import random_playthrough
from .test_views_and_events import card_strings, hidden_from

TABLES = [
    ("sixty-six", {}),
    ("schnapsen", {}),
    ("german-32", {}),
    ("german-32", {"players": 3}),
    ("three-hand", {}),
    ("four-hand", {}),
    ("german-48", {}),
    ("german-48", {"partners": True}),
]
NAMES = [f"{name}{'-' + '-'.join(map(str, o.values())) if o else ''}" for name, o in TABLES]

COMMON = {
    "strict": st.sampled_from(["head", "follow"]),
    "target": st.sampled_from([3, 7, 10]),
    "marriage_needs_trick": st.booleans(),
    "loser_counts_marriages": st.booleans(),
    "schwarz": st.sampled_from(["no_tricks", "zero_points"]),
}
NOT_BIDDING = {
    "claim": st.sampled_from(["auto", "manual"]),
    "wrong_claim": st.sampled_from(["opponent_2_or_3", "claimer_value"]),
    "played_out": st.sampled_from(["last_trick", "redeal"]),
}
STOCK = {
    "close_fail": st.sampled_from(["opponent_2_or_3", "closer_value_min_2"]),
    "exchange_needs_trick": st.booleans(),
    "marriages_in_strict_phase": st.booleans(),
}
MANY_SIDES = {"game_points_from": st.sampled_from(["best_opponent", "lowest_opponent"])}
BIDDING = {
    "defenders_score": st.booleans(),
    "all_pass": st.sampled_from(["next_dealer", "same_dealer"]),
    "luna": st.sampled_from(["every_trick", "sixty_six"]),
}


def house_rules(index: int) -> st.SearchStrategy[dict[str, object]]:
    """Random options that make sense for table ``index``."""
    name, fixed = TABLES[index]
    rules = preset(name, **fixed)
    optional = dict(COMMON)
    optional |= BIDDING if rules.bidding else NOT_BIDDING
    if rules.has_stock:
        optional |= STOCK
    if rules.sides > 2:
        optional |= MANY_SIDES
    return st.fixed_dictionaries({}, optional=optional).map(lambda extra: {**fixed, **extra})


tables = st.integers(0, len(TABLES) - 1).flatmap(
    lambda i: st.tuples(st.just(TABLES[i][0]), house_rules(i))
)

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def conserved(state: State) -> bool:
    held = [c for hand in state.hands for c in hand]
    held += [*state.stock, *state.aside, *(c for _, c in state.trick)]
    held += [c for trick, _ in state.history for _, c in trick]
    return Counter(held) == Counter(full_deck(state.rules.deck))


def every_action(state: State) -> list[Action]:
    cards = set(full_deck(state.rules.deck))
    plays = [Action.play(c, m) for c in cards for m in (False, True) if not m or c.rank in "KQ"]
    simple = [Action.simple(t) for t in ("exchange", "close", "claim", "pass")]
    return [*plays, *simple, *(Action.bid(level) for level in range(1, 6))]


@SETTINGS
@given(table=tables, seed=st.integers(0, 10**9))
def test_every_step_conserves_the_cards_and_hides_what_is_hidden(table, seed):
    name, options = table
    state = new_match(preset(name, **options), seed=str(seed))
    total = sum(c.points for c in full_deck(state.rules.deck))
    viewers: list[int | None] = [*range(state.seats), None]
    for _, _, _, after, _ in random_playthrough(state, random.Random(seed)):
        assert conserved(after)
        if not after.deal_over:
            in_play = [*after.stock, *after.aside, *(c for h in after.hands for c in h)]
            in_play += [c for _, c in after.trick]
            assert sum(after.card_points) + sum(c.points for c in in_play) == total
            assert after.to_move is not None and after.to_move != after.sitting_out
            assert legal_actions(after), "the seat on move always has an action"
        for viewer in viewers:
            seen = view(after, viewer)
            assert not card_strings(seen) & hidden_from(after, viewer)
        if after.deal_no > 12:
            break


@SETTINGS
@given(table=tables, seed=st.integers(0, 10**9))
def test_legal_actions_apply_and_all_others_are_refused_without_change(table, seed):
    name, options = table
    state = new_match(preset(name, **options), seed=str(seed))
    universe = every_action(state)
    for before, _, _, _, _ in random_playthrough(state, random.Random(seed)):
        if before.deal_no > 2:
            break
        snapshot = dict(before.__dict__)
        legal = set(legal_actions(before))
        for action in universe:
            if action in legal:
                apply(before, action)
            else:
                with pytest.raises(IllegalAction) as info:
                    apply(before, action)
                assert isinstance(info.value.code, Illegal) and info.value.message
            for other in range(before.seats):
                if other != before.to_move:
                    with pytest.raises(IllegalAction) as info:
                        apply(before, action, seat=other)
                    assert info.value.code is Illegal.NOT_YOUR_TURN
        assert before.__dict__ == snapshot


@SETTINGS
@given(table=tables, seed=st.integers(0, 10**9))
def test_replaying_the_same_seed_and_actions_gives_the_same_states(table, seed):
    name, options = table
    rules = preset(name, **options)
    played = []
    for _, action, seat, after, _ in random_playthrough(
        new_match(rules, str(seed)), random.Random(seed), resign_chance=0.001
    ):
        played.append((action, seat, after))
        if after.deal_no > 4:
            break
    state = new_match(rules, str(seed))
    for action, seat, expected in played:
        state, _ = apply(state, action, seat)
        assert state == expected


@pytest.mark.slow
@pytest.mark.parametrize(("name", "options"), TABLES, ids=NAMES)
def test_a_thousand_random_matches_end_and_score_by_the_rules(name, options):
    """Cheap checks over many whole matches: every deal ends with all its cards accounted for,
    a deal's game points go to one side (less for failed closes and bids), and every match
    reaches its target."""
    rules = preset(name, **options)
    deals = 0
    for k in range(1000):
        state = new_match(rules, seed=f"many-{k}")
        rng = random.Random(k)
        steps = 0
        for before, _, _, after, _ in random_playthrough(state, rng):
            steps += 1
            if after.deal_no != before.deal_no or after.match_over:
                deals += 1
                assert steps <= 3 * rules.deck, "a deal must end"
                steps = 0
                assert conserved(before) and conserved(after)
                result = after.deal_results[-1]
                scored = [points for points in result.game_points if points]
                assert len(scored) <= (2 if rules.defenders_score else 1)
            # four-hand game points walk up and down (a failed bid is taken off): a long walk
            assert after.deal_no < (3000 if rules.bidding else 300), "a match must end"
            state = after
        assert state.match_over and max(state.game_points) >= rules.target
    assert deals > 1000
