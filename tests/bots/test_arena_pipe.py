"""The arena plays one side with the bots of another checkout, in a subprocess."""

from __future__ import annotations

import json

from app.bots import arena

FAKE_CHOOSE = '''
import json


def choose_action(view, level, rng, budget_s):
    """Record what was asked, then take the first legal action."""
    with open("asked.jsonl", "a") as out:
        out.write(json.dumps({"level": level, "budget": budget_s, "seat": view["seat"]}) + "\\n")
    return view["legal"][0]
'''


def test_a_side_from_another_checkout_plays_in_a_subprocess_with_its_own_bots(tmp_path):
    """A checkout whose only bot records each question and plays the first legal action:
    the arena's B side is that bot (it answered every B move), with B's level and budget."""
    bots = tmp_path / "app" / "bots"
    bots.mkdir(parents=True)
    (tmp_path / "app" / "__init__.py").write_text("")
    (bots / "__init__.py").write_text("")
    (bots / "choose.py").write_text(FAKE_CHOOSE)
    figures = arena.run(
        "medium", "hard", "schnapsen", 2, seed=3, budget_s=0.05, b_from=str(tmp_path)
    )
    asked = [json.loads(line) for line in (tmp_path / "asked.jsonl").read_text().splitlines()]
    assert figures.deals == 4
    assert len(asked) == len(figures.b.times) > 0
    assert {(a["level"], a["budget"]) for a in asked} == {("hard", 0.05)}
