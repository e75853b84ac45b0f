"""Arena pairing of whoever is free, the streak rule and the forfeit rule."""

from __future__ import annotations

import doctest
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from app.tournaments import arena
from app.tournaments.arena import (
    ArenaOutcome,
    ArenaPlayer,
    ArenaRecord,
    counts,
    may_pair,
    pair_arena,
    record_arena_result,
)

W, L = ArenaOutcome.WIN, ArenaOutcome.LOSS
FW, FL = ArenaOutcome.FORFEIT_WIN, ArenaOutcome.FORFEIT_LOSS


def play(outcomes, *, streak=True):
    record, scored = ArenaRecord(), []
    for outcome in outcomes:
        record, points = record_arena_result(record, outcome, streak=streak)
        scored.append(points)
    return record, scored


@settings(max_examples=80, deadline=None)
@given(
    scores=st.lists(st.integers(0, 30), min_size=2, max_size=12),
    data=st.data(),
)
def test_every_free_player_is_paired_at_once_and_never_with_its_last_opponent_if_another_is_free(
    scores, data
):
    ids = [f"p{i}" for i in range(len(scores))]
    # Last opponents pair players up (each played at most one of the others last).
    order = data.draw(st.permutations(ids))
    last: dict[str, str] = {}
    for a, b in zip(order[::2], order[1::2], strict=False):
        if data.draw(st.booleans()):
            last[a], last[b] = b, a
    free = [
        ArenaPlayer(i, s, rating=1500 + 10 * n, last_opponent=last.get(i))
        for n, (i, s) in enumerate(zip(ids, scores, strict=True))
    ]
    pairs = pair_arena(free)
    seated = [x for pair in pairs for x in pair]
    assert len(seated) == len(set(seated))
    assert len(pairs) == len(free) // 2, "a free player was left waiting"
    if len(free) > 2:
        assert all(last.get(a) != b for a, b in pairs), "an immediate rematch"


@settings(max_examples=30, deadline=None)
@given(size=st.integers(40, 240), block=st.integers(5, 60), seed=st.integers(0, 10**6))
def test_a_large_wave_is_paired_block_by_block_yet_pairs_everyone_without_rematches(
    size, block, seed
):
    rng = random.Random(seed)
    ids = [f"p{i:03}" for i in range(size)]
    rng.shuffle(ids)
    last = {}
    for a, b in zip(ids[::2], ids[1::2], strict=False):
        last[a], last[b] = b, a
    free = [ArenaPlayer(i, rng.randint(0, 40), rng.gauss(1500, 200), last.get(i)) for i in ids]
    pairs = pair_arena(free, block=block)
    seated = [x for pair in pairs for x in pair]
    assert len(seated) == len(set(seated)) == 2 * (size // 2), "a free player was left waiting"
    assert all(last.get(a) != b for a, b in pairs), "an immediate rematch"


def test_two_players_alone_free_play_each_other_again():
    free = [ArenaPlayer("a", last_opponent="b"), ArenaPlayer("b", last_opponent="a")]
    assert pair_arena(free) == [("a", "b")]


def test_players_are_paired_by_score_then_rating():
    free = [
        ArenaPlayer("a", 10, 1500),
        ArenaPlayer("b", 0, 1500),
        ArenaPlayer("c", 10, 1900),
        ArenaPlayer("d", 0, 1800),
    ]
    assert pair_arena(free) == [("a", "c"), ("b", "d")]
    free = [
        ArenaPlayer("a", 4, 1500),
        ArenaPlayer("b", 4, 2000),
        ArenaPlayer("c", 4, 1510),
        ArenaPlayer("d", 4, 1990),
    ]
    assert pair_arena(free) == [("a", "c"), ("b", "d")]


def test_the_streak_rule_on_a_hand_worked_sequence():
    # W W W W L W W FW : 2 2 4 4 0 2 2 4 (on fire after two wins; a loss puts the fire out)
    record, scored = play([W, W, W, W, L, W, W, FW])
    assert scored == [2, 2, 4, 4, 0, 2, 2, 4]
    assert record.score == 20 and record.on_fire
    record, scored = play([W, W, W, W, L, W, W, FW], streak=False)
    assert scored == [2] * 4 + [0] + [2] * 3 and record.score == 14


def test_two_forfeits_in_a_row_withdraw_a_player_and_a_played_game_between_resets():
    assert play([FL, FL])[0].withdrawn
    assert play([W, FL, FL])[0].withdrawn
    assert not play([FL, L, FL])[0].withdrawn
    assert not play([FL, W, FL])[0].withdrawn
    assert not play([FL])[0].withdrawn


def test_a_game_paired_before_the_end_counts_whenever_it_finishes():
    assert may_pair(now=59.0, ends_at=60.0) and not may_pair(now=60.0, ends_at=60.0)
    assert counts(paired_at=59.0, ends_at=60.0)
    assert not counts(paired_at=60.0, ends_at=60.0)


def test_the_docstring_examples_hold():
    assert doctest.testmod(arena).failed == 0
