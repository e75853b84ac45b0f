"""Building deals from explicit hands, and playing scripted moves, for readable rule tests."""

from __future__ import annotations

from app.engine import Action, State, apply, deck_for, new_deal, preset
from app.engine.events import Event


def arrange(
    hands: dict[int, str],
    turned: str | None = None,
    stock: str = "",
    dealer: int = 0,
    variant: str = "sixty-six",
    game_points: tuple[int, ...] | None = None,
    **options: object,
) -> State:
    """A deal with these hands (seat -> "AS TS ..."), turned trump card and stock top.

    Cards not named fill the other hands and the stock in deck order (``deck_for``). The deck
    order is dealt by the convention of RULES.md section 8, so this also exercises dealing.
    """
    rules = preset(variant, **options)
    deck = deck_for(rules, hands, trump=turned, stock=stock, dealer=dealer)
    state = new_deal(rules, deck=deck, dealer=dealer, game_points=game_points)
    for seat, hand in hands.items():
        assert [c.code for c in state.hands[seat]] == hand.split(), "not dealt as arranged"
    return state


def move(token: str) -> Action:
    """``"KH"`` plays a card, ``"KH*"`` declares its marriage, ``"bid2"`` bids 2, else a type."""
    if token in ("exchange", "close", "claim", "resign", "pass"):
        return Action.simple(token)
    if token.startswith("bid"):
        return Action.bid(int(token[3:]))
    return Action.play(token.rstrip("*"), marriage=token.endswith("*"))


def run(state: State, script: str) -> tuple[State, list[Event]]:
    """Apply space-separated moves, each by the seat on move; return the state and all events."""
    events: list[Event] = []
    for token in script.split():
        state, more = apply(state, move(token))
        events.extend(more)
    return state, events


def codes(actions: list[Action]) -> list[str]:
    """Legal actions written as scripts write them."""
    out = []
    for action in actions:
        if action.type == "play":
            assert action.card is not None
            out.append(action.card.code + ("*" if action.marriage else ""))
        elif action.type == "bid":
            out.append(f"bid{action.level}")
        else:
            out.append(action.type)
    return out
