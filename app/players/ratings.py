"""Ratings: the model, and each match's rating step (the families and the computer players'
published ratings are ``players.families``).

The arithmetic is openskill's (Weng-Lin, Plackett-Luce model), which rates two players,
free-for-all tables (three-hand) and partnerships (four-hand) alike: a match is a list of
sides (a side is one player, or the partners of a partnership, as the engine counts sides)
and each side's place. The
parameters are openskill's defaults scaled by 60, so a new player starts at 1500 with a
deviation of 500 (see docs/ratings.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce
from sqlalchemy import Connection

from app.common.faults import crash_point
from app.common.rules import stored_rules
from app.engine import Rules
from app.players.families import family_of
from app.store import ratings as rating_store

SCALE = 60.0
MU = 25.0 * SCALE  # 1500
SIGMA = MU / 3  # 500
BETA = SIGMA / 2  # 250
TAU = MU / 300  # 5
MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)

PROVISIONAL_SIGMA = 300.0
"""A rating whose deviation is above this is provisional (about the first 20 rated matches)."""


@dataclass(frozen=True)
class Skill:
    """A rating: ``mu`` is the estimate shown, ``sigma`` its deviation."""

    mu: float = MU
    sigma: float = SIGMA

    @property
    def provisional(self) -> bool:
        """True while the deviation is too high to rank the player."""
        return self.sigma > PROVISIONAL_SIGMA


def rate(sides: Sequence[Sequence[Skill]], places: Sequence[int]) -> list[list[Skill]]:
    """The new skills of every side's players after one match; ``places[i]`` is side ``i``'s
    place (0 for the winners; equal places tie)."""
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma) for s in side] for side in sides]
    new = MODEL.rate(teams, ranks=[float(p) for p in places])
    return [[Skill(r.mu, r.sigma) for r in side] for side in new]


def sides_of(rules: Rules) -> list[list[int]]:
    """The seats of each side, in the engine's order of sides: with ``partners`` seats 0 and 2
    against 1 and 3, else every seat alone (three-hand, and four players each for himself)."""
    if rules.partners:
        return [[side, side + 2] for side in range(rules.sides)]
    return [[seat] for seat in range(rules.players)]


def places(winner: int | None, game_points: Sequence[int]) -> list[int]:
    """Each side's place at the end of a match, from the engine's result (both per side):
    the winning side first, the others by their game points (more is better; equal points
    tie)."""
    keys = [(0 if side == winner else 1, -points) for side, points in enumerate(game_points)]
    ordered = sorted(set(keys))
    return [ordered.index(key) for key in keys]


def rating_step(
    match_id: int, variant: str, seats: int, winner: int | None, game_points: Sequence[int]
) -> Callable[[Connection], None]:
    """The rating update of a finished match, to run inside the transaction that stores its
    result (``Write.extras``). ``winner`` and ``game_points`` are the engine's, per side (a
    side is a seat, or a partnership); the sides are those of the rules the match was stored
    with. It rates only a rated match, and only once: the match's ``rating_applied`` marker
    is set in that same transaction (``claim_rating``)."""
    family = family_of(variant, seats)
    order = places(winner, game_points)

    def step(connection: Connection) -> None:
        crash_point("before_rating")
        if not rating_store.claim_rating(connection, match_id):
            return
        sides = sides_of(stored_rules(variant, rating_store.match_options(connection, match_id)))
        if len(sides) != len(order):
            raise ValueError(f"{len(order)} game point totals for {len(sides)} sides")
        players = rating_store.match_players(connection, match_id)
        found = rating_store.current_ratings(connection, family, players.values())
        skills = [[Skill(*found.get(players[s], (MU, SIGMA))) for s in side] for side in sides]
        new = rate(skills, order)
        changes = [
            rating_store.Change(players[seat], old.mu, old.sigma, now.mu, now.sigma)
            for side, olds, news in zip(sides, skills, new, strict=True)
            for seat, old, now in zip(side, olds, news, strict=True)
        ]
        rating_store.save_ratings(connection, match_id, family, changes, set(found))
        crash_point("after_rating")

    return step
