"""Game points for a finished deal (RULES.md section 2, points 10 and 11).

``judge`` turns "who won and how" into a :class:`DealResult`, applying the closing-time freeze,
the failed-close and wrong-claim penalties and the ``schwarz`` rule.
"""

from __future__ import annotations

from .rules import Rules
from .state import DealResult, State, Termination

GOING_OUT = 66
"""The score that wins a deal."""

HALF = 33
"""A loser under this many points ("not out of the water") gives the winner 2."""


def counted_score(rules: Rules, card_points: int, marriages: int) -> int:
    """The loser's points as counted against 33 (marriages per ``loser_counts_marriages``)."""
    return card_points + (marriages if rules.loser_counts_marriages else 0)


def deal_value(rules: Rules, loser_points: int, loser_tricks: int) -> int:
    """1, 2 or 3 game points for beating a loser with these points and tricks."""
    schwarz = loser_tricks == 0 if rules.schwarz == "no_tricks" else loser_points == 0
    if schwarz:
        return 3
    return 2 if loser_points < HALF else 1


def judge(state: State, winner: int, termination: Termination, actor: int | None) -> DealResult:
    """The result of the deal in ``state``, won by ``winner`` as ``termination`` says.

    ``actor`` is the claimer for claims (``winner`` may then be the claimer's opponent). The
    closer's own fate overrides the plain outcome: a closer who goes out scores against the
    loser's points and tricks frozen at closing time; a closer who does not is penalised by
    ``close_fail``.
    """
    n = state.seats
    awarded = [0] * n
    closer = state.closed_by
    if termination is Termination.RESIGN:
        pass
    elif closer is not None:
        if termination is Termination.WRONG_CLAIM and actor != closer:
            _wrong_claim(state, actor if actor is not None else winner, awarded)
        elif winner == closer and termination is not Termination.WRONG_CLAIM:
            went_out = state.score(closer) >= GOING_OUT
            if termination is not Termination.LAST_TRICK or went_out:
                termination = Termination.CLOSED
                _award_frozen(state, closer, awarded)
            else:
                termination = Termination.CLOSE_FAILED
                winner = _close_failed(state, closer, awarded)
        else:
            termination = Termination.CLOSE_FAILED
            winner = _close_failed(state, closer, awarded)
    elif termination is Termination.WRONG_CLAIM:
        _wrong_claim(state, actor if actor is not None else winner, awarded)
    elif termination is Termination.LAST_TRICK and state.score(winner) < GOING_OUT:
        awarded[winner] = 1
    else:
        awarded[winner] = _value_now(state, state.opponents(winner)[0])
    return DealResult(
        deal_no=state.deal_no,
        dealer=state.dealer,
        trump=state.trump,
        seed=state.deal_seed,
        commitment=state.commitment,
        winner=winner,
        termination=termination,
        card_points=state.card_points,
        scores=tuple(state.score(s) for s in range(n)),
        tricks=state.tricks_won,
        game_points=tuple(awarded),
        closed_by=closer,
    )


def _award_frozen(state: State, closer: int, awarded: list[int]) -> None:
    awarded[closer] = _value_frozen(state, state.opponents(closer)[0])


def _close_failed(state: State, closer: int, awarded: list[int]) -> int:
    """Apply the ``close_fail`` penalty; return the deal's winner (the closer's opponent)."""
    assert state.frozen is not None
    rules = state.rules
    opponent = state.opponents(closer)[0]
    if rules.close_fail == "opponent_2_or_3":
        awarded[opponent] = 3 if state.frozen[opponent][2] == 0 else 2
    elif rules.close_fail == "closer_minus_3":
        awarded[closer] = -3
    else:
        awarded[opponent] = max(2, _value_frozen(state, opponent))
    return opponent


def _wrong_claim(state: State, claimer: int, awarded: list[int]) -> None:
    rules = state.rules
    opponent = state.opponents(claimer)[0]
    if rules.wrong_claim == "opponent_2_or_3":
        awarded[opponent] = 3 if state.tricks_won[opponent] == 0 else 2
    else:
        awarded[opponent] = _value_now(state, opponent)


def _value_now(state: State, loser: int) -> int:
    """What beating ``loser`` is worth with the points and tricks it has now."""
    points = counted_score(
        state.rules, state.card_points[loser] + state.bonus[loser], state.marriage_points[loser]
    )
    return deal_value(state.rules, points, state.tricks_won[loser])


def _value_frozen(state: State, loser: int) -> int:
    """What beating ``loser`` is worth with the points and tricks it had when the stock closed."""
    assert state.frozen is not None
    card_points, marriages, tricks = state.frozen[loser]
    return deal_value(state.rules, counted_score(state.rules, card_points, marriages), tricks)
