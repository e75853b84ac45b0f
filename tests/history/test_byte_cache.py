"""The replay cache is bounded in bytes: least recently used out, too large never kept."""

from __future__ import annotations

import pytest

from app.history.byte_cache import ByteCache


def test_the_least_recently_used_go_first_until_the_bytes_fit() -> None:
    cache: ByteCache[str] = ByteCache(100)
    assert cache.put("a", "A", 40) and cache.put("b", "B", 40)
    assert cache.get("a") == "A"  # now "b" is the least recently used
    assert cache.put("c", "C", 40)
    assert cache.get("b") is None and cache.get("a") == "A" and cache.get("c") == "C"
    assert cache.used == 80 and len(cache) == 2


def test_many_small_entries_or_one_large_one_stay_within_the_budget() -> None:
    cache: ByteCache[int] = ByteCache(1000)
    for n in range(500):
        cache.put(n, n, 7)
        assert cache.used <= 1000
    assert len(cache) == 1000 // 7
    assert cache.put("big", -1, 1000) and len(cache) == 1 and cache.used == 1000


def test_an_entry_larger_than_the_budget_is_not_kept_and_drops_nothing() -> None:
    cache: ByteCache[str] = ByteCache(100)
    cache.put("a", "A", 60)
    assert not cache.put("huge", "H", 101)
    assert cache.get("huge") is None and cache.get("a") == "A" and cache.used == 60


def test_putting_a_key_again_replaces_its_size() -> None:
    cache: ByteCache[str] = ByteCache(100)
    cache.put("a", "A", 90)
    cache.put("a", "A2", 10)
    assert cache.used == 10 and cache.get("a") == "A2"
    cache.pop("a")
    cache.pop("a")
    assert cache.used == 0 and len(cache) == 0


def test_sizes_and_budgets_are_never_negative() -> None:
    with pytest.raises(ValueError):
        ByteCache(-1)
    with pytest.raises(ValueError):
        ByteCache(10).put("a", "A", -5)
