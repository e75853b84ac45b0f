"""The medium bot: a rules-based player that counts the cards it has seen.

On lead it claims when its count says 66 (manual mode), exchanges the trump nine or jack,
declares marriages (the trump one first, leading the queen), closes the stock when its sure
tricks bring it to 66, and otherwise leads low plain cards while the stock is open and its
masters once play is strict. Following, it takes tricks worth taking (with the same suit if it
can, else with its lowest trump), and otherwise throws its cheapest card, keeping high trumps
and marriage pairs.
"""

from __future__ import annotations

import random
from typing import Any

from app.engine import Action
from app.engine.scoring import GOING_OUT

from .cards import (
    ABOVE,
    CLOSING_SCORE,
    KING,
    POINTS_LIST,
    QUEEN,
    SUIT_MASK,
    card_code,
    card_id,
    cards_of,
    counts_in_bits,
)
from .group import decide, picture_of_seen
from .knowledge import Knowledge
from .seen import Seen


def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The medium bot's action for ``view`` (at tables of three or four seats, or with the
    48-card deck, the rules-based policy of :mod:`app.bots.group`)."""
    if counts_in_bits(view):
        return _choose_two(view)
    seen = Seen.from_view(view)
    legal = [Action.from_json(a) for a in view["legal"]]
    action = decide(picture_of_seen(seen, seen.world(rng)), legal)
    return action.to_json()


def _choose_two(view: dict[str, Any]) -> dict[str, Any]:
    k = Knowledge.from_view(view)
    legal: list[dict[str, Any]] = list(view["legal"])
    if len(legal) == 1:
        return legal[0]
    if {"type": "claim"} in legal and k.score(k.seat) >= GOING_OUT:
        return {"type": "claim"}
    if k.lead >= 0:
        return _play(_follow(k, legal))
    return _lead(k, legal)


def _play(card: int) -> dict[str, Any]:
    return {"type": "play", "card": card_code(card)}


def _types(legal: list[dict[str, Any]]) -> set[str]:
    return {a["type"] for a in legal}


def _lead(k: Knowledge, legal: list[dict[str, Any]]) -> dict[str, Any]:
    types = _types(legal)
    if "exchange" in types:
        return {"type": "exchange"}
    marriages = [a for a in legal if a.get("marriage")]
    if marriages:
        marriages.sort(key=lambda a: (a["card"][1] != "CDHS"[k.trump], a["card"][0] != "Q"))
        return marriages[0]
    if "close" in types and _should_close(k):
        return {"type": "close"}
    playable = [card_id(a["card"]) for a in legal if a["type"] == "play"]
    return _play(_lead_card(k, playable))


def _is_master(k: Knowledge, card: int) -> bool:
    """No unseen card of the suit is stronger (the card wins unless trumped)."""
    return not (k.unseen & int(ABOVE[card]))


def _sure_points(k: Knowledge) -> int:
    """Points this seat can count on from its masters if play turned strict now."""
    trumps_out = k.unseen & int(SUIT_MASK[k.trump])
    total = 0
    for card in cards_of(k.hand):
        if not _is_master(k, card):
            continue
        if card >> 3 == k.trump or not trumps_out:
            total += POINTS_LIST[card] + 4
    return total


def _should_close(k: Knowledge) -> bool:
    me = k.seat
    if k.tricks[me] == 0 or k.score(me) < CLOSING_SCORE:
        return False
    return k.score(me) + k.pending[me] + _sure_points(k) >= GOING_OUT


def _marriage_cards(k: Knowledge) -> int:
    """Kings and queens whose partner is still in hand (worth keeping while marriages count)."""
    if not (k.stock_open or k.rules.marriages_in_strict_phase):
        return 0
    keep = 0
    for suit in range(4):
        q, kg = suit * 8 + QUEEN, suit * 8 + KING
        if (k.hand >> q) & 1 and (k.hand >> kg) & 1:
            keep |= (1 << q) | (1 << kg)
    return keep


def _cost(k: Knowledge, card: int) -> float:
    """How much giving this card away hurts: its points, more for trumps and marriage cards."""
    cost = float(POINTS_LIST[card])
    if card >> 3 == k.trump:
        cost += 8 + (card % 8)
    if (_marriage_cards(k) >> card) & 1:
        cost += 15
    return cost


def _lead_card(k: Knowledge, playable: list[int]) -> int:
    if not k.stock_open:
        trumps_out = k.unseen & int(SUIT_MASK[k.trump])
        masters = [c for c in playable if _is_master(k, c)]
        trump_masters = [c for c in masters if c >> 3 == k.trump]
        if trump_masters and trumps_out:
            return max(trump_masters)
        plain_masters = [c for c in masters if c >> 3 != k.trump]
        if plain_masters and not trumps_out:
            return max(plain_masters, key=lambda c: POINTS_LIST[c])
        if masters:
            return max(masters, key=lambda c: POINTS_LIST[c])
    return min(playable, key=lambda c: (_cost(k, c), c))


def _beats(card: int, led: int, trump: int) -> bool:
    if card >> 3 == led >> 3:
        return card > led
    return card >> 3 == trump


def _follow(k: Knowledge, legal: list[dict[str, Any]]) -> int:
    led = k.lead
    playable = [card_id(a["card"]) for a in legal if a["type"] == "play"]
    winning = [c for c in playable if _beats(c, led, k.trump)]
    me = k.seat
    for card in sorted(winning, key=lambda c: _cost(k, c)):
        gained = POINTS_LIST[card] + POINTS_LIST[led] + k.pending[me]
        if k.score(me) + gained >= GOING_OUT:
            return card
    cheapest = min(playable, key=lambda c: (_cost(k, c), c))
    if not winning:
        return cheapest
    same_suit = [c for c in winning if c >> 3 == led >> 3]
    trumps = [c for c in winning if c >> 3 == k.trump and led >> 3 != k.trump]
    trick = POINTS_LIST[led]
    if not k.stock_open:
        return min(winning, key=lambda c: (_cost(k, c), c))
    if same_suit:
        best = max(same_suit, key=lambda c: POINTS_LIST[c])
        if POINTS_LIST[best] >= 10 or trick >= 10:
            return best
    if trumps and trick >= 10:
        return min(trumps, key=lambda c: (_cost(k, c), c))
    return cheapest
