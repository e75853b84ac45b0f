"""Our bots against the Schnapsen players of another open-source project, in our engine.

Run ``python benchmarks/outside_cpat.py --cpat PATH --opponent mcts --level hard --deals 200``
(figures only, no assertions). PATH is a checkout of Cristian Patrasciuc's
``schnapsen-card-game`` (BSD licence; nothing of it is copied here: this script imports it from
PATH). ``--opponent heuristic`` is its rule-based player, ``--opponent mcts`` its Monte Carlo
tree search player with the options its app plays with (``mcts_player_options_v1``: 667
permutations of the unseen cards, 100,000 iterations in all), which needs the project's Cython
modules built first (``pip install cython``, then ``python setup.py build_ext --inplace`` in
PATH/src).

Each seeded deal is dealt by our engine and played twice, our level in each seat in turn, as
the arena does. Our engine keeps the one true state: at each of the other player's turns the
script builds that project's state of the deal from ours (checked by that project's own
validation, so a wrong translation stops the run), hides what the player may not see with that
project's own view (``next_player_view``, checked to show of our seat's hand exactly the cards
our view says are known there), asks the player, and plays its answer in our engine.
Its rules and ours are the same game once our stock may be exchanged and closed down to its
last two cards (``exchange_min_stock=2``, ``close_min_stock=2``, as that project plays); an
answer our engine refuses would be counted and replaced by our first legal action (none was
in the runs reported in ``docs/bots.md``). The deal's result is our engine's.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from app.bots.arena import Tally, wilson
from app.bots.choose import LEVELS, choose_action, default_budget
from app.engine import apply, new_deal, preset, view
from app.engine.state import State

RULES = {"exchange_min_stock": 2, "close_min_stock": 2}
"""Our Schnapsen preset's options that make it the game the other project plays."""


def load_project(root: str) -> SimpleNamespace:
    """The other project's modules, imported from the checkout at ``root``."""
    src = Path(root, "src")
    if not (src / "model" / "game_state.py").is_file():
        raise SystemExit(f"{root} holds no checkout of schnapsen-card-game (no src/model)")
    sys.path.insert(0, str(src))
    names = {
        "card": "model.card",
        "state": "model.game_state",
        "actions": "model.player_action",
        "ids": "model.player_id",
        "pair": "model.player_pair",
        "suit": "model.suit",
        "validation": "model.game_state_validation",
    }
    return SimpleNamespace(**{key: importlib.import_module(name) for key, name in names.items()})


def make_player(project: SimpleNamespace, opponent: str, seat: int) -> Any:
    """The other project's player of kind ``opponent`` for ``seat`` (its player ONE or TWO)."""
    player_id = project.ids.PlayerId.ONE if seat == 0 else project.ids.PlayerId.TWO
    if opponent == "heuristic":
        return importlib.import_module("ai.heuristic_player").HeuristicPlayer(player_id)
    options = importlib.import_module("ai.mcts_player_options").mcts_player_options_v1()
    mcts = importlib.import_module("ai.cython_mcts_player.player")
    return mcts.CythonMctsPlayer(player_id, False, options)


def their_state(project: SimpleNamespace, state: State, to_move: int) -> Any:
    """The other project's full state of our two-seat Schnapsen ``state``: its cards marked
    public where both players have seen them (our ``shown``: a marriage partner, the card taken
    by an exchange, the turned card taken with the last draw), as its own engine marks them;
    ``to_move`` is the seat on move."""
    card_of, pair = project.card.Card.from_string, project.pair.PlayerPair
    ids = (project.ids.PlayerId.ONE, project.ids.PlayerId.TWO)
    hands = [[card_of(c.code) for c in state.hands[s]] for s in (0, 1)]
    for seat, led in state.trick:  # its hands keep a card played to the trick until it ends
        hands[seat].append(card_of(led.code))
    known = {(s, c.code) for s, c in state.shown}
    for seat in (0, 1):
        for card in hands[seat]:
            if (seat, code(card)) in known:
                card.public = True
    stock = [card_of(c.code) for c in state.stock]
    won: tuple[list[Any], list[Any]] = ([], [])
    for cards, winner in state.history:
        by_seat = dict(cards)
        won[winner].append(pair(card_of(by_seat[0].code), card_of(by_seat[1].code)))
    current = pair(None, None)
    for seat, led in state.trick:
        current[ids[seat]] = card_of(led.code)
    suit_of = project.suit.Suit.from_char
    closer = state.closed_by
    at_close = None
    if closer is not None:
        assert state.frozen is not None
        points, marriages, _tricks = state.frozen[1 - closer]
        at_close = points + marriages
        _reveal_after_close(stock[:-1], state, sum(f[2] for f in state.frozen), suit_of)
    return project.state.GameState(
        cards_in_hand=pair(hands[0], hands[1]),
        trump=suit_of(state.trump.lower()),
        trump_card=stock[-1] if stock else None,
        talon=stock[:-1],
        next_player=ids[to_move],
        player_that_closed_the_talon=None if closer is None else ids[closer],
        opponent_points_when_talon_was_closed=at_close,
        won_tricks=pair(won[0], won[1]),
        marriage_suits=pair(
            *(
                [suit_of(suit.lower()) for s, suit, _ in state.marriages if s == seat]
                for seat in (0, 1)
            )
        ),
        trick_points=pair(*(state.card_points[s] + state.marriage_points[s] for s in (0, 1))),
        current_trick=current,
    )


def _reveal_after_close(talon: list[Any], state: State, tricks_at_close: int, suit_of: Any) -> None:
    """Mark the closed stock's cards its engine shows: after a trick since the closing whose
    follower did not follow suit, the stock's cards of the suit led (and its trumps, when the
    follower did not trump either) can be nowhere else."""
    trump = suit_of(state.trump.lower())
    for cards, _winner in state.history[tricks_at_close:]:
        led, followed = (suit_of(card.code[1].lower()) for _seat, card in cards)
        if led == followed:
            continue
        for card in talon:
            if card.suit == led or (card.suit == trump and followed != trump):
                card.public = True


def check_view(project: SimpleNamespace, hidden: Any, seen: dict[str, Any]) -> None:
    """Stop the run unless the other project's view shows of the opponent's hand exactly the
    cards our view says are known to be there (besides a card it has put on the trick)."""
    opponent = 1 - seen["seat"]
    player = project.ids.PlayerId.ONE if opponent == 0 else project.ids.PlayerId.TWO
    on_trick = {c["card"] for c in seen["trick"]}
    visible = {code(c) for c in hidden.cards_in_hand[player] if c is not None} - on_trick
    known = {s["card"] for s in seen["shown"] if s["seat"] == opponent}
    if visible != known:
        raise AssertionError(f"its view shows {sorted(visible)}, ours knows {sorted(known)}")


def code(card: Any) -> str:
    """Our code of one of its cards (``TH``: the ten of hearts)."""
    return f"{card.card_value.name[0]}{card.suit.name[0]}"


def our_action(project: SimpleNamespace, action: Any) -> dict[str, Any]:
    """Our engine's action for one of its actions."""
    actions = project.actions
    if isinstance(action, actions.AnnounceMarriageAction):
        return {"type": "play", "card": code(action.card), "marriage": True}
    if isinstance(action, actions.PlayCardAction):
        return {"type": "play", "card": code(action.card)}
    if isinstance(action, actions.ExchangeTrumpCardAction):
        return {"type": "exchange"}
    if isinstance(action, actions.CloseTheTalonAction):
        return {"type": "close"}
    raise ValueError(f"unknown action {action!r}")


@dataclass
class Figures:
    """What the run measured: our level's and the other player's tallies, and the other
    player's answers our engine refused."""

    ours: Tally = field(default_factory=Tally)
    theirs: Tally = field(default_factory=Tally)
    deals: int = 0
    refused: int = 0


def play_deal(
    project: SimpleNamespace,
    players: tuple[Any, Any],
    ours: int,
    level: str,
    deal_seed: str,
    dealer: int,
    figures: Figures,
    rng: random.Random,
) -> None:
    """Play one deal, our ``level`` in seat ``ours`` and the other project's player in the
    other seat, and credit the result to ``figures``."""
    state = new_deal(preset("schnapsen", **RULES), seed=deal_seed, dealer=dealer)
    while not state.deal_over:
        seat = state.to_move
        assert seat is not None
        seen = dict(view(state, seat))
        if seat == ours:
            start = time.perf_counter()
            action = choose_action(seen, level, rng, default_budget(level))
            figures.ours.times.append(time.perf_counter() - start)
        else:
            full = their_state(project, state, seat)
            project.validation.validate(full)
            hidden = full.next_player_view()
            check_view(project, hidden, seen)
            start = time.perf_counter()  # its own think, not our building and checking
            with contextlib.redirect_stdout(io.StringIO()):  # its search prints when debugging
                answer = players[seat].request_next_action(hidden)
            figures.theirs.times.append(time.perf_counter() - start)
            action = our_action(project, answer)
            if action not in seen["legal"]:
                figures.refused += 1
                action = seen["legal"][0]
        state, _ = apply(state, action)
    result = state.deal_results[-1]
    figures.deals += 1
    for seat, tally in ((ours, figures.ours), (1 - ours, figures.theirs)):
        tally.game_points += result.game_points[seat]
        tally.deals_won += result.winner == seat


def report(figures: Figures, level: str, opponent: str, seconds: float) -> None:
    """Print our level's deal win rate (95% Wilson interval), game points and times."""
    won, n = figures.ours.deals_won, figures.deals
    low, high = wilson(won, n)
    print(f"{level} vs {opponent}: {n} deals in {seconds:.0f} s")
    print(
        f"{level} deal win rate {won / max(n, 1):.1%} (95% CI {low:.1%} to {high:.1%}), {won} won"
    )
    for name, tally in ((level, figures.ours), (opponent, figures.theirs)):
        print(
            f"{name:10s} game points/deal {tally.game_points / max(n, 1):5.2f}  decision mean "
            f"{tally.mean_ms():7.1f} ms  p95 {tally.p95_ms():7.1f} ms  ({len(tally.times)} moves)"
        )
    print(f"answers our engine refused: {figures.refused}")


def main(argv: list[str] | None = None) -> None:
    """Play the seeded deals and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cpat", required=True, metavar="PATH", help="its checkout")
    parser.add_argument("--opponent", choices=("heuristic", "mcts"), default="mcts")
    parser.add_argument("--level", choices=LEVELS, default="hard")
    parser.add_argument("--deals", type=int, default=100, help="seeded deals (each played twice)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--progress", type=int, default=0, metavar="N", help="print every N")
    args = parser.parse_args(argv)
    project = load_project(args.cpat)
    players = (make_player(project, args.opponent, 0), make_player(project, args.opponent, 1))
    rng = random.Random(args.seed)
    figures = Figures()
    start = time.perf_counter()
    for i in range(args.deals):
        for ours in (0, 1):
            play_deal(
                project, players, ours, args.level, f"arena-{args.seed}-{i}", i % 2, figures, rng
            )
        if args.progress and (i + 1) % args.progress == 0 and i + 1 < args.deals:
            report(figures, args.level, args.opponent, time.perf_counter() - start)
    report(figures, args.level, args.opponent, time.perf_counter() - start)


if __name__ == "__main__":
    main()
