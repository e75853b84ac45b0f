"""Property tests of the two-player presets over random seeded matches (hypothesis).

Each example plays a whole match of a random two-player preset with random house rules, checking
at every step: cards conserved, 120 card points in all, legal actions apply, every other action
is refused without changing the state, and the strict-phase duty matches an independent oracle.
``test_table_properties`` checks every preset and seat count, replays included.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine import (
    PRESETS,
    Action,
    IllegalAction,
    State,
    Termination,
    apply,
    full_deck,
    legal_actions,
    new_match,
    preset,
)

from .playing import random_playthrough

house_rules = st.fixed_dictionaries(
    {},
    optional={
        "strict": st.sampled_from(["head", "follow"]),
        "claim": st.sampled_from(["auto", "manual"]),
        "close_fail": st.sampled_from(["opponent_2_or_3", "closer_minus_3", "closer_value_min_2"]),
        "wrong_claim": st.sampled_from(["opponent_2_or_3", "claimer_value"]),
        "schwarz": st.sampled_from(["no_tricks", "zero_points"]),
        "exchange_needs_trick": st.booleans(),
        "marriages_in_strict_phase": st.booleans(),
        "loser_counts_marriages": st.booleans(),
        "target": st.sampled_from([7, 10]),
    },
)

TWO_PLAYER = tuple(name for name in PRESETS if preset(name).players == 2)

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def every_action(state: State) -> list[Action]:
    cards = set(full_deck(state.rules.deck))
    plays = [Action.play(c, m) for c in cards for m in (False, True) if not m or c.rank in "KQ"]
    return [*plays, *(Action.simple(t) for t in ("exchange", "close", "claim"))]


def conserved(state: State) -> bool:
    held = [c for hand in state.hands for c in hand]
    held += list(state.stock) + [c for _, c in state.trick]
    held += [c for seat in range(state.seats) for c in state.won(seat)]
    return Counter(held) == Counter(full_deck(state.rules.deck))


def strict_oracle(state: State) -> set[str]:
    """The follower's duty in the strict phase, written from RULES.md 2.5 for two players."""
    hand = state.hands[state.to_move]
    led = state.trick[0][1]
    same = [c for c in hand if c.suit == led.suit]
    if state.rules.strict == "follow":
        return {c.code for c in (same or hand)}
    if same:
        higher = [c for c in same if c.strength > led.strength]
        return {c.code for c in (higher or same)}
    trumps = [c for c in hand if c.suit == state.trump]
    return {c.code for c in (trumps or hand)}


@SETTINGS
@given(variant=st.sampled_from(TWO_PLAYER), options=house_rules, seed=st.integers(0, 10**9))
def test_random_matches_keep_every_invariant(variant, options, seed):
    rules = preset(variant, **options)
    state = new_match(rules, seed=str(seed))
    rng = random.Random(seed)
    total = sum(c.points for c in full_deck(rules.deck))
    first = dict(state.__dict__)
    steps = 0
    for before, _action, _seat, after, _events in random_playthrough(state, rng):
        steps = 0 if after.deal_no != before.deal_no else steps + 1
        assert steps < 60, "a deal must end"
        if after.deal_no > 25:
            break  # with closer_minus_3 a random match can go on for very long
        assert conserved(after)
        if not (after.deal_over or after.match_over):
            in_play = sum(c.points for h in after.hands for c in h)
            in_play += sum(c.points for c in after.stock) + sum(c.points for _, c in after.trick)
            assert sum(after.card_points) + in_play == total
        if before.trick and not before.stock_open:
            legal = {a.card.code for a in legal_actions(before) if a.card}
            assert legal == strict_oracle(before)
    assert state.__dict__ == first, "playing on changed the state it started from"


@SETTINGS
@given(variant=st.sampled_from(TWO_PLAYER), options=house_rules, seed=st.integers(0, 10**9))
def test_legal_actions_apply_and_all_others_are_refused_without_change(variant, options, seed):
    state = new_match(preset(variant, **options), seed=str(seed))
    rng = random.Random(seed)
    universe = every_action(state)
    for before, _action, _seat, _after, _events in random_playthrough(state, rng):
        if before.deal_no > 2:
            break
        snapshot = dict(before.__dict__)
        legal = set(legal_actions(before))
        assert legal, "the seat on move always has an action"
        for action in universe:
            if action in legal:
                apply(before, action)
            else:
                try:
                    apply(before, action)
                except IllegalAction as exc:
                    assert exc.code and exc.message
                else:
                    raise AssertionError(f"{action} was applied but is not legal")
            other = 1 - before.to_move
            try:
                apply(before, action, seat=other)
            except IllegalAction as exc:
                assert exc.code == "not_your_turn"
            else:
                raise AssertionError("a seat acted out of turn")
        assert before.__dict__ == snapshot


@SETTINGS
@given(variant=st.sampled_from(TWO_PLAYER), options=house_rules, seed=st.integers(0, 10**9))
def test_game_points_follow_the_rules_text(variant, options, seed):
    """Re-derive each deal's game points from its result, straight from RULES.md 2.11."""
    rules = preset(variant, **options)
    final = start = new_match(rules, str(seed))
    for _, _, _, final, _ in random_playthrough(start, random.Random(seed)):
        if final.deal_no > 25:
            break
    if rules.close_fail != "closer_minus_3":  # every deal then gives someone a point
        assert final.match_over
    assert final.match_over == (max(final.game_points) >= rules.target)
    for result in final.deal_results:
        winner, loser = result.winner, 1 - result.winner
        points = sum(result.game_points)
        if result.termination in (Termination.REACHED_66, Termination.CLAIM):
            assert result.scores[winner] >= 66
            assert points in (1, 2, 3) and result.game_points[loser] == 0
            if result.tricks[loser] == 0 and rules.schwarz == "no_tricks":
                assert points == 3
            elif rules.loser_counts_marriages and rules.schwarz == "no_tricks":
                assert points == (2 if result.scores[loser] < 33 else 1)
        elif result.termination is Termination.LAST_TRICK:
            assert result.closed_by is None
            # The result says which rule valued it: played out with nobody at 66, or not.
            assert result.played_out == (result.scores[winner] < 66)
            if result.scores[winner] < 66:
                assert result.game_points[winner] == 1
        if result.termination is not Termination.LAST_TRICK:
            assert not result.played_out
        elif result.termination is Termination.CLOSE_FAILED:
            assert result.closed_by == loser
            if rules.close_fail == "closer_minus_3":
                assert result.game_points == tuple(-3 if s == loser else 0 for s in (0, 1))
            else:
                assert result.game_points[winner] in (2, 3)
        elif result.termination is Termination.CLOSED:
            assert result.closed_by == winner and result.scores[winner] >= 66
        elif result.termination is Termination.WRONG_CLAIM:
            assert rules.claim == "manual" and result.game_points[winner] in (1, 2, 3)
    running = [0, 0]
    for result in final.deal_results[:-1]:
        running = [a + b for a, b in zip(running, result.game_points, strict=True)]
        assert max(running) < rules.target, "the match went on after the target was reached"


def test_last_trick_bonus_only_when_the_stock_is_played_out():
    rules = preset("sixty-six")
    seen_bonus = seen_closed = 0
    for seed in range(400):
        state = new_match(rules, seed=f"bonus-{seed}")
        for _, _, _, after, events in random_playthrough(state, random.Random(seed)):
            for event in events:
                if event.type == "closed":
                    seen_closed += 1
                if event.type == "last_trick_bonus":
                    seen_bonus += 1
                    assert event.data["points"] == 10
            ended = [e for e in events if e.type == "deal_over"]
            if ended:
                result = ended[0].data["result"]
                bonus = [e for e in events if e.type == "last_trick_bonus"]
                if bonus:
                    assert result["closed_by"] is None
                    assert result["termination"] in ("last_trick", "reached_66")
                if result["closed_by"] is not None:
                    assert not bonus
            if after.deal_no > 3:
                break
    assert seen_bonus > 20 and seen_closed > 20
