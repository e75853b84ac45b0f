"""The service's few questions to the engine about rules: valid presets, options, seats."""

from __future__ import annotations

from typing import Any

from app.common.errors import Invalid, clip_words, shown
from app.engine import PRESETS, Rules, preset


def rules_for_table(variant: str, options: dict[str, Any]) -> Rules:
    """Rules for a new table; ``Invalid`` naming the variant or option the engine refuses."""
    if variant not in PRESETS:
        known = ", ".join(PRESETS)
        raise Invalid("unknown_variant", f"Unknown variant {shown(variant)}; known: {known}.")
    try:
        rules = preset(variant, **options)
    except (ValueError, TypeError) as exc:
        # The engine's sentence may quote an option's name or value of any length.
        raise Invalid("bad_options", f"options: {clip_words(str(exc))}") from None
    return rules


def stored_rules(variant: str, options: dict[str, Any]) -> Rules:
    """Rules rebuilt from what a table or match stored (an option added since takes the value
    the record meant, ``Rules.from_stored``)."""
    return Rules.from_stored(variant, options)


def seat_count(rules: Rules) -> int:
    """How many players these rules seat."""
    return rules.players
