"""Replays of finished matches: every step's public view with all hands open.

Built from a finished match's log (``HistoryService.match_log``) by running the engine again,
so a viewer never has to re-deal anything itself. Only finished matches have a published log,
so a live match can never be replayed through here.
"""

from __future__ import annotations

from typing import Any

from app.engine import Action, State, apply, new_match, view
from app.services.rules import stored_rules


def hands_of(state: State) -> list[list[str]]:
    """Every seat's hand as card codes."""
    return [[card.code for card in hand] for hand in state.hands]


def step(state: State, events: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    """One replay step: the spectator's view of ``state``, every hand, and what happened."""
    return {**extra, "events": events, "view": view(state, None), "hands": hands_of(state)}


def replay_steps(log: dict[str, Any]) -> list[dict[str, Any]]:
    """The steps of a finished match: its start, then one per logged action.

    Each action's ``events`` are unredacted (the match is over, nothing is secret any more);
    when an action ends a deal, ``view`` and ``hands`` already show the next deal, and the
    events carry the finished deal's last trick and result.
    """
    rules = stored_rules(log["variant"], log["rules"])
    state = new_match(rules, log["seed"], log["dealer"])
    steps = [step(state, [], version=log["base_version"], seat=None, action=None)]
    for row in log["actions"]:
        state, events = apply(state, Action.from_json(row["action"]), row["seat"])
        data = [{"type": e.type, **e.data} for e in events]
        steps.append(
            step(state, data, version=row["version"], seat=row["seat"], action=row["action"])
        )
    return steps
