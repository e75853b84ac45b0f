"""The pool catalogue: the pools the game offers, each with the rating family the ratings use,
and the computer levels pairing offers, with their published ratings."""

from __future__ import annotations

import doctest
import importlib

import pytest

from app.bots import LEVELS
from app.engine.rules import seats_for
from app.players import families
from app.pools import BOT_RATINGS, POOLS, pool_by_id


def test_every_two_player_preset_and_the_bigger_games_have_a_pool() -> None:
    two_player = {f"{variant}-2" for variant in ("sixty-six", "schnapsen", "german-32")}
    bigger = {"three-hand-3", "four-hand-4", "german-32-3", "german-48-4"}
    assert {pool.id for pool in POOLS} == two_player | bigger
    assert all(pool.seats in seats_for(pool.variant) for pool in POOLS)


def test_every_pool_plays_with_the_per_move_clock() -> None:
    assert {pool.clock for pool in POOLS} == {"move"}


@pytest.mark.parametrize("pool", POOLS, ids=lambda pool: pool.id)
def test_a_pool_pairs_by_the_family_its_tables_are_rated_in(pool) -> None:
    assert pool.family == families.family_of(pool.variant, pool.seats)
    assert pool.family in families.FAMILIES


def test_only_four_hand_seats_partners() -> None:
    assert [pool.id for pool in POOLS if pool.partners] == ["four-hand-4"]


def test_the_computer_levels_are_the_bots_with_their_published_ratings() -> None:
    assert BOT_RATINGS is families.BOT_RATINGS  # one table of them, not a copy
    assert tuple(BOT_RATINGS) == LEVELS


def test_an_unknown_pool_is_refused() -> None:
    with pytest.raises(KeyError):
        pool_by_id("sixty-six-3")


@pytest.mark.parametrize(
    "name", ["app.pools.catalogue", "app.pools.pairing", "app.players.families"]
)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
