"""Fair shuffling and dealing (RULES.md sections 2.1, 7 and 8).

Every deal's deck order comes from a seed. The shuffle is a Fisher-Yates shuffle driven by
SHA-256 in counter mode, so anyone can re-deal a published seed with a few lines of code in any
language: block ``i`` is ``sha256(f"{seed}:{i}")``, read as big-endian 32-bit words; a draw below
``n`` rejects words at or above ``(2**32 // n) * n`` and takes the word modulo ``n``.
"""

from __future__ import annotations

import hashlib
import struct
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import NamedTuple

from .cards import Card, full_deck, parse_card
from .events import Event
from .rules import Rules
from .state import State


def seed_commitment(seed: str) -> str:
    """``sha256(seed)`` as hex: published when a deal starts, checked against the seed later."""
    return hashlib.sha256(seed.encode()).hexdigest()


MISSING_CONTRIBUTION = ""
"""What a seat that sent no contribution adds to the match seed (docs/fairness.md)."""


def bot_contribution(server_seed: str, seat: int) -> str:
    """A computer player's contribution: drawn from the server's committed seed, so it is
    fixed before any player's contribution exists.

    >>> bot_contribution("s", 1)[:16]
    'be9536aa7b942125'
    """
    return hashlib.sha256(f"talon-bot:{server_seed}:{seat}".encode()).hexdigest()


def match_seed(server_seed: str, contributions: Sequence[str]) -> str:
    """The match seed from the server's seed and every seat's contribution in seat order
    (hexadecimal text, or :data:`MISSING_CONTRIBUTION`): no one of them alone decides it."""
    return hashlib.sha256(
        ":".join(["talon-match", server_seed, *contributions]).encode()
    ).hexdigest()


def deal_seed(match_seed: str, deal_no: int) -> str:
    """The seed of deal ``deal_no`` (1-based) of a match; knowing one reveals no other."""
    return hashlib.sha256(f"talon-deal:{match_seed}:{deal_no}".encode()).hexdigest()


def first_dealer(match_seed: str, players: int) -> int:
    """The first dealer of a match, drawn from the match seed."""
    digest = hashlib.sha256(f"talon-dealer:{match_seed}".encode()).digest()
    return int.from_bytes(digest[:4], "big") % players


def _words(seed: str) -> Iterator[int]:
    """Big-endian 32-bit words of sha256(f"{seed}:0"), sha256(f"{seed}:1"), ..."""
    block = 0
    while True:
        digest = hashlib.sha256(f"{seed}:{block}".encode()).digest()
        yield from struct.unpack(">8I", digest)
        block += 1


def shuffled_deck(size: int, seed: str) -> list[Card]:
    """The deck of ``size`` cards in the order the seed gives (first card dealt first)."""
    cards = list(full_deck(size))
    words = _words(seed)
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        limit = (2**32 // n) * n
        word = next(words)
        while word >= limit:
            word = next(words)
        j = word % n
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def check_deck(rules: Rules, deck: Sequence[Card | str]) -> list[Card]:
    """Parse an explicit deck order; ValueError unless it is exactly the rules' deck."""
    cards = [card if isinstance(card, Card) else parse_card(card) for card in deck]
    if Counter(cards) != Counter(full_deck(rules.deck)):
        raise ValueError(f"an explicit deck must hold each card of the {rules.deck}-card deck")
    return cards


class Deal(NamedTuple):
    """A deck order split as RULES.md section 8 says."""

    hands: list[list[Card]]
    turned: Card | None
    """The turned trump card under the stock (``trump_from="turned"`` only)."""
    stock: list[Card]
    """The hidden stock, drawn in order; the turned card (not in it) is drawn after it."""
    aside: list[Card]
    """Cards set aside unseen for the deal, so that every round of drawing serves every seat."""


def deal_cards(rules: Rules, cards: Sequence[Card], dealer: int) -> Deal:
    """Split a deck order into hands, the turned trump card, the stock and cards set aside.

    Packets of 3 then the rest of the hand go round from the dealer's left (in two-player games
    the non-dealer first). Classic order turns the card after the last packet; Schnapsen turns it
    after the first round of packets. When the rest after the turned card does not share out
    evenly (``german-32`` for three), its first cards are set aside; the rest is the stock.
    """
    n = rules.players
    order = [(dealer + 1 + k) % n for k in range(n)]
    hands: list[list[Card]] = [[] for _ in range(n)]
    pos = 0
    turned: Card | None = None
    for round_no, size in enumerate((3, rules.hand_size - 3)):
        if round_no == 1 and rules.deal_order == "schnapsen":
            turned = cards[pos]
            pos += 1
        for seat in order:
            hands[seat].extend(cards[pos : pos + size])
            pos += size
    if rules.trump_from != "turned":
        return Deal(hands, None, [], [])
    if turned is None:
        turned = cards[pos]
        pos += 1
    spare = (len(cards) - pos + 1) % n
    return Deal(hands, turned, list(cards[pos + spare :]), list(cards[pos : pos + spare]))


def deck_for(
    rules: Rules,
    hands: Mapping[int, Sequence[Card | str] | str],
    trump: Card | str | None = None,
    stock: Sequence[Card | str] | str = (),
    dealer: int = 0,
    aside: Sequence[Card | str] | str = (),
) -> list[Card]:
    """The explicit deck order that deals these ``hands`` (seat -> cards, in the order dealt).

    ``trump`` is the turned card (``trump_from="turned"``; without a stock the trump is the
    dealer's last card, so leave it out); ``stock`` the top of the stock, first drawn first;
    ``aside`` the cards set aside (three-player ``german-32``). Cards may be codes or a
    space-separated string. Whatever is not named fills the hands' missing cards, then the turned
    card, the cards set aside and the rest of the stock, each in deck order. Feed the result to
    :func:`new_deal` (``deck=``) or :func:`new_match` (``decks=``) with the same ``dealer``.

    >>> from app.engine import preset
    >>> rules = preset("sixty-six")
    >>> deck = deck_for(rules, {1: "AH TH KH QH JH 9H"}, trump="AS", stock="TS")
    >>> state = new_deal(rules, deck=deck, dealer=0)
    >>> [c.code for c in state.hands[1]], state.trump_card.code, state.stock[0].code
    (['AH', 'TH', 'KH', 'QH', 'JH', '9H'], 'AS', 'TS')
    """
    _check_seat(rules, dealer)
    named = {seat: _cards(cards) for seat, cards in hands.items()}
    turned = [_card(trump)] if trump is not None else []
    top, spare = _cards(stock), _cards(aside)
    if turned and not rules.has_stock:
        raise ValueError(f"{rules.variant} turns no card: leave trump out")
    used = Counter(c for group in (*named.values(), turned, top, spare) for c in group)
    left = list((Counter(full_deck(rules.deck)) - used).elements())
    if used - Counter(full_deck(rules.deck)):
        raise ValueError("a card is named more often than the deck holds it")
    left.sort(key=full_deck(rules.deck).index)
    full: dict[int, list[Card]] = {}
    for seat in range(rules.players):
        hand = list(named.get(seat, []))
        if len(hand) > rules.hand_size:
            raise ValueError(f"seat {seat} is given more than {rules.hand_size} cards")
        while len(hand) < rules.hand_size:
            hand.append(left.pop(0))
        full[seat] = hand
    if rules.has_stock and not turned:
        turned = [left.pop(0)]
    players = rules.players
    spare_count = (rules.deck - players * rules.hand_size) % players if rules.has_stock else 0
    if len(spare) > spare_count:
        raise ValueError(f"only {spare_count} cards are set aside in {rules.variant}")
    while len(spare) < spare_count:
        spare.append(left.pop(0))
    order: list[Card] = []
    seats = [(dealer + 1 + k) % players for k in range(players)]
    first, second = 3, rules.hand_size - 3
    for seat in seats:
        order += full[seat][:first]
    order += turned if rules.deal_order == "schnapsen" else []
    for seat in seats:
        order += full[seat][first : first + second]
    order += turned if rules.deal_order != "schnapsen" else []
    return order + spare + top + left


def _card(card: Card | str) -> Card:
    return card if isinstance(card, Card) else parse_card(card)


def _cards(cards: Sequence[Card | str] | str) -> list[Card]:
    if isinstance(cards, str):
        cards = cards.split()
    return [_card(card) for card in cards]


def start_deal(
    base: State | None,
    rules: Rules,
    *,
    match_seed: str,
    deal_no: int,
    dealer: int,
    seed: str,
    cards: Sequence[Card],
    game_points: tuple[int, ...],
    continues: bool,
    announce: bool = True,
    decks: tuple[tuple[Card, ...], ...] = (),
) -> tuple[State, list[Event]]:
    """A state at the start of a deal, and (with ``announce``) the events that announce it."""
    n = rules.players
    hands, turned, rest, aside = deal_cards(rules, cards, dealer)
    zeros = (0,) * n
    commitment = seed_commitment(seed)
    shown: tuple[tuple[int, Card], ...] = ()
    if turned is not None:
        trump_card: Card | None = turned
        trump = turned.suit
        stock = (*rest, turned)
    elif rules.trump_from == "dealer_last":
        trump_card = hands[dealer][-1]
        trump = trump_card.suit
        stock = ()
        shown = ((dealer, trump_card),)
    else:
        trump_card, trump, stock = None, "", ()
    fields = dict(
        rules=rules,
        seed=match_seed,
        deal_no=deal_no,
        deal_seed=seed,
        commitment=commitment,
        dealer=dealer,
        hands=tuple(tuple(hand) for hand in hands),
        stock=stock,
        aside=tuple(aside),
        trump=trump,
        trump_card=trump_card,
        trump_under=turned is not None,
        closed_by=None,
        frozen=None,
        to_move=(dealer + 1) % n,
        trick=(),
        history=(),
        card_points=zeros,
        tricks_won=zeros,
        marriage_points=zeros,
        pending=zeros,
        marriages=(),
        shown=shown,
        bonus=zeros,
        bidding=rules.bidding,
        bids=(),
        high_bid=None,
        sitting_out=None,
        game_points=game_points,
        deal_results=base.deal_results if base is not None else (),
        deal_over=False,
        match_over=False,
        match_winner=None,
        continues=continues,
        decks=base.decks if base is not None else decks,
    )
    if base is None:
        state = object.__new__(State)  # State(**fields) without copying the fields twice
        state.__dict__.update(fields)
    else:
        state = base._evolve()
        state._set(**fields)
    if not announce:
        return state, []
    events = [
        Event(
            "deal_started",
            {
                "deal_no": deal_no,
                "dealer": dealer,
                "trump": trump or None,
                "trump_card": turned.code if turned is not None else None,
                "stock": len(state.stock),
                "hand_counts": [len(hand) for hand in hands],
                "aside": len(aside),
                "shown": [{"seat": seat, "card": card.code} for seat, card in shown],
                "bidding": rules.bidding,
                "commitment": commitment,
            },
        )
    ]
    for seat, hand in enumerate(hands):
        events.append(
            Event(
                "hand_dealt",
                {"seat": seat, "cards": [card.code for card in hand]},
                only=seat,
                redacted={"seat": seat, "count": len(hand)},
            )
        )
    return state, events


def deck_of_deal(
    rules: Rules, match_seed: str, decks: tuple[tuple[Card, ...], ...], deal_no: int
) -> tuple[str, list[Card]]:
    """The seed and deck order of deal ``deal_no`` of a match.

    An explicit deck order from ``decks`` (its seed is the order written out) while there is
    one, else the order the match seed gives.
    """
    if deal_no <= len(decks):
        cards = list(decks[deal_no - 1])
        return _deck_seed(cards), cards
    seed = deal_seed(match_seed, deal_no)
    return seed, shuffled_deck(rules.deck, seed)


def _deck_seed(cards: Sequence[Card]) -> str:
    return "deck:" + ",".join(card.code for card in cards)


def new_match(
    rules: Rules,
    seed: str,
    dealer: int | None = None,
    decks: Sequence[Sequence[Card | str]] | None = None,
) -> State:
    """A new match with its first deal dealt.

    ``seed`` is the match seed (callers draw it with ``secrets.token_hex``); every deal's seed is
    derived from it with :func:`deal_seed`, and the first dealer with :func:`first_dealer`
    unless ``dealer`` names it. The same seed always gives the same match. ``decks`` gives the
    deck orders of the first deals explicitly (one list per deal, RULES.md section 8; see
    :func:`deck_for`), so that two engines can be compared over whole matches; deals after them
    come from the seed.

    >>> from app.engine import full_deck, preset
    >>> order = list(reversed(full_deck(24)))
    >>> state = new_match(preset("sixty-six"), seed="m", dealer=0, decks=[order])
    >>> state.trump_card.code, state.deal_seed.startswith("deck:")
    ('AD', True)
    """
    if not isinstance(seed, str) or not seed:
        raise ValueError("a match seed must be a non-empty string")
    if dealer is None:
        dealer = first_dealer(seed, rules.players)
    _check_seat(rules, dealer)
    explicit = tuple(tuple(check_deck(rules, deck)) for deck in decks or ())
    first_seed, cards = deck_of_deal(rules, seed, explicit, 1)
    state, _ = start_deal(
        None,
        rules,
        match_seed=seed,
        deal_no=1,
        dealer=dealer,
        seed=first_seed,
        cards=cards,
        game_points=(0,) * rules.sides,
        continues=True,
        announce=False,
        decks=explicit,
    )
    return state


def new_deal(
    rules: Rules,
    deck: Sequence[Card | str] | None = None,
    dealer: int = 0,
    seed: str | None = None,
    game_points: Sequence[int] | None = None,
) -> State:
    """A single deal, from an explicit ``deck`` order (RULES.md section 8) or from a ``seed``.

    The state stops when this deal ends (``deal_over``; ``match_over`` too if ``game_points``
    (one number per side) plus the deal's reach the target). Without ``deck`` or ``seed`` it
    raises ValueError. :func:`deck_for` builds a deck order from chosen hands.

    >>> from app.engine import preset
    >>> new_deal(preset("sixty-six"), seed="abc").to_move
    1
    """
    _check_seat(rules, dealer)
    if deck is not None:
        cards = check_deck(rules, deck)
        seed = seed or _deck_seed(cards)
    elif seed is not None:
        cards = shuffled_deck(rules.deck, seed)
    else:
        raise ValueError("new_deal needs a deck order or a seed")
    points = tuple(game_points) if game_points is not None else (0,) * rules.sides
    if len(points) != rules.sides:
        raise ValueError(f"game_points needs one number per side ({rules.sides})")
    state, _ = start_deal(
        None,
        rules,
        match_seed=seed,
        deal_no=1,
        dealer=dealer,
        seed=seed,
        cards=cards,
        game_points=points,
        continues=False,
        announce=False,
    )
    return state


def _check_seat(rules: Rules, seat: int) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < rules.players:
        raise ValueError(f"dealer must be a seat from 0 to {rules.players - 1}")
