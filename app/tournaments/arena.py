"""Arena events: pairing whoever is free, and scoring with the streak rule.

Pairing: each wave pairs the players free at that moment by one maximum-weight matching
(networkx's ``max_weight_matching``, ``maxcardinality=True``, so as many games as possible
start). Players are ranked by score, then rating, and matched ``block`` (48) at a time from
the top, whoever a block leaves unpaired joining the next; within a block each links to the
``window`` (12) players below it in the ranking (small sparse graphs keep a wave of hundreds
fast: see ``benchmarks/arena_pairing.py``). An edge weighs
``REMATCH_STEP * fresh + SCORE_STEP * (D - d*d) + r`` where ``fresh`` is 0 for two players who
just played each other and 1 otherwise, ``d`` is their score difference, ``D = (dmax + 1) ** 2``
and ``r = 999 - min(999, |rating difference|)``. The steps make the sum lexicographic: first
the fewest immediate rematches (a rematch happens only when it adds a game that no other
pairing would, i.e. when nobody else in its block is free for them), then the smallest squared score
differences, then the nearest ratings.

Scoring (lichess's arena): a win scores 2, a loss 0. With the streak rule (on by default), a
player who has won its last two games is on fire: each further win scores 4 until it loses.
A game paired before the end of the event counts whenever it finishes (``counts``); no game is
paired at or after the end (``may_pair``). A win by forfeit is a win; a forfeit loss is a loss,
and two forfeits in a row withdraw the player (``forfeits.withdraws``).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, replace

from ._matching import max_weight_pairs
from .forfeits import withdraws

RATING_SPAN = 999
WIN_POINTS = 2
STREAK_WINS = 2
"""Wins in a row after which further wins score double."""


@dataclass(frozen=True)
class ArenaPlayer:
    """A player free to be paired now."""

    id: str
    score: int = 0
    rating: float = 1500.0
    last_opponent: str | None = None


class ArenaOutcome(enum.Enum):
    """A finished arena game from one player's side."""

    WIN = "win"
    LOSS = "loss"
    FORFEIT_WIN = "forfeit_win"
    """The opponent forfeited (gone when paired, or its clock ran out)."""
    FORFEIT_LOSS = "forfeit_loss"
    """This player forfeited."""


@dataclass(frozen=True)
class ArenaRecord:
    """A player's running arena record."""

    score: int = 0
    wins_in_a_row: int = 0
    forfeits_in_a_row: int = 0
    withdrawn: bool = False

    @property
    def on_fire(self) -> bool:
        """Whether its next win scores double (only with the streak rule)."""
        return self.wins_in_a_row >= STREAK_WINS


def record_arena_result(
    record: ArenaRecord, outcome: ArenaOutcome, *, streak: bool = True
) -> tuple[ArenaRecord, int]:
    """The record after one more game, and the points that game scored.

    >>> r, scored = ArenaRecord(), []
    >>> for o in ["win", "win", "win", "loss", "win"]:
    ...     r, points = record_arena_result(r, ArenaOutcome(o))
    ...     scored.append(points)
    >>> scored, r.score
    ([2, 2, 4, 0, 2], 10)
    """
    if outcome in (ArenaOutcome.WIN, ArenaOutcome.FORFEIT_WIN):
        points = WIN_POINTS * (2 if streak and record.on_fire else 1)
        return replace(
            record,
            score=record.score + points,
            wins_in_a_row=record.wins_in_a_row + 1,
            forfeits_in_a_row=0,
        ), points
    forfeits = record.forfeits_in_a_row + 1 if outcome is ArenaOutcome.FORFEIT_LOSS else 0
    return replace(
        record,
        wins_in_a_row=0,
        forfeits_in_a_row=forfeits,
        withdrawn=record.withdrawn or withdraws(forfeits),
    ), 0


def may_pair(now: float, ends_at: float) -> bool:
    """Whether a new game may be paired at ``now`` (seconds, any clock the service uses)."""
    return now < ends_at


def counts(paired_at: float, ends_at: float) -> bool:
    """Whether a game counts: any game paired before the end, however late it finishes."""
    return paired_at < ends_at


def pair_arena(
    free: Iterable[ArenaPlayer], *, window: int = 12, block: int = 48
) -> list[tuple[str, str]]:
    """Pair the players free now; each pair in id order, the list sorted.

    The ranking is matched ``block`` players at a time from the top; whoever a block leaves
    unpaired joins the next block. A wave of hundreds thus costs a few small matchings.

    >>> pair_arena([ArenaPlayer("a", 4, last_opponent="b"), ArenaPlayer("b", 4),
    ...             ArenaPlayer("c", 0)])
    [('a', 'c')]
    """
    players = sorted(free, key=lambda p: (-p.score, -p.rating, p.id))
    pairs: list[tuple[str, str]] = []
    carried: list[ArenaPlayer] = []
    for start in range(0, len(players), block):
        group = carried + players[start : start + block]
        if start + block < len(players) and len(group) % 2 == 1:
            carried, group = group[-1:], group[:-1]
        else:
            carried = []
        matched = _pair_block(group, window)
        seated = {x for pair in matched for x in pair}
        carried = [p for p in group if p.id not in seated] + carried
        pairs.extend(matched)
    return sorted(pairs)


def _pair_block(players: list[ArenaPlayer], window: int) -> list[tuple[str, str]]:
    if len(players) < 2:
        return []
    dmax = players[0].score - min(p.score for p in players)
    top = (dmax + 1) ** 2
    score_step = (RATING_SPAN + 1) * (len(players) // 2 + 1)
    rematch_step = score_step * (top + 1) * (len(players) // 2 + 1)
    edges: list[tuple[str, str, int]] = []
    for i, a in enumerate(players):
        for b in players[i + 1 : i + 1 + window]:
            fresh = a.last_opponent != b.id and b.last_opponent != a.id
            d = a.score - b.score
            rating = RATING_SPAN - min(RATING_SPAN, round(abs(a.rating - b.rating)))
            edges.append((a.id, b.id, rematch_step * fresh + score_step * (top - d * d) + rating))
    return max_weight_pairs([p.id for p in players], edges)
