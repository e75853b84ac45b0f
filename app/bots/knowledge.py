"""What one seat knows, worked out from its view alone.

``Knowledge.from_view`` counts the cards seen (every trick of the deal, the current trick, the
turned trump card, cards shown for marriages or taken by an exchange), recomputes both scores
the way a player counts in their head (scores are hidden in manual claim mode), finds the
closing-time freeze, and records what strict-phase play revealed about the opponent's hand:
a suit it could not follow (void), no trump when it neither followed nor trumped, and, under
``strict=head``, no card above the led card when it followed without heading the trick. From
the card the opponent has just led it also infers what a player who held it would have done
first: a king or queen led without its marriage means the partner is not in that hand, and a
lead without the exchange it was allowed means it lacks the trump card to exchange (players
take both whenever they can; an inference the cards contradict is dropped when worlds are
dealt).

``sample_positions`` then deals the unseen cards into full positions consistent with all that.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from app.engine import Rules, full_deck

from .cards import (
    ABOVE,
    KING,
    POINTS_LIST,
    QUEEN,
    RANK_ORDER,
    SUIT_MASK,
    card_id,
    cards_of,
    mask_of,
    suit_id,
)
from .playout import Position, Table


@dataclass(frozen=True, slots=True)
class Knowledge:
    """One seat's picture of the deal: its own cards, the public facts, and inferences."""

    rules: Rules
    table: Table
    seat: int
    hand: int
    """Own cards (bitmask)."""
    trump: int
    turned: int
    """The turned trump card while it lies under the stock, else -1."""
    stock: int
    """Cards in the stock, the turned card included."""
    closed_by: int
    lead: int
    """The card the opponent led to the current trick, or -1 when this seat leads."""
    played: int
    """Every card played in this deal, the current trick included."""
    opponent_known: int
    """Cards known to be in the opponent's hand (shown for a marriage or taken by exchange)."""
    opponent_allowed: int
    """Cards the opponent may hold, given what its strict-phase play revealed."""
    opponent_unlikely: int
    """Cards the opponent would have used had it held them (inferred from how players play,
    not from the rules: a world without them is preferred, not required)."""
    opponent_hints: tuple[tuple[int, int], ...]
    """Cards the opponent would have used earlier had it held them then, each with the count
    of cards it has drawn since: a world that gives it such a card is kept only with the odds
    that the card came in one of those draws."""
    opponent_count: int
    card_points: tuple[int, int]
    marriages: tuple[int, int]
    """Credited marriage points."""
    pending: tuple[int, int]
    tricks: tuple[int, int]
    frozen: tuple[tuple[int, int, int], tuple[int, int, int]] | None
    legal: tuple[dict[str, Any], ...]

    @property
    def opponent(self) -> int:
        """The other seat."""
        return 1 - self.seat

    @property
    def stock_open(self) -> bool:
        """True while cards are still drawn."""
        return self.stock > 0 and self.closed_by < 0

    @property
    def unseen(self) -> int:
        """Cards this seat has not seen: the opponent's hand and the hidden stock."""
        deck = mask_of(c.code for c in full_deck(self.rules.deck))
        turned = (1 << self.turned) if self.turned >= 0 else 0
        return deck & ~self.hand & ~self.played & ~turned

    @property
    def all_known(self) -> bool:
        """True when every hidden card is in the opponent's hand (the stock is exhausted)."""
        return self.stock == 0

    def score(self, seat: int) -> int:
        """Card points won plus credited marriages (the last-trick bonus comes at the end)."""
        return self.card_points[seat] + self.marriages[seat]

    @classmethod
    def from_view(cls, view: dict[str, Any]) -> Knowledge:
        """Work out the seat's knowledge from ``view`` (a dict from ``app.engine.view``)."""
        rules = Rules.from_options(view["variant"], view["rules"])
        table = Table.from_rules(rules)
        seat = view["seat"]
        opponent = 1 - seat
        tricks = view["tricks"]
        points = [0, 0]
        won = [0, 0]
        played = 0
        open_tricks = (table.stock_size - view["stock"]) // 2
        frozen_points = [0, 0]
        frozen_tricks = [0, 0]
        first_win: list[list[int]] = [[], []]
        for i, trick in enumerate(tricks):
            winner = trick["winner"]
            cards = [card_id(c["card"]) for c in trick["cards"]]
            value = sum(POINTS_LIST[c] for c in cards)
            points[winner] += value
            won[winner] += 1
            first_win[winner].append(i)
            if i < open_tricks:
                frozen_points[winner] += value
                frozen_tricks[winner] += 1
            for c in cards:
                played |= 1 << c
        current = [(c["seat"], card_id(c["card"])) for c in view["trick"]]
        for _, c in current:
            played |= 1 << c
        lead = current[0][1] if current and current[0][0] == opponent else -1
        pending = tuple(view["pending_marriages"])
        credited = [0, 0]
        frozen_marriages = [0, 0]
        for m in view["marriages"]:
            credit_at = _marriage_credit_time(m, tricks, view["trick"], first_win[m["seat"]])
            if credit_at is None:
                continue
            credited[m["seat"]] += m["points"]
            if credit_at < open_tricks:
                frozen_marriages[m["seat"]] += m["points"]
        closed_by = view["closed_by"] if view["closed_by"] is not None else -1
        frozen = None
        if closed_by >= 0:
            frozen = tuple(
                (frozen_points[s], frozen_marriages[s], frozen_tricks[s]) for s in (0, 1)
            )
        turned = card_id(view["trump_card"]) if view["trump_card"] else -1
        # A shown card can only still be in the opponent's hand if nobody has seen it since:
        # never trust a listing of a card already played, in this hand or turned up.
        shown = mask_of(s["card"] for s in view["shown"] if s["seat"] == opponent)
        seen_elsewhere = played | mask_of(view["hand"]) | ((1 << turned) if turned >= 0 else 0)
        known = shown & ~seen_elsewhere
        trump = suit_id(view["trump"])
        allowed = _allowed(tricks[open_tricks:], opponent, trump, table.strict_head) | known
        hints = _hints(view, rules, trump, open_tricks)
        unlikely = 0
        for missing, drawn in hints:
            unlikely |= missing if drawn == 0 else 0
        return cls(
            rules=rules,
            table=table,
            seat=seat,
            hand=mask_of(view["hand"]),
            trump=trump,
            turned=turned,
            stock=view["stock"],
            closed_by=closed_by,
            lead=lead,
            played=played,
            opponent_known=known,
            opponent_allowed=allowed,
            opponent_unlikely=unlikely & ~known,
            opponent_hints=tuple((missing & ~known, drawn) for missing, drawn in hints if drawn),
            opponent_count=view["hand_counts"][opponent],
            card_points=(points[0], points[1]),
            marriages=(credited[0], credited[1]),
            pending=(pending[0], pending[1]),
            tricks=(won[0], won[1]),
            frozen=frozen,  # type: ignore[arg-type]
            legal=tuple(view["legal"]),
        )


def _marriage_credit_time(
    marriage: dict[str, Any],
    tricks: list[dict[str, Any]],
    current: list[dict[str, Any]],
    wins: list[int],
) -> int | None:
    """The trick index at which a declared marriage was credited (None: still pending)."""
    seat, suit = marriage["seat"], marriage["suit"]
    declared = len(tricks)
    for i, trick in enumerate(tricks):
        lead = trick["cards"][0]
        if lead["seat"] == seat and lead["card"][1] == suit and lead["card"][0] in "KQ":
            declared = i
            break
    else:
        if not (current and current[0]["seat"] == seat):
            return None
    if any(w < declared for w in wins):
        return declared
    later = [w for w in wins if w >= declared]
    return later[0] if later else None


def _allowed(strict_tricks: list[dict[str, Any]], opponent: int, trump: int, head: bool) -> int:
    """The cards the opponent may still hold after following in these strict-phase tricks."""
    allowed = (1 << 32) - 1
    for trick in strict_tricks:
        (_, led), (follower, card) = ((c["seat"], card_id(c["card"])) for c in trick["cards"])
        if follower != opponent:
            continue
        if card >> 3 != led >> 3:
            allowed &= ~int(SUIT_MASK[led >> 3])
            if head and card >> 3 != trump:
                allowed &= ~int(SUIT_MASK[trump])
        elif head and card < led:
            allowed &= ~int(ABOVE[led])
    return allowed


def _hints(
    view: dict[str, Any], rules: Rules, trump: int, open_tricks: int
) -> list[tuple[int, int]]:
    """What the opponent's leads and follows say it did not hold at the time: pairs of (cards,
    cards it has drawn since). A player leads a king or queen with its marriage, exchanges
    when allowed, and takes a plain card led to it with the ace or ten of that suit while the
    stock is open; a lead or follow that did not means it lacked those cards then."""
    seat = view["seat"]
    opponent = 1 - seat
    low = trump * 8 + RANK_ORDER.index(rules.exchange_rank)
    exchange_open = view["trump_card"] is not None and card_id(view["trump_card"]) != low
    married = {suit_id(m["suit"]) for m in view["marriages"] if m["seat"] == opponent}
    stock_size = Table.from_rules(rules).stock_size
    hints = []
    won = 0
    tricks = [t["cards"] for t in view["tricks"]]
    if view["trick"]:
        tricks.append(view["trick"])
    for i, cards in enumerate(tricks):
        stock_open = i < open_tricks or (
            i == len(view["tricks"]) and view["closed_by"] is None and view["stock"] > 0
        )
        drawn = max(0, open_tricks - i)
        led_by, led = cards[0]["seat"], card_id(cards[0]["card"])
        suit, rank = divmod(led, 8)
        missing = 0
        if led_by == opponent:
            may_marry = stock_open or rules.marriages_in_strict_phase
            if may_marry and rank in (QUEEN, KING) and suit not in married:
                missing |= 1 << (suit * 8 + (KING if rank == QUEEN else QUEEN))
            if (
                exchange_open
                and stock_open
                and stock_size - 2 * i >= rules.exchange_min_stock
                and (won > 0 or not rules.exchange_needs_trick)
            ):
                missing |= 1 << low
        elif len(cards) > 1 and stock_open and suit != trump:
            follow = card_id(cards[1]["card"])
            if not (follow >> 3 == suit and follow > led):
                missing |= int(SUIT_MASK[suit]) & int(ABOVE[led]) & _ACES_AND_TENS
        if missing:
            hints.append((missing, drawn))
        if i < len(view["tricks"]):
            won += view["tricks"][i]["winner"] == opponent
    return hints


_ACES_AND_TENS = mask_of(f"{r}{s}" for r in "AT" for s in "CDHS")


HINT_TRIES = 20
"""Deals tried for one world before the last is taken whatever the hints say."""


def _hint_odds(k: Knowledge, dealt: list[int]) -> float:
    """The odds of a deal of ``dealt`` to the opponent given its earlier play: for each card
    it would have used had it held it then, the chance the card came in a later draw."""
    odds = 1.0
    for cards, drawn in k.opponent_hints:
        for c in dealt:
            if (cards >> c) & 1:
                odds *= min(1.0, drawn / max(k.opponent_count, 1))
    return odds


def sample_positions(knowledge: Knowledge, n: int, rng: random.Random) -> list[Position]:
    """``n`` full positions (the unseen cards dealt at random) consistent with ``knowledge``.

    The opponent gets its known cards plus a random choice among the cards it may hold (and
    would not have used already, while that leaves enough); the rest go to the stock in random
    order above the turned card. If the inferences leave too few cards for the opponent, or
    more cards for the stock than it holds (an exhausted stock holds none), they are dropped:
    the count of cards is a fact, an inference is not.
    """
    k = knowledge
    me, opp = k.seat, k.opponent
    turned = (1 << k.turned) if k.turned >= 0 else 0
    pool = k.unseen & ~k.opponent_known & ~turned
    need = k.opponent_count - k.opponent_known.bit_count()
    hidden_stock = k.stock - (1 if k.turned >= 0 else 0)
    for allowed in (k.opponent_allowed & ~k.opponent_unlikely, k.opponent_allowed, pool):
        may, must_stock = cards_of(pool & allowed), cards_of(pool & ~allowed)
        if len(may) >= need and len(must_stock) <= hidden_stock:
            break
    positions = []
    for _ in range(n):
        for _ in range(HINT_TRIES):
            rng.shuffle(may)
            if rng.random() < _hint_odds(k, may[:need]):
                break
        opp_hand = k.opponent_known
        for c in may[:need]:
            opp_hand |= 1 << c
        stock = may[need:] + must_stock
        rng.shuffle(stock)
        if k.turned >= 0:
            stock.append(k.turned)
        hands = [0, 0]
        hands[me], hands[opp] = k.hand, opp_hand
        positions.append(
            Position(
                hands=(hands[0], hands[1]),
                stock=tuple(stock),
                trump=k.trump,
                to_move=me,
                lead=k.lead,
                closed_by=k.closed_by,
                frozen=k.frozen,
                card_points=k.card_points,
                marriages=k.marriages,
                pending=k.pending,
                tricks=k.tricks,
            )
        )
    return positions
