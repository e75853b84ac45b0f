"""What each preset offers a table: its seats, its default options, and the options a table may
change with the values each takes. The server publishes this catalog so that no client keeps
its own copy of the rules' option lists.

>>> schnapsen = variant_info("schnapsen")
>>> schnapsen["seats"], schnapsen["defaults"]["target"]
([2], 7)
>>> schnapsen["options"]["claim"]
{'kind': 'choice', 'values': ['auto', 'manual']}
>>> "claim" in variant_info("four-hand")["options"]
False
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

from .cards import DECK_RANKS
from .rules import CHOICES, FLAGS, PRESETS, WHOLE_NUMBERS, fixed_options, preset, seats_for


class OptionDomain(TypedDict):
    """The values one option takes: named ``choice`` values, ``flag`` (true or false), or a
    ``number`` from ``min`` to ``max`` (or one of ``values`` when only some are meaningful)."""

    kind: Literal["choice", "flag", "number"]
    values: NotRequired[list[Any]]
    min: NotRequired[int]
    max: NotRequired[int]


class VariantInfo(TypedDict):
    """One preset as a table creator sees it."""

    variant: str
    seats: list[int]
    """The player counts it seats (``players`` picks one where there are several)."""
    partners: bool
    """True if the seats play in two partnerships (seats 0 and 2 against 1 and 3)."""
    defaults: dict[str, Any]
    """Every option's value when the table changes nothing."""
    options: dict[str, OptionDomain]
    """The options a table may change, with their values."""
    fixed: dict[str, str]
    """The options it may not change, each with the reason."""


def option_domain(name: str, deck: int) -> OptionDomain:
    """The values option ``name`` takes with a ``deck``-card deck.

    >>> option_domain("exchange_rank", 20)
    {'kind': 'choice', 'values': ['J', 'Q', 'K', 'T', 'A']}
    >>> option_domain("target", 24)
    {'kind': 'number', 'min': 1, 'max': 100}
    """
    if name in CHOICES:
        return {"kind": "choice", "values": list(CHOICES[name])}
    if name in FLAGS:
        return {"kind": "flag"}
    if name == "deck":
        return {"kind": "number", "values": sorted(DECK_RANKS)}
    if name == "exchange_rank":
        return {"kind": "choice", "values": list(DECK_RANKS[deck])}
    if name in WHOLE_NUMBERS:
        low, high = WHOLE_NUMBERS[name]
        return {"kind": "number", "min": low, "max": high}
    raise KeyError(f"unknown option {name!r}")


def variant_info(name: str) -> VariantInfo:
    """The catalog entry of preset ``name`` (KeyError for an unknown preset)."""
    base = preset(name)
    fixed = fixed_options(name)
    seats = seats_for(name)
    if len(seats) == 1:
        fixed = {"players": f"{name} seats {seats[0]}", **fixed}
    defaults = base.options()
    options: dict[str, OptionDomain] = {}
    for option in defaults:
        if option in fixed:
            continue
        domain = option_domain(option, base.deck)
        if option == "players":
            domain = {"kind": "number", "values": list(seats)}
        options[option] = domain
    return {
        "variant": name,
        "seats": list(seats),
        "partners": base.partners,
        "defaults": defaults,
        "options": options,
        "fixed": fixed,
    }


def catalog() -> list[VariantInfo]:
    """Every preset's entry, in the order of :data:`PRESETS`."""
    return [variant_info(name) for name in PRESETS]
