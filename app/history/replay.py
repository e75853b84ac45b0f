"""Replays of finished matches: every step's public view with all hands open, a page at a time.

Built from a finished match's log (``HistoryService.match_log``) by running the engine again,
so a viewer never has to re-deal anything itself. Only finished matches have a published log,
so a live match can never be replayed through here.

A step's view leaves ``deal_results`` empty: the results of finished deals are the match
record's ``deals``, sent once beside the steps, and ``deals_done`` says how many of them are
over at that step. So a replay grows with the match's length, not its length times its deals.

Steps are built in pieces of :data:`PIECE` steps, each encoded to JSON once. A piece needs the
state just before its first step: one pass of the engine over the log (no views) finds the
state at every piece's start (:func:`piece_starts`), so any page costs its own steps and not
the match's beginning again.
"""

from __future__ import annotations

from typing import Any

import orjson

from app.common.rules import stored_rules
from app.engine import Action, State, apply, new_match, view

PIECE = 100
"""Steps per piece: the unit in which steps are built and cached."""


def hands_of(state: State) -> list[list[str]]:
    """Every seat's hand as card codes."""
    return [[card.code for card in hand] for hand in state.hands]


def step(state: State, events: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    """One replay step: the spectator's view of ``state`` (its ``deal_results`` left empty),
    how many deals are over (``deals_done``), every hand, and what happened."""
    return {
        **extra,
        "events": events,
        "deals_done": len(state.deal_results),
        "view": view(state, None, results=False),
        "hands": hands_of(state),
    }


def step_count(log: dict[str, Any]) -> int:
    """How many steps a match's replay has: its start, then one per logged action."""
    return len(log["actions"]) + 1


def piece_starts(log: dict[str, Any]) -> list[State]:
    """For each piece ``k``, the state just before its first step: the match's start for piece
    0 (step 0 is the start), else the state after ``k * PIECE - 1`` actions."""
    rules = stored_rules(log["variant"], log["rules"])
    state = new_match(rules, log["seed"], log["dealer"])
    starts = [state]
    for done, row in enumerate(log["actions"], start=1):
        state, _ = apply(state, Action.from_json(row["action"]), row["seat"])
        if done % PIECE == PIECE - 1:
            starts.append(state)
    return starts


def piece_steps(log: dict[str, Any], k: int, start: State) -> list[bytes]:
    """Steps ``k * PIECE`` up to the next piece (or the end), each as JSON, from ``start``
    (``piece_starts(log)[k]``).

    Each action's ``events`` are unredacted (the match is over, nothing is secret any more);
    when an action ends a deal, ``view`` and ``hands`` already show the next deal, and the
    events carry the finished deal's last trick and result.
    """
    actions = log["actions"]
    first, end = k * PIECE, min((k + 1) * PIECE, step_count(log))
    out = []
    state = start
    if first == 0:
        out.append(
            orjson.dumps(step(state, [], version=log["base_version"], seat=None, action=None))
        )
        first = 1
    for index in range(first, end):
        row = actions[index - 1]
        state, events = apply(state, Action.from_json(row["action"]), row["seat"])
        data = [{"type": e.type, **e.data} for e in events]
        extra = {"version": row["version"], "seat": row["seat"], "action": row["action"]}
        out.append(orjson.dumps(step(state, data, **extra)))
    return out


def replay_steps(log: dict[str, Any]) -> list[dict[str, Any]]:
    """Every step of a finished match, as :func:`piece_steps` builds them (for tests and
    tools that want a whole short match at once)."""
    starts = piece_starts(log)
    return [
        orjson.loads(raw) for k, start in enumerate(starts) for raw in piece_steps(log, k, start)
    ]
