"""The easy bot: a uniformly random legal action."""

from __future__ import annotations

import random
from typing import Any


def choose(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random action from ``view["legal"]``."""
    return dict(rng.choice(view["legal"]))
