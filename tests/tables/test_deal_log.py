"""A full welcome carries the current deal's events as that viewer received them, so a client
that reloads can tell the deal's story again; nothing hidden comes with them."""

from __future__ import annotations

import random
from typing import Any

from app.services import Services
from app.tables import presenter
from tests.tables.helpers import play_random, started_table


def plays(events: list[dict[str, Any]]) -> int:
    return sum(e["type"] == "card_played" for e in events)


def hidden_cards(events: list[dict[str, Any]]) -> list[str]:
    """Cards a spectator must not see: dealt hands and drawn stock cards."""
    out = []
    for e in events:
        if e["type"] == "hand_dealt" and e.get("cards"):
            out += e["cards"]
        if e["type"] == "card_drawn" and "card" in e:
            out.append(e["card"])
    return out


async def test_the_first_deal_s_events_come_with_the_welcome(services: Services) -> None:
    authority, players = await started_table(services)
    assert presenter.welcome(authority, 0)["deal_events"] == []
    # No marriage, so the table's own shuffle cannot end the first deal within five moves.
    await play_random(authority, players, random.Random(1), 5, marriages=False)
    welcome = presenter.welcome(authority, 0)
    view = welcome["view"]
    events = welcome["deal_events"]
    assert view["deal_no"] == 1
    assert plays(events) == 2 * len(view["tricks"]) + len(view["trick"]) > 0


async def test_a_later_deal_starts_at_its_deal_started_event(services: Services) -> None:
    authority, players = await started_table(services, {"target": 100})
    rng = random.Random(3)
    while authority.state is not None and authority.state.deal_no < 3:
        await play_random(authority, players, rng, 1)
    await play_random(authority, players, rng, 7)
    assert authority.state is not None
    # The shuffle is the table's own, so those seven moves may end deal 3 and begin deal 4.
    deal_no = authority.state.deal_no
    assert deal_no >= 3
    for seat in (0, 1, None):
        welcome = presenter.welcome(authority, seat)
        view, events = welcome["view"], welcome["deal_events"]
        assert events[0]["type"] == "deal_started"
        assert events[0]["deal_no"] == view["deal_no"] == deal_no
        assert sum(e["type"] == "deal_started" for e in events) == 1
        assert plays(events) == 2 * len(view["tricks"]) + len(view["trick"])
        declared = [
            {"seat": e["seat"], "suit": e["suit"], "points": e["points"]}
            for e in events
            if e["type"] == "marriage_declared"
        ]
        assert declared == view["marriages"]
        if seat is None:
            assert hidden_cards(events) == [], "a spectator's log shows hidden cards"
        else:
            mine = [e for e in events if e["type"] == "hand_dealt" and e["seat"] == seat]
            theirs = [e for e in events if e["type"] == "hand_dealt" and e["seat"] != seat]
            assert mine and mine[0]["cards"]
            assert all(not e.get("cards") for e in theirs), "another seat's hand in the log"
