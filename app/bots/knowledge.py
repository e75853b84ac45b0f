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
dealt). Its follows to this seat's leads while the stock is open, and its closing of the
stock, are clues with odds (:func:`follow_clues`, :data:`LEAKS`, :data:`CLOSING_ODDS`).

``sample_positions`` then deals the unseen cards into full positions consistent with all that,
keeping a deal with the odds the clues give it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from math import comb
from typing import Any, Final

from app.engine import Rules, full_deck

from .cards import (
    ABOVE,
    KING,
    POINTS_LIST,
    QUEEN,
    RANK_ORDER,
    SUIT_MASK,
    TAKERS,
    card_id,
    cards_of,
    mask_of,
    mask_of_ids,
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
    opponent_hints: tuple[tuple[int, int, float], ...]
    """Clues to the cards the opponent held earlier, each with the count of cards it has drawn
    since and its leak: a world that gives the opponent cards against a clue is kept only with
    the odds that they came in those draws, or else that it played so anyway (the leak)."""
    opponent_closed_with: int
    """The cards the opponent has played since it closed the stock, or -1 if it did not close
    it: with its hand now, what it held when it closed (:data:`CLOSING_ODDS`)."""
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

    def without_clues(self) -> Knowledge:
        """The same knowledge without the clues that have odds (the follows' clues and the
        closing odds); the facts and the rules of leading stay."""
        rules_only = tuple(hint for hint in self.opponent_hints if hint[2] == 0)
        return replace(self, opponent_hints=rules_only, opponent_closed_with=-1)

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
        for missing, drawn, leak in hints:
            unlikely |= missing if drawn == 0 and leak == 0 else 0
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
            opponent_hints=tuple(
                (missing & ~known, drawn, leak) for missing, drawn, leak in hints if drawn or leak
            ),
            opponent_closed_with=_played_since_closing(view, opponent, open_tricks),
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
) -> list[tuple[int, int, float]]:
    """What the opponent's leads and follows say about the cards it held at the time: triples
    of (cards, cards it has drawn since, leak), one per clue (:data:`LEAKS`). A lead is a
    rule players keep (leak 0): they lead a king or queen with its marriage and exchange when
    allowed. A follow while the stock is open is a habit, not a rule: the leak is how much
    less likely the follow was had the opponent held one of those cards."""
    seat = view["seat"]
    opponent = 1 - seat
    low = trump * 8 + RANK_ORDER.index(rules.exchange_rank)
    exchange_open = view["trump_card"] is not None and card_id(view["trump_card"]) != low
    married = {suit_id(m["suit"]) for m in view["marriages"] if m["seat"] == opponent}
    stock_size = Table.from_rules(rules).stock_size
    hints: list[tuple[int, int, float]] = []
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
        if led_by == opponent:
            missing = 0
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
            if missing:
                hints.append((missing, drawn, 0.0))
            if stock_open and not (rank in (QUEEN, KING) and suit in married):
                clues = lead_clues(led, trump)
                hints += [(cards, drawn, LEAKS[name]) for name, cards in clues if cards]
        elif len(cards) > 1 and stock_open:
            follow = card_id(cards[1]["card"])
            clues = follow_clues(led, follow, trump)
            hints += [(cards, drawn, LEAKS[name]) for name, cards in clues if cards]
        if i < len(view["tricks"]):
            won += view["tricks"][i]["winner"] == opponent
    return hints


LEAKS: Final = {
    "took_in_suit": 0.16,
    "trumped": 0.14,
    "ducked_high": 0.5,
    "ducked_low": 0.39,
    "no_trump_on_high": 0.15,
    "discarded": 0.27,
    "ducked_trump": 0.18,
    "spent_marriage": 0.18,
    "led_low": 0.45,
}
"""What each follow of the opponent's to this seat's lead, and each of its leads, while the
stock is open says, as the odds that a player would still have played so holding one of the
cards the clue names, against not holding any (the likelihood ratio), measured on 300
Schnapsen deals of the hard bot as it was before these clues, against itself (44 to 484 of each;
``python benchmarks/opponent_clues.py --from``, docs/strength.md):

- ``took_in_suit``: it took the trick with a card of the led suit, so it held none higher in it;
- ``trumped``: it trumped a plain lead, so it held no card of the suit above it;
- ``ducked_high``, ``ducked_low``: it let a plain ace or ten (``high``), or a lower plain
  card, win, so it held no card of the suit above it;
- ``no_trump_on_high``: it let a plain ace or ten win, so it held no trump;
- ``discarded``: it threw a plain card on a trick it lost, so it held no cheaper plain
  card;
- ``ducked_trump``: it let a trump win, so it held no higher trump;
- ``spent_marriage``: it followed with a king or queen, so it held no partner to marry it;
- ``led_low``: it led a plain king, queen or jack (without a marriage), so it held no cheaper
  plain card (484 such leads).
"""


def follow_clues(led: int, follow: int, trump: int) -> list[tuple[str, int]]:
    """The clues of a follow to a lead while the stock is open: pairs of (the clue's name in
    :data:`LEAKS`, the cards the follower then lacked by it)."""
    clues = _trick_clues(led, follow, trump)
    rank = follow & 7
    if rank in (QUEEN, KING):
        clues.append(("spent_marriage", 1 << (follow - rank + (KING if rank == QUEEN else QUEEN))))
    return clues


def lead_clues(led: int, trump: int) -> list[tuple[str, int]]:
    """The clues of a card led while the stock is open (not with a marriage): pairs of (the
    clue's name in :data:`LEAKS`, the cards the leader then lacked by it). Only a plain king,
    queen or jack says something: a player leads its cheapest plain card (``led_low``); an
    ace, a ten or a trump led said nothing measurable (docs/strength.md)."""
    if led >> 3 == trump or POINTS_LIST[led] >= 10:
        return []
    return [("led_low", _PLAIN_CHEAPER[trump][POINTS_LIST[led]] & ~(1 << led))]


def _trick_clues(led: int, follow: int, trump: int) -> list[tuple[str, int]]:
    """What taking or losing the trick says (:func:`follow_clues`)."""
    above_led = int(ABOVE[led])
    took = (TAKERS[trump][led] >> follow) & 1
    if led >> 3 == trump:
        return [] if took else [("ducked_trump", above_led)]
    if took:
        return [
            ("trumped", above_led) if follow >> 3 == trump else ("took_in_suit", int(ABOVE[follow]))
        ]
    high = POINTS_LIST[led] >= 10
    clues = [("ducked_high" if high else "ducked_low", above_led)]
    if high:
        clues.append(("no_trump_on_high", int(SUIT_MASK[trump])))
    clues.append(("discarded", _PLAIN_CHEAPER[trump][POINTS_LIST[follow]] & ~(1 << follow)))
    return clues


_PLAIN_CHEAPER: Final = [
    {
        p: mask_of_ids(c for c in range(32) if c >> 3 != trump and POINTS_LIST[c] < p)
        for p in set(POINTS_LIST)
    }
    for trump in range(4)
]
"""``[trump][points]``: the plain cards worth fewer points."""


def _played_since_closing(view: dict[str, Any], opponent: int, open_tricks: int) -> int:
    """The cards ``opponent`` has played since it closed the stock, or -1 if it did not."""
    if view["closed_by"] != opponent:
        return -1
    cards = [c for t in view["tricks"][open_tricks:] for c in t["cards"]] + list(view["trick"])
    return mask_of(c["card"] for c in cards if c["seat"] == opponent)


CLOSING_ODDS: Final = (0.08, 0.2, 0.55, 1.0)
"""How likely a player closes the stock holding no, one, two, or three or more trumps,
against three or more: the hard bot as it was before these clues closed in 3% of the turns
it could with no trump, 8% with one, 22% with two and 41% with three or more (1,134 such
turns of the same 300 deals as :data:`LEAKS`)."""


HINT_TRIES = 20
"""Deals tried for one world before the last is taken whatever the hints say."""


def _hint_odds(k: Knowledge, dealt: int) -> float:
    """The odds of the opponent's hand ``dealt`` (a bitmask) given its earlier play: the
    odds that it closed the stock with the trumps it then held, if it closed it, and for each
    clue the hand goes against, the chance that those cards all came in its draws since, or
    else the clue's leak."""
    odds = 1.0
    if k.opponent_closed_with >= 0:
        trumps = ((dealt | k.opponent_closed_with) & int(SUIT_MASK[k.trump])).bit_count()
        odds = CLOSING_ODDS[min(trumps, len(CLOSING_ODDS) - 1)]
    n = max(k.opponent_count, 1)
    for cards, drawn, leak in k.opponent_hints:
        against = (cards & dealt).bit_count()
        if against:
            if drawn >= n:
                later = 1.0
            elif drawn < against:
                later = 0.0
            else:
                later = comb(n - against, drawn - against) / comb(n, drawn)
            odds *= later + (1.0 - later) * leak
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
            opp_hand = k.opponent_known | mask_of_ids(may[:need])
            if rng.random() < _hint_odds(k, opp_hand):
                break
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
