"""One pairing wave of a pool: who is seated together, who keeps waiting, who is offered the
computer. Pure and deterministic: the same entries, ``now`` and settings give the same wave
whatever order the entries come in (the wave's jitter is the caller's).

A waiting entry accepts an opponent whose rating is within its range, which starts at
``base_range`` and grows by ``growth_per_second`` for every second it has waited (up to
``max_range`` if set). Two entries may sit together when their difference is within both
ranges.

>>> from app.pools.catalogue import pool_by_id
>>> pool = pool_by_id("sixty-six-2")
>>> ann = Entry("ann", account=True, rating=1500, family="sixty-six", joined=0.0)
>>> bob = Entry("bob", account=True, rating=1560, family="sixty-six", joined=1.0)
>>> wave = pair_wave(pool, [ann, bob], now=2.0)
>>> wave.groups
(Group(players=('ann', 'bob'), rated=True),)
>>> wave.waiting
()
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Final

import networkx as nx  # type: ignore[import-untyped]

from app.players.families import nearest_level
from app.pools.catalogue import Pool

POOL_BOT_AFTER_SECONDS: Final = 20.0
"""How long an entry waits before it is offered computer players for the other seats."""


@dataclass(frozen=True)
class Entry:
    """A player waiting in a pool: its id, whether it is an account (else a guest), its rating
    in the pool's family (a guest's is the starting rating the caller gives it), the family,
    when it joined (seconds, the caller's clock) and the players it sat with at its last
    table (it is not paired with them again while anyone else could be)."""

    player: str
    account: bool
    rating: float
    family: str
    joined: float
    last_opponents: frozenset[str] = field(default_factory=frozenset)


@dataclass(frozen=True)
class PairingSettings:
    """How ranges grow and when the computer is offered (``POOL_BOT_AFTER_SECONDS``)."""

    base_range: float = 100.0
    growth_per_second: float = 50.0
    max_range: float | None = None
    bot_after_seconds: float = POOL_BOT_AFTER_SECONDS


@dataclass(frozen=True)
class Group:
    """Players to seat at one new table, in seat order; ``rated`` when every one is an
    account."""

    players: tuple[str, ...]
    rated: bool


@dataclass(frozen=True)
class BotOffer:
    """An offer to ``player`` to fill its table's other seats with computers of ``level``."""

    player: str
    level: str


@dataclass(frozen=True)
class Wave:
    """What one wave decided: the groups to seat (the longest waiting first), the entries
    still waiting (in the order they joined) and the computer offers among those."""

    groups: tuple[Group, ...]
    waiting: tuple[Entry, ...]
    offers: tuple[BotOffer, ...]


def acceptable_range(entry: Entry, now: float, settings: PairingSettings) -> float:
    """The rating difference ``entry`` accepts at ``now``.

    >>> entry = Entry("ann", account=True, rating=1500, family="sixty-six", joined=10.0)
    >>> acceptable_range(entry, 14.0, PairingSettings(base_range=100, growth_per_second=50))
    300.0
    """
    grown = settings.base_range + settings.growth_per_second * max(0.0, now - entry.joined)
    return grown if settings.max_range is None else min(grown, settings.max_range)


def compatible(a: Entry, b: Entry, now: float, settings: PairingSettings) -> bool:
    """True when ``a`` and ``b`` are within each other's range."""
    difference = abs(a.rating - b.rating)
    return difference <= min(acceptable_range(a, now, settings), acceptable_range(b, now, settings))


def repeats(a: Entry, b: Entry) -> bool:
    """True when ``a`` and ``b`` sat together at the last table of either."""
    return b.player in a.last_opponents or a.player in b.last_opponents


def bot_offers(
    waiting: Iterable[Entry], now: float, settings: PairingSettings
) -> tuple[BotOffer, ...]:
    """An offer for every entry that has waited ``bot_after_seconds`` or longer."""
    return tuple(
        BotOffer(entry.player, nearest_level(entry.rating))
        for entry in waiting
        if now - entry.joined >= settings.bot_after_seconds
    )


def pair_wave(
    pool: Pool,
    entries: Iterable[Entry],
    now: float,
    settings: PairingSettings | None = None,
) -> Wave:
    """One wave of ``pool``: every entry is either in exactly one group or still waiting.

    Raises ValueError when a player is entered twice or an entry is of another rating family.
    """
    settings = settings or PairingSettings()
    ordered = sorted(entries, key=lambda entry: (entry.joined, entry.player))
    _check(pool, ordered)
    if pool.seats == 2:
        groups = _pair_two(ordered, now, settings)
    else:
        groups = _fill(ordered, pool.seats, now, settings)
    seated = {entry.player for group in groups for entry in group}
    waiting = tuple(entry for entry in ordered if entry.player not in seated)
    return Wave(
        groups=tuple(_group(pool, group) for group in groups),
        waiting=waiting,
        offers=bot_offers(waiting, now, settings),
    )


def _check(pool: Pool, entries: Sequence[Entry]) -> None:
    players = [entry.player for entry in entries]
    if len(set(players)) != len(players):
        raise ValueError("a player is entered twice")
    for entry in entries:
        if entry.family != pool.family:
            raise ValueError(f"{entry.player} is rated in {entry.family}, not {pool.family}")


def _group(pool: Pool, members: Sequence[Entry]) -> Group:
    """The members in seat order: with partners, the strongest and the weakest against the two
    between (seats 0 and 2 against 1 and 3); else in the order they joined."""
    seated = sorted(members, key=lambda entry: (entry.joined, entry.player))
    if pool.partners:
        strongest = sorted(members, key=lambda entry: (-entry.rating, entry.joined, entry.player))
        seated = [strongest[0], strongest[1], strongest[3], strongest[2]]
    return Group(
        players=tuple(entry.player for entry in seated),
        rated=all(entry.account for entry in members),
    )


EdgeRule = Callable[["Entry", "Entry"], bool]
"""Whether two entries may be paired in one stage of a wave."""

WEIGHT_CEILING: Final = 10**9
"""An edge's weight is this less its rating difference in thousandths of a point, so every
edge weighs more than nothing and a closer pair weighs more."""


BAND: Final = 64
"""The most entries one matching sees: a larger wave is matched in bands of this many entries
adjacent in rating, then once more among those the bands left unpaired (the matching's time
grows with the cube of the entries it sees)."""


def _pair_two(entries: Sequence[Entry], now: float, settings: PairingSettings) -> list[list[Entry]]:
    """The most pairs, and among those the smallest sum of rating differences (a maximum-weight
    matching of maximum cardinality, by bands of ``BAND`` in a large wave); a pair that sat
    together last is only made from those left over by the pairs without one."""
    fresh = _match_by_bands(entries, now, settings, lambda a, b: not repeats(a, b))
    paired = {entry.player for pair in fresh for entry in pair}
    rest = [entry for entry in entries if entry.player not in paired]
    again = _match(rest, now, settings, repeats)
    return sorted(fresh + again, key=lambda pair: (pair[0].joined, pair[0].player))


def _match_by_bands(
    entries: Sequence[Entry],
    now: float,
    settings: PairingSettings,
    allowed: EdgeRule,
) -> list[list[Entry]]:
    """``_match`` over bands of at most ``BAND`` entries adjacent in rating, then over those
    left unpaired (a pair the bands' edges cut apart)."""
    if len(entries) <= BAND:
        return _match(entries, now, settings, allowed)
    ordered = sorted(entries, key=lambda entry: (entry.rating, entry.joined, entry.player))
    pairs: list[list[Entry]] = []
    for start in range(0, len(ordered), BAND):
        pairs += _match(ordered[start : start + BAND], now, settings, allowed)
    paired = {entry.player for pair in pairs for entry in pair}
    left = [entry for entry in entries if entry.player not in paired]
    return pairs + _match(left, now, settings, allowed)


def _match(
    entries: Sequence[Entry],
    now: float,
    settings: PairingSettings,
    allowed: EdgeRule,
) -> list[list[Entry]]:
    graph = nx.Graph()
    graph.add_nodes_from(range(len(entries)))
    for (i, a), (j, b) in combinations(enumerate(entries), 2):
        if allowed(a, b) and compatible(a, b, now, settings):
            difference = round(abs(a.rating - b.rating) * 1000)
            graph.add_edge(i, j, weight=WEIGHT_CEILING - difference)
    matching: set[tuple[int, int]] = nx.max_weight_matching(graph, maxcardinality=True)
    return [[entries[i], entries[j]] for i, j in (sorted(pair) for pair in matching)]


def _fill(
    entries: Sequence[Entry], seats: int, now: float, settings: PairingSettings
) -> list[list[Entry]]:
    """Groups of ``seats``: the longest waiting entry still free takes, nearest rating first
    (then longest waiting), the entries within range of everyone already in its group, first
    only those who did not sit with any of them last, then, if the group is not full, anyone;
    an entry that cannot fill a group keeps waiting and the next one tries."""
    free = list(entries)
    groups: list[list[Entry]] = []
    for anchor in entries:
        if anchor not in free:
            continue
        others = sorted(
            (entry for entry in free if entry is not anchor),
            key=lambda entry: (abs(entry.rating - anchor.rating), entry.joined, entry.player),
        )
        group = _grow([anchor], others, seats, now, settings, avoid_repeats=True)
        if len(group) < seats:
            group = _grow([anchor], others, seats, now, settings, avoid_repeats=False)
        if len(group) == seats:
            groups.append(group)
            free = [entry for entry in free if entry not in group]
    return groups


def _grow(
    group: list[Entry],
    candidates: Sequence[Entry],
    seats: int,
    now: float,
    settings: PairingSettings,
    *,
    avoid_repeats: bool,
) -> list[Entry]:
    group = list(group)
    for candidate in candidates:
        if len(group) == seats:
            break
        if all(
            compatible(candidate, member, now, settings)
            and not (avoid_repeats and repeats(candidate, member))
            for member in group
        ):
            group.append(candidate)
    return group
