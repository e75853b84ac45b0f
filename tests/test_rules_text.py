"""The rules in plain words (app/static/rules/<lang>.md, the rules page's only text) agree with
the engine and with docs/rules.md: every preset has its section in every language, for the
player counts it seats, with its deck and hand sizes; every option a table may change and every
option docs/rules.md names is explained in every language; the languages have the same sections
and options in the same order; docs/rules.md links to each file."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from app.engine.catalog import catalog
from app.engine.rules import preset

ROOT = Path(__file__).resolve().parents[1]
RULES_DIR = ROOT / "app" / "static" / "rules"
DOCS = ROOT / "docs" / "rules.md"
LANGUAGES = ["en", "de", "pl", "it", "es"]
MARKER = re.compile(r"<!--\s*(section|option):\s*(.*?)\s*-->")


@dataclass
class Section:
    id: str
    players: set[int]
    text: str = ""
    options: dict[str, str] = field(default_factory=dict)


def sections(language: str) -> list[Section]:
    """The sections of a rules file, read as rules-text.js reads them (a heading, then its
    marker line)."""
    found: list[Section] = []
    option: str | None = None
    lines = (RULES_DIR / f"{language}.md").read_text().splitlines()
    for line, after in zip(lines, [*lines[1:], ""], strict=True):
        marker = MARKER.fullmatch(after.strip())
        if line.startswith("## ") and marker and marker[1] == "section":
            ident, _, players = marker[2].partition(";")
            counts = {int(n) for n in players.split(":")[1].split()}
            found.append(Section(ident.strip(), counts))
            option = None
        elif line.startswith("### ") and marker and marker[1] == "option":
            option = marker[2]
            found[-1].options[option] = ""
        elif found and not line.startswith("<!--"):
            if option is None:
                found[-1].text += line + "\n"
            else:
                found[-1].options[option] += line + "\n"
    return found


def options_explained(language: str) -> dict[str, str]:
    return {name: text for s in sections(language) for name, text in s.options.items()}


def options_in_docs() -> set[str]:
    """Every option docs/rules.md names (`option `x`` and `x=value`) that the engine has."""
    text = DOCS.read_text()
    named = set(re.findall(r"[Oo]ption `([a-z_]+)`", text))
    named |= set(re.findall(r"`([a-z_]+)=[a-z_0-9]+`", text))
    assert {"claim", "close_fail", "played_out", "luna", "partners"} <= named
    return named & set(preset("sixty-six").options())


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_preset_has_its_section_with_its_deck_and_hand(language: str) -> None:
    by_id = {s.id: s for s in sections(language)}
    for entry in catalog():
        name = entry["variant"]
        assert name in by_id, f"{language}: no section for {name}"
        section = by_id[name]
        assert set(entry["seats"]) <= section.players, f"{language}: {name} {section.players}"
        for players in entry["seats"]:
            rules = preset(name, players=players)
            for number in (rules.deck, rules.hand_size):
                assert re.search(rf"\b{number}\b", section.text), f"{language}: {name} {number}"
        if entry["defaults"]["target"] != 7:
            assert str(entry["defaults"]["target"]) in section.text, f"{language}: {name} target"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_option_is_explained(language: str) -> None:
    explained = options_explained(language)
    changeable = {option for entry in catalog() for option in entry["options"]}
    missing = (changeable | options_in_docs()) - set(explained) - {"trump_from", "bidding"}
    assert not missing, f"{language}: {sorted(missing)}"
    assert all(text.strip() for text in explained.values())


def test_the_languages_say_the_same_things_in_the_same_order() -> None:
    english = sections("en")
    for language in LANGUAGES[1:]:
        other = sections(language)
        assert [(s.id, s.players, list(s.options)) for s in other] == [
            (s.id, s.players, list(s.options)) for s in english
        ], language


def test_the_docs_link_to_every_rules_file() -> None:
    text = DOCS.read_text()
    for language in LANGUAGES:
        assert f"../app/static/rules/{language}.md" in text, language
