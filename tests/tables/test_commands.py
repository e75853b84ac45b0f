"""One command path per table: every command type is handled by the table's actor, an unknown
command is refused with ``unknown_command`` and changes nothing (here and across workers), and
two commands at one table, sent at once from two workers, run one after the other."""

from __future__ import annotations

import asyncio
import inspect
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from app.common.errors import ServiceError
from app.services import Services
from app.tables import commands
from app.tables.authority import TableAuthority
from app.tables.commands import (
    Abort,
    Act,
    AddBot,
    BotTurn,
    ClaimVictory,
    Command,
    DeclineRematch,
    ExpireRematch,
    Greet,
    Join,
    Leave,
    OfferRematch,
    PresenceDue,
    Reclaim,
    Rename,
    StartFull,
    Timeout,
)
from tests.tables.helpers import Recorder, started_table
from tests.tables.test_owners import Clock
from tests.tables.test_relay import Network, settle, workers

__all__ = ["workers"]

NOBODY = "nobody-at-all"


def examples() -> dict[type[Command], Command]:
    """One command of each type, from somebody with no seat at the table."""
    return {
        Act: Act(NOBODY, 0, {"type": "resign"}),
        BotTurn: BotTurn(NOBODY, 0, {"type": "resign"}),
        Greet: Greet(Recorder(None), None, None),
        Timeout: Timeout(10_000),
        PresenceDue: PresenceDue(0),
        ExpireRematch: ExpireRematch(10_000),
        Join: Join(NOBODY, "Nobody", seat=5),
        Leave: Leave(NOBODY),
        AddBot: AddBot(NOBODY, None, "easy"),
        StartFull: StartFull(),
        OfferRematch: OfferRematch(NOBODY),
        DeclineRematch: DeclineRematch(NOBODY),
        Reclaim: Reclaim(NOBODY, "Nobody"),
        ClaimVictory: ClaimVictory(NOBODY, 1),
        Abort: Abort(NOBODY),
        Rename: Rename(NOBODY, "Nobody"),
    }


def command_types() -> set[type[Command]]:
    """Every command type ``app.tables.commands`` defines."""
    return {
        value
        for value in vars(commands).values()
        if inspect.isclass(value) and issubclass(value, Command) and value is not Command
    }


def snapshot(table: TableAuthority) -> tuple[Any, ...]:
    """What a command could change at a table."""
    return (
        table.version,
        dict(table.seats),
        table.status,
        table.match_id,
        table.state,
        len(table.records),
        table.rematch,
        dict(table.abandoned),
        table.turn_clock,
    )


@dataclass
class OfferDraw(Command):
    """A command no table knows (yet)."""

    player_id: str
    kind: ClassVar[str] = "offer_draw"


async def test_every_command_type_is_listed_and_handled_by_the_tables_actor(
    services: Services,
) -> None:
    assert set(commands.ALL) == command_types()  # a new type must be listed ...
    assert set(examples()) == command_types()  # ... and tried here
    authority, _ = await started_table(services)
    for kind, command in examples().items():
        try:
            await authority.ask(command)
        except ServiceError as refused:  # refused for what it says, never for what it is
            assert refused.code != "unknown_command", kind.__name__


async def test_an_unknown_command_is_refused_with_its_code_and_changes_nothing(
    services: Services,
) -> None:
    authority, (anna, _) = await started_table(services)
    watcher = Recorder(None)
    await authority.attach(watcher, None, None)
    before, seen = snapshot(authority), len(watcher.frames)
    with pytest.raises(ServiceError) as refused:
        await authority.ask(OfferDraw(anna.id))
    assert refused.value.code == "unknown_command"
    assert snapshot(authority) == before and len(watcher.frames) == seen
    stored = await services.tables.stored(authority.table_id)
    assert (stored.version, stored.status) == (before[0], before[2])
    with pytest.raises(ServiceError) as refused:  # nor can one be made from JSON
        commands.from_json({"kind": "offer_draw", "player_id": anna.id})
    assert refused.value.code == "unknown_command"
    with pytest.raises(ServiceError) as refused:
        commands.to_json(OfferDraw(anna.id))
    assert refused.value.code == "unknown_command"


async def test_an_unknown_command_from_another_worker_is_refused_and_changes_nothing(
    workers: tuple[Services, Services, Network, Clock],
) -> None:
    one, two, _, _ = workers
    authority, (anna, _) = await started_table(one)
    before = snapshot(authority)
    assert two.tables.relay is not None
    body = {"table_id": authority.table_id, "command": {"kind": "offer_draw", "player_id": anna.id}}
    with pytest.raises(ServiceError) as refused:
        await two.tables.relay.call("worker-a", body)
    assert refused.value.code == "unknown_command"
    assert snapshot(authority) == before and two.tables.loaded() == 0


async def test_two_commands_sent_at_once_from_two_workers_run_one_after_the_other(
    workers: tuple[Services, Services, Network, Clock],
) -> None:
    one, two, _, _ = workers
    anna, _ = await one.tables.create_player("Anna")
    bela, _ = await two.tables.create_player("Bela")
    cleo, _ = await one.tables.create_player("Cleo")
    table = await one.tables.create_table(anna, "sixty-six", {}, "public")
    authority = await one.tables.authority(table["id"])
    steps: list[tuple[str, str]] = []
    process = authority.process

    async def recorded(command: Command) -> Any:
        name = getattr(command, "player_id", "?")
        steps.append(("start", name))
        for _ in range(5):  # room for another command to slip in, were it able to
            await asyncio.sleep(0)
        try:
            return await process(command)
        finally:
            steps.append(("end", name))

    authority.process = recorded  # type: ignore[method-assign]
    answers = await asyncio.gather(
        two.tables.join(bela, table["id"], None, None),  # forwarded by worker b
        one.tables.join(cleo, table["id"], None, None),  # run by worker a, the owner
        return_exceptions=True,
    )
    await settle()
    joined = [a for a in answers if isinstance(a, dict)]
    refused = [a for a in answers if isinstance(a, ServiceError)]
    assert len(joined) == 1 and len(refused) == 1, answers
    assert refused[0].code == "table_not_open"  # the first filled the table
    assert len(steps) == 4
    assert [step[0] for step in steps] == ["start", "end", "start", "end"], steps
    assert steps[0][1] == steps[1][1] and steps[2][1] == steps[3][1] != steps[0][1]
    stored = await one.tables.stored(table["id"])
    assert len(stored.seats) == 2 and stored.status == "live"


async def test_a_seated_players_new_name_reaches_the_table_as_a_command_in_turn(
    services: Services,
) -> None:
    authority, (anna, _) = await started_table(services)
    watcher = Recorder(None)
    await authority.attach(watcher, None, None)
    seen = len(watcher.frames)
    anna.name = "Anni"
    steps: list[str] = []
    process = authority.process

    async def recorded(command: Command) -> Any:
        steps.append(command.kind)
        return await process(command)

    authority.process = recorded  # type: ignore[method-assign]
    await services.tables.renamed(anna)
    assert steps == ["rename"]  # through the inbox, like every change
    assert authority.seats[0].name == "Anni"
    frames = watcher.frames[seen:]
    assert [f["type"] for f in frames] == ["table"]
    assert frames[0]["table"]["seats"][0]["name"] == "Anni"
