"""One pairing wave: who sits together, who keeps waiting, and the computer offer."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.pools import Entry, PairingSettings, Pool, acceptable_range, pair_wave, pool_by_id

SIXTY_SIX = pool_by_id("sixty-six-2")
THREE_HAND = pool_by_id("three-hand-3")
FOUR_HAND = pool_by_id("four-hand-4")
GERMAN_48 = pool_by_id("german-48-4")
RULES = PairingSettings(base_range=100, growth_per_second=50, bot_after_seconds=20)


def entry(
    player: str,
    rating: float = 1500,
    joined: float = 0.0,
    *,
    account: bool = True,
    last: tuple[str, ...] = (),
    pool: Pool = SIXTY_SIX,
) -> Entry:
    return Entry(player, account, rating, pool.family, joined, frozenset(last))


def seated(wave) -> list[tuple[str, ...]]:
    return [group.players for group in wave.groups]


def test_two_players_of_close_ratings_are_paired_in_one_wave() -> None:
    wave = pair_wave(SIXTY_SIX, [entry("ann", 1500), entry("bob", 1580)], now=0.0, settings=RULES)
    assert seated(wave) == [("ann", "bob")]
    assert wave.waiting == ()


def test_far_ratings_wait_until_both_ranges_have_grown() -> None:
    low, high = entry("low", 1500, joined=0.0), entry("high", 2300, joined=0.0)
    first = pair_wave(SIXTY_SIX, [low, high], now=1.0, settings=RULES)
    assert seated(first) == []
    assert {waiting.player for waiting in first.waiting} == {"low", "high"}
    later = pair_wave(SIXTY_SIX, [low, high], now=14.0, settings=RULES)  # 100 + 50 * 14 = 800
    assert seated(later) == [("high", "low")]  # equal waits: in the order of their ids


def test_the_newcomer_s_narrow_range_also_holds_back_a_pair() -> None:
    old, new = entry("old", 1500, joined=0.0), entry("new", 1900, joined=19.0)
    assert seated(pair_wave(SIXTY_SIX, [old, new], now=20.0, settings=RULES)) == []
    assert seated(pair_wave(SIXTY_SIX, [old, new], now=25.0, settings=RULES)) == [("old", "new")]


def test_the_range_stops_growing_at_its_cap() -> None:
    capped = PairingSettings(base_range=100, growth_per_second=50, max_range=300)
    assert acceptable_range(entry("ann"), 100.0, capped) == 300
    low, high = entry("low", 1500), entry("high", 1900)
    assert seated(pair_wave(SIXTY_SIX, [low, high], now=100.0, settings=capped)) == []


def test_closest_ratings_are_paired_together() -> None:
    players = [entry("a", 1500), entry("b", 1590), entry("c", 1610), entry("d", 1700)]
    wide = PairingSettings(base_range=1000)
    assert sorted(seated(pair_wave(SIXTY_SIX, players, now=0.0, settings=wide))) == [
        ("a", "b"),
        ("c", "d"),
    ]


def test_the_same_two_are_not_paired_twice_in_a_row_when_a_third_waits() -> None:
    ann = entry("ann", 1500, joined=0.0, last=("bob",))
    bob = entry("bob", 1500, joined=1.0, last=("ann",))
    cid = entry("cid", 1520, joined=2.0)
    wave = pair_wave(SIXTY_SIX, [ann, bob, cid], now=3.0, settings=RULES)
    assert len(wave.groups) == 1
    assert set(wave.groups[0].players) != {"ann", "bob"}


def test_the_same_two_are_paired_again_when_nobody_else_could_be() -> None:
    ann = entry("ann", 1500, last=("bob",))
    bob = entry("bob", 1500, last=("ann",))
    far = entry("far", 2400)
    wave = pair_wave(SIXTY_SIX, [ann, bob, far], now=0.0, settings=RULES)
    assert seated(wave) == [("ann", "bob")]


def test_guests_play_guests_and_accounts_unrated() -> None:
    wide = PairingSettings(base_range=1000)
    accounts = pair_wave(SIXTY_SIX, [entry("a"), entry("b")], now=0.0, settings=wide)
    mixed = pair_wave(SIXTY_SIX, [entry("a"), entry("g", account=False)], now=0.0, settings=wide)
    guests = pair_wave(
        SIXTY_SIX,
        [entry("g", account=False), entry("h", account=False)],
        now=0.0,
        settings=wide,
    )
    assert [group.rated for group in accounts.groups] == [True]
    assert [group.rated for group in mixed.groups] == [False]
    assert [group.rated for group in guests.groups] == [False]


def test_three_entrants_fill_a_three_hand_group() -> None:
    players = [
        entry(name, 1500 + i * 30, joined=i, pool=THREE_HAND) for i, name in enumerate("abc")
    ]
    wave = pair_wave(THREE_HAND, players, now=3.0, settings=RULES)
    assert seated(wave) == [("a", "b", "c")]
    assert wave.waiting == ()


def test_two_entrants_do_not_fill_a_three_hand_group() -> None:
    players = [entry(name, pool=THREE_HAND) for name in "ab"]
    wave = pair_wave(THREE_HAND, players, now=0.0, settings=RULES)
    assert seated(wave) == []
    assert [waiting.player for waiting in wave.waiting] == ["a", "b"]


def test_the_longest_waiting_is_seated_first_with_the_nearest_ratings() -> None:
    players = [
        entry("first", 1500, joined=0.0, pool=THREE_HAND),
        entry("far", 1900, joined=1.0, pool=THREE_HAND),
        entry("near", 1520, joined=2.0, pool=THREE_HAND),
        entry("nearer", 1510, joined=3.0, pool=THREE_HAND),
    ]
    wave = pair_wave(THREE_HAND, players, now=4.0, settings=PairingSettings(base_range=1000))
    assert seated(wave) == [("first", "near", "nearer")]
    assert [waiting.player for waiting in wave.waiting] == ["far"]


def test_four_hand_partners_the_strongest_with_the_weakest() -> None:
    players = [
        entry("top", 1800, joined=0.0, pool=FOUR_HAND),
        entry("low", 1200, joined=1.0, pool=FOUR_HAND),
        entry("second", 1600, joined=2.0, pool=FOUR_HAND),
        entry("third", 1400, joined=3.0, pool=FOUR_HAND),
    ]
    wave = pair_wave(FOUR_HAND, players, now=4.0, settings=PairingSettings(base_range=1000))
    (group,) = wave.groups
    # seats 0 and 2 against 1 and 3
    assert {group.players[0], group.players[2]} == {"top", "low"}
    assert {group.players[1], group.players[3]} == {"second", "third"}


def test_german_48_has_no_partners_and_seats_in_joining_order() -> None:
    players = [
        entry(name, 1800 - i * 100, joined=i, pool=GERMAN_48) for i, name in enumerate("abcd")
    ]
    wave = pair_wave(GERMAN_48, players, now=4.0, settings=PairingSettings(base_range=1000))
    assert seated(wave) == [("a", "b", "c", "d")]


def test_the_computer_is_offered_after_the_configured_wait_at_the_nearest_level() -> None:
    strong = entry("strong", 2300, joined=0.0)
    weak = entry("weak", 600, joined=5.0)
    before = pair_wave(SIXTY_SIX, [strong, weak], now=19.9, settings=RULES)
    assert before.offers == ()
    quiet = PairingSettings(base_range=100, growth_per_second=0, bot_after_seconds=20)
    at = pair_wave(SIXTY_SIX, [strong, weak], now=20.0, settings=quiet)
    assert [(offer.player, offer.level) for offer in at.offers] == [("strong", "expert")]
    later = pair_wave(SIXTY_SIX, [strong, weak], now=25.0, settings=quiet)
    assert [(offer.player, offer.level) for offer in later.offers] == [
        ("strong", "expert"),
        ("weak", "easy"),
    ]


def test_the_computer_is_not_offered_to_a_player_seated_in_the_wave() -> None:
    players = [entry("ann", 1500, joined=0.0), entry("bob", 1500, joined=0.0)]
    assert pair_wave(SIXTY_SIX, players, now=30.0, settings=RULES).offers == ()


def test_an_entry_twice_or_of_another_family_is_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        pair_wave(SIXTY_SIX, [entry("ann"), entry("ann", joined=1.0)], now=0.0)
    with pytest.raises(ValueError, match="three-hand"):
        pair_wave(SIXTY_SIX, [entry("ann"), entry("bob", pool=THREE_HAND)], now=0.0)


# Properties over random pools of waiting players.

POOLS = [SIXTY_SIX, THREE_HAND, FOUR_HAND, GERMAN_48]


@st.composite
def waiting_pools(draw: st.DrawFn, pools: list[Pool] = POOLS) -> tuple[Pool, list[Entry], float]:
    pool = draw(st.sampled_from(pools))
    count = draw(st.integers(min_value=0, max_value=14))
    names = [f"p{i}" for i in range(count)]
    entries = []
    for name in names:
        last = draw(st.lists(st.sampled_from(names), max_size=3)) if names else []
        entries.append(
            Entry(
                player=name,
                account=draw(st.booleans()),
                rating=draw(st.integers(min_value=300, max_value=2700)),
                family=pool.family,
                joined=draw(st.integers(min_value=0, max_value=30)),
                last_opponents=frozenset(other for other in last if other != name),
            )
        )
    return pool, entries, 30.0


@settings(max_examples=300, deadline=None)
@given(waiting_pools())
def test_every_entry_is_seated_once_or_still_waiting(case) -> None:
    pool, entries, now = case
    wave = pair_wave(pool, entries, now, RULES)
    seated_players = [player for group in wave.groups for player in group.players]
    waiting = [waiting.player for waiting in wave.waiting]
    assert len(seated_players) == len(set(seated_players))
    assert sorted(seated_players + waiting) == sorted(e.player for e in entries)
    assert all(len(group.players) == pool.seats for group in wave.groups)


@settings(max_examples=300, deadline=None)
@given(waiting_pools())
def test_every_group_is_within_range_and_rated_only_when_all_are_accounts(case) -> None:
    pool, entries, now = case
    by_player = {e.player: e for e in entries}
    for group in pair_wave(pool, entries, now, RULES).groups:
        members = [by_player[player] for player in group.players]
        assert group.rated == all(member.account for member in members)
        for a in members:
            for b in members:
                reach = min(acceptable_range(a, now, RULES), acceptable_range(b, now, RULES))
                assert abs(a.rating - b.rating) <= reach


@settings(max_examples=200, deadline=None)
@given(waiting_pools([SIXTY_SIX]))
def test_a_two_seat_wave_leaves_no_two_waiting_who_could_sit_together(case) -> None:
    pool, entries, now = case
    left = pair_wave(pool, entries, now, RULES).waiting
    for i, a in enumerate(left):
        for b in left[i + 1 :]:
            reach = min(acceptable_range(a, now, RULES), acceptable_range(b, now, RULES))
            assert abs(a.rating - b.rating) > reach


@settings(max_examples=200, deadline=None)
@given(waiting_pools(), st.randoms(use_true_random=False))
def test_the_wave_does_not_depend_on_the_order_of_the_entries(case, rng: random.Random) -> None:
    pool, entries, now = case
    shuffled = list(entries)
    rng.shuffle(shuffled)
    assert pair_wave(pool, entries, now, RULES) == pair_wave(pool, shuffled, now, RULES)


def test_a_group_leaves_out_who_sat_together_last_when_others_wait() -> None:
    players = [
        entry("ann", 1500, joined=0.0, last=("bob",), pool=THREE_HAND),
        entry("bob", 1500, joined=1.0, last=("ann",), pool=THREE_HAND),
        entry("cid", 1550, joined=2.0, pool=THREE_HAND),
        entry("dan", 1560, joined=3.0, pool=THREE_HAND),
    ]
    wave = pair_wave(THREE_HAND, players, now=4.0, settings=PairingSettings(base_range=1000))
    assert seated(wave) == [("ann", "cid", "dan")]


def test_the_longest_waiting_starts_the_group_even_far_from_the_rest() -> None:
    players = [
        entry("old", 1500, joined=0.0, pool=THREE_HAND),
        entry("x", 1700, joined=1.0, pool=THREE_HAND),
        entry("y", 1710, joined=2.0, pool=THREE_HAND),
        entry("z", 1720, joined=3.0, pool=THREE_HAND),
    ]
    wave = pair_wave(THREE_HAND, players, now=4.0, settings=PairingSettings(base_range=1000))
    assert seated(wave) == [("old", "x", "y")]


def test_a_large_wave_matched_by_bands_pairs_across_a_band_s_edge() -> None:
    # Sorted by rating, the first band holds the 63 players at 1000 and one at 3000, which
    # cannot play them; the last band holds a lone 3000. Only a pass over those the bands left
    # unpaired puts these two together: 31 pairs at 1000 and 33 at 3000.
    low = [entry(f"low{i:02d}", 1000) for i in range(63)]
    high = [entry(f"high{i:02d}", 3000) for i in range(66)]
    wave = pair_wave(SIXTY_SIX, low + high, now=0.0, settings=RULES)
    assert len(wave.groups) == 64
    assert len(wave.waiting) == 1 and wave.waiting[0].rating == 1000
    assert all(len({p[:3] for p in group.players}) == 1 for group in wave.groups)


def test_a_large_wave_leaves_no_two_waiting_who_could_sit_together() -> None:
    rng = random.Random(7)
    entries = [
        entry(f"p{i:03d}", rng.gauss(1500, 350), joined=rng.uniform(0, 10)) for i in range(300)
    ]
    wave = pair_wave(SIXTY_SIX, entries, now=10.0, settings=RULES)
    left = wave.waiting
    assert len(wave.groups) * 2 + len(left) == len(entries)
    for i, a in enumerate(left):
        for b in left[i + 1 :]:
            reach = min(acceptable_range(a, 10.0, RULES), acceptable_range(b, 10.0, RULES))
            assert abs(a.rating - b.rating) > reach
