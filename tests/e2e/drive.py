"""Playing fast without clicking: players made over REST and moves sent over WebSocket, while a
browser page watches (or sits in one of the seats with the same identity)."""

from __future__ import annotations

import contextlib
import functools
import json
import random
import time
from collections.abc import Callable
from typing import Any

import httpx
from playwright.sync_api import BrowserContext, Page, expect
from websockets.sync.client import ClientConnection, connect

TIMEOUT = 60.0
"""How long a socket or request here waits for the server: generous, so that a machine busy
with other work does not fail a test (a quiet one answers at once; nothing waits longer)."""

rest_get = functools.partial(httpx.get, timeout=TIMEOUT)
"""``httpx.get`` with the patient timeout (httpx's own is 5 s)."""
rest_post = functools.partial(httpx.post, timeout=TIMEOUT)
"""``httpx.post`` with the patient timeout."""


def guest(base: str, name: str) -> dict[str, Any]:
    """A new guest identity ``{id, name, token}``."""
    response = rest_post(f"{base}/api/players", json={"name": name})
    response.raise_for_status()
    return dict(response.json())


def live_table(
    base: str, variant: str = "sixty-six", **options: Any
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A private table with a running match between Anna (seat 0) and Bela (seat 1)."""
    anna, bela = guest(base, "Anna"), guest(base, "Bela")
    headers = {"Authorization": f"Bearer {anna['token']}"}
    body = {"variant": variant, "options": options, "visibility": "private"}
    table = rest_post(f"{base}/api/tables", json=body, headers=headers).json()
    joined = rest_post(
        f"{base}/api/tables/{table['id']}/join",
        json={"invite_code": table["invite_code"]},
        headers={"Authorization": f"Bearer {bela['token']}"},
    )
    joined.raise_for_status()
    return joined.json(), [anna, bela]


def sit_as(context: BrowserContext, player: dict[str, Any]) -> None:
    """Pages of ``context`` start with ``player``'s identity, as if they had created it."""
    saved = json.dumps(json.dumps(player))
    context.add_init_script(f"localStorage.setItem('talon.player', {saved})")


def take_seat(page: Page, table: dict[str, Any], player: dict[str, Any]) -> Page:
    """``page`` at ``table`` as ``player`` (seated there already), once its hand is shown."""
    sit_as(page.context, player)
    page.goto(f"/t/{table['id']}")
    try:
        expect(page.locator(".hand.mine .card").first).to_be_visible()
    except AssertionError as missing:
        raise AssertionError(
            f"{missing}\n{server_answer(page.url, table)}\n{drawn(page)}"
        ) from None
    return page


def drawn(page: Page) -> str:
    """What ``page`` has drawn in its main element (the start of its markup), for a failure's
    message."""
    try:
        markup = page.evaluate("document.getElementById('app')?.outerHTML ?? 'no #app'")
    except Exception as error:  # a closed page: say so instead
        return f"the page's markup is out of reach ({type(error).__name__})"
    return f"{page.url} draws: {str(markup)[:1500]}"


def server_answer(page_url: str, table: dict[str, Any]) -> str:
    """How the server of ``page_url`` answers for ``table`` now, and how fast (for a failure's
    message: it tells a stalled server from a page that did not draw what it had)."""
    url = httpx.URL(page_url).copy_with(path=f"/api/tables/{table['id']}", query=None)
    started = time.perf_counter()
    try:
        answer = f"HTTP {httpx.get(url, timeout=TIMEOUT).status_code}"
    except httpx.HTTPError as error:
        answer = type(error).__name__
    return f"GET {url.path}: {answer} in {time.perf_counter() - started:.2f} s"


class Seat:
    """One seated player's socket and what it knows."""

    def __init__(self, socket: ClientConnection, token: str) -> None:
        self.socket = socket
        self.socket.send(json.dumps({"type": "hello", "token": token, "since": None}))
        welcome = self.next("welcome")
        self.version: int = welcome["version"]
        self.legal: list[dict[str, Any]] = welcome["view"]["legal"]
        self.unplayable: dict[str, str] = welcome["view"]["unplayable"]
        self.declarable: list[dict[str, Any]] = welcome["view"]["declarable"]
        self.to_move: int | None = welcome["view"]["to_move"]
        self.events: list[dict[str, Any]] = []
        self.tricks_won: list[int] = list(welcome["view"]["tricks_won"])

    def next(self, kind: str) -> dict[str, Any]:
        while True:
            frame = json.loads(self.socket.recv(timeout=TIMEOUT))
            if frame["type"] == kind:
                return dict(frame)
            assert frame["type"] != "error", frame

    def follow(self, version: int) -> None:
        """Read updates up to ``version``."""
        while self.version < version:
            frame = self.next("update")
            self.version = frame["version"]
            self.legal, self.to_move = frame["legal"], frame["to_move"]
            self.unplayable, self.declarable = frame["unplayable"], frame["declarable"]
            self.events = frame["events"]
            for event in self.events:
                if event["type"] == "deal_started":
                    self.tricks_won = [0] * len(self.tricks_won)
                elif event["type"] == "trick_won":
                    self.tricks_won[event["seat"]] += 1


Choose = Callable[[list[dict[str, Any]], random.Random], dict[str, Any]]


def no_close(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A random legal play or exchange (never closing, claiming or resigning)."""
    return rng.choice([a for a in legal if a["type"] in ("play", "exchange")] or legal)


def close_at_once(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """Close the stock whenever that is legal, else like ``no_close``: strict play soon."""
    return {"type": "close"} if {"type": "close"} in legal else no_close(legal, rng)


def marry(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A marriage whenever one is legal, else like ``no_close``."""
    marriages = [a for a in legal if a.get("marriage")]
    return rng.choice(marriages) if marriages else no_close(legal, rng)


def play(
    base: str,
    table: dict[str, Any],
    players: list[dict[str, Any]],
    rng: random.Random,
    until: Callable[[list[Seat]], bool],
    choose: Choose = no_close,
    limit: int = 2000,
) -> list[Seat]:
    """Play chosen legal actions until ``until(seats)`` holds or the match ends; returns the
    seats as they were then (their sockets closed)."""
    host = base.removeprefix("http://")
    with contextlib.ExitStack() as stack:
        sockets = [
            stack.enter_context(connect(f"ws://{host}/ws/tables/{table['id']}")) for _ in players
        ]
        seats = [Seat(socket, p["token"]) for socket, p in zip(sockets, players, strict=True)]
        for _ in range(limit):
            mover = seats[0].to_move
            if mover is None or until(seats):
                return seats
            actor = seats[mover]
            action = choose(actor.legal, rng)
            message = {"type": "action", "id": "x", "version": actor.version, "action": action}
            actor.socket.send(json.dumps(message))
            target = actor.version + 1
            for seat in seats:
                seat.follow(target)
    raise AssertionError("the match did not end")


def resign(base: str, table_id: str, token: str) -> None:
    """The player of ``token`` resigns over its own socket, at whatever version the table
    has reached (computer players may be moving meanwhile)."""
    host = base.removeprefix("http://")
    with connect(f"ws://{host}/ws/tables/{table_id}") as socket:
        seat = Seat(socket, token)
        while True:
            message = {"type": "action", "id": "r", "action": {"type": "resign"}}
            socket.send(json.dumps({**message, "version": seat.version}))
            frame = json.loads(socket.recv(timeout=TIMEOUT))
            while frame["type"] not in ("ack", "error"):
                seat.version = frame.get("version", seat.version)
                frame = json.loads(socket.recv(timeout=TIMEOUT))
            if frame["type"] == "ack":
                return
            assert frame["code"] == "stale_version", frame
            seat.version = frame.get("version") or seat.version


def event_seen(kind: str) -> Callable[[list[Seat]], bool]:
    """``until`` for ``play``: stop right after an update with an event of this type."""
    return lambda seats: any(e["type"] == kind for e in seats[0].events)


def may(seat: int, kind: str) -> Callable[[list[Seat]], bool]:
    """``until`` for ``play``: stop when ``seat`` may take an action of this type."""
    return lambda seats: any(a["type"] == kind for a in seats[seat].legal)


def may_marry_before_a_trick(seat: int) -> Callable[[list[Seat]], bool]:
    """``until`` for ``play``: stop when ``seat`` may declare a marriage and has won no trick
    in this deal yet (its points would stay pending)."""

    def check(seats: list[Seat]) -> bool:
        me = seats[seat]
        return me.tricks_won[seat] == 0 and any(a.get("marriage") for a in me.legal)

    return check


def never(seats: list[Seat]) -> bool:
    """``until`` for ``play``: play on to the end of the match."""
    return False
