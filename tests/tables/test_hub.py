"""The local hub routes each viewer its own frame, in order, without blocking."""

from __future__ import annotations

from app.tables.hub import EVERYONE, LocalHub, viewer_key
from tests.tables.helpers import Recorder


def test_each_subscriber_gets_its_viewers_frame_or_the_common_one() -> None:
    hub = LocalHub()
    seat0, seat1, spectator, elsewhere = Recorder(0), Recorder(1), Recorder(None), Recorder(0)
    for subscriber in (seat0, seat1, spectator):
        hub.subscribe("t", subscriber)
    hub.subscribe("other", elsewhere)
    hub.publish("t", {"0": {"n": 0}, "1": {"n": 1}, "spectator": {"n": "s"}})
    hub.publish("t", {EVERYONE: {"n": "all"}})
    hub.publish("t", {"1": {"n": "only 1"}})
    assert seat0.frames == [{"n": 0}, {"n": "all"}]
    assert seat1.frames == [{"n": 1}, {"n": "all"}, {"n": "only 1"}]
    assert spectator.frames == [{"n": "s"}, {"n": "all"}]
    assert elsewhere.frames == []
    assert hub.count("t") == 3


def test_unsubscribed_viewers_get_nothing_more() -> None:
    hub = LocalHub()
    viewer = Recorder(None)
    hub.subscribe("t", viewer)
    hub.unsubscribe("t", viewer)
    hub.unsubscribe("t", viewer)
    hub.publish("t", {EVERYONE: {"n": 1}})
    assert viewer.frames == [] and hub.count("t") == 0
    assert viewer_key(None) == "spectator" and viewer_key(2) == "2"
