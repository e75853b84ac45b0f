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


def bid_target(level: int) -> int:
    """The points a four-hand bid of ``level`` needs: 33 a level; the Luna (5) needs 66."""
    return 33 * level if level < 5 else GOING_OUT


def bid_goal(rules: Rules, level: int) -> int | None:
    """What a bid of ``level`` must reach: card points (with credited marriages), or None
    for a Luna that must take every trick (``luna="every_trick"``)."""
    if level == 5 and rules.luna == "every_trick":
        return None
    return bid_target(level)


def judge(
    state: State, winner: int | None, termination: Termination, actor: int | None
) -> DealResult:
    """The result of the deal in ``state``, won by side ``winner`` as ``termination`` says.

    ``actor`` is the claimer for claims (``winner`` may then be another side). The closer's own
    fate overrides the plain outcome: a closer who goes out scores against the loser's points
    and tricks frozen at closing time; a closer who does not is penalised by ``close_fail``.
    Against two or more opponent sides the loser counted is the one ``game_points_from`` names.
    """
    awarded = [0] * state.sides
    played_out = False
    closer = state.closed_by
    closer_side = state.side_of(closer) if closer is not None else None
    claimer = state.side_of(actor) if actor is not None else None
    if termination is Termination.RESIGN or winner is None:
        pass
    elif closer_side is not None:
        if termination is Termination.WRONG_CLAIM and claimer != closer_side:
            _wrong_claim(state, winner, awarded)
        elif winner == closer_side and termination is not Termination.WRONG_CLAIM:
            went_out = state.side_score(closer_side) >= GOING_OUT
            if termination is not Termination.LAST_TRICK or went_out:
                termination = Termination.CLOSED
                awarded[closer_side] = _value_frozen(state, _loser(state, closer_side, True))
            else:
                termination = Termination.CLOSE_FAILED
                winner = _close_failed(state, closer_side, best_opponent(state, closer_side))
        else:
            if termination is Termination.LAST_TRICK:  # nobody went out
                winner = best_opponent(state, closer_side)
            termination = Termination.CLOSE_FAILED
            winner = _close_failed(state, closer_side, winner)
    elif termination is Termination.WRONG_CLAIM:
        _wrong_claim(state, winner, awarded)
    elif termination is Termination.LAST_TRICK and state.side_score(winner) < GOING_OUT:
        if state.rules.played_out == "redeal":
            termination, winner = Termination.VOID, None
        else:
            awarded[winner] = 1
            played_out = True
    else:
        awarded[winner] = _value_now(state, _loser(state, winner, False))
    if termination is Termination.CLOSE_FAILED:
        _penalise_close(state, closer_side, winner, awarded)
    return DealResult(
        state.deal_no,
        state.dealer,
        state.trump,
        state.deal_seed,
        state.commitment,
        winner,
        termination,
        state.card_points,
        tuple(state.score(s) for s in range(state.seats)),
        state.tricks_won,
        tuple(awarded),
        closer,
        played_out=played_out,
    )


def judge_bid(state: State, termination: Termination) -> DealResult:
    """The result of a four-hand deal (RULES.md section 3, four-hand bidding).

    The bidding side scores its level if made. A failed bid's level goes to the defenders
    (``failed_bid=defenders_gain``: no side ever loses game points, so every match ends) or is
    taken off the bidders (``bidders_lose``, seed 001's reading). With ``defenders_score`` the
    defenders also score one point per 33 they reached (at most 4).
    """
    awarded = [0, 0]
    winner: int | None = None
    if state.high_bid is not None and termination in (
        Termination.BID_MADE,
        Termination.BID_FAILED,
    ):
        bidder, level = state.high_bid
        side = bidder % 2
        made = termination is Termination.BID_MADE
        winner = side if made else 1 - side
        if made:
            awarded[side] = level
        elif state.rules.failed_bid == "bidders_lose":
            awarded[side] = -level
        else:
            awarded[1 - side] = level
        if state.rules.defenders_score:
            awarded[1 - side] += min(4, state.side_score(1 - side) // HALF)
    return _result(state, winner, termination, awarded, state.high_bid)


def _result(
    state: State,
    winner: int | None,
    termination: Termination,
    awarded: list[int],
    bid: tuple[int, int] | None = None,
) -> DealResult:
    return DealResult(
        deal_no=state.deal_no,
        dealer=state.dealer,
        trump=state.trump,
        seed=state.deal_seed,
        commitment=state.commitment,
        winner=winner,
        termination=termination,
        card_points=state.card_points,
        scores=tuple(state.score(s) for s in range(state.seats)),
        tricks=state.tricks_won,
        game_points=tuple(awarded),
        closed_by=state.closed_by,
        bid=bid,
    )


def best_opponent(state: State, side: int) -> int:
    """The other side with the highest score now (the first of equals, in seat order)."""
    others = [other for other in range(state.sides) if other != side]
    return max(others, key=state.side_score)


def _seat_counts(state: State, seat: int, frozen: bool) -> tuple[int, int, int]:
    """``seat``'s card points (with the bonus), credited marriages and tricks, now or at
    closing time."""
    if frozen:
        assert state.frozen is not None
        return state.frozen[seat]
    points = state.card_points[seat] + state.bonus[seat]
    return points, state.marriage_points[seat], state.tricks_won[seat]


def _counted(state: State, side: int, frozen: bool) -> tuple[int, int]:
    """``side``'s points as counted against 33, and its tricks, now or at closing time."""
    rules = state.rules
    if rules.partners:
        first, second = _seat_counts(state, side, frozen), _seat_counts(state, side + 2, frozen)
        points, married, won = (a + b for a, b in zip(first, second, strict=True))
    else:
        points, married, won = _seat_counts(state, side, frozen)
    return counted_score(rules, points, married), won


def _loser(state: State, winner: int, frozen: bool) -> int:
    """The opponent side whose points and tricks count against ``winner``."""
    sides = state.rules.sides
    if sides == 2:
        return 1 - winner
    others = [other for other in range(sides) if other != winner]
    pick = max if state.rules.game_points_from == "best_opponent" else min
    return pick(others, key=lambda other: _counted(state, other, frozen))


def _close_failed(state: State, closer_side: int, winner: int) -> int:
    """The deal's winner when the closer's side failed: the side that went out, else the best
    opponent."""
    return winner if winner != closer_side else best_opponent(state, closer_side)


def _penalise_close(
    state: State, closer_side: int | None, winner: int | None, awarded: list[int]
) -> None:
    """Apply the ``close_fail`` penalty for the closer's side against ``winner``."""
    assert closer_side is not None and winner is not None and state.frozen is not None
    rules = state.rules
    if rules.close_fail == "opponent_2_or_3":
        awarded[winner] = 3 if _counted(state, winner, True)[1] == 0 else 2
    elif rules.close_fail == "closer_minus_3":
        awarded[closer_side] = -3
    else:
        awarded[winner] = max(2, _value_frozen(state, winner))


def _wrong_claim(state: State, winner: int, awarded: list[int]) -> None:
    """A wrong claim: ``winner`` (the side the claimer lost to) scores per ``wrong_claim``."""
    if state.rules.wrong_claim == "opponent_2_or_3":
        awarded[winner] = 3 if state.side_tricks(winner) == 0 else 2
    else:
        awarded[winner] = _value_now(state, winner)


def _value_now(state: State, loser: int) -> int:
    """What beating side ``loser`` is worth with the points and tricks it has now."""
    return deal_value(state.rules, *_counted(state, loser, False))


def _value_frozen(state: State, loser: int) -> int:
    """What beating side ``loser`` is worth with the points and tricks it had at closing."""
    return deal_value(state.rules, *_counted(state, loser, True))
