"""A profile's statistics from finished matches: deals, game points, schwarz wins, closes and
resignations, counted from the seat the player held."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from app.players.profiles import Statistics


def deal(winner: int, tricks: list[int], points: list[int], **extra: Any) -> dict[str, Any]:
    return {
        "winner": winner,
        "tricks": tricks,
        "game_points": points,
        "termination": "reached_66",
        **extra,
    }


def match(variant: str, winner: int, deals: list[dict[str, Any]]) -> Any:
    return SimpleNamespace(variant=variant, winner=winner, deals=deals)


def test_statistics_count_deals_schwarz_closes_and_resignations_from_the_players_seat() -> None:
    stats = Statistics()
    stats.count(
        match(
            "sixty-six",
            1,
            [
                deal(1, [0, 5], [0, 3]),  # seat 1 wins schwarz
                deal(1, [2, 4], [0, 2], closed_by=1, termination="closed"),  # a close made
                deal(0, [3, 3], [2, 0], closed_by=1, termination="close_failed"),  # one failed
                deal(1, [1, 4], [0, 2]),
            ],
        ),
        seat=1,
    )
    stats.count(
        match(
            "schnapsen", 0, [deal(0, [3, 2], [1, 0]), deal(0, [0, 0], [3, 0], termination="resign")]
        ),
        seat=1,
    )
    stats.count(match("sixty-six", 0, [deal(0, [4, 1], [1, 0])]), seat=0)
    shown = stats.to_json()
    assert (shown["matches"], shown["won"], shown["lost"], shown["abandoned"]) == (3, 2, 1, 1)
    assert (shown["deals"], shown["deals_won"]) == (6, 4)  # the resigned deal is not a deal played
    assert shown["game_points_per_deal"] == round((3 + 2 + 0 + 2 + 0 + 1) / 6, 2)
    assert shown["schwarz_wins"] == 1
    assert (shown["closes_made"], shown["closes_failed"]) == (1, 1)
    assert shown["favourite_game"] == "sixty-six"


def test_no_match_gives_empty_statistics() -> None:
    shown = Statistics().to_json()
    assert shown["matches"] == 0 and shown["game_points_per_deal"] is None
    assert shown["favourite_game"] is None
