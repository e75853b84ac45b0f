"""The engine's errors and every code they carry (listed in full in docs/protocol.md).

``ActionError`` means "cannot parse"; ``IllegalAction`` means "well formed, but not legal here".
Both are :class:`EngineError`, itself a ``ValueError``, so a caller can catch either one or both.

>>> IllegalAction(Illegal.NOT_YOUR_TURN, "It is not your turn.").code == "not_your_turn"
True
>>> issubclass(ActionError, EngineError) and issubclass(IllegalAction, ValueError)
True
"""

from __future__ import annotations

from enum import StrEnum


class Illegal(StrEnum):
    """Every stable code an engine error carries. A code is its own JSON string."""

    BAD_ACTION = "bad_action"
    """The action cannot be parsed: not an object, unknown type, bad card code, stray field."""
    UNKNOWN_ACTION = "unknown_action"
    """An action type the engine has no rule for (never produced by a parsed action)."""
    MATCH_OVER = "match_over"
    """The match is over."""
    DEAL_OVER = "deal_over"
    """The deal is over (a lone deal from ``new_deal``)."""
    BAD_SEAT = "bad_seat"
    """There is no such seat at the table."""
    NOT_YOUR_TURN = "not_your_turn"
    """Another seat is on move."""
    CARD_NOT_IN_HAND = "card_not_in_hand"
    """The card is not in the actor's hand."""
    MUST_FOLLOW_SUIT = "must_follow_suit"
    """Strict phase: a card of the suit led must be played."""
    MUST_BEAT = "must_beat"
    """Strict phase: the trick must be headed (or overtrumped) if possible."""
    MUST_TRUMP = "must_trump"
    """Strict phase: void in the suit led, a trump must be played."""
    MARRIAGE_NOT_ALLOWED = "marriage_not_allowed"
    """A marriage may not be declared now (not leading, or the stock is gone)."""
    NO_MARRIAGE = "no_marriage"
    """The card played as a marriage is not a king or queen with its partner in hand."""
    EXCHANGE_NOT_ALLOWED = "exchange_not_allowed"
    """The trump exchange is not allowed now."""
    EXCHANGE_NOT_IN_GAME = "exchange_not_in_game"
    """The game turns no trump card (three- and four-hand), so it has no trump exchange."""
    CLOSE_NOT_ALLOWED = "close_not_allowed"
    """Closing the stock is not allowed now."""
    CLAIM_NOT_ALLOWED = "claim_not_allowed"
    """The table counts automatically (``claim=auto``): there is nothing to claim."""
    NOT_BIDDING_PHASE = "not_bidding_phase"
    """A bid or pass outside the bidding (or at a table without bidding)."""
    BIDDING_NOT_OVER = "bidding_not_over"
    """A card, exchange, close or claim while the bidding is still going on."""
    BID_TOO_LOW = "bid_too_low"
    """A bid not higher than the current high bid."""


class EngineError(ValueError):
    """Any error the engine raises about an action: ``code`` (an :class:`Illegal`), ``message``."""

    code: Illegal
    message: str

    def __init__(self, code: Illegal, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class ActionError(EngineError):
    """A malformed action: not a dict, unknown type, bad card code or level, stray keys."""

    def __init__(self, message: str) -> None:
        super().__init__(Illegal.BAD_ACTION, message)
        self.args = (message,)


class IllegalAction(EngineError):
    """A well-formed action that the rules forbid now; ``code`` is stable, ``message`` a sentence.

    The message names only the acting seat's own cards, never a hidden one.
    """
