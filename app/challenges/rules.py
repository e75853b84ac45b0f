"""Who may do what with a challenge, and what state it is in: pure checks over a stored row.

A challenge is ``pending`` until it is ``accepted``, ``declined`` or ``cancelled``; a pending
one whose time (``expires_at``, seconds since the epoch) has passed is ``expired``: that is
decided from the stored time whenever the challenge is read, so no timer is needed.
"""

from __future__ import annotations

from app.common.errors import Conflict, Forbidden, Invalid
from app.store import Challenge

PENDING = "pending"
ACCEPTED = "accepted"
DECLINED = "declined"
CANCELLED = "cancelled"
EXPIRED = "expired"


def state(challenge: Challenge, now: float) -> str:
    """The challenge's state at ``now``: its stored status, or ``expired``."""
    if challenge.status == PENDING and challenge.expires_at <= now:
        return EXPIRED
    return challenge.status


def check_pending(challenge: Challenge, now: float) -> None:
    """Refuse to answer a challenge that is no longer waiting for an answer."""
    found = state(challenge, now)
    if found == EXPIRED:
        raise Conflict("challenge_expired", "This challenge has expired.")
    if found != PENDING:
        raise Conflict("challenge_not_pending", f"This challenge was already {found}.")


def check_target(challenger_id: str, target_id: str | None) -> None:
    """A player cannot challenge itself."""
    if target_id == challenger_id:
        raise Invalid("cannot_challenge_self", "You cannot challenge yourself.")


def may_see(challenge: Challenge, player_id: str) -> bool:
    """An open challenge is seen by anyone holding its id; a named one by its two players."""
    return challenge.challenged_id is None or player_id in (
        challenge.challenger_id,
        challenge.challenged_id,
    )


def check_acceptor(challenge: Challenge, player_id: str) -> None:
    """The challenged player accepts a named challenge; anyone but the challenger an open
    one."""
    if player_id == challenge.challenger_id or (
        challenge.challenged_id is not None and player_id != challenge.challenged_id
    ):
        raise _not_yours("accept")


def check_decliner(challenge: Challenge, player_id: str) -> None:
    """Only the challenged player declines (an open challenge is cancelled, not declined)."""
    if challenge.challenged_id is None or player_id != challenge.challenged_id:
        raise _not_yours("decline")


def check_canceller(challenge: Challenge, player_id: str) -> None:
    """Only the challenger cancels its challenge."""
    if player_id != challenge.challenger_id:
        raise _not_yours("cancel")


def check_seats(seats: int) -> None:
    """A challenge is for a game of two seats."""
    if seats != 2:
        raise Invalid("challenge_seats", "A challenge is for a game of two players.")


def check_rated(rated: bool, *accounts: bool) -> None:
    """A rated challenge needs an account on every side that is known."""
    if rated and not all(accounts):
        raise Invalid("rated_needs_accounts", "Only two accounts can play a rated game.")


def _not_yours(what: str) -> Forbidden:
    return Forbidden("not_your_challenge", f"This challenge is not yours to {what}.")
