"""Match seeds no one alone decides (docs/fairness.md): the server's seed is committed before
any contribution, every contribution changes the deals, computer players and silent seats add
their documented parts, and nothing of it leaves the table before the match is over."""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Iterator

import pytest

from app.common.errors import Conflict, Invalid
from app.engine import seed_commitment
from app.engine.dealing import bot_contribution, match_seed
from app.services import Services
from tests.tables.helpers import Recorder, play_random

ANNA, BELA = "a1" * 16, "b2" * 16


def seeds(*values: str) -> Iterator[str]:
    """The server seeds the table draws, in order."""
    yield from values


async def test_the_commitment_comes_before_the_contributions_and_opens_the_match(
    services: Services,
) -> None:
    drawn = seeds("first", "second", "third")
    services.tables.new_seed = lambda: next(drawn)
    anna, _ = await services.tables.create_player("Anna")
    bela, _ = await services.tables.create_player("Bela")
    table = await services.tables.create_table(
        anna, "sixty-six", {"target": 1}, "public", contribution=ANNA
    )
    # What Bela sees before he sits: the commitment to the seed his match will be made of.
    before = await services.tables.get_table(table["id"], bela.id)
    assert before["next_commitment"] == seed_commitment("first")
    after = await services.tables.join(bela, table["id"], None, None, BELA)
    # The next match's commitment is out as soon as this one starts.
    assert after["next_commitment"] == seed_commitment("second")
    authority = await services.tables.authority(table["id"])
    assert authority.state is not None
    assert authority.state.seed == match_seed("first", [ANNA, BELA])
    record = await services.history.get_match(authority.match_id or 0)
    assert record["server_commitment"] == seed_commitment("first")

    await play_random(authority, [anna, bela], random.Random(2), 500)
    log = await services.history.match_log(authority.match_id or 0)
    assert log["seed"] == match_seed(log["server_seed"], [c["value"] for c in log["contributions"]])
    assert log["server_seed"] == "first"
    assert log["contributions"] == [
        {"seat": 0, "source": "player", "value": ANNA},
        {"seat": 1, "source": "player", "value": BELA},
    ]

    # A rematch: Bela offers with his new part; Anna accepts sending none, so hers is the
    # empty default.
    again = "c3" * 8
    await services.tables.rematch(bela, table["id"], again)
    await services.tables.rematch(anna, table["id"])
    assert authority.state.seed == match_seed("second", ["", again])
    assert (await services.tables.get_table(table["id"], None))["next_commitment"] == (
        seed_commitment("third")
    )


async def first_hands(services: Services, anna_part: str, bela_part: str) -> list[list[str]]:
    services.tables.new_seed = lambda: "the same server seed"
    anna, _ = await services.tables.create_player("Anna")
    bela, _ = await services.tables.create_player("Bela")
    table = await services.tables.create_table(
        anna, "sixty-six", {}, "public", contribution=anna_part
    )
    await services.tables.join(bela, table["id"], None, None, bela_part)
    state = (await services.tables.authority(table["id"])).state
    assert state is not None
    return [[card.code for card in hand] for hand in state.hands]


async def test_every_player_s_contribution_changes_the_deal(services: Services) -> None:
    dealt = await first_hands(services, ANNA, BELA)
    assert await first_hands(services, ANNA, BELA) == dealt  # the same parts, the same deal
    assert await first_hands(services, ANNA, "b3" * 16) != dealt
    assert await first_hands(services, "a0" * 16, BELA) != dealt


async def test_a_computer_player_s_part_comes_from_the_committed_seed(services: Services) -> None:
    drawn = seeds("server", "next", "other", "next again")
    services.tables.new_seed = lambda: next(drawn)
    anna, _ = await services.tables.create_player("Anna")
    table = await services.tables.create_table(
        anna, "sixty-six", {}, "public", bots={1: "easy"}, contribution=ANNA
    )
    authority = await services.tables.authority(table["id"])
    assert authority.state is not None
    assert authority.state.seed == match_seed("server", [ANNA, bot_contribution("server", 1)])
    silent = await services.tables.create_table(anna, "sixty-six", {}, "public", bots={1: "easy"})
    state = (await services.tables.authority(silent["id"])).state
    assert state is not None
    assert state.seed == match_seed("other", ["", bot_contribution("other", 1)])


@pytest.mark.parametrize("part", ["", "abc", "A1" * 8, "g" * 16, "0" * 129])
async def test_a_malformed_contribution_is_refused_and_nothing_changes(
    services: Services, part: str
) -> None:
    anna, _ = await services.tables.create_player("Anna")
    bela, _ = await services.tables.create_player("Bela")
    with pytest.raises(Invalid) as refused:
        await services.tables.create_table(anna, "sixty-six", {}, "public", contribution=part)
    assert refused.value.code == "bad_contribution"
    table = await services.tables.create_table(anna, "sixty-six", {}, "public")
    with pytest.raises(Invalid):
        await services.tables.join(bela, table["id"], None, None, part)
    assert (await services.tables.get_table(table["id"], None))["status"] == "open"


async def test_no_seed_or_contribution_leaves_the_table_before_the_end(
    services: Services, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    drawn = seeds("server seed one", "server seed two")
    services.tables.new_seed = lambda: next(drawn)
    anna, _ = await services.tables.create_player("Anna")
    bela, _ = await services.tables.create_player("Bela")
    table = await services.tables.create_table(
        anna, "sixty-six", {"target": 1}, "public", contribution=ANNA
    )
    authority = await services.tables.authority(table["id"])
    viewers = [Recorder(0), Recorder(1), Recorder(None)]
    for viewer, player in zip(viewers, [anna, bela, None], strict=True):
        await authority.attach(viewer, player.id if player else None, None)
    sent: list[object] = [table]
    sent.append(await services.tables.join(bela, table["id"], None, None, BELA))
    assert authority.state is not None and authority.match_id is not None
    secrets = ["server seed one", "server seed two", ANNA, BELA, authority.state.seed]

    def exposed() -> list[str]:
        shown = json.dumps([sent, [v.frames for v in viewers]], default=str)
        logged = " ".join(f"{r.getMessage()} {r.__dict__}" for r in caplog.records)
        return [s for s in secrets if s in shown or s in logged]

    rng = random.Random(4)
    while not authority.state.match_over:
        await play_random(authority, [anna, bela], rng, 3)
        for player_id in (anna.id, bela.id, None):
            sent.append(await services.tables.get_table(table["id"], player_id))
            sent.append(await services.history.get_match(authority.match_id, player_id))
            sent.append(await services.history.list_matches(limit=5, before=None))
        if not authority.state.match_over:
            with pytest.raises(Conflict):
                await services.history.match_log(authority.match_id, anna.id)
        assert exposed() == []
    # Once over: the log reveals the parts; the next match's seed is still unknown.
    sent.append(await services.history.match_log(authority.match_id, anna.id))
    assert exposed() == ["server seed one", ANNA, BELA, authority.state.seed]


async def test_a_table_opened_with_an_offered_seed_is_made_of_that_seed(
    services: Services,
) -> None:
    """Against the computer the match starts as the table opens: the creator first gets the
    commitment of the seed the table will use, then sends its part with it."""
    drawn = seeds("offered", "next", "another offer")
    services.tables.new_seed = lambda: next(drawn)
    anna, _ = await services.tables.create_player("Anna")
    offer = await services.tables.offer_seed(anna)
    assert offer == {"commitment": seed_commitment("offered")}
    table = await services.tables.create_table(
        anna,
        "sixty-six",
        {},
        "private",
        bots={1: "easy"},
        contribution=ANNA,
        commitment=offer["commitment"],
    )
    state = (await services.tables.authority(table["id"])).state
    assert state is not None
    assert state.seed == match_seed("offered", [ANNA, bot_contribution("offered", 1)])
    assert table["next_commitment"] == seed_commitment("next")
    # An offer is used once; a commitment that is not the offer opens nothing.
    await services.tables.offer_seed(anna)
    with pytest.raises(Conflict) as refused:
        await services.tables.create_table(
            anna, "sixty-six", {}, "public", commitment=offer["commitment"]
        )
    assert refused.value.code == "unknown_commitment"
    assert await services.tables.list_tables("open", None) == []
