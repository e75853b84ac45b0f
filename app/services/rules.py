"""The service's few questions to the engine about rules: valid presets, options, seats."""

from __future__ import annotations

from typing import Any

from app.engine import PRESETS, Rules, VariantInfo, catalog, preset
from app.services.errors import Invalid, clip_words, shown

SERVED_PLAYERS = frozenset({2, 3, 4})
"""The seat counts this server's tables take (the engine knows games for three and four)."""


class ServedVariant(VariantInfo):
    """A catalog entry with the seat counts this server serves for it."""

    served: list[int]


def variants() -> list[ServedVariant]:
    """The engine's catalog of presets, each with ``served``: the seat counts tables here take
    (empty when none yet)."""
    return [
        ServedVariant(**info, served=[n for n in info["seats"] if n in SERVED_PLAYERS])
        for info in catalog()
    ]


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
    if rules.players not in SERVED_PLAYERS:
        raise Invalid(
            "unsupported_variant",
            f"Tables for {rules.players} players ({variant}) are not served yet; "
            "this server seats two players a table.",
        )
    return rules


def stored_rules(variant: str, options: dict[str, Any]) -> Rules:
    """Rules rebuilt from what a table or match stored."""
    return Rules.from_options(variant, options)


def seat_count(rules: Rules) -> int:
    """How many players these rules seat."""
    return rules.players
