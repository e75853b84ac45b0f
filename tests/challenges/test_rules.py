"""The pure checks of challenges: when a pending challenge has expired (by its stored time),
and who may accept, decline or cancel it."""

from __future__ import annotations

import pytest

from app.challenges import rules
from app.common.errors import ServiceError
from app.store import Challenge


def made(to: str | None = "bela", status: str = "pending", expires_at: float = 100.0) -> Challenge:
    return Challenge(
        id="c",
        challenger_id="anna",
        challenged_id=to,
        variant="sixty-six",
        options={},
        rated=False,
        status=status,
        expires_at=expires_at,
    )


def refused(check: object, *args: object) -> str:
    with pytest.raises(ServiceError) as caught:
        check(*args)  # type: ignore[operator]
    return caught.value.code


def test_a_pending_challenge_expires_at_its_stored_time() -> None:
    assert rules.state(made(), 99.9) == "pending"
    assert rules.state(made(), 100.0) == "expired"
    assert refused(rules.check_pending, made(), 100.0) == "challenge_expired"
    rules.check_pending(made(), 99.9)


def test_an_answered_challenge_stays_answered_after_its_time() -> None:
    for status in ("accepted", "declined", "cancelled"):
        assert rules.state(made(status=status), 500.0) == status
        assert refused(rules.check_pending, made(status=status), 0.0) == "challenge_not_pending"


def test_only_the_player_challenged_accepts_or_declines_a_named_challenge() -> None:
    rules.check_acceptor(made(), "bela")
    rules.check_decliner(made(), "bela")
    for other in ("anna", "carl"):
        assert refused(rules.check_acceptor, made(), other) == "not_your_challenge"
        assert refused(rules.check_decliner, made(), other) == "not_your_challenge"


def test_anyone_but_the_challenger_accepts_an_open_challenge() -> None:
    rules.check_acceptor(made(to=None), "carl")
    assert refused(rules.check_acceptor, made(to=None), "anna") == "not_your_challenge"
    assert refused(rules.check_decliner, made(to=None), "carl") == "not_your_challenge"
    assert rules.may_see(made(to=None), "carl")
    assert not rules.may_see(made(), "carl") and rules.may_see(made(), "anna")


def test_only_the_challenger_cancels() -> None:
    rules.check_canceller(made(), "anna")
    assert refused(rules.check_canceller, made(), "bela") == "not_your_challenge"


def test_a_challenge_is_for_two_and_rated_only_between_accounts() -> None:
    rules.check_seats(2)
    assert refused(rules.check_seats, 3) == "challenge_seats"
    assert refused(rules.check_target, "anna", "anna") == "cannot_challenge_self"
    rules.check_rated(True, True, True)
    rules.check_rated(False, False, True)
    assert refused(rules.check_rated, True, True, False) == "rated_needs_accounts"
