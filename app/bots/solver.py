"""Exact play of a deal whose every card is known: alpha-beta over the rest of the deal.

Once the stock is exhausted (or closed) nobody draws again, so a position with both hands known
is a small perfect-information game. A sampled world also fixes the order of the stock, so a
position whose stock is still open is one too (the winner of each trick draws the next card,
the leader may exchange, declare a marriage or close); its tree is small only when few cards
are left to draw. :func:`solve` returns the game-point margin of a seat
under best play by both sides, and :func:`action_values` the margin after each legal option of
the seat on move. In manual claim mode the mover may also claim, rightly or wrongly.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.engine.scoring import GOING_OUT, deal_value

from .cards import (
    ABOVE,
    KING,
    PLAIN_MARRIAGE,
    POINTS_LIST,
    QUEEN,
    SUIT_MASK,
    TAKERS,
    TRUMP_MARRIAGE,
    cards_of,
)
from .playout import (
    CLAIM_COL,
    CLOSE_COL,
    EXCHANGE_COL,
    MARRIAGE_COL,
    Position,
    Table,
)

_ABOVE = [int(m) for m in ABOVE]
_SUIT = [int(m) for m in SUIT_MASK]
INF = 1000
_BY_POINTS = [-p for p in POINTS_LIST]
"""Sort key of a card: the highest first (the order leads are tried in, which prunes more
than trumps first)."""


_FOLLOW_KEYS = [
    [
        [
            -POINTS_LIST[c] if (TAKERS[trump][led] >> c) & 1 else 20 + POINTS_LIST[c]
            for c in range(32)
        ]
        for led in range(32)
    ]
    for trump in range(4)
]
"""``_FOLLOW_KEYS[trump][led][card]``: the sort key of a reply, so that the cards that take
the trick come first (highest first), then those that lose it (cheapest first)."""


def strict_follows(table: Table, trump: int, hand: int, led: int) -> int:
    """The cards of ``hand`` a follower may play to ``led`` once play is strict (the stock
    closed or exhausted): the led suit (higher under ``strict=head``), else under
    ``strict=head`` a trump, else any card."""
    same = hand & _SUIT[led >> 3]
    if table.strict_head:
        higher = same & _ABOVE[led]
        trumps = hand & _SUIT[trump]
        return (higher or same) if same else (trumps or hand)
    return same or hand


def marriage_columns(hand: int) -> list[int]:
    """The option columns of the marriages ``hand`` may declare (queen, then king, by suit)."""
    columns = []
    for suit in range(4):
        if (hand >> (suit * 8 + QUEEN)) & 1 and (hand >> (suit * 8 + KING)) & 1:
            columns += [MARRIAGE_COL + 2 * suit, MARRIAGE_COL + 2 * suit + 1]
    return columns


def column_card(column: int, trump: int) -> tuple[int, int]:
    """The card an option column plays and the points of the marriage it declares (0 for a
    plain play)."""
    if column < MARRIAGE_COL:
        return column, 0
    suit, is_king = divmod(column - MARRIAGE_COL, 2)
    points = TRUMP_MARRIAGE if suit == trump else PLAIN_MARRIAGE
    return suit * 8 + (KING if is_king else QUEEN), points


@dataclass(slots=True)
class _Node:
    """A mutable search position (the solver undoes its changes as it backtracks)."""

    hands: list[int]
    lead: int
    to_move: int
    points: list[int]
    marriages: list[int]
    pending: list[int]
    tricks: list[int]
    bonus: list[int]
    drawn: int
    """Cards drawn from the stock since the position (the next one is ``stock[drawn]``)."""


class Solver:
    """Alpha-beta search of one position for ``root`` seat's game-point margin."""

    def __init__(self, table: Table, position: Position, root: int) -> None:
        self.table = table
        self._takers = TAKERS[position.trump]
        self._follow_keys = _FOLLOW_KEYS[position.trump]
        self.bound = max(3, int(table.deal_values().max()))
        """No deal ends with a larger margin (game points 1 to 3, a failed closing -3): a
        search window clamped to it prunes as soon as a side reaches it."""
        self.stock = list(position.stock)
        self.trump = position.trump
        self.closed_by = position.closed_by
        self.frozen = position.frozen
        self.root = root
        self.nodes = 0
        self.known: dict[tuple[object, ...], tuple[int, int]] = {}
        """Bounds of the value of positions already searched (a transposition table)."""
        self.node = _Node(
            hands=list(position.hands),
            lead=position.lead,
            to_move=position.to_move,
            points=list(position.card_points),
            marriages=list(position.marriages),
            pending=list(position.pending),
            tricks=list(position.tricks),
            bonus=list(position.bonus),
            drawn=0,
        )

    @property
    def stock_open(self) -> bool:
        """True while the winner of a trick still draws."""
        return self.closed_by < 0 and self.node.drawn < len(self.stock)

    # -- options ---------------------------------------------------------------------------

    def options(self) -> list[int]:
        """The mover's option columns (see ``app.bots.playout``), in a good search order."""
        n = self.node
        hand = n.hands[n.to_move]
        t = self.table
        columns = [CLAIM_COL] if t.manual_claim else []
        stock_open = self.stock_open
        if n.lead >= 0:
            if stock_open:
                return columns + self._follow_order(cards_of(hand), n.lead)
            return columns + self._follow_cards(hand, n.lead)
        if stock_open:
            columns += self._open_extras(n.to_move, hand)
        if stock_open or t.marriages_in_strict_phase:
            columns += marriage_columns(hand)
        cards = cards_of(hand)
        cards.sort(key=_BY_POINTS.__getitem__)
        return columns + cards

    def _open_extras(self, seat: int, hand: int) -> list[int]:
        """The exchange and the closing a leader may choose while the stock is open."""
        t = self.table
        left = len(self.stock) - self.node.drawn
        extras = []
        low = self.trump * 8 + t.exchange_strength
        if (
            left >= t.exchange_min_stock
            and (hand >> low) & 1
            and (self.node.tricks[seat] > 0 or not t.exchange_needs_trick)
        ):
            extras.append(EXCHANGE_COL)
        if left >= t.close_min_stock:
            extras.append(CLOSE_COL)
        return extras

    def _follow_cards(self, hand: int, led: int) -> list[int]:
        allowed = strict_follows(self.table, self.trump, hand, led)
        return self._follow_order(cards_of(allowed), led)

    def _follow_order(self, cards: list[int], led: int) -> list[int]:
        """``cards`` in the order a follower's replies are tried: the cards that take the
        trick, highest first, then those that lose it, cheapest first."""
        cards.sort(key=self._follow_keys[led].__getitem__)
        return cards

    def _score(self, seat: int) -> int:
        n = self.node
        return n.points[seat] + n.marriages[seat] + n.bonus[seat]

    # -- search ----------------------------------------------------------------------------

    def solve(self, alpha: int = -INF, beta: int = INF) -> int:
        """The root seat's game-point margin under best play from the current node."""
        self.nodes += 1
        alpha, beta = max(alpha, -self.bound), min(beta, self.bound)
        n = self.node
        key = (
            n.hands[0],
            n.hands[1],
            n.lead,
            n.to_move,
            n.points[0],
            n.points[1],
            n.marriages[0],
            n.marriages[1],
            n.pending[0],
            n.pending[1],
            n.tricks[0] > 0,
            n.tricks[1] > 0,
            n.drawn,
            self.stock[-1] if self.stock else -1,
            self.frozen,
        )
        low, high = self.known.get(key, (-INF, INF))
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        alpha, beta = max(alpha, low), min(beta, high)
        window = alpha, beta
        best = self._search(alpha, beta)
        if best <= window[0]:
            self.known[key] = (low, best)
        elif best >= window[1]:
            self.known[key] = (best, high)
        else:
            self.known[key] = (best, best)
        return best

    def _search(self, alpha: int, beta: int) -> int:
        maximizing = self.node.to_move == self.root
        best = -INF if maximizing else INF
        for column in self.options():
            value = self.value_after(column, alpha, beta)
            if maximizing:
                best = max(best, value)
                alpha = max(alpha, value)
            else:
                best = min(best, value)
                beta = min(beta, value)
            if alpha >= beta:
                break
        return best

    def value_after(self, column: int, alpha: int = -INF, beta: int = INF) -> int:
        """The root seat's margin after the mover takes ``column``, then best play."""
        n = self.node
        seat = n.to_move
        if column == CLAIM_COL:
            return self._claim(seat)
        if column == EXCHANGE_COL:
            return self._exchange(seat, alpha, beta)
        if column == CLOSE_COL:
            return self._close(seat, alpha, beta)
        if column >= MARRIAGE_COL:
            card, marriage = column_card(column, self.trump)
            return self._lead(seat, card, marriage, alpha, beta)
        if n.lead < 0:
            return self._lead(seat, column, 0, alpha, beta)
        return self._follow(seat, column, alpha, beta)

    def _lead(self, seat: int, card: int, marriage: int, alpha: int, beta: int) -> int:
        n = self.node
        n.hands[seat] ^= 1 << card
        n.lead = card
        n.to_move = 1 - seat
        credited = marriage and n.tricks[seat] > 0
        if credited:
            n.marriages[seat] += marriage
        elif marriage:
            n.pending[seat] += marriage
        if credited and not self.table.manual_claim and self._score(seat) >= GOING_OUT:
            value = self._judge(seat, "reached", seat)
        else:
            value = self.solve(alpha, beta)
        if credited:
            n.marriages[seat] -= marriage
        elif marriage:
            n.pending[seat] -= marriage
        n.to_move = seat
        n.lead = -1
        n.hands[seat] ^= 1 << card
        return value

    def _exchange(self, seat: int, alpha: int, beta: int) -> int:
        n = self.node
        low = self.trump * 8 + self.table.exchange_strength
        turned = self.stock[-1]
        swap = (1 << low) | (1 << turned)
        n.hands[seat] ^= swap
        self.stock[-1] = low
        value = self.solve(alpha, beta)
        self.stock[-1] = turned
        n.hands[seat] ^= swap
        return value

    def _close(self, seat: int, alpha: int, beta: int) -> int:
        n = self.node
        self.closed_by = seat
        self.frozen = (
            (n.points[0] + n.bonus[0], n.marriages[0], n.tricks[0]),
            (n.points[1] + n.bonus[1], n.marriages[1], n.tricks[1]),
        )
        value = self.solve(alpha, beta)
        self.closed_by = -1
        self.frozen = None
        return value

    def _follow(self, seat: int, card: int, alpha: int, beta: int) -> int:
        n = self.node
        led = n.lead
        drawing = self.stock_open
        leader = 1 - seat
        winner = seat if (self._takers[led] >> card) & 1 else leader
        gained = POINTS_LIST[card] + POINTS_LIST[led]
        pending = n.pending[winner]
        n.hands[seat] ^= 1 << card
        n.lead = -1
        n.to_move = winner
        n.points[winner] += gained
        n.tricks[winner] += 1
        n.marriages[winner] += pending
        n.pending[winner] = 0
        if drawing:
            drawn = n.drawn
            n.hands[winner] |= 1 << self.stock[drawn]
            n.hands[1 - winner] |= 1 << self.stock[drawn + 1]
            n.drawn += 2
        if not self.table.manual_claim and self._score(winner) >= GOING_OUT:
            value = self._judge(winner, "reached", winner)
        elif not (n.hands[0] | n.hands[1]):
            bonus = self.table.last_trick_bonus if self.closed_by < 0 else 0
            n.bonus[winner] += bonus
            value = self._judge(winner, "last", winner)
            n.bonus[winner] -= bonus
        else:
            value = self.solve(alpha, beta)
        if drawing:
            n.drawn -= 2
            n.hands[winner] ^= 1 << self.stock[n.drawn]
            n.hands[1 - winner] ^= 1 << self.stock[n.drawn + 1]
        n.pending[winner] = pending
        n.marriages[winner] -= pending
        n.tricks[winner] -= 1
        n.points[winner] -= gained
        n.to_move = seat
        n.lead = led
        n.hands[seat] ^= 1 << card
        return value

    def _claim(self, seat: int) -> int:
        own, other = self._score(seat), self._score(1 - seat)
        if own < GOING_OUT:
            return self._judge(1 - seat, "wrong", seat)
        winner = 1 - seat if other >= GOING_OUT and other > own else seat
        return self._judge(winner, "claim", seat)

    # -- scoring ---------------------------------------------------------------------------

    def _judge(self, winner: int, how: str, actor: int) -> int:
        """The root seat's margin for a deal ending now (``app.engine.scoring.judge``)."""
        game = deal_points(
            self.table,
            winner,
            how,
            actor,
            self.node.points,
            self.node.marriages,
            self.node.bonus,
            self.node.tricks,
            self.closed_by,
            self.frozen,
        )
        return game[self.root] - game[1 - self.root]


def deal_points(
    table: Table,
    winner: int,
    how: str,
    actor: int,
    points: list[int],
    marriages: list[int],
    bonus: list[int],
    tricks: list[int],
    closed_by: int,
    frozen: tuple[tuple[int, int, int], tuple[int, int, int]] | None,
) -> list[int]:
    """Game points per seat of a deal ending as ``how`` says: reached (66), claim (right),
    wrong (a wrong claim by ``actor``) or last (the last trick)."""
    t = table

    def counted(cp: int, m: int) -> int:
        return cp + (m if t.loser_counts_marriages else 0)

    def value(p: int, won: int) -> int:
        return deal_value(t.rules, p, won)

    game = [0, 0]
    if how == "wrong" and (closed_by < 0 or actor != closed_by):
        opponent = 1 - actor
        if t.wrong_claim_value:
            cp = points[opponent] + bonus[opponent]
            game[opponent] = value(counted(cp, marriages[opponent]), tricks[opponent])
        else:
            game[opponent] = 3 if tricks[opponent] == 0 else 2
        return game
    if closed_by >= 0:
        assert frozen is not None
        score = points[closed_by] + marriages[closed_by] + bonus[closed_by]
        if winner == closed_by and (how != "last" or score >= GOING_OUT):
            cp, m, won = frozen[1 - closed_by]
            game[closed_by] = value(counted(cp, m), won)
            return game
        other = 1 - closed_by
        cp, m, won = frozen[other]
        if t.close_fail == 0:
            game[other] = 3 if won == 0 else 2
        elif t.close_fail == 1:
            game[closed_by] = -3
        else:
            game[other] = max(2, value(counted(cp, m), won))
        return game
    if how == "last" and points[winner] + marriages[winner] + bonus[winner] < GOING_OUT:
        game[winner] = 1
        return game
    loser = 1 - winner
    game[winner] = value(counted(points[loser] + bonus[loser], marriages[loser]), tricks[loser])
    return game


def action_values(table: Table, position: Position) -> dict[int, int]:
    """The mover's margin after each of its options, under best play (exact)."""
    solver = Solver(table, position, position.to_move)
    return {column: solver.value_after(column) for column in solver.options()}


def solve(table: Table, position: Position, seat: int) -> int:
    """``seat``'s game-point margin from ``position`` under best play by both sides."""
    return Solver(table, position, seat).solve()
