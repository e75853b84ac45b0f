"""Profiles and the leaderboard: ratings with their trend, and statistics drawn from the
stored matches (every figure comes from the public record of finished matches)."""

from __future__ import annotations

import base64
import binascii
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.ext.asyncio import async_sessionmaker

from app.common.errors import Invalid, NotFound
from app.history.service import match_json
from app.players.bot_players import bot_level, bot_name
from app.players.families import BOT_RATINGS, FAMILIES, TWO_PLAYER_FAMILIES
from app.players.ratings import Skill
from app.store import Match, Player, Rating
from app.store import analyses as analysis_store
from app.store import matches as match_store
from app.store import players as player_store
from app.store import ratings as rating_store
from app.store.db import AsyncSession

TREND = 10  # rating changes shown per family
RECENT = 10  # recent matches on a profile


@dataclass
class Statistics:
    """A player's figures over its finished matches."""

    matches: int = 0
    won: int = 0
    lost: int = 0
    abandoned: int = 0  # lost by resigning
    deals: int = 0
    deals_won: int = 0
    game_points: int = 0
    schwarz_wins: int = 0
    closes_made: int = 0
    closes_failed: int = 0
    marriages: int = 0
    games: Counter[str] = field(default_factory=Counter)

    def count(self, match: Match, seat: int) -> None:
        """Add one finished match the player played in ``seat``."""
        self.matches += 1
        self.games[match.variant] += 1
        if match.winner == seat:
            self.won += 1
        else:
            self.lost += 1
            last = match.deals[-1] if match.deals else {}
            if last.get("termination") == "resign":
                self.abandoned += 1
        for deal in match.deals:
            self._deal(deal, seat)

    def _deal(self, deal: dict[str, Any], seat: int) -> None:
        if deal.get("termination") == "resign":
            return  # a resignation is no deal played out
        self.deals += 1
        self.game_points += deal["game_points"][seat]
        won = deal["winner"] == seat
        self.deals_won += won
        others = [t for s, t in enumerate(deal["tricks"]) if s != seat]
        if won and others and not any(others):
            self.schwarz_wins += 1
        if deal.get("closed_by") == seat:
            if won:
                self.closes_made += 1
            else:
                self.closes_failed += 1

    def to_json(self) -> dict[str, Any]:
        """The figures as a profile shows them."""
        favourite = self.games.most_common(1)[0][0] if self.games else None
        per_deal = round(self.game_points / self.deals, 2) if self.deals else None
        return {
            "matches": self.matches,
            "won": self.won,
            "lost": self.lost,
            "abandoned": self.abandoned,
            "deals": self.deals,
            "deals_won": self.deals_won,
            "game_points_per_deal": per_deal,
            "schwarz_wins": self.schwarz_wins,
            "closes_made": self.closes_made,
            "closes_failed": self.closes_failed,
            "marriages": self.marriages,
            "favourite_game": favourite,
        }


def rating_json(rating: Rating | Skill, matches: int) -> dict[str, Any]:
    """A rating as shown: the estimate and its deviation rounded, and whether provisional."""
    skill = Skill(rating.mu, rating.sigma)
    return {
        "rating": round(skill.mu),
        "deviation": round(skill.sigma),
        "provisional": skill.provisional,
        "matches": matches,
    }


def encode_cursor(mu: float, player_id: str) -> str:
    """The opaque cursor of a leaderboard row."""
    return base64.urlsafe_b64encode(f"{mu!r}|{player_id}".encode()).decode()


def decode_cursor(cursor: str) -> tuple[float, str]:
    """A cursor back to ``(mu, player_id)``; ``Invalid`` ``bad_cursor`` otherwise."""
    try:
        mu, player_id = base64.urlsafe_b64decode(cursor.encode()).decode().split("|", 1)
        return float(mu), player_id
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise Invalid("bad_cursor", "after: not a cursor this leaderboard gave.") from None


class ProfileService:
    """Read-only: profiles and the leaderboard."""

    def __init__(
        self, sessions: async_sessionmaker[AsyncSession], min_matches: int, page_max: int
    ) -> None:
        self.sessions = sessions
        self.min_matches = min_matches
        self.page_max = page_max

    async def profile(self, player_id: str) -> dict[str, Any]:
        """A player's public profile; a computer player's shows its fixed published rating."""
        level = bot_level(player_id)
        async with self.sessions() as session:
            player = await player_store.get_player(session, player_id)
            if player is None:
                raise NotFound("player_not_found", "There is no such player.")
            if level is not None:
                return self._computer(player, level)
            ratings = await self._ratings(session, player)
            stats = await self._statistics(session, player_id)
            recent = await match_store.list_matches(session, player_id=player_id, limit=RECENT)
            seats = await match_store.seats_of_matches(session, [m.id for m in recent])
            analyses = await analysis_store.statuses(session, [m.id for m in recent])
        return {
            **self._identity(player),
            "computer": None,
            "ratings": ratings,
            "statistics": stats,
            "recent": [match_json(m, seats[m.id], analyses.get(m.id)) for m in recent],
        }

    async def require(self, player_id: str) -> None:
        """``NotFound`` unless the player exists."""
        async with self.sessions() as session:
            if await player_store.get_player(session, player_id) is None:
                raise NotFound("player_not_found", "There is no such player.")

    async def leaderboard(self, game: str, after: str | None, limit: int) -> dict[str, Any]:
        """A page of the best-rated players of a family (or of a two-player variant's)."""
        family = TWO_PLAYER_FAMILIES.get(game, game)
        if family not in FAMILIES:
            known = ", ".join(FAMILIES)
            raise Invalid("unknown_game", f"game must be a rating family ({known}).")
        if not 1 <= limit <= self.page_max:
            raise Invalid("bad_limit", f"limit must be between 1 and {self.page_max}.")
        start = decode_cursor(after) if after else None
        async with self.sessions() as session:
            rows = await rating_store.leaderboard(
                session, family, self.min_matches, start, limit + 1
            )
            page = rows[:limit]
            above = (
                await rating_store.rank_of(session, family, self.min_matches, page[0][0].mu) - 1
                if page
                else 0
            )
        entries = []
        for rating, player in page:
            # Competition ranking: one more than the players rated higher (ties share a rank).
            higher = above + sum(1 for other, _ in page if other.mu > rating.mu)
            entries.append(
                {
                    "rank": higher + 1,
                    **self._identity(player),
                    **rating_json(rating, rating.matches),
                }
            )
        last = page[-1][0] if page else None
        return {
            "game": family,
            "min_matches": self.min_matches,
            "players": entries,
            "next": encode_cursor(last.mu, last.player_id) if last and len(rows) > limit else None,
        }

    @staticmethod
    def _identity(player: Player) -> dict[str, Any]:
        return {
            "id": player.id,
            "name": player.name,
            "handle": player.handle,
            "deleted": player.deleted_at is not None,
        }

    def _computer(self, player: Player, level: str) -> dict[str, Any]:
        fixed = {"rating": BOT_RATINGS[level], "family": "sixty-six", "fixed": True}
        return {
            **self._identity(player),
            "name": bot_name(level),
            "computer": {"level": level, **fixed},
            "ratings": [],
            "statistics": Statistics().to_json(),
            "recent": [],
        }

    async def _ratings(self, session: AsyncSession, player: Player) -> list[dict[str, Any]]:
        shown = []
        for rating in await rating_store.ratings_of(session, player.id):
            changes = await rating_store.recent_changes(session, player.id, rating.family, TREND)
            shown.append(
                {
                    "family": rating.family,
                    **rating_json(rating, rating.matches),
                    "trend": [
                        {"match_id": c.match_id, "rating": round(c.mu_after)}
                        for c in reversed(changes)
                    ],
                    "last_change": round(changes[0].mu_after - changes[0].mu_before)
                    if changes
                    else None,
                }
            )
        return shown

    @staticmethod
    async def _statistics(session: AsyncSession, player_id: str) -> dict[str, Any]:
        stats = Statistics()
        for match, seat in await match_store.finished_seats_of(session, player_id):
            stats.count(match, seat)
        stats.marriages = await match_store.marriages_declared(session, player_id)
        return stats.to_json()
