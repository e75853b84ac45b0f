"""Rating updates checked against openskill's own numbers: three-hand free-for-all and four-hand
partnership matches (and German with four players, alone or paired), from hand-written results
and from whole matches played by the engine, rated through the same step that runs in a
result's transaction, once only."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from typing import Any

import pytest
from openskill.models import PlackettLuce
from sqlalchemy import insert, select, update

from app.engine import Rules, State, apply, legal_actions, new_match, preset
from app.players.families import family_of
from app.players.ratings import Skill, places, rate, rating_step, sides_of
from app.store import Match, MatchSeat, Player, Rating, RatingChange, Table
from app.store.db import create_engine

# openskill's defaults, scaled by 60 as docs/ratings.md says; built here, not imported.
LIBRARY = PlackettLuce(mu=1500.0, sigma=500.0, beta=250.0, tau=5.0)
MOVES = 2_000


@pytest.fixture
async def engine(database_url: str) -> AsyncIterator[Any]:
    built = create_engine(database_url)
    yield built
    await built.dispose()


async def stored_match(
    engine: Any, variant: str, seats: int, rated: bool = True, options: dict[str, Any] | None = None
) -> int:
    """A live match of ``seats`` accounts p0.. (created as needed) in the store, with these
    house-rule options."""
    async with engine.begin() as connection:
        for seat in range(seats):
            exists = await connection.scalar(select(Player.id).where(Player.id == f"p{seat}"))
            if exists is None:
                await connection.execute(
                    insert(Player).values(
                        id=f"p{seat}", name=f"P{seat}", handle=f"p{seat}x", password_hash="x"
                    )
                )
        if await connection.scalar(select(Table.id).where(Table.id == "t")) is None:
            await connection.execute(
                insert(Table).values(
                    id="t",
                    invite_code="c",
                    variant=variant,
                    options={},
                    visibility="public",
                    status="live",
                    seats=seats,
                    created_by="p0",
                )
            )
        match_id = (
            await connection.execute(
                insert(Match)
                .values(
                    table_id="t",
                    variant=variant,
                    rules=options or {},
                    seed="s",
                    status="live",
                    base_version=0,
                    game_points=[],
                    deals=[],
                    rated=rated,
                )
                .returning(Match.id)
            )
        ).scalar_one()
        for seat in range(seats):
            await connection.execute(
                insert(MatchSeat).values(match_id=match_id, seat=seat, player_id=f"p{seat}")
            )
    return int(match_id)


async def finish(engine: Any, match_id: int, step: Any) -> None:
    """Run a rating step in its own transaction, as the group commit runs it."""
    async with engine.begin() as connection:
        await connection.execute(update(Match).where(Match.id == match_id).values(status="x"))
        await connection.run_sync(step)


async def ratings(engine: Any, family: str) -> dict[str, tuple[float, float, int]]:
    async with engine.connect() as connection:
        rows = await connection.execute(
            select(Rating.player_id, Rating.mu, Rating.sigma, Rating.matches).where(
                Rating.family == family
            )
        )
        return {pid: (mu, sigma, n) for pid, mu, sigma, n in rows}


def test_families_sides_and_places() -> None:
    assert family_of("sixty-six", 2) == "sixty-six"
    assert family_of("schnapsen", 2) == "schnapsen"
    assert family_of("german-32", 2) == "german"
    assert family_of("three-hand", 3) == "three-hand"
    assert family_of("four-hand", 4) == "four-hand"
    assert sides_of(preset("sixty-six")) == [[0], [1]]
    assert sides_of(preset("four-hand")) == [[0, 2], [1, 3]]
    assert sides_of(preset("three-hand")) == [[0], [1], [2]]
    assert sides_of(preset("german-48")) == [[0], [1], [2], [3]]  # each for himself
    assert sides_of(preset("german-48", partners=True)) == [[0, 2], [1, 3]]
    assert places(1, [3, 7]) == [1, 0]
    assert places(2, [5, 1, 7]) == [1, 2, 0]  # the winner, then by game points
    assert places(0, [7, 4, 4]) == [0, 1, 1]  # equal points tie
    assert places(1, [2, 7]) == [1, 0]  # partnerships: per side, as the engine counts


def test_the_model_is_openskills_with_the_documented_parameters() -> None:
    [[a], [b]] = LIBRARY.rate([[LIBRARY.rating()], [LIBRARY.rating()]], ranks=[0, 1])
    [[mine_a], [mine_b]] = rate([[Skill()], [Skill()]], [0, 1])
    assert (mine_a.mu, mine_a.sigma, mine_b.mu, mine_b.sigma) == (a.mu, a.sigma, b.mu, b.sigma)
    assert (Skill().mu, Skill().sigma, Skill().provisional) == (1500, 500, True)


async def test_a_three_hand_free_for_all_rates_as_openskill_says(engine: Any) -> None:
    first = await stored_match(engine, "three-hand", 3)
    await finish(engine, first, rating_step(first, "three-hand", 3, 1, [2, 7, 4]))
    second = await stored_match(engine, "three-hand", 3)
    await finish(engine, second, rating_step(second, "three-hand", 3, 0, [7, 1, 1]))

    expected = [[LIBRARY.rating()] for _ in range(3)]
    expected = LIBRARY.rate(expected, ranks=[2, 0, 1])  # p1 won, then p2 (4 points), p0
    expected = LIBRARY.rate(expected, ranks=[0, 1, 1])  # p0 won, p1 and p2 tie
    stored = await ratings(engine, "three-hand")
    for seat in range(3):
        mu, sigma, matches = stored[f"p{seat}"]
        assert mu == pytest.approx(expected[seat][0].mu, abs=1e-9)
        assert sigma == pytest.approx(expected[seat][0].sigma, abs=1e-9)
        assert matches == 2


async def test_a_four_hand_partnership_rates_as_openskill_says(engine: Any) -> None:
    match_id = await stored_match(engine, "four-hand", 4)
    # The engine's result is per side: side 1 (seats 1 and 3) won with 7 game points to 2.
    await finish(engine, match_id, rating_step(match_id, "four-hand", 4, 1, [2, 7]))
    start = LIBRARY.rating
    [[w1, w3], [l0, l2]] = LIBRARY.rate([[start(), start()], [start(), start()]], ranks=[0, 1])
    stored = await ratings(engine, "four-hand")
    for player_id, rating in (("p1", w1), ("p3", w3), ("p0", l0), ("p2", l2)):
        assert stored[player_id][:2] == pytest.approx((rating.mu, rating.sigma), abs=1e-9)
    assert stored["p1"][0] > 1500 > stored["p0"][0]


def played(rules: Rules, seed: str) -> State:
    """A whole match played to its end by the engine, every move a seeded random legal one
    (nobody resigns; a bid is the lowest one). Random play fails most four-hand bids, so a
    match that has not ended after ``MOVES`` moves is dropped for the next seed."""
    for attempt in range(100):
        state, rng = new_match(rules, f"{seed} {attempt}", None), random.Random(attempt)
        for _ in range(MOVES):
            moves = [a for a in legal_actions(state) if a.type != "resign"]
            bids = [a for a in moves if a.type == "bid"]
            if bids:
                moves = [
                    min(bids, key=lambda a: a.level or 0),
                    *(a for a in moves if a not in bids),
                ]
            state, _ = apply(state, rng.choice(moves))
            if state.match_over:
                return state
    raise AssertionError("no match ended")


@pytest.mark.parametrize(
    ("variant", "options"),
    [("three-hand", {}), ("four-hand", {}), ("german-48", {}), ("german-48", {"partners": True})],
)
async def test_a_match_played_by_the_engine_rates_as_openskill_says(
    engine: Any, variant: str, options: dict[str, Any]
) -> None:
    rules = preset(variant, **options)
    state = played(rules, f"rated {variant} {options}")
    match_id = await stored_match(engine, variant, rules.players, options=options)
    winner, points = state.match_winner, state.game_points
    step = rating_step(match_id, variant, rules.players, winner, points)
    await finish(engine, match_id, step)

    # openskill rates the engine's sides, ordered by its own reading of scores.
    sides = [state.members(side) for side in range(rules.sides)]
    scores = [p + (1000 if side == winner else 0) for side, p in enumerate(points)]
    teams = LIBRARY.rate([[LIBRARY.rating() for _ in seats] for seats in sides], scores=scores)
    family = "three-hand" if rules.players == 3 else "four-hand"
    stored = await ratings(engine, family)
    assert len(stored) == rules.players
    for seats, team in zip(sides, teams, strict=True):
        for seat, rating in zip(seats, team, strict=True):
            assert stored[f"p{seat}"] == pytest.approx((rating.mu, rating.sigma, 1), abs=1e-9)


async def test_a_match_rates_once_however_often_its_step_runs(engine: Any) -> None:
    match_id = await stored_match(engine, "sixty-six", 2)
    step = rating_step(match_id, "sixty-six", 2, 0, [7, 0])
    await finish(engine, match_id, step)
    once = await ratings(engine, "sixty-six")
    await finish(engine, match_id, step)
    assert await ratings(engine, "sixty-six") == once
    async with engine.connect() as connection:
        changes = (await connection.execute(select(RatingChange.player_id))).all()
    assert sorted(c[0] for c in changes) == ["p0", "p1"]


async def test_a_casual_match_never_rates(engine: Any) -> None:
    match_id = await stored_match(engine, "sixty-six", 2, rated=False)
    await finish(engine, match_id, rating_step(match_id, "sixty-six", 2, 0, [7, 0]))
    assert await ratings(engine, "sixty-six") == {}
