"""Actions a seat can take (RULES.md section 5), their JSON form, and the two error types.

``ActionError`` means "cannot parse"; ``IllegalAction`` means "well formed, but not legal here".

>>> Action.from_json({"type": "play", "card": "QH", "marriage": True}).to_json()
{'type': 'play', 'card': 'QH', 'marriage': True}
"""

from __future__ import annotations

import builtins
from typing import Any, ClassVar, Final

from .cards import Card, parse_card

ACTION_TYPES: Final = ("play", "exchange", "close", "claim", "resign")


class ActionError(ValueError):
    """A malformed action: not a dict, unknown type, bad card code, stray keys."""

    code = "bad_action"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class IllegalAction(Exception):
    """A well-formed action that the rules forbid now; ``code`` is stable, ``message`` a sentence.

    The message names only the acting seat's own cards, never a hidden one.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class Action:
    """One action. Interned: equal actions are the same object, so comparing them is cheap.

    Build with :meth:`play`, :meth:`simple` or :meth:`from_json`.
    """

    __slots__ = ("card", "marriage", "type")
    _interned: ClassVar[dict[tuple[str, Card | None, bool], Action]] = {}

    type: str
    card: Card | None
    marriage: bool

    def __new__(cls, type: str, card: Card | None = None, marriage: bool = False) -> Action:
        key = (type, card, marriage)
        action = cls._interned.get(key)
        if action is None:
            action = object.__new__(cls)
            object.__setattr__(action, "type", type)
            object.__setattr__(action, "card", card)
            object.__setattr__(action, "marriage", marriage)
            cls._interned[key] = action
        return action

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("actions are immutable")

    def __reduce__(self) -> tuple[builtins.type[Action], tuple[str, Card | None, bool]]:
        return (Action, (self.type, self.card, self.marriage))

    @classmethod
    def play(cls, card: Card | str, marriage: bool = False) -> Action:
        """Play ``card``; with ``marriage`` the leader declares the marriage it belongs to."""
        if isinstance(card, str):
            card = parse_card(card)
        return cls("play", card, marriage)

    @classmethod
    def simple(cls, type: str) -> Action:
        """``exchange``, ``close``, ``claim`` or ``resign``."""
        if type not in ACTION_TYPES or type == "play":
            raise ActionError(f"unknown action type {type!r}")
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
        marriage = obj.get("marriage", False)
        if not isinstance(marriage, bool):
            raise ActionError("marriage must be true or false")
        return cls("play", card, marriage)

    def to_json(self) -> dict[str, Any]:
        """The JSON dict of this action; ``Action.from_json(a.to_json()) is a``."""
        if self.type != "play":
            return {"type": self.type}
        assert self.card is not None
        data: dict[str, Any] = {"type": "play", "card": self.card.code}
        if self.marriage:
            data["marriage"] = True
        return data

    def __repr__(self) -> str:
        return f"Action({self.to_json()!r})"


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


EXCHANGE: Final = Action("exchange")
CLOSE: Final = Action("close")
CLAIM: Final = Action("claim")
RESIGN: Final = Action("resign")
