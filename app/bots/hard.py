"""The hard bot: search over the worlds consistent with what its seat has seen.

While the stock is open it deals the unseen cards at random many times
(:func:`app.bots.knowledge.sample_positions`: voids, marriage partners and the exchanged card
respected, the opponent's earlier play weighed), plays each legal option in every world
followed by fast greedy playouts (:mod:`app.bots.playout`; the options of one world share
their random numbers), and takes the option with the best mean game-point margin. Once the
stock is exhausted every hidden card is in the opponent's hand, and it solves the position
exactly with alpha-beta (:mod:`app.bots.solver`); with a closed stock, or an open stock down
to its last open trick (with the 20-card deck its last two; a sampled world fixes the draws
too), it solves a sample of worlds and takes the option that does best on average.
:class:`Search` says how much it searches; the expert level (:mod:`app.bots.expert`)
searches more.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from app.engine.scoring import GOING_OUT

from . import sampling
from .cards import counts_in_bits
from .knowledge import Knowledge, sample_positions
from .playout import Batch, option_column, play_out
from .solver import Solver

FIRST_ROUND_ROWS = 512
"""Playouts of the first round, shared among the legal options (always played)."""
MIN_ROUND_ROWS = 256
"""A later round is played only if at least this many playouts fit before the deadline."""
MAX_ROUND_ROWS = 4096
"""At most this many playouts per round: the later rounds fill the time left, since a
larger round costs less per playout (numpy's overhead is paid once per trick of a round)."""
MAX_PLAYOUT_ROWS = 8192
"""At most this many playouts per decision while the stock is open."""
PLAYOUT_SHARE = 0.5
"""Share of the budget the playout rounds may use; the rest covers the machine's hiccups."""
MAX_WORLDS = 512
"""At most this many worlds sampled per decision."""
PLAYOUTS = 1
"""Greedy playouts per world and option: one, so the playouts of a round cover as many worlds
as they can (twice as many worlds with one playout each measured no worse than two playouts
each, within the noise of the arena; docs/strength.md)."""
WIN_WEIGHT = 2.0
"""What winning the deal is worth on top of the game-point margin: the bot prefers a safe
win to a gamble for more game points."""
GREEDY_NOISE = 12.0
MAX_SOLVED_WORLDS = 40


@dataclass(frozen=True, slots=True)
class Search:
    """How much a level searches (the expert level searches more than hard)."""

    max_playout_rows: int = MAX_PLAYOUT_ROWS
    max_worlds: int = MAX_WORLDS
    open_solve_stock: int = 2
    """With 24 cards or more, solve sampled worlds exactly, instead of playing them out, once
    the open stock holds this many cards or fewer (the turned card included)."""
    small_deck_solve_stock: int = 4
    """The same with the 20-card deck (Schnapsen). There a world is solved from four stock
    cards in about 18 ms, so hard solves a few within its budget, which won about a point more
    than playing out from there (docs/strength.md); with 24 cards hard would solve one or two."""
    max_solved_worlds: int = MAX_SOLVED_WORLDS

    def solve_stock(self, deck: int) -> int:
        """The open stock's size from which on sampled worlds are solved exactly, with a deck
        of ``deck`` cards."""
        return self.small_deck_solve_stock if deck <= 20 else self.open_solve_stock


HARD = Search()


def choose(
    view: dict[str, Any], rng: random.Random, budget_s: float = 0.15, search: Search = HARD
) -> dict[str, Any]:
    """The hard bot's action for ``view``, decided within about ``budget_s`` seconds (at
    tables of three or four seats, or with the 48-card deck, by :mod:`app.bots.sampling`)."""
    if not counts_in_bits(view):
        return sampling.choose(view, rng, budget_s)
    start = time.perf_counter()
    deadline = start + budget_s
    legal: list[dict[str, Any]] = list(view["legal"])
    if len(legal) == 1:
        return legal[0]
    k = Knowledge.from_view(view)
    if any(a["type"] == "claim" for a in legal) and k.score(k.seat) >= GOING_OUT:
        return {"type": "claim"}
    if k.stock_open and k.stock > search.solve_stock(k.table.deck):
        playout_deadline = start + budget_s * PLAYOUT_SHARE
        values = _playout_values(k, legal, rng, playout_deadline, search=search)
    elif k.stock_open:
        solve_deadline = start + budget_s * PLAYOUT_SHARE
        values = _solved_values(k, legal, rng, solve_deadline, worlds=search.max_solved_worlds)
    else:
        values = _solved_values(k, legal, rng, deadline, worlds=search.max_solved_worlds)
    best = max(range(len(legal)), key=lambda i: (values[i], -i))
    return legal[best]


def action_values(
    view: dict[str, Any],
    rng: random.Random,
    worlds: int,
    win_weight: float = WIN_WEIGHT,
    search: Search = HARD,
) -> list[float]:
    """What each of ``view["legal"]`` is worth to the mover, by the search of ``choose`` with
    ``search`` (hard's by default) but with a fixed amount of work instead of a clock (every
    playout round, or ``worlds`` solved worlds; ``worlds`` sampled worlds at other tables): the
    same view and the same ``rng`` give the same values. A value is the mean game-point margin
    (plus ``win_weight`` for a deal won)."""
    if not counts_in_bits(view):
        return sampling.action_values(view, rng, worlds, win_weight)
    legal: list[dict[str, Any]] = list(view["legal"])
    k = Knowledge.from_view(view)
    if k.stock_open and k.stock > search.solve_stock(k.table.deck):
        return _playout_values(k, legal, rng, math.inf, win_weight, search)
    return _solved_values(k, legal, rng, math.inf, win_weight, worlds)


def _playout_values(
    k: Knowledge,
    legal: list[dict[str, Any]],
    rng: random.Random,
    deadline: float,
    win_weight: float = WIN_WEIGHT,
    search: Search = HARD,
) -> list[float]:
    """Mean margin (plus weighted win rate) of each legal action over sampled worlds and greedy
    playouts, played in rounds: the first round always, then rounds as large as the time
    measured so far says will end before ``deadline`` (up to :data:`MAX_ROUND_ROWS`
    playouts), while at least :data:`MIN_ROUND_ROWS` fit."""
    columns = np.array([option_column(a) for a in legal], dtype=np.int64)
    per_world = PLAYOUTS * len(legal)
    np_rng = np.random.default_rng(rng.getrandbits(64))
    totals = np.zeros(len(legal))
    rows_done, worlds_done, seconds = 0, 0, 0.0
    round_worlds = max(4, FIRST_ROUND_ROWS // per_world)
    while worlds_done < search.max_worlds and rows_done < search.max_playout_rows:
        start = time.perf_counter()
        if rows_done:
            fits = (deadline - start) * rows_done / seconds if seconds else math.inf
            rows = min(fits, MAX_ROUND_ROWS, search.max_playout_rows - rows_done)
            round_worlds = int(rows // per_world)
            if round_worlds * per_world < MIN_ROUND_ROWS:
                break
        round_worlds = min(round_worlds, search.max_worlds - worlds_done)
        totals += _playout_round(k, columns, round_worlds, rng, np_rng, win_weight)
        seconds += time.perf_counter() - start
        rows_done += round_worlds * per_world
        worlds_done += round_worlds
    return list(totals / (worlds_done * PLAYOUTS))


def _playout_round(
    k: Knowledge,
    columns: np.ndarray,
    count: int,
    rng: random.Random,
    np_rng: np.random.Generator,
    win_weight: float,
) -> np.ndarray:
    """Summed margin plus wins of each option over ``count`` new worlds."""
    worlds = sample_positions(k, count, rng)
    base = Batch.from_positions(k.table, worlds)
    per_action = count * PLAYOUTS
    rows = np.tile(np.repeat(np.arange(count), PLAYOUTS), len(columns))
    batch = base.take(rows)
    first = np.repeat(columns, per_action)
    outcome = play_out(batch, rng=np_rng, first=first, greedy_noise=GREEDY_NOISE, noise_keys=rows)
    margin = outcome.margin(k.seat).reshape(len(columns), per_action)
    wins = (outcome.winner == k.seat).reshape(len(columns), per_action)
    values: np.ndarray = margin.sum(axis=1) + win_weight * wins.sum(axis=1)
    return values


def _solved_values(
    k: Knowledge,
    legal: list[dict[str, Any]],
    rng: random.Random,
    deadline: float,
    win_weight: float = WIN_WEIGHT,
    worlds: int = MAX_SOLVED_WORLDS,
) -> list[float]:
    """Mean exact margin of each legal action: one world if all is known, else a sample."""
    columns = [option_column(a) for a in legal]
    totals = [0.0] * len(legal)
    count = 1 if k.all_known else worlds
    slowest = 0.0
    solved = 0
    for n, world in enumerate(sample_positions(k, count, rng)):
        start = time.perf_counter()
        if n and start + slowest > deadline:
            break
        solver = Solver(k.table, world, k.seat)
        for i, column in enumerate(columns):
            margin = solver.value_after(column)
            totals[i] += margin + win_weight * (margin > 0)
        slowest = max(slowest, time.perf_counter() - start)
        solved += 1
    return [total / max(solved, 1) for total in totals]
