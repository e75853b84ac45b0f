"""Does solving sampled worlds one by one misplay a closed stock? A search that cannot cheat.

Run ``python benchmarks/closed_fusion.py --deals 400`` (figures only, no assertions).

Once the stock is closed nobody draws again: what a seat does not know is only which of the
unseen cards the opponent holds. Solving each sampled world on its own (perfect-information
sampling) lets the searching seat play a different card in each world later in the deal, as
if it could see the opponent's hand: it overrates every line that needs a guess. This search
keeps a vector of values, one per world, and at each of the seat's own turns picks the one
card that does best summed over the worlds still possible (those that hold every card the
opponent has played since), as the seat would have to; the opponent, who knows its own hand,
answers in each world with its best card (vector minimax). The search is exhaustive and gives
up past a number of positions (:data:`NODE_LIMIT`).

The script plays seeded Schnapsen deals with a level against itself and, at every decision of
a closed stock with cards still hidden and more than one legal action, deals the same worlds
to both searches: the hard bot's (every world solved on its own, ``app.bots.solver``, values
averaged) and this one. It prints how often they choose differently and what this one costs.
With one world the two searches must agree on every value (``--check``).
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from collections.abc import Sequence

from app.bots.cards import POINTS_LIST, TAKERS, cards_of
from app.bots.choose import choose_action
from app.bots.knowledge import Knowledge, sample_positions
from app.bots.playout import Position, option_column
from app.bots.solver import (
    Solver,
    column_card,
    deal_points,
    marriage_columns,
    strict_follows,
)
from app.engine import apply, new_deal, preset, view
from app.engine.scoring import GOING_OUT

NODE_LIMIT = 30_000
"""Positions (each over a vector of worlds) searched before the search gives up."""


class TooLarge(Exception):
    """The search needed more positions than its limit."""


class ClosedSearch:
    """Vector minimax of a closed stock for ``k.seat`` over the opponent's hands of
    ``worlds`` (each counted as often as it was dealt)."""

    def __init__(
        self,
        k: Knowledge,
        worlds: Sequence[Position],
        win_weight: float,
        node_limit: int = NODE_LIMIT,
    ) -> None:
        dealt = Counter(w.hands[k.opponent] for w in worlds)
        self.opponent_hands = list(dealt)
        self.weights = [float(dealt[h]) for h in self.opponent_hands]
        self.k = k
        self.table = k.table
        self.takers = TAKERS[k.trump]
        self.trump = k.trump
        self.win_weight = win_weight
        self.node_limit = node_limit
        self.nodes = 0
        self.me = k.seat
        self.mine = k.hand
        self.points = list(k.card_points)
        self.marriages = list(k.marriages)
        self.pending = list(k.pending)
        self.tricks = list(k.tricks)
        self.bonus = [0, 0]

    def option_values(self, columns: Sequence[int]) -> list[float]:
        """The weighted mean value (margin plus ``win_weight`` for a win) of each of the
        seat's option ``columns`` (see ``app.bots.playout``); raises :class:`TooLarge`."""
        every = list(range(len(self.opponent_hands)))
        total = sum(self.weights)
        values = []
        for column in columns:
            vector = self._after_mine(column, every)
            values.append(
                sum(self.weights[w] * v for w, v in zip(every, vector, strict=True)) / total
            )
        return values

    # -- the seat's own turns --------------------------------------------------------------

    def _mine(self, worlds: list[int], led: int) -> list[float]:
        """The seat chooses one card for all ``worlds``: the best weighted sum."""
        best: list[float] | None = None
        best_sum = 0.0
        for column in self._my_options(led):
            vector = self._after_mine(column, worlds, led)
            total = sum(self.weights[w] * v for w, v in zip(worlds, vector, strict=True))
            if best is None or total > best_sum:
                best, best_sum = vector, total
        assert best is not None
        return best

    def _my_options(self, led: int) -> list[int]:
        if led >= 0:
            return cards_of(self._follows(self.mine, led))
        columns = self._marriages(self.mine)
        return columns + cards_of(self.mine)

    def _after_mine(self, column: int, worlds: list[int], led: int | None = None) -> list[float]:
        if led is None:
            led = self.k.lead
        card, marriage = column_card(column, self.trump)
        self.mine ^= 1 << card
        try:
            if led >= 0:
                return self._trick(led, card, self.me, worlds)
            return self._led(self.me, card, marriage, worlds)
        finally:
            self.mine ^= 1 << card

    # -- the opponent's turns --------------------------------------------------------------

    def _theirs(self, worlds: list[int], led: int) -> list[float]:
        """The opponent, who knows its hand, plays its best card in each world."""
        opponent = 1 - self.me
        best = [float("inf")] * len(worlds)
        by_option: dict[int, list[int]] = {}
        for i, w in enumerate(worlds):
            hand = self.opponent_hands[w]
            if led >= 0:
                options = cards_of(self._follows(hand, led))
            else:
                options = self._marriages(hand) + cards_of(hand)
            for column in options:
                by_option.setdefault(column, []).append(i)
        for column, members in by_option.items():
            subset = [worlds[i] for i in members]
            card, marriage = column_card(column, self.trump)
            for w in subset:
                self.opponent_hands[w] ^= 1 << card
            try:
                if led >= 0:
                    vector = self._trick(led, card, opponent, subset)
                else:
                    vector = self._led(opponent, card, marriage, subset)
            finally:
                for w in subset:
                    self.opponent_hands[w] ^= 1 << card
            for i, value in zip(members, vector, strict=True):
                best[i] = min(best[i], value)
        return best

    # -- the rules of a closed stock -------------------------------------------------------

    def _follows(self, hand: int, led: int) -> int:
        return strict_follows(self.table, self.trump, hand, led)

    def _marriages(self, hand: int) -> list[int]:
        return marriage_columns(hand) if self.table.marriages_in_strict_phase else []

    def _led(self, seat: int, card: int, marriage: int, worlds: list[int]) -> list[float]:
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise TooLarge
        credited = marriage and self.tricks[seat] > 0
        if credited:
            self.marriages[seat] += marriage
        elif marriage:
            self.pending[seat] += marriage
        try:
            if credited and self._score(seat) >= GOING_OUT:
                return self._ended(seat, "reached", worlds)
            if seat == self.me:
                return self._theirs(worlds, card)
            return self._mine(worlds, card)
        finally:
            if credited:
                self.marriages[seat] -= marriage
            elif marriage:
                self.pending[seat] -= marriage

    def _trick(self, led: int, card: int, follower: int, worlds: list[int]) -> list[float]:
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise TooLarge
        leader = 1 - follower
        winner = follower if (self.takers[led] >> card) & 1 else leader
        gained = POINTS_LIST[card] + POINTS_LIST[led]
        pending = self.pending[winner]
        self.points[winner] += gained
        self.tricks[winner] += 1
        self.marriages[winner] += pending
        self.pending[winner] = 0
        try:
            if self._score(winner) >= GOING_OUT:
                return self._ended(winner, "reached", worlds)
            if not self.mine:
                return self._ended(winner, "last", worlds)
            if winner == self.me:
                return self._mine(worlds, -1)
            return self._theirs(worlds, -1)
        finally:
            self.pending[winner] = pending
            self.marriages[winner] -= pending
            self.tricks[winner] -= 1
            self.points[winner] -= gained

    def _score(self, seat: int) -> int:
        return self.points[seat] + self.marriages[seat] + self.bonus[seat]

    def _ended(self, winner: int, how: str, worlds: list[int]) -> list[float]:
        """The same value in every world: the deal ends on public facts."""
        game = deal_points(
            self.table,
            winner,
            how,
            winner,
            self.points,
            self.marriages,
            self.bonus,
            self.tricks,
            self.k.closed_by,
            self.k.frozen,
        )
        margin = game[self.me] - game[1 - self.me]
        return [margin + self.win_weight * (margin > 0)] * len(worlds)


def solved_one_by_one(
    k: Knowledge, worlds: Sequence[Position], columns: Sequence[int]
) -> list[float]:
    """The hard bot's values: each world solved exactly on its own, margins plus two for a
    win, averaged over the worlds."""
    totals = [0.0] * len(columns)
    for world in worlds:
        solver = Solver(k.table, world, k.seat)
        for i, column in enumerate(columns):
            margin = solver.value_after(column)
            totals[i] += margin + 2.0 * (margin > 0)
    return [total / len(worlds) for total in totals]


def main() -> None:
    """Play the deals and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--level", default="medium")
    parser.add_argument("--worlds", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--check", action="store_true", help="one world: values must agree")
    args = parser.parse_args()
    worlds_each = 1 if args.check else args.worlds
    rng = random.Random(args.seed)
    times: list[float] = []
    decisions = too_large = differ = disagree = 0
    for d in range(args.deals):
        state = new_deal(preset("schnapsen"), seed=f"fusion-{args.seed}-{d}", dealer=d % 2)
        while not state.deal_over:
            seen = view(state, state.to_move)
            if seen["closed"] and seen["stock"] and len(seen["legal"]) > 1:
                decisions += 1
                k = Knowledge.from_view(seen)
                columns = [option_column(a) for a in seen["legal"]]
                worlds = sample_positions(k, worlds_each, random.Random(d))
                start = time.perf_counter()
                try:
                    limit = 10**7 if args.check else NODE_LIMIT
                    vector = ClosedSearch(k, worlds, 2.0, limit).option_values(columns)
                except TooLarge:
                    too_large += 1
                else:
                    times.append(time.perf_counter() - start)
                    alone = solved_one_by_one(k, worlds, columns)
                    if args.check and [round(v, 6) for v in vector] != [round(v, 6) for v in alone]:
                        disagree += 1
                    pick = max(range(len(columns)), key=lambda i: (vector[i], -i))
                    pimc = max(range(len(columns)), key=lambda i: (alone[i], -i))
                    differ += pick != pimc
            state, _ = apply(state, choose_action(dict(seen), args.level, rng, 0.15))
    times.sort()
    n = len(times)
    print(f"{args.deals} Schnapsen deals, {args.level} against itself (seed {args.seed})")
    print(f"{decisions} closed-stock decisions, {worlds_each} worlds each")
    print(f"  searched {n}, past {NODE_LIMIT} positions {too_large}")
    print(f"  a different choice than worlds solved one by one: {differ}")
    if args.check:
        print(f"  values that disagree with one world: {disagree}")
    if n:
        print(
            f"  time mean {sum(times) / n * 1000:.1f} ms, p50 {times[n // 2] * 1000:.1f}, "
            f"p90 {times[int(n * 0.9)] * 1000:.1f}, max {times[-1] * 1000:.1f}"
        )


if __name__ == "__main__":
    main()
