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
from collections.abc import Iterator, Sequence

from .cards import Card, full_deck, parse_card
from .events import Event
from .rules import Rules
from .state import State


def seed_commitment(seed: str) -> str:
    """``sha256(seed)`` as hex: published when a deal starts, checked against the seed later."""
    return hashlib.sha256(seed.encode()).hexdigest()


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


def deal_cards(
    rules: Rules, cards: Sequence[Card], dealer: int
) -> tuple[list[list[Card]], Card, list[Card]]:
    """Split a deck order into hands, the turned trump card and the stock (section 8).

    Packets of 3 then the rest of the hand go round from the dealer's left (the non-dealer
    first). Classic order turns the card after the last packet; Schnapsen turns it after the
    first round of packets. The stock is the rest, drawn in order, the turned card drawn last.
    """
    n = rules.players
    order = [(dealer + 1 + k) % n for k in range(n)]
    packets = (3, rules.hand_size - 3)
    hands: list[list[Card]] = [[] for _ in range(n)]
    pos = 0
    turned: Card | None = None
    for round_no, size in enumerate(packets):
        if round_no == 1 and rules.deal_order == "schnapsen":
            turned = cards[pos]
            pos += 1
        for seat in order:
            hands[seat].extend(cards[pos : pos + size])
            pos += size
    if turned is None:
        turned = cards[pos]
        pos += 1
    return hands, turned, list(cards[pos:])


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
) -> tuple[State, list[Event]]:
    """A state at the start of a deal, and (with ``announce``) the events that announce it."""
    n = rules.players
    hands, turned, rest = deal_cards(rules, cards, dealer)
    zeros = (0,) * n
    leader = (dealer + 1) % n
    commitment = seed_commitment(seed)
    fields = dict(
        rules=rules,
        seed=match_seed,
        deal_no=deal_no,
        deal_seed=seed,
        commitment=commitment,
        dealer=dealer,
        hands=tuple(tuple(hand) for hand in hands),
        stock=(*rest, turned),
        trump=turned.suit,
        trump_card=turned,
        trump_under=True,
        closed_by=None,
        frozen=None,
        to_move=leader,
        trick=(),
        history=(),
        card_points=zeros,
        tricks_won=zeros,
        marriage_points=zeros,
        pending=zeros,
        marriages=(),
        shown=(),
        bonus=zeros,
        game_points=game_points,
        deal_results=base.deal_results if base is not None else (),
        deal_over=False,
        match_over=False,
        match_winner=None,
        continues=continues,
    )
    if base is None:
        state = State(**fields)
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
                "trump": turned.suit,
                "trump_card": turned.code,
                "stock": len(state.stock),
                "hand_counts": [len(hand) for hand in hands],
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


def new_match(rules: Rules, seed: str, dealer: int | None = None) -> State:
    """A new match with its first deal dealt.

    ``seed`` is the match seed (callers draw it with ``secrets.token_hex``); every deal's seed is
    derived from it with :func:`deal_seed`, and the first dealer with :func:`first_dealer`
    unless ``dealer`` names it. The same seed always gives the same match.
    """
    if not isinstance(seed, str) or not seed:
        raise ValueError("a match seed must be a non-empty string")
    if dealer is None:
        dealer = first_dealer(seed, rules.players)
    _check_seat(rules, dealer)
    first = deal_seed(seed, 1)
    state, _ = start_deal(
        None,
        rules,
        match_seed=seed,
        deal_no=1,
        dealer=dealer,
        seed=first,
        cards=shuffled_deck(rules.deck, first),
        game_points=(0,) * rules.players,
        continues=True,
        announce=False,
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
    plus the deal's reach the target). Without ``deck`` or ``seed`` it raises ValueError.

    >>> from app.engine import preset
    >>> new_deal(preset("sixty-six"), seed="abc").to_move
    1
    """
    _check_seat(rules, dealer)
    if deck is not None:
        cards = check_deck(rules, deck)
        seed = seed or "deck:" + ",".join(card.code for card in cards)
    elif seed is not None:
        cards = shuffled_deck(rules.deck, seed)
    else:
        raise ValueError("new_deal needs a deck order or a seed")
    points = tuple(game_points) if game_points is not None else (0,) * rules.players
    if len(points) != rules.players:
        raise ValueError(f"game_points needs one number per seat ({rules.players})")
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
