"""Fast playouts: many two-player deals played to their end in lockstep with numpy.

The public engine plays one deal at a time through immutable states; a bot that searches needs
tens of thousands of deals per second. This module keeps N deals as integer arrays (cards are
ids from :mod:`app.bots.cards`, hands are bitmasks) and advances every unfinished deal by one
decision per step, honouring every option of the two-player presets: strict ``head``/``follow``,
marriages (pending until the declarer's first trick; in the strict phase only with
``marriages_in_strict_phase``), the trump exchange, closing with the closing-time freeze and each
``close_fail`` mode, the last-trick bonus, automatic or manual claims (with each
``wrong_claim`` mode) and game points 1/2/3 with either ``schwarz`` rule.

**The random playout policy.** At each decision the mover lists its legal options in the
canonical order: plain plays by card id (suit C, D, H, S, then rank low to high), then marriage
plays by card id, then ``exchange``, ``close``, ``claim``. With ``n`` options and the next
uniform number ``u`` in [0, 1) of that deal's stream, it takes option ``floor(u * n)`` (counted
from 0). The engine surface playing the same deal with the same numbers in the same way reaches
the same outcome; tests/bots/test_playout_agreement.py checks it.

Usage::

    table = Table.from_rules(preset("schnapsen"))
    batch = Batch.from_decks(table, decks, dealers)  # or Batch.from_positions(table, positions)
    outcome = play_out(batch, rng=np.random.default_rng(1))
    outcome.game_points  # (N, 2) game points per seat
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

import numpy as np

from app.engine import Rules, full_deck
from app.engine.scoring import GOING_OUT, deal_value

from .cards import (
    ABOVE,
    CLOSING_SCORE,
    KING,
    PLAIN_MARRIAGE,
    POINTS,
    QUEEN,
    RANK_ORDER,
    SUIT_MASK,
    TAKERS,
    TRUMP_MARRIAGE,
    card_id,
)

TERMINATIONS: Final = (
    "reached_66",
    "claim",
    "wrong_claim",
    "last_trick",
    "closed",
    "close_failed",
)
"""Termination codes of the playouts, in the order of their numbers (engine ``Termination``)."""
REACHED, CLAIM, WRONG_CLAIM, LAST_TRICK, CLOSED, CLOSE_FAILED = range(6)

MARRIAGE_COL: Final = 32
EXCHANGE_COL: Final = 40
CLOSE_COL: Final = 41
CLAIM_COL: Final = 42
N_OPTIONS: Final = 43
"""Option columns: 0..31 play the card with that id, 32..39 play Q/K of C, D, H, S with a
marriage (card-id order), then exchange, close and claim. Column order is the canonical order."""

MARRIAGE_CARDS: Final = np.array(
    [s * 8 + r for s in range(4) for r in (QUEEN, KING)], dtype=np.int64
)
_QUEEN_COLS: Final = MARRIAGE_CARDS[0::2]
_KING_COLS: Final = MARRIAGE_CARDS[1::2]
_SHIFTS: Final = np.arange(32, dtype=np.int64)
_COLUMN_CARD: Final = np.concatenate([np.arange(32), MARRIAGE_CARDS, [0, 0, 0]]).astype(np.int64)

MAX_COUNTED: Final = 400
"""More points than any loser can count (card points, bonus and marriages), for the tables
of deal values."""


@dataclass(frozen=True, slots=True)
class Table:
    """The rule options a playout needs, as plain numbers."""

    deck: int
    hand_size: int
    schnapsen_deal: bool
    strict_head: bool
    marriages_in_strict_phase: bool
    exchange_strength: int
    exchange_needs_trick: bool
    exchange_min_stock: int
    close_min_stock: int
    last_trick_bonus: int
    manual_claim: bool
    loser_counts_marriages: bool
    close_fail: int
    """0 opponent_2_or_3, 1 closer_minus_3, 2 closer_value_min_2."""
    wrong_claim_value: bool
    """True for ``claimer_value``."""
    rules: Rules
    """The engine's rules, for the engine's deal scoring."""

    @classmethod
    def from_rules(cls, rules: Rules) -> Table:
        """The table of an engine ``Rules`` value (two players).

        Hands are bitmasks with one bit per card, so the double deck (two copies of each
        card) cannot be represented: it raises ValueError (the bots play that deck with
        :mod:`app.bots.group` and :mod:`app.bots.sampling` instead).
        """
        if rules.deck == 48:
            raise ValueError("the computer players count cards for single decks only")
        return cls(
            deck=rules.deck,
            hand_size=rules.hand_size,
            schnapsen_deal=rules.deal_order == "schnapsen",
            strict_head=rules.strict == "head",
            marriages_in_strict_phase=rules.marriages_in_strict_phase,
            exchange_strength=RANK_ORDER.index(rules.exchange_rank),
            exchange_needs_trick=rules.exchange_needs_trick,
            exchange_min_stock=rules.exchange_min_stock,
            close_min_stock=rules.close_min_stock,
            last_trick_bonus=rules.last_trick_bonus,
            manual_claim=rules.claim == "manual",
            loser_counts_marriages=rules.loser_counts_marriages,
            close_fail=("opponent_2_or_3", "closer_minus_3", "closer_value_min_2").index(
                rules.close_fail
            ),
            wrong_claim_value=rules.wrong_claim == "claimer_value",
            rules=rules,
        )

    def deal_values(self) -> np.ndarray:
        """``deal_values()[points, took_a_trick]``: the engine's ``deal_value`` for a loser
        counting ``points`` (below :data:`MAX_COUNTED`) with no trick (0) or some (1)."""
        values: np.ndarray = _deal_values(self.rules)
        return values

    @property
    def stock_size(self) -> int:
        """Cards in the stock after the deal, the turned card included."""
        return self.deck - 2 * self.hand_size

    def deal_layout(self) -> tuple[list[int], list[int], int, list[int]]:
        """Deck positions of the non-dealer's hand, the dealer's hand, the turned card and the
        stock (docs/rules.md, section 8)."""
        h = self.hand_size
        rest = h - 3
        if self.schnapsen_deal:
            nd = [0, 1, 2, *range(7, 7 + rest)]
            dealer = [3, 4, 5, *range(7 + rest, 7 + 2 * rest)]
            turned = 6
        else:
            nd = [0, 1, 2, *range(6, 6 + rest)]
            dealer = [3, 4, 5, *range(6 + rest, 6 + 2 * rest)]
            turned = 6 + 2 * rest
        stock = list(range(2 * h + 1, self.deck))
        return nd, dealer, turned, stock


@dataclass(frozen=True, slots=True)
class Position:
    """One deal with every card known (a determinization), from any point of the deal.

    ``stock`` is top first with the turned trump card last; ``lead`` is the card led to the
    current trick (-1 when the mover leads). Per-seat pairs: ``card_points``, ``marriages``
    (credited), ``pending``, ``tricks``, ``bonus``; ``frozen`` is per seat (card points,
    marriages, tricks) at closing time, or None while the stock is not closed.
    """

    hands: tuple[int, int]
    stock: tuple[int, ...]
    trump: int
    to_move: int
    lead: int = -1
    closed_by: int = -1
    frozen: tuple[tuple[int, int, int], tuple[int, int, int]] | None = None
    card_points: tuple[int, int] = (0, 0)
    marriages: tuple[int, int] = (0, 0)
    pending: tuple[int, int] = (0, 0)
    tricks: tuple[int, int] = (0, 0)
    bonus: tuple[int, int] = (0, 0)


class Batch:
    """N deals in lockstep: every field is an array with one row per deal."""

    hand: np.ndarray  # (N, 2) bitmasks
    stock: np.ndarray  # (N, S) card ids, right-aligned: the next card is at S - stock_n
    stock_n: np.ndarray
    trump: np.ndarray
    to_move: np.ndarray
    lead: np.ndarray
    closed: np.ndarray
    frozen: np.ndarray  # (N, 2, 3)
    points: np.ndarray  # (N, 2) card points
    marriages: np.ndarray
    pending: np.ndarray
    tricks: np.ndarray
    bonus: np.ndarray

    _ROW_FIELDS: Final = (
        "hand",
        "stock",
        "stock_n",
        "trump",
        "to_move",
        "lead",
        "closed",
        "frozen",
        "points",
        "marriages",
        "pending",
        "tricks",
        "bonus",
    )

    def __init__(self, table: Table, **fields: np.ndarray) -> None:
        self.table = table
        for name in self._ROW_FIELDS:
            setattr(self, name, fields[name])

    def __len__(self) -> int:
        return len(self.to_move)

    def take(self, rows: np.ndarray) -> Batch:
        """A new batch of the given rows (an index or boolean array), copied."""
        return Batch(self.table, **{name: getattr(self, name)[rows] for name in self._ROW_FIELDS})

    @classmethod
    def from_decks(cls, table: Table, decks: np.ndarray, dealers: np.ndarray) -> Batch:
        """Fresh deals from deck orders (rows of card ids, first card dealt first)."""
        decks = np.asarray(decks, dtype=np.int64)
        dealers = np.asarray(dealers, dtype=np.int64)
        n = len(decks)
        nd_pos, dealer_pos, turned_pos, stock_pos = table.deal_layout()
        one = np.int64(1)
        nd_hand = np.bitwise_or.reduce(one << decks[:, nd_pos], axis=1)
        dealer_hand = np.bitwise_or.reduce(one << decks[:, dealer_pos], axis=1)
        hand = np.empty((n, 2), dtype=np.int64)
        hand[:, 0] = np.where(dealers == 0, dealer_hand, nd_hand)
        hand[:, 1] = np.where(dealers == 0, nd_hand, dealer_hand)
        stock = decks[:, [*stock_pos, turned_pos]].copy()
        zeros2 = np.zeros((n, 2), dtype=np.int64)
        return cls(
            table,
            hand=hand,
            stock=stock,
            stock_n=np.full(n, stock.shape[1], dtype=np.int64),
            trump=decks[:, turned_pos] >> 3,
            to_move=1 - dealers,
            lead=np.full(n, -1, dtype=np.int64),
            closed=np.full(n, -1, dtype=np.int64),
            frozen=np.zeros((n, 2, 3), dtype=np.int64),
            points=zeros2,
            marriages=zeros2.copy(),
            pending=zeros2.copy(),
            tricks=zeros2.copy(),
            bonus=zeros2.copy(),
        )

    @classmethod
    def from_positions(cls, table: Table, positions: Sequence[Position]) -> Batch:
        """Deals from known positions (mid-deal determinizations)."""
        n = len(positions)
        width = max(1, max(len(p.stock) for p in positions))
        stock = np.zeros((n, width), dtype=np.int64)
        for i, p in enumerate(positions):
            if p.stock:
                stock[i, width - len(p.stock) :] = p.stock

        def pairs(name: str) -> np.ndarray:
            return np.array([getattr(p, name) for p in positions], dtype=np.int64).reshape(n, 2)

        return cls(
            table,
            hand=pairs("hands"),
            stock=stock,
            stock_n=np.array([len(p.stock) for p in positions], dtype=np.int64),
            trump=np.array([p.trump for p in positions], dtype=np.int64),
            to_move=np.array([p.to_move for p in positions], dtype=np.int64),
            lead=np.array([p.lead for p in positions], dtype=np.int64),
            closed=np.array([p.closed_by for p in positions], dtype=np.int64),
            frozen=np.array(
                [p.frozen or ((0, 0, 0), (0, 0, 0)) for p in positions], dtype=np.int64
            ).reshape(n, 2, 3),
            points=pairs("card_points"),
            marriages=pairs("marriages"),
            pending=pairs("pending"),
            tricks=pairs("tricks"),
            bonus=pairs("bonus"),
        )


@dataclass(frozen=True, slots=True)
class Outcome:
    """How each deal of a batch ended: arrays with one row per deal, in the batch's order."""

    winner: np.ndarray
    termination: np.ndarray
    """Index into :data:`TERMINATIONS`."""
    game_points: np.ndarray
    card_points: np.ndarray
    scores: np.ndarray
    tricks: np.ndarray
    decisions: np.ndarray
    """Decisions taken in each deal (uniform numbers used)."""

    def margin(self, seat: int) -> np.ndarray:
        """Game points of ``seat`` minus its opponent's, per deal."""
        margin: np.ndarray = self.game_points[:, seat] - self.game_points[:, 1 - seat]
        return margin


# ---------------------------------------------------------------------------------------------
# Legal options


def legal_options(batch: Batch) -> np.ndarray:
    """The (N, 43) boolean matrix of each mover's legal options (see ``N_OPTIONS``)."""
    t = batch.table
    n = len(batch)
    rows = np.arange(n)
    mover = batch.to_move
    hand = batch.hand[rows, mover]
    lead = batch.lead
    leading = lead < 0
    stock_open = (batch.closed < 0) & (batch.stock_n > 0)
    led = np.maximum(lead, 0)
    same = hand & SUIT_MASK[led >> 3]
    if t.strict_head:
        higher = same & ABOVE[led]
        trumps = hand & SUIT_MASK[batch.trump]
        strict = np.where(
            same != 0, np.where(higher != 0, higher, same), np.where(trumps != 0, trumps, hand)
        )
    else:
        strict = np.where(same != 0, same, hand)
    playable = np.where(leading | stock_open, hand, strict)
    options = np.zeros((n, N_OPTIONS), dtype=bool)
    options[:, :32] = (playable[:, None] >> _SHIFTS) & 1
    may_marry = leading & (stock_open | t.marriages_in_strict_phase)
    pairs = options[:, _QUEEN_COLS] & options[:, _KING_COLS] & may_marry[:, None]
    options[:, MARRIAGE_COL:EXCHANGE_COL:2] = pairs
    options[:, MARRIAGE_COL + 1 : EXCHANGE_COL : 2] = pairs
    on_lead_open = leading & stock_open
    exchange = (
        on_lead_open
        & (batch.stock_n >= t.exchange_min_stock)
        & (((hand >> (batch.trump * 8 + t.exchange_strength)) & 1) == 1)
    )
    if t.exchange_needs_trick:
        exchange &= batch.tricks[rows, mover] > 0
    options[:, EXCHANGE_COL] = exchange
    options[:, CLOSE_COL] = on_lead_open & (batch.stock_n >= t.close_min_stock)
    if t.manual_claim:
        options[:, CLAIM_COL] = True
    return options


def random_choice(options: np.ndarray, uniforms: np.ndarray) -> np.ndarray:
    """Column of option ``floor(u * n)`` of each row (the random playout policy)."""
    count = options.sum(axis=1)
    k = (uniforms * count).astype(np.int64)
    chosen: np.ndarray = (np.cumsum(options, axis=1) <= k[:, None]).sum(axis=1)
    return chosen


def _beats_table() -> np.ndarray:
    """``[led, trump suit, card]``: True if ``card`` played on ``led`` wins the trick."""
    table = np.zeros((32, 4, 32), dtype=bool)
    for led in range(32):
        for trump in range(4):
            table[led, trump] = (TAKERS[trump][led] >> np.arange(32)) & 1
    return table


_BEATS: Final = _beats_table()
_IS_TRUMP: Final = (np.arange(32)[None, :] >> 3) == np.arange(4)[:, None]
_TRICK: Final = POINTS[:, None] + POINTS[None, :]
_FOLLOW_VALUE: Final = (
    np.where(_BEATS, _TRICK[:, None, :], -_TRICK[:, None, :])
    - np.where(_IS_TRUMP, 5 + POINTS[None, :], 0)[None, :, :]
).astype(np.float32)
"""``[led, trump suit, card]``: the greedy follower's value of each card."""
_LEAD_VALUE: Final = (-0.5 * POINTS[None, :] - np.where(_IS_TRUMP, 6, 0)).astype(np.float32)
"""``[trump suit, card]``: the greedy leader's value of each card while the stock is open."""
_CARD_SUIT_MASK: Final = SUIT_MASK[np.arange(32) >> 3]


def greedy_choice(batch: Batch, options: np.ndarray, noise: np.ndarray) -> np.ndarray:
    """A stronger playout policy for the hard bot: each option gets a greedy value plus noise.

    A follower takes a trick that brings it to 66 and other tricks worth taking, and otherwise
    throws its cheapest card, sparing trumps;
    a leader leads low plain cards while the stock is open and cashes the cards its opponent
    cannot beat once play is strict, declares marriages, exchanges, closes the stock when the
    cards its opponent cannot beat bring it to 66 (:func:`_closing_wins`), and claims only when
    right.
    ``noise`` (one number per option) is added to the values.
    """
    n = len(batch)
    rows = np.arange(n)
    trump = batch.trump
    following = batch.lead >= 0
    value = noise
    value[:, :32] += np.where(
        following[:, None], _FOLLOW_VALUE[np.maximum(batch.lead, 0), trump], _LEAD_VALUE[trump]
    )
    follows = np.nonzero(following)[0]
    if len(follows):
        # A follower takes a trick that brings it to 66.
        me = batch.to_move[follows]
        score = _score(batch, follows, me) + batch.pending[follows, me]
        led = batch.lead[follows]
        finish = _BEATS[led, trump[follows]] & (score[:, None] + _TRICK[led] >= GOING_OUT)
        value[follows, :32] += np.where(finish, 200, 0)
    strict_leads = np.nonzero(~following & ((batch.closed >= 0) | (batch.stock_n == 0)))[0]
    if len(strict_leads):
        # In the strict phase a leader cashes the cards the opponent cannot beat.
        safe = _unbeatable(batch, strict_leads)
        value[strict_leads, :32] += np.where(safe, 1.5 * POINTS[None, :] + 14, 0)
    closable = np.nonzero(options[:, CLOSE_COL])[0]
    if len(closable):
        # After any exchange and marriage on offer: a marriage is declared first.
        declaring = options[closable, MARRIAGE_COL:EXCHANGE_COL].any(axis=1)
        closing = _closing_wins(batch, closable) & ~declaring
        value[closable, CLOSE_COL] += np.where(closing, 180, 0)
    marriage_suit = (MARRIAGE_CARDS >> 3)[None, :]
    value[:, MARRIAGE_COL:EXCHANGE_COL] += np.where(
        marriage_suit == trump[:, None], TRUMP_MARRIAGE, PLAIN_MARRIAGE
    )
    value[:, EXCHANGE_COL] += 100
    value[:, CLOSE_COL] -= 100
    if batch.table.manual_claim:
        score = batch.points[rows, batch.to_move] + batch.marriages[rows, batch.to_move]
        value[:, CLAIM_COL] += np.where(score >= GOING_OUT, 1000, -1000)
    best: np.ndarray = np.where(options, value, -np.inf).argmax(axis=1)
    return best


def _score(b: Batch, rows: np.ndarray, seat: np.ndarray) -> np.ndarray:
    """The score of ``seat`` in each of ``rows``: card points, credited marriages and the
    last trick's bonus."""
    score: np.ndarray = b.points[rows, seat] + b.marriages[rows, seat] + b.bonus[rows, seat]
    return score


def _unbeatable(batch: Batch, rows: np.ndarray) -> np.ndarray:
    """``(len(rows), 32)``: the cards the mover of each row could lead in the strict phase
    without the opponent's hand (as dealt in the row) beating them."""
    trump = batch.trump[rows]
    other = batch.hand[rows, 1 - batch.to_move[rows]]
    beaten = (other[:, None] & ABOVE[None, :]) != 0
    has_suit = (other[:, None] & _CARD_SUIT_MASK[None, :]) != 0
    has_trump = (other & SUIT_MASK[trump]) != 0
    safe: np.ndarray = ~beaten & (_IS_TRUMP[trump] | has_suit | ~has_trump[:, None])
    return safe


def _closing_wins(batch: Batch, rows: np.ndarray) -> np.ndarray:
    """True where the leader's score (at least ``CLOSING_SCORE``), its pending marriages and
    the points of the cards it holds that the opponent cannot beat reach 66: the greedy leader
    closes."""
    me = batch.to_move[rows]
    score = _score(batch, rows, me)
    held = ((batch.hand[rows, me][:, None] >> np.arange(32)[None, :]) & 1) != 0
    sure = np.where(held & _unbeatable(batch, rows), POINTS[None, :], 0).sum(axis=1)
    reach = score + batch.pending[rows, me] + sure >= GOING_OUT
    wins: np.ndarray = (score >= CLOSING_SCORE) & reach
    return wins


# ---------------------------------------------------------------------------------------------
# Playing


class _Ends:
    """Deals that ended in the current step: rows, winner, termination and actor."""

    def __init__(self) -> None:
        self.parts: list[tuple[np.ndarray, np.ndarray, int | np.ndarray, np.ndarray]] = []

    def add(self, rows: np.ndarray, winner: np.ndarray, term: Any, actor: np.ndarray) -> None:
        if len(rows):
            self.parts.append((rows, winner, term, actor))


def play_out(
    batch: Batch,
    rng: np.random.Generator | None = None,
    uniforms: np.ndarray | None = None,
    first: np.ndarray | None = None,
    greedy_noise: float | None = None,
    noise_keys: np.ndarray | None = None,
) -> Outcome:
    """Play every deal of ``batch`` to its end with the random policy; return the outcomes.

    The mover of deal ``i`` at its ``k``-th decision uses ``uniforms[i, k]`` (or, without
    ``uniforms``, a fresh number from ``rng``). ``first``, if given, holds an option column per
    deal that is taken at the first decision instead (it must be legal). With
    ``greedy_noise``, the movers follow :func:`greedy_choice` with that much noise instead of
    the random policy; deals with equal ``noise_keys`` then draw the same noise at each step
    (common random numbers: the options tried in one world are played out alike, so their
    difference is measured with less noise). The batch is consumed.
    """
    if rng is None and uniforms is None:
        rng = np.random.default_rng()
    n_total = len(batch)
    result = {
        "winner": np.zeros(n_total, dtype=np.int64),
        "termination": np.zeros(n_total, dtype=np.int64),
        "game_points": np.zeros((n_total, 2), dtype=np.int64),
        "card_points": np.zeros((n_total, 2), dtype=np.int64),
        "scores": np.zeros((n_total, 2), dtype=np.int64),
        "tricks": np.zeros((n_total, 2), dtype=np.int64),
        "decisions": np.zeros(n_total, dtype=np.int64),
    }
    origin = np.arange(n_total)
    n_keys = int(noise_keys.max()) + 1 if noise_keys is not None else 0
    decisions = np.zeros(n_total, dtype=np.int64)
    step = 0
    most_steps = 4 * batch.table.deck + 16  # every deal ends well before: a bug otherwise
    while len(batch):
        if step > most_steps:
            raise RuntimeError("a playout did not end")
        options = legal_options(batch)
        if first is not None and step == 0:
            column = np.asarray(first, dtype=np.int64)[origin]
        elif greedy_noise is not None:
            assert rng is not None
            if noise_keys is None:
                noise = rng.random((len(batch), N_OPTIONS), dtype=np.float32) * greedy_noise
            else:
                shared = rng.random((n_keys, N_OPTIONS), dtype=np.float32)
                noise = shared[noise_keys[origin]] * greedy_noise
            column = greedy_choice(batch, options, noise)
        elif uniforms is not None:
            column = random_choice(options, uniforms[origin, decisions])
        else:
            assert rng is not None
            column = random_choice(options, rng.random(len(batch)))
        decisions += 1
        step += 1
        ends = _step(batch, column)
        if ends.parts:
            done = _judge(batch, ends, result, origin, decisions)
            keep = ~done
            batch = batch.take(keep)
            origin = origin[keep]
            decisions = decisions[keep]
    return Outcome(**result)


def _step(b: Batch, column: np.ndarray) -> _Ends:
    """Apply each deal's chosen option column; return the deals that ended."""
    t = b.table
    n = len(b)
    rows = np.arange(n)
    mover = b.to_move
    ends = _Ends()
    play = column < EXCHANGE_COL
    card = _COLUMN_CARD[column]
    b.hand[rows, mover] ^= np.where(play, np.int64(1) << card, 0)
    leading = b.lead < 0

    exchange = np.nonzero(column == EXCHANGE_COL)[0]
    if len(exchange):
        low = b.trump[exchange] * 8 + t.exchange_strength
        turned = b.stock[exchange, -1]
        b.hand[exchange, mover[exchange]] ^= (np.int64(1) << low) | (np.int64(1) << turned)
        b.stock[exchange, -1] = low

    closing = np.nonzero(column == CLOSE_COL)[0]
    if len(closing):
        b.closed[closing] = mover[closing]
        b.frozen[closing, :, 0] = b.points[closing] + b.bonus[closing]
        b.frozen[closing, :, 1] = b.marriages[closing]
        b.frozen[closing, :, 2] = b.tricks[closing]

    claims = np.nonzero(column == CLAIM_COL)[0]
    if len(claims):
        _claim(b, claims, mover[claims], ends)

    leads = play & leading
    b.lead = np.where(leads, card, b.lead)
    married = np.nonzero(leads & (column >= MARRIAGE_COL))[0]
    if len(married):
        _declare(b, married, mover[married], card[married], ends)
    b.to_move = np.where(leads, 1 - mover, mover)

    follows = np.nonzero(play & ~leading)[0]
    if len(follows):
        _complete_trick(b, follows, mover[follows], card[follows], ends)
    return ends


def _declare(b: Batch, rows: np.ndarray, seat: np.ndarray, card: np.ndarray, ends: _Ends) -> None:
    """A marriage declared with the card led: credited if the declarer has a trick, else pending."""
    value = np.where((card >> 3) == b.trump[rows], TRUMP_MARRIAGE, PLAIN_MARRIAGE)
    credited = b.tricks[rows, seat] > 0
    b.marriages[rows, seat] += np.where(credited, value, 0)
    b.pending[rows, seat] += np.where(credited, 0, value)
    if not b.table.manual_claim:
        out = credited & (_score(b, rows, seat) >= GOING_OUT)
        ends.add(rows[out], seat[out], REACHED, seat[out])


def _complete_trick(
    b: Batch, rows: np.ndarray, follower: np.ndarray, card: np.ndarray, ends: _Ends
) -> None:
    """The follower played ``card``: the trick goes to its winner, who scores and draws first."""
    t = b.table
    led = b.lead[rows]
    trump = b.trump[rows]
    same_suit = (card >> 3) == (led >> 3)
    beats = (same_suit & (card > led)) | (~same_suit & ((card >> 3) == trump))
    winner = np.where(beats, follower, 1 - follower)
    loser = 1 - winner
    b.points[rows, winner] += POINTS[card] + POINTS[led]
    b.tricks[rows, winner] += 1
    b.marriages[rows, winner] += b.pending[rows, winner]
    b.pending[rows, winner] = 0
    b.lead[rows] = -1
    b.to_move[rows] = winner

    drawing = (b.closed[rows] < 0) & (b.stock_n[rows] > 0)
    if drawing.any():
        width = b.stock.shape[1]
        d = rows[drawing]
        for seat in (winner[drawing], loser[drawing]):
            has = b.stock_n[d] > 0
            d2, s2 = d[has], seat[has]
            drawn = b.stock[d2, width - b.stock_n[d2]]
            b.hand[d2, s2] |= np.int64(1) << drawn
            b.stock_n[d2] -= 1

    finished = np.zeros(len(rows), dtype=bool)
    if not t.manual_claim:
        finished = _score(b, rows, winner) >= GOING_OUT
        ends.add(rows[finished], winner[finished], REACHED, winner[finished])
    empty = ((b.hand[rows, 0] | b.hand[rows, 1]) == 0) & ~finished
    if empty.any():
        last, w = rows[empty], winner[empty]
        if t.last_trick_bonus:
            b.bonus[last, w] += np.where(b.closed[last] < 0, t.last_trick_bonus, 0)
        ends.add(last, w, LAST_TRICK, w)


def _claim(b: Batch, rows: np.ndarray, claimer: np.ndarray, ends: _Ends) -> None:
    """Judge claims of 66 (manual mode): right, right but outscored, or wrong."""
    score = b.points[rows] + b.marriages[rows] + b.bonus[rows]
    own = score[np.arange(len(rows)), claimer]
    other = score[np.arange(len(rows)), 1 - claimer]
    correct = own >= GOING_OUT
    outscored = (other >= GOING_OUT) & (other > own)
    winner = np.where(correct & ~outscored, claimer, 1 - claimer)
    ends.add(rows, winner, np.where(correct, CLAIM, WRONG_CLAIM), claimer)


def _judge(
    b: Batch, ends: _Ends, result: dict[str, np.ndarray], origin: np.ndarray, decisions: np.ndarray
) -> np.ndarray:
    """Score the deals that ended (as ``app.engine.scoring.judge`` does); return a done mask."""
    t = b.table
    rows = np.concatenate([p[0] for p in ends.parts])
    winner = np.concatenate([p[1] for p in ends.parts])
    term = np.concatenate([np.broadcast_to(p[2], len(p[0])) for p in ends.parts]).copy()
    actor = np.concatenate([p[3] for p in ends.parts])
    k = np.arange(len(rows))
    score = b.points[rows] + b.marriages[rows] + b.bonus[rows]
    tricks = b.tricks[rows]
    counted = b.points[rows] + b.bonus[rows]
    if t.loser_counts_marriages:
        counted = counted + b.marriages[rows]
    frozen = b.frozen[rows]
    frozen_counted = frozen[:, :, 0] + (frozen[:, :, 1] if t.loser_counts_marriages else 0)
    closer = b.closed[rows]
    game = np.zeros((len(rows), 2), dtype=np.int64)

    values = t.deal_values()

    def value(points: np.ndarray, won: np.ndarray) -> np.ndarray:
        chosen: np.ndarray = values[points, (won > 0).astype(np.int64)]
        return chosen

    wrong = (term == WRONG_CLAIM) & ((closer < 0) | (actor != closer))
    opp = 1 - actor
    if t.wrong_claim_value:
        penalty = value(counted[k, opp], tricks[k, opp])
    else:
        penalty = np.where(tricks[k, opp] == 0, 3, 2)
    game[k[wrong], opp[wrong]] = penalty[wrong]
    winner = np.where(wrong, opp, winner)

    plain = (closer < 0) & ~wrong
    one = plain & (term == LAST_TRICK) & (score[k, winner] < GOING_OUT)
    game[k[one], winner[one]] = 1
    full = plain & ~one
    loser = 1 - winner
    game[k[full], winner[full]] = value(counted[k, loser], tricks[k, loser])[full]

    closed = (closer >= 0) & ~wrong
    c = np.maximum(closer, 0)
    out = (
        closed
        & (winner == closer)
        & (term != WRONG_CLAIM)
        & ((term != LAST_TRICK) | (score[k, c] >= GOING_OUT))
    )
    game[k[out], c[out]] = value(frozen_counted[k, 1 - c], frozen[k, 1 - c, 2])[out]
    term[out] = CLOSED
    failed = closed & ~out
    other = 1 - c
    if t.close_fail == 0:
        game[k[failed], other[failed]] = np.where(frozen[k, other, 2] == 0, 3, 2)[failed]
    elif t.close_fail == 1:
        game[k[failed], c[failed]] = -3
    else:
        penalty = np.maximum(2, value(frozen_counted[k, other], frozen[k, other, 2]))
        game[k[failed], other[failed]] = penalty[failed]
    term[failed] = CLOSE_FAILED
    winner = np.where(failed, other, winner)

    where = origin[rows]
    result["winner"][where] = winner
    result["termination"][where] = term
    result["game_points"][where] = game
    result["card_points"][where] = b.points[rows]
    result["scores"][where] = score
    result["tricks"][where] = tricks
    result["decisions"][where] = decisions[rows]
    done = np.zeros(len(b), dtype=bool)
    done[rows] = True
    return done


@cache
def _deal_values(rules: Rules) -> np.ndarray:
    """The engine's ``deal_value`` of every loser's count and trick state, as a lookup table."""
    values: np.ndarray = np.array(
        [[deal_value(rules, points, won) for won in (0, 1)] for points in range(MAX_COUNTED)],
        dtype=np.int64,
    )
    return values


def random_decks(table: Table, n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` shuffled deck orders of the table's deck, as card ids."""
    deck = np.array([card_id(c.code) for c in full_deck(table.deck)], dtype=np.int64)
    return deck[np.argsort(rng.random((n, len(deck))), axis=1)]


_OTHER_ACTIONS: Final = {"exchange": EXCHANGE_COL, "close": CLOSE_COL, "claim": CLAIM_COL}


def option_column(action: dict[str, Any]) -> int:
    """The option column of a JSON action (its place in the canonical order)."""
    if action["type"] == "play":
        card = card_id(action["card"])
        if action.get("marriage"):
            return MARRIAGE_COL + 2 * (card >> 3) + (card % 8 == KING)
        return card
    return _OTHER_ACTIONS[action["type"]]


def canonical_order(actions: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """JSON actions sorted in the canonical order of the random playout policy."""
    return sorted(actions, key=option_column)
