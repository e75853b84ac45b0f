"""Actions a seat can take (RULES.md section 5), their JSON form, and the two error types.

``ActionError`` means "cannot parse"; ``IllegalAction`` means "well formed, but not legal here"
(both in :mod:`app.engine.errors`, with every code in :class:`~app.engine.errors.Illegal`).

>>> Action.from_json({"type": "play", "card": "QH", "marriage": True}).to_json()
{'type': 'play', 'card': 'QH', 'marriage': True}
"""

from __future__ import annotations

import builtins
from typing import Any, ClassVar, Final

from .cards import Card, parse_card
from .errors import ActionError, EngineError, IllegalAction

__all__ = ["ACTION_TYPES", "BID_LEVELS", "Action", "ActionError", "EngineError", "IllegalAction"]

ACTION_TYPES: Final = ("play", "exchange", "close", "claim", "resign", "bid", "pass")
"""Every action type; ``apply`` has a rule for each and refuses anything else."""

BID_LEVELS: Final = (1, 2, 3, 4, 5)
"""Four-hand bids: 1 = 33 points, 2 = 66, 3 = 99, 4 = 132, 5 = alone ("Luna")."""

_SIMPLE: Final = frozenset(ACTION_TYPES) - {"play", "bid"}


class Action:
    """One action, checked when built. Interned: equal actions are the same object.

    Build with :meth:`play`, :meth:`bid`, :meth:`simple` or :meth:`from_json`; ``Action(type,
    card, marriage, level)`` raises :class:`ActionError` for any combination that is no action.

    >>> Action.bid(3).to_json()
    {'type': 'bid', 'level': 3}
    >>> Action("bogus")
    Traceback (most recent call last):
    ...
    app.engine.errors.ActionError: action type must be one of play, exchange, close, claim, \
resign, bid, pass, not 'bogus'
    """

    __slots__ = ("card", "level", "marriage", "type")
    _interned: ClassVar[dict[tuple[object, ...], Action]] = {}

    type: str
    card: Card | None
    marriage: bool
    level: int | None

    def __new__(
        cls, type: str, card: Card | None = None, marriage: bool = False, level: int | None = None
    ) -> Action:
        # the classes are part of the key so that 1 never passes for True (or True for 1)
        key = (type, card, marriage, level, marriage.__class__, level.__class__)
        action = cls._interned.get(key)
        if action is None:
            _check(type, card, marriage, level)
            action = object.__new__(cls)
            object.__setattr__(action, "type", type)
            object.__setattr__(action, "card", card)
            object.__setattr__(action, "marriage", marriage)
            object.__setattr__(action, "level", level)
            cls._interned[key] = action
        return action

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("actions are immutable")

    def __reduce__(
        self,
    ) -> tuple[builtins.type[Action], tuple[str, Card | None, bool, int | None]]:
        return (Action, (self.type, self.card, self.marriage, self.level))

    @classmethod
    def play(cls, card: Card | str, marriage: bool = False) -> Action:
        """Play ``card``; with ``marriage`` the leader declares the marriage it belongs to."""
        if isinstance(card, str):
            try:
                card = parse_card(card)
            except ValueError as exc:
                raise ActionError(str(exc)) from None
        return cls("play", card, marriage)

    @classmethod
    def bid(cls, level: int) -> Action:
        """Bid ``level`` (1 to 5) in the four-hand auction."""
        return cls("bid", level=level)

    @classmethod
    def simple(cls, type: str) -> Action:
        """``exchange``, ``close``, ``claim``, ``resign`` or ``pass``."""
        if type not in _SIMPLE:
            raise ActionError(f"{_short(type)} is not an action without fields")
        return cls(type)

    @classmethod
    def from_json(cls, obj: object) -> Action:
        """Parse a JSON action dict; raise :class:`ActionError` for anything malformed."""
        if not isinstance(obj, dict):
            raise ActionError('an action must be a JSON object such as {"type": "play"}')
        kind = obj.get("type")
        if not isinstance(kind, str) or kind not in ACTION_TYPES:
            raise ActionError(
                f"action type must be one of {', '.join(ACTION_TYPES)}, not {_short(kind)}"
            )
        if kind == "bid":
            if set(obj) != {"type", "level"}:
                raise ActionError('a bid takes one field, "level", a whole number from 1 to 5')
            return cls("bid", level=obj["level"])
        if kind != "play":
            if set(obj) != {"type"}:
                raise ActionError(f"action {kind!r} takes no other fields")
            return cls(kind)
        extra = set(obj) - {"type", "card", "marriage"}
        if extra:
            raise ActionError(f"unknown field {_short(sorted(extra)[0])} in a play action")
        code = obj.get("card")
        if not isinstance(code, str):
            raise ActionError('a play action needs a card code such as "QH"')
        try:
            card = parse_card(code)
        except ValueError as exc:
            raise ActionError(str(exc)) from None
        return cls("play", card, obj.get("marriage", False))

    def to_json(self) -> dict[str, Any]:
        """The JSON dict of this action; ``Action.from_json(a.to_json()) is a``."""
        if self.type == "bid":
            return {"type": "bid", "level": self.level}
        if self.type != "play":
            return {"type": self.type}
        assert self.card is not None
        data: dict[str, Any] = {"type": "play", "card": self.card.code}
        if self.marriage:
            data["marriage"] = True
        return data

    def __repr__(self) -> str:
        return f"Action({self.to_json()!r})"


def _check(type: object, card: object, marriage: object, level: object) -> None:
    """Raise :class:`ActionError` unless the fields make one action."""
    if not isinstance(type, str) or type not in ACTION_TYPES:
        raise ActionError(
            f"action type must be one of {', '.join(ACTION_TYPES)}, not {_short(type)}"
        )
    if not isinstance(marriage, bool):
        raise ActionError("marriage must be true or false")
    if type == "play":
        if not isinstance(card, Card):
            raise ActionError('a play action needs a card code such as "QH"')
        if level is not None:
            raise ActionError("a play action takes no level")
        return
    if card is not None or marriage:
        raise ActionError(f"action {type!r} takes no card")
    if type == "bid":
        if isinstance(level, bool) or level not in BID_LEVELS:
            raise ActionError(f"a bid level is a whole number from 1 to 5, not {_short(level)}")
    elif level is not None:
        raise ActionError(f"action {type!r} takes no level")


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


EXCHANGE: Final = Action("exchange")
CLOSE: Final = Action("close")
CLAIM: Final = Action("claim")
RESIGN: Final = Action("resign")
PASS: Final = Action("pass")
