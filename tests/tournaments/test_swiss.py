"""Swiss pairing: no pair meets twice, score groups kept as far as possible, one bye when odd."""

from __future__ import annotations

import doctest
import itertools
import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from app.tournaments import swiss
from app.tournaments.swiss import Entrant, SwissRound, pair_swiss_round


def squared_floats(entrants: list[Entrant], rnd: SwissRound) -> int:
    """Sum of squared score differences (half points) of a round, the bye counted against
    the lowest score, as the pairing weighs it."""
    by_id = {e.id: e for e in entrants}
    lowest = min(swiss.half_points(e.score) for e in entrants if not e.withdrawn)
    total = sum(
        (swiss.half_points(by_id[a].score) - swiss.half_points(by_id[b].score)) ** 2
        for a, b in rnd.pairings
    )
    if rnd.bye is not None:
        total += (swiss.half_points(by_id[rnd.bye].score) - lowest) ** 2
    return total


def best_squared_floats(entrants: list[Entrant]) -> int:
    """The smallest sum any repeat-free round with a lawful bye could have: by brute force."""
    active = [e for e in entrants if not e.withdrawn]
    fewest = min(e.byes for e in active)
    best: int | None = None

    def pairings(rest: list[Entrant]) -> list[list[tuple[str, str]]]:
        if not rest:
            return [[]]
        first, others = rest[0], rest[1:]
        found = []
        for i, other in enumerate(others):
            if other.id in first.met:
                continue
            for tail in pairings(others[:i] + others[i + 1 :]):
                found.append([(first.id, other.id), *tail])
        return found

    candidates = [e for e in active if e.byes == fewest] if len(active) % 2 else [None]
    for bye in candidates:
        rest = [e for e in active if bye is None or e.id != bye.id]
        for option in pairings(rest):
            cost = squared_floats(entrants, SwissRound(tuple(option), bye.id if bye else None))
            best = cost if best is None else min(best, cost)
    assert best is not None, "no repeat-free round exists"
    return best


def play_round(
    entrants: list[Entrant], rnd: SwissRound, rng: random.Random, bye_points: float = 1.0
) -> list[Entrant]:
    """Random results: one side of each pair wins (66 has no draws)."""
    by_id = {e.id: e for e in entrants}
    for a, b in rnd.pairings:
        winner = rng.choice((a, b))
        by_id[a] = replace(by_id[a], met=by_id[a].met | {b})
        by_id[b] = replace(by_id[b], met=by_id[b].met | {a})
        by_id[winner] = replace(by_id[winner], score=by_id[winner].score + 1)
    if rnd.bye is not None:
        e = by_id[rnd.bye]
        by_id[rnd.bye] = replace(e, score=e.score + bye_points, byes=e.byes + 1)
    return [by_id[e.id] for e in entrants]


def check_round(entrants: list[Entrant], rnd: SwissRound) -> None:
    by_id = {e.id: e for e in entrants}
    active = [e.id for e in entrants if not e.withdrawn]
    seated = [x for pair in rnd.pairings for x in pair] + ([rnd.bye] if rnd.bye else [])
    assert sorted(seated) == sorted(active), "every active entrant plays or has the bye"
    assert not rnd.unpaired
    for a, b in rnd.pairings:
        assert b not in by_id[a].met, f"{a} and {b} meet a second time"
    if len(active) % 2:
        assert rnd.bye is not None, "an odd round has exactly one bye"
        fewest = min(by_id[i].byes for i in active)
        assert by_id[rnd.bye].byes == fewest, f"{rnd.bye} has a second bye while others have none"
    else:
        assert rnd.bye is None
    assert squared_floats(entrants, rnd) == best_squared_floats(entrants), (
        "score groups not kept as far as possible"
    )


def run_event(entrants: list[Entrant], rounds: int, seed: int) -> list[SwissRound]:
    rng = random.Random(seed)
    played = []
    for _ in range(rounds):
        rnd = pair_swiss_round(entrants)
        check_round(entrants, rnd)
        played.append(rnd)
        entrants = play_round(entrants, rnd, rng)
    return played


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**9),
    ratings=st.lists(st.integers(1000, 2200), min_size=8, max_size=8),
)
def test_an_eight_entrant_swiss_of_three_rounds_pairs_by_the_rules(seed, ratings):
    entrants = [Entrant(f"p{i}", rating=r, computer=i % 3 == 0) for i, r in enumerate(ratings)]
    played = run_event(entrants, 3, seed)
    pairs = [frozenset(p) for rnd in played for p in rnd.pairings]
    assert len(pairs) == len(set(pairs)) == 12


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**9), size=st.sampled_from([5, 7, 9]))
def test_an_odd_swiss_gives_one_bye_a_round_and_none_twice_before_everyone_had_one(seed, size):
    entrants = [Entrant(f"p{i}", rating=1500 + 37 * i) for i in range(size)]
    played = run_event(entrants, size - 2, seed)
    byes = [rnd.bye for rnd in played]
    assert None not in byes
    assert len(byes) == len(set(byes)), "a bye went twice to one entrant"


def test_a_withdrawn_entrant_makes_the_round_odd_and_is_never_paired():
    entrants = [Entrant(f"p{i}", score=i % 2) for i in range(8)]
    entrants[7] = replace(entrants[7], withdrawn=True)
    rnd = pair_swiss_round(entrants)
    check_round(entrants, rnd)
    assert "p7" not in {x for pair in rnd.pairings for x in pair} | {rnd.bye}


def test_the_bye_goes_to_the_lowest_score_group():
    entrants = [Entrant("a", 2), Entrant("b", 2), Entrant("c", 1), Entrant("d", 1), Entrant("e", 0)]
    assert pair_swiss_round(entrants) == SwissRound((("a", "b"), ("c", "d")), "e")


def test_equal_scores_meet_before_near_ones_and_near_before_far():
    entrants = [Entrant("a", 2), Entrant("b", 1.5), Entrant("c", 1.5), Entrant("d", 0)]
    assert pair_swiss_round(entrants).pairings == (("a", "b"), ("c", "d")) or (
        pair_swiss_round(entrants).pairings == (("a", "c"), ("b", "d"))
    )
    # Two floats of one half point each cost less than one of two half points.
    entrants = [Entrant("a", 1), Entrant("b", 0.5), Entrant("c", 0.5), Entrant("d", 0)]
    assert pair_swiss_round(entrants).pairings == (("a", "b"), ("c", "d"))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9), ratings=st.permutations([1450, 1500, 1550, 1600]))
def test_a_four_team_four_hand_swiss_of_three_rounds_meets_every_team_once(seed, ratings):
    teams = [
        Entrant(f"t{i}", rating=r, members=(f"t{i}a", f"t{i}b")) for i, r in enumerate(ratings)
    ]
    played = run_event(teams, 3, seed)
    pairs = {frozenset(p) for rnd in played for p in rnd.pairings}
    assert pairs == {frozenset(p) for p in itertools.combinations([t.id for t in teams], 2)}


def test_when_no_repeat_free_round_exists_the_rest_is_left_unpaired_not_rematched():
    a = Entrant("a", met=frozenset({"b", "c"}))
    b = Entrant("b", met=frozenset({"a", "c"}))
    c = Entrant("c", met=frozenset({"a", "b"}))
    d = Entrant("d")
    rnd = pair_swiss_round([a, b, c, d])
    assert len(rnd.pairings) == 1 and "d" in rnd.pairings[0]
    assert len(rnd.unpaired) == 2


def test_the_docstring_examples_hold():
    assert doctest.testmod(swiss).failed == 0
