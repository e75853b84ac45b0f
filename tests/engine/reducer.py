"""A reference reducer: folds the redacted events one viewer receives into that viewer's view.

It exists to prove that events are complete deltas: a welcome snapshot plus every update, folded
here, must equal a fresh ``view`` (tests/engine/test_views.py, and the server's protocol tests).
``to_move`` and what the viewer may do (``legal``, ``unplayable``, ``declarable``) come with each
update's envelope, not from events.
"""

from __future__ import annotations

from typing import Any

import orjson

OPTIONS = ("legal", "unplayable", "declarable")
"""The view's fields that every update sends afresh, as they are (``app.engine.seat_options``)."""


def fold(snapshot: dict[str, Any], frame: dict[str, Any]) -> dict[str, Any]:
    """The viewer's picture after the update ``frame``; ``snapshot`` is not changed."""
    v = _copy(snapshot)
    for event in frame["events"]:
        _HANDLERS[event["type"]](v, event)
    v["to_move"] = frame["to_move"]
    for key in OPTIONS:
        v[key] = _copy(frame[key])
    return v


def _copy(value: Any) -> Any:
    """A deep copy of JSON data (views and frames are JSON), several times faster than
    ``copy.deepcopy``."""
    return orjson.loads(orjson.dumps(value))


def _deal_started(v: dict[str, Any], e: dict[str, Any]) -> None:
    n = v["seats"]
    manual = v["rules"]["claim"] == "manual"
    v.update(
        deal_no=e["deal_no"],
        dealer=e["dealer"],
        trump=e["trump"],
        trump_card=e["trump_card"],
        stock=e["stock"],
        hand_counts=list(e["hand_counts"]),
        commitment=e["commitment"],
        hand=[],
        closed=False,
        closed_by=None,
        trick=[],
        last_trick=None,
        tricks=[],
        tricks_won=[0] * n,
        scores=None if manual else [0] * n,
        pending_marriages=[0] * n,
        marriages=[],
        shown=list(e.get("shown", [])),
        aside=e.get("aside", 0),
        bidding=e.get("bidding", False),
        bids=[],
        high_bid=None,
        sitting_out=None,
        deal_over=False,
    )


def _hand_dealt(v: dict[str, Any], e: dict[str, Any]) -> None:
    if "cards" in e and e["seat"] == v["seat"]:
        v["hand"] = list(e["cards"])


def _card_played(v: dict[str, Any], e: dict[str, Any]) -> None:
    seat, card = e["seat"], e["card"]
    if seat == v["seat"]:
        v["hand"].remove(card)
    v["hand_counts"][seat] -= 1
    v["trick"].append({"seat": seat, "card": card})
    entry = {"seat": seat, "card": card}
    if entry in v["shown"]:
        v["shown"].remove(entry)


def _set_score(v: dict[str, Any], e: dict[str, Any]) -> None:
    if "score" in e and v["scores"] is not None:
        v["scores"][e["seat"]] = e["score"]


def _marriage_declared(v: dict[str, Any], e: dict[str, Any]) -> None:
    seat = e["seat"]
    v["marriages"].append({"seat": seat, "suit": e["suit"], "points": e["points"]})
    if {"seat": seat, "card": e["shown"]} not in v["shown"]:
        v["shown"].append({"seat": seat, "card": e["shown"]})
    if not e["credited"]:
        v["pending_marriages"][seat] += e["points"]
    _set_score(v, e)


def _marriage_credited(v: dict[str, Any], e: dict[str, Any]) -> None:
    v["pending_marriages"][e["seat"]] -= e["points"]
    _set_score(v, e)


def _trick_won(v: dict[str, Any], e: dict[str, Any]) -> None:
    trick = {"winner": e["seat"], "cards": e["cards"]}
    v["tricks"].append(trick)
    v["last_trick"] = trick
    v["trick"] = []
    v["tricks_won"][e["seat"]] += 1
    _set_score(v, e)


def _card_drawn(v: dict[str, Any], e: dict[str, Any]) -> None:
    seat = e["seat"]
    v["hand_counts"][seat] += 1
    v["stock"] -= 1
    if seat == v["seat"]:
        v["hand"].append(e["card"])
    if e.get("trump_card"):
        v["trump_card"] = None
        v["shown"].append({"seat": seat, "card": e["card"]})


def _exchange(v: dict[str, Any], e: dict[str, Any]) -> None:
    if e["seat"] == v["seat"]:
        hand = v["hand"]
        hand[hand.index(e["gave"])] = e["took"]
    v["trump_card"] = e["gave"]
    v["shown"].append({"seat": e["seat"], "card": e["took"]})


def _closed(v: dict[str, Any], e: dict[str, Any]) -> None:
    v["closed"] = True
    v["closed_by"] = e["seat"]


def _deal_over(v: dict[str, Any], e: dict[str, Any]) -> None:
    v["deal_results"].append(e["result"])
    v["game_points"] = list(e["game_points"])
    v["deal_over"] = True


def _match_over(v: dict[str, Any], e: dict[str, Any]) -> None:
    v["match_over"] = True
    v["match_winner"] = e["winner"]
    for result, seed in zip(v["deal_results"], e["seeds"], strict=True):
        result["seed"] = seed


def _trump_named(v: dict[str, Any], e: dict[str, Any]) -> None:
    v["trump"] = e["trump"]


def _bid(v: dict[str, Any], e: dict[str, Any]) -> None:
    v["bids"].append({"seat": e["seat"], "level": e["level"]})
    v["high_bid"] = {"seat": e["seat"], "level": e["level"]}


def _passed(v: dict[str, Any], e: dict[str, Any]) -> None:
    v["bids"].append({"seat": e["seat"], "level": None})


def _bidding_over(v: dict[str, Any], e: dict[str, Any]) -> None:
    v["bidding"] = False
    v["sitting_out"] = e["sitting_out"]


def _nothing(v: dict[str, Any], e: dict[str, Any]) -> None:
    pass


_HANDLERS = {
    "deal_started": _deal_started,
    "hand_dealt": _hand_dealt,
    "card_played": _card_played,
    "marriage_declared": _marriage_declared,
    "marriage_credited": _marriage_credited,
    "trick_won": _trick_won,
    "card_drawn": _card_drawn,
    "exchange": _exchange,
    "closed": _closed,
    "last_trick_bonus": _set_score,
    "trump_named": _trump_named,
    "bid": _bid,
    "passed": _passed,
    "bidding_over": _bidding_over,
    "claim": _nothing,
    "resigned": _nothing,
    "deal_over": _deal_over,
    "match_over": _match_over,
}
