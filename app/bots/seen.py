"""What one seat knows at a table of any size, and worlds consistent with it.

:class:`Seen` reads a seat's view (and nothing else): its hand, the cards played, the cards
others have shown (marriage partners, a card taken by an exchange, the three-hand dealer's trump
card), how many cards each hand, the stock and the cards set aside hold, and the suits a seat
is known to lack (it did not follow, or did not trump, in a trick where the rules made it). From
that, :meth:`Seen.world` deals the unseen cards at random into an engine :class:`State` that
agrees with every public fact, so a bot can play a world out with the engine's own rules.
Cards are engine cards, so the 48-card deck's two copies of a card need no special case.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from app.engine import Card, Rules, State, full_deck, parse_card

WORLD_TRIES = 40
"""Random deals tried before the suit voids are dropped from the constraints."""


@dataclass(frozen=True, slots=True)
class Seen:
    """One seat's knowledge of the deal in play (build it with :meth:`from_view`)."""

    view: dict[str, Any]
    rules: Rules
    seat: int
    hand: tuple[Card, ...]
    trick: tuple[tuple[int, Card], ...]
    history: tuple[tuple[tuple[tuple[int, Card], ...], int], ...]
    shown: dict[int, tuple[Card, ...]]
    """Cards each other seat is known to hold."""
    unseen: Counter[Card]
    """Cards whose place this seat does not know."""
    needs: dict[int, int]
    """How many unknown cards each other seat holds."""
    stock_hidden: int
    """Unknown cards in the stock (the turned card is known)."""
    voids: dict[int, frozenset[str]]
    """Suits each seat is known to lack."""
    card_points: tuple[int, ...]

    @classmethod
    def from_view(cls, view: dict[str, Any]) -> Seen:
        """Work out the seat's knowledge from ``view`` (a dict from ``app.engine.view``)."""
        rules = Rules.from_options(view["variant"], view["rules"])
        n = view["seats"]
        seat = view["seat"]
        hand = tuple(parse_card(c) for c in view["hand"])
        history = tuple(
            (tuple((c["seat"], parse_card(c["card"])) for c in t["cards"]), t["winner"])
            for t in view["tricks"]
        )
        trick = tuple((c["seat"], parse_card(c["card"])) for c in view["trick"])
        shown: dict[int, list[Card]] = {s: [] for s in range(n) if s != seat}
        for item in view["shown"]:
            if item["seat"] != seat:
                shown[item["seat"]].append(parse_card(item["card"]))
        unseen = Counter(full_deck(rules.deck))
        unseen.subtract(hand)
        for cards, _ in history:
            unseen.subtract(card for _, card in cards)
        unseen.subtract(card for _, card in trick)
        for known in shown.values():
            unseen.subtract(known)
        turned = parse_card(view["trump_card"]) if view["trump_card"] else None
        if turned is not None:
            unseen[turned] -= 1
        unseen = +unseen
        needs = {s: view["hand_counts"][s] - len(cards) for s, cards in shown.items()}
        stock_hidden = view["stock"] - (turned is not None)
        points = [0] * n
        for cards, winner in history:
            points[winner] += sum(card.points for _, card in cards)
        return cls(
            view=view,
            rules=rules,
            seat=seat,
            hand=hand,
            trick=trick,
            history=history,
            shown={s: tuple(cards) for s, cards in shown.items()},
            unseen=unseen,
            needs=needs,
            stock_hidden=stock_hidden,
            voids=_voids(rules, view, history, trick),
            card_points=tuple(points),
        )

    @property
    def seats(self) -> int:
        """Seats at the table."""
        return int(self.view["seats"])

    def world(self, rng: random.Random) -> State:
        """An engine state of this deal with the unseen cards dealt at random, consistent with
        the view: hand sizes, shown cards and (when possible) known voids."""
        places = self._deal_unseen(rng)
        return self._state(places, rng)

    def _deal_unseen(self, rng: random.Random) -> dict[int, list[Card]]:
        """Unseen cards per place: a seat, or -1 for the stock and -2 for the cards aside."""
        cards = list(self.unseen.elements())
        capacity = dict(self.needs)
        capacity[-1] = self.stock_hidden
        capacity[-2] = self.view["aside"]
        if sum(capacity.values()) != len(cards):
            raise ValueError("the view's card counts do not add up")
        for attempt in range(WORLD_TRIES + 1):
            respect_voids = attempt < WORLD_TRIES
            rng.shuffle(cards)
            left = dict(capacity)
            places: dict[int, list[Card]] = {place: [] for place in capacity}

            def allowed(
                card: Card, place: int, left: dict[int, int] = left, voids: bool = respect_voids
            ) -> bool:
                if left[place] <= 0:
                    return False
                return place < 0 or not voids or card.suit not in self.voids[place]

            order = sorted(cards, key=lambda c: sum(allowed(c, p) for p in capacity))
            for card in order:
                options = [place for place in capacity if allowed(card, place)]
                if not options:
                    break
                weights = [left[place] for place in options]
                place = rng.choices(options, weights)[0]
                places[place].append(card)
                left[place] -= 1
            else:
                return places
        raise AssertionError("unreachable: without voids every card has a place")

    def _state(self, places: dict[int, list[Card]], rng: random.Random) -> State:
        v = self.view
        n = self.seats
        hands = []
        for s in range(n):
            if s == self.seat:
                hands.append(self.hand)
            else:
                held = [*self.shown[s], *places[s]]
                rng.shuffle(held)
                hands.append(tuple(held))
        turned = parse_card(v["trump_card"]) if v["trump_card"] else None
        stock = tuple(places[-1]) + ((turned,) if turned is not None else ())
        three_hand_trump = None
        if turned is None and v["trump"] and self.rules.trump_from == "dealer_last":
            three_hand_trump = _dealer_trump(self, v)
        scores = v["scores"]
        credited = [0] * n
        for m in v["marriages"]:
            credited[m["seat"]] += m["points"]
        for s in range(n):
            credited[s] -= v["pending_marriages"][s]
            if scores is not None:
                credited[s] = scores[s] - self.card_points[s]
        high = v["high_bid"]
        fields: dict[str, Any] = dict(
            rules=self.rules,
            seed="world",
            deal_no=v["deal_no"],
            deal_seed="world",
            commitment=v["commitment"],
            dealer=v["dealer"],
            hands=tuple(hands),
            stock=stock,
            aside=tuple(places[-2]),
            trump=v["trump"] or "",
            trump_card=turned if turned is not None else three_hand_trump,
            trump_under=turned is not None,
            closed_by=v["closed_by"],
            frozen=self._frozen(credited) if v["closed_by"] is not None else None,
            to_move=v["to_move"],
            trick=self.trick,
            history=self.history,
            card_points=self.card_points,
            tricks_won=tuple(v["tricks_won"]),
            marriage_points=tuple(credited),
            pending=tuple(v["pending_marriages"]),
            marriages=tuple((m["seat"], m["suit"], m["points"]) for m in v["marriages"]),
            shown=tuple((item["seat"], parse_card(item["card"])) for item in v["shown"]),
            bonus=(0,) * n,
            bidding=v["bidding"],
            bids=tuple((b["seat"], b["level"] or 0) for b in v["bids"]),
            high_bid=(high["seat"], high["level"]) if high is not None else None,
            sitting_out=v["sitting_out"],
            game_points=(0,) * self.rules.sides,
            deal_results=(),
            deal_over=False,
            match_over=False,
            match_winner=None,
            continues=False,
            decks=(),
        )
        state = object.__new__(State)
        state.__dict__.update(fields)
        return state

    def _frozen(self, credited: list[int]) -> tuple[tuple[int, int, int], ...]:
        """Each seat's (card points, marriages, tricks) when the stock was closed: the tricks
        played while cards were still drawn (marriages as credited now)."""
        rounds = _open_rounds(self.rules, self.view)
        points = [0] * self.seats
        tricks = [0] * self.seats
        for cards, winner in self.history[:rounds]:
            points[winner] += sum(card.points for _, card in cards)
            tricks[winner] += 1
        return tuple((points[s], credited[s], tricks[s]) for s in range(self.seats))


def _dealer_trump(seen: Seen, v: dict[str, Any]) -> Card | None:
    """The three-hand dealer's trump card: shown while held, else found among the played."""
    for item in v["shown"]:
        card = parse_card(item["card"])
        if item["seat"] == v["dealer"] and card.suit == v["trump"]:
            return card
    for cards, _ in seen.history:
        for s, card in cards:
            if s == v["dealer"] and card.suit == v["trump"]:
                return card
    return None


def _open_rounds(rules: Rules, view: dict[str, Any]) -> int:
    """How many tricks were followed by a draw (played while the stock was open)."""
    if not rules.has_stock:
        return 0
    first_stock = rules.deck - rules.players * rules.hand_size - int(view["aside"])
    return (first_stock - int(view["stock"])) // rules.players


def _voids(
    rules: Rules,
    view: dict[str, Any],
    history: tuple[tuple[tuple[tuple[int, Card], ...], int], ...],
    trick: tuple[tuple[int, Card], ...],
) -> dict[int, frozenset[str]]:
    """Suits each seat showed it lacks in tricks played under the duty to follow (and, with
    ``strict=head``, to trump)."""
    voids: dict[int, set[str]] = {s: set() for s in range(view["seats"])}
    rounds = _open_rounds(rules, view)
    strict_now = not view["stock"] or view["closed"]
    tricks = [cards for cards, _ in history]
    strict = [i >= rounds for i in range(len(tricks))]
    if trick:
        tricks.append(trick)
        strict.append(bool(strict_now))
    trump = view["trump"] or ""
    for cards, is_strict in zip(tricks, strict, strict=True):
        if not is_strict:
            continue
        led = cards[0][1].suit
        suit_of_trump = trump or led
        for s, card in cards[1:]:
            if card.suit != led:
                voids[s].add(led)
                if rules.strict == "head" and card.suit != suit_of_trump:
                    voids[s].add(suit_of_trump)
    return {s: frozenset(suits) for s, suits in voids.items()}
