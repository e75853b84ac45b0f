"""Hidden information (RULES.md section 4): views and redacted events over many random matches.

For every step of every match, for both seats and a spectator: no view and no event a viewer
receives holds a card that viewer may not know, and folding the events into the previous view
(the reference reducer) gives exactly the fresh view, so events are complete deltas.
"""

import random
import re
from collections import Counter

import orjson
import pytest

from app.engine import PRESETS, State, new_match, parse_card, preset, view

from .playing import random_playthrough
from .reducer import fold

CARD_STRING = re.compile(rb'"([789JQKTA][CDHS])"')
PLAIN = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME


def plain_json(data: object) -> bytes:
    """``data`` as the JSON the server sends (orjson, as ``app.tables.hub.encode``); a
    ``TypeError`` for anything that is not plain JSON data (dataclasses and datetimes too)."""
    return orjson.dumps(data, option=PLAIN)


def card_strings(data: object) -> set[str]:
    """Every string in a JSON value (keys too) that is a card code."""
    return {code.decode() for code in CARD_STRING.findall(plain_json(data))}


def hidden_from(state: State, viewer: int | None) -> set[str]:
    """Cards ``viewer`` may not know: other hands and the stock, less what is public."""
    cards = {c.code for s, hand in enumerate(state.hands) if s != viewer for c in hand}
    cards |= {c.code for c in state.stock} | {c.code for c in state.aside}
    cards -= {c.code for _, c in state.shown}
    if state.trump_card is not None:
        cards.discard(state.trump_card.code)  # turned face up, so everyone knows where it went
    if state.rules.deck == 48:
        # Two copies of each card: a code is secret only while no copy of it is known to the
        # viewer (in its hand or played); the other test below counts copies exactly.
        cards -= {c.code for c in state.hands[viewer]} if viewer is not None else set()
        cards -= {c.code for trick, _ in state.history for _, c in trick}
        cards -= {c.code for _, c in state.trick}
    return cards


def check_match(variant: str, seed: int, **options: object) -> int:
    state = new_match(preset(variant, **options), seed=f"leak-{seed}")
    rng = random.Random(seed)
    viewers: list[int | None] = [*range(state.seats), None]
    folded = {viewer: view(state, viewer) for viewer in viewers}
    steps = 0
    for before, action, _seat, after, events in random_playthrough(state, rng, 0.002):
        steps += 1
        # Cards this step makes public: the card played and a marriage partner shown with it.
        played = {action.card.code} if action.card else set()
        played |= {e.data["shown"] for e in events if e.type == "marriage_declared"}
        new_deal_at = next((i for i, e in enumerate(events) if e.type == "deal_started"), None)
        for viewer in viewers:
            fresh = view(after, viewer)
            assert not card_strings(fresh) & hidden_from(after, viewer), (viewer, fresh)
            if viewer is not None:
                assert sorted(fresh["hand"]) == sorted(c.code for c in after.hands[viewer])
            else:
                assert fresh["hand"] == [] and fresh["legal"] == []
            if after.rules.claim == "manual":
                assert fresh["scores"] is None
            seen = []
            for i, event in enumerate(events):
                data = event.for_viewer(viewer)
                if data is None:
                    continue
                seen.append(data)
                if event.only is not None and event.only == viewer:
                    continue  # the viewer's own cards
                # Events of a deal that ended in this step are judged against that deal's cards.
                if new_deal_at is not None and i < new_deal_at:
                    secret = hidden_from(before, viewer) - played
                else:
                    secret = hidden_from(after, viewer)
                assert not card_strings(data) & secret, (viewer, data)
                if after.rules.claim == "manual" and data["type"] not in ("claim", "deal_over"):
                    assert "score" not in data  # scores are shown only once a deal is judged
                    assert data["type"] != "trick_won" or "points" not in data
            folded[viewer] = fold(folded[viewer], {**fresh, "events": seen})
            assert folded[viewer] == fresh, (viewer, seen)
            plain_json(fresh)  # plain JSON data
    return steps


@pytest.mark.slow
@pytest.mark.parametrize(
    ("variant", "options"),
    [(name, {}) for name in PRESETS]
    + [("german-32", {"players": 3}), ("german-48", {"partners": True})],
)
def test_views_and_events_never_show_a_hidden_card(variant, options):
    """Every seat, a partner's hand included, and a spectator, for every preset and seat count."""
    rules = preset(variant, **options)
    seeds = 60 if rules.players == 2 else 20
    steps = sum(check_match(variant, seed, **options) for seed in range(seeds))
    assert steps > 1000


def test_a_48_card_view_holds_each_copy_only_where_the_viewer_may_know_it():
    """With two copies of each card, count copies: the viewer's hand plus the cards played
    (on the table and in tricks) are exactly the copies its view holds."""
    for seed in range(10):
        state = new_match(preset("german-48"), seed=f"copies-{seed}")
        for _, _, _, after, _ in random_playthrough(state, random.Random(seed)):
            for viewer in range(after.seats):
                seen = view(after, viewer)
                known = Counter(c for c in after.hands[viewer])
                known += Counter(c for _, c in after.trick)
                known += Counter(c for trick, _ in after.history for _, c in trick)
                listed = Counter(parse_card(c) for c in seen["hand"])
                listed += Counter(parse_card(e["card"]) for e in seen["trick"])
                listed += Counter(parse_card(e["card"]) for t in seen["tricks"] for e in t["cards"])
                assert listed == known
                shown = Counter(parse_card(e["card"]) for e in seen["shown"])
                assert not shown - Counter(c for hand in after.hands for c in hand)


@pytest.mark.parametrize(
    "options",
    [
        {"claim": "manual"},
        {"claim": "manual", "wrong_claim": "claimer_value", "strict": "follow"},
        {"exchange_needs_trick": False, "marriages_in_strict_phase": True},
        {"hand_size": 5, "close_fail": "closer_value_min_2", "schwarz": "zero_points"},
    ],
)
def test_views_and_events_with_house_rules(options):
    steps = sum(check_match("sixty-six", seed, **options) for seed in range(40))
    assert steps > 500


def test_a_spectator_sees_no_hand_and_no_legal_actions():
    state = new_match(preset("sixty-six"), seed="spectator")
    seen = view(state, None)
    assert seen["hand"] == [] and seen["legal"] == [] and seen["seat"] is None
    assert seen["hand_counts"] == [6, 6] and seen["stock"] == 12


def test_view_has_the_documented_keys():
    keys = set(view(new_match(preset("schnapsen"), seed="k"), 0))
    assert {
        "variant",
        "seat",
        "to_move",
        "hand",
        "hand_counts",
        "trump",
        "trump_card",
        "stock",
        "closed",
        "trick",
        "last_trick",
        "tricks_won",
        "scores",
        "pending_marriages",
        "shown",
        "game_points",
        "dealer",
        "deal_over",
        "match_over",
        "legal",
    } <= keys
