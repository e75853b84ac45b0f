"""Pairing one round of a Swiss event.

Scores are on the 1 / 0.5 / 0 scale (see ``standings``). Each round is one maximum-weight
matching (networkx's ``max_weight_matching`` with ``maxcardinality=True``) over the entrants
still in the event, plus a virtual ``BYE`` entrant when their number is odd:

* entrants who have met share no edge, so no pair meets twice;
* an edge between entrants ``a`` and ``b`` weighs ``SCORE_STEP * (D - d*d) + r``, where ``d`` is
  their score difference in half points, ``D = (dmax + 1) ** 2`` with ``dmax`` the largest
  difference in the round (so every weight is positive), and ``r = 999 - min(999, |rating
  difference|)``;
* ``SCORE_STEP = 1000 * (pairs + 1)`` exceeds the sum of every ``r`` a round can hold, so the
  matching first minimises the sum of squared score differences (equal scores first, then near
  ones: one pair two half points apart costs more than two pairs one half point apart) and only
  then prefers near ratings;
* the ``BYE`` entrant links only to the entrants with the fewest byes so far (at the start:
  those without one), with ``d`` the entrant's distance in half points above the lowest score
  in the round and ``r = 999 - min(999, rating - lowest rating)``, so the bye goes to the lowest
  score group, to its lowest rated member, unless that would force worse floats elsewhere.

Largest size comes first: a round leaves out only entrants who cannot be paired without a
repeat (``SwissRound.unpaired``; possible only when the event runs about as many rounds as it
has entrants, which the service must not allow).

Four-hand events enter each fixed partnership as one ``Entrant`` (its id names the team), so the
same function pairs teams.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ._matching import max_weight_pairs

BYE = "\x00bye"
"""The virtual entrant the odd player out is paired with (never a real id)."""

RATING_SPAN = 999
"""The rating term of a weight: ``RATING_SPAN - min(RATING_SPAN, |rating difference|)``."""


@dataclass(frozen=True)
class Entrant:
    """One entrant of a Swiss event: a player, or a team of two in a four-hand event."""

    id: str
    score: float = 0.0
    rating: float = 1500.0
    met: frozenset[str] = frozenset()
    byes: int = 0
    withdrawn: bool = False
    computer: bool = False
    members: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class SwissOptions:
    """How a Swiss event scores.

    ``bye_points`` is what a pairing-allocated bye scores. The default is a win's point, as the
    FIDE Dutch system and lichess's Swiss do: in Sixty-Six there are no draws, so the odd player
    out (who would most likely have won against the lowest group) is not pushed below the
    players it would have met. Set it to ``0.5`` for the more cautious half point.
    """

    bye_points: float = 1.0


@dataclass(frozen=True)
class SwissRound:
    """A round's pairings (each pair in id order, the list sorted), its bye, and anyone who
    could not be paired without a repeat."""

    pairings: tuple[tuple[str, str], ...]
    bye: str | None
    unpaired: tuple[str, ...] = ()


def half_points(score: float) -> int:
    """A score in half points (scores are multiples of 0.5)."""
    return round(score * 2)


def pair_swiss_round(entrants: Iterable[Entrant]) -> SwissRound:
    """Pair one round: the entrants not withdrawn, by the weights in the module's docstring.

    >>> r = pair_swiss_round([Entrant("a", 1), Entrant("b", 1), Entrant("c", 0)])
    >>> r.pairings, r.bye
    ((('a', 'b'),), 'c')
    """
    active = sorted((e for e in entrants if not e.withdrawn), key=lambda e: e.id)
    if len(active) < 2:
        return SwissRound((), active[0].id if active else None)
    odd = len(active) % 2 == 1
    edges = _edges(active, with_bye=odd)
    matched = max_weight_pairs([e.id for e in active] + ([BYE] if odd else []), edges)
    pairings: list[tuple[str, str]] = []
    bye: str | None = None
    for a, b in matched:
        if BYE in (a, b):
            bye = b if a == BYE else a
        else:
            pairings.append((a, b))
    seated = {x for pair in matched for x in pair}
    unpaired = tuple(e.id for e in active if e.id not in seated)
    return SwissRound(tuple(sorted(pairings)), bye, unpaired)


def _edges(active: Sequence[Entrant], *, with_bye: bool) -> list[tuple[str, str, int]]:
    lowest = min(half_points(e.score) for e in active)
    highest = max(half_points(e.score) for e in active)
    dmax = highest - lowest
    top = (dmax + 1) ** 2
    step = (RATING_SPAN + 1) * (len(active) // 2 + 2)

    def weight(d: int, rating_gap: float) -> int:
        return step * (top - d * d) + RATING_SPAN - min(RATING_SPAN, round(abs(rating_gap)))

    edges: list[tuple[str, str, int]] = []
    for i, a in enumerate(active):
        for b in active[i + 1 :]:
            if b.id in a.met or a.id in b.met:
                continue
            d = abs(half_points(a.score) - half_points(b.score))
            edges.append((a.id, b.id, weight(d, a.rating - b.rating)))
    if with_bye:
        fewest = min(e.byes for e in active)
        low_rating = min(e.rating for e in active)
        for e in active:
            if e.byes == fewest:
                d = half_points(e.score) - lowest
                edges.append((e.id, BYE, weight(d, e.rating - low_rating)))
    return edges
