"""The preset catalog: what it says a table may change is exactly what ``preset`` accepts."""

from __future__ import annotations

from typing import Any

import pytest

from app.engine import PRESETS, catalog, preset, variant_info
from app.engine.catalog import OptionDomain, option_domain


def sample_values(domain: OptionDomain) -> list[Any]:
    if domain["kind"] == "flag":
        return [True, False]
    if "values" in domain:
        return list(domain["values"])
    return [domain["min"], domain["max"]]


def test_the_catalog_lists_every_preset_in_order() -> None:
    assert [info["variant"] for info in catalog()] == list(PRESETS)


@pytest.mark.parametrize("name", PRESETS)
def test_defaults_are_the_presets_own_options(name: str) -> None:
    assert variant_info(name)["defaults"] == preset(name).options()


@pytest.mark.parametrize("name", PRESETS)
def test_every_listed_value_of_a_changeable_option_is_understood(name: str) -> None:
    """Each value is either accepted or refused only for its combination with the preset's
    other options (a shape error), never as an unknown option or a fixed one."""
    info = variant_info(name)
    for option, domain in info["options"].items():
        for value in sample_values(domain):
            try:
                preset(name, **{option: value})
            except ValueError as exc:
                assert "cannot be changed" not in str(exc)
                assert "unknown option" not in str(exc)
                assert "must be one of" not in str(exc), (option, value, exc)


@pytest.mark.parametrize("name", PRESETS)
def test_every_fixed_option_is_refused_with_its_reason(name: str) -> None:
    info = variant_info(name)
    defaults = info["defaults"]
    for option, reason in info["fixed"].items():
        if option == "players":
            continue
        other = next(
            v
            for v in sample_values(option_domain(option, defaults["deck"]))
            if v != defaults[option]
        )
        with pytest.raises(ValueError, match=reason.split(":")[0]):
            preset(name, **{option: other})


def test_changeable_and_fixed_options_cover_every_option_once() -> None:
    for info in catalog():
        assert set(info["options"]).isdisjoint(info["fixed"])
        assert set(info["options"]) | set(info["fixed"]) == set(info["defaults"])


def test_players_is_offered_only_where_a_preset_seats_more_than_one_count() -> None:
    offered = {info["variant"]: info["options"].get("players") for info in catalog()}
    assert offered["german-32"] == {"kind": "number", "values": [2, 3]}
    assert all(domain is None for name, domain in offered.items() if name != "german-32")
