"""Building deals from explicit hands, and playing scripted moves, for readable rule tests."""

from __future__ import annotations

from app.engine import Action, State, apply, full_deck, new_deal, parse_card, preset
from app.engine.events import Event


def arrange(
    hands: dict[int, str],
    turned: str,
    stock: str = "",
    dealer: int = 0,
    variant: str = "sixty-six",
    game_points: tuple[int, int] | None = None,
    **options: object,
) -> State:
    """A two-player deal with these hands (seat -> "AS TS ..."), turned trump card and stock top.

    Cards not named go to the rest of the stock in deck order. The deck order is built by the
    convention of RULES.md section 8, so this also exercises dealing.
    """
    rules = preset(variant, **options)
    cards = {seat: [parse_card(c) for c in codes.split()] for seat, codes in hands.items()}
    top = [parse_card(c) for c in stock.split()]
    trump = parse_card(turned)
    used = [c for hand in cards.values() for c in hand] + top + [trump]
    assert len(set(used)) == len(used), "a card is named twice"
    rest = [c for c in full_deck(rules.deck) if c not in used]
    pile = top + rest
    nondealer = 1 - dealer
    h = {s: list(c) for s, c in cards.items()}
    if rules.deal_order == "schnapsen":
        order = [*h[nondealer][:3], *h[dealer][:3], trump, *h[nondealer][3:], *h[dealer][3:]]
    else:
        order = [*h[nondealer][:3], *h[dealer][:3], *h[nondealer][3:], *h[dealer][3:], trump]
    state = new_deal(rules, deck=order + pile, dealer=dealer, game_points=game_points)
    for seat, hand in cards.items():
        assert list(state.hands[seat]) == hand, "hands were not dealt as arranged"
    return state


def move(token: str) -> Action:
    """``"KH"`` plays a card, ``"KH*"`` plays it declaring the marriage, else an action type."""
    if token in ("exchange", "close", "claim", "resign"):
        return Action.simple(token)
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
        else:
            out.append(action.type)
    return out
