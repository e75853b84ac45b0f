"""House rules: every option of RULES.md as one immutable value, and the named presets.

Where the original texts disagree, the default follows RULES.md and the other reading is an
option. Choices this module makes where RULES.md is silent (recorded here and in the README):

* ``german-32`` exchanges the lowest trump (the seven); seed 002 does not mention the exchange.
* In ``manual`` claim mode a claim is allowed whenever the claimer is on move (the trick winner
  is always on move right after winning, so "right after winning a trick" is covered).
* ``resign`` ends the whole match in the opponent's favour.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Final

from .cards import DECK_RANKS

STRICT_MODES: Final = ("head", "follow")
CLAIM_MODES: Final = ("auto", "manual")
CLOSE_FAIL_MODES: Final = ("opponent_2_or_3", "closer_minus_3", "closer_value_min_2")
WRONG_CLAIM_MODES: Final = ("opponent_2_or_3", "claimer_value")
SCHWARZ_MODES: Final = ("no_tricks", "zero_points")
DEAL_ORDERS: Final = ("classic", "schnapsen")


@dataclass(frozen=True, slots=True)
class Rules:
    """Every house-rule option of a table. Build one with :func:`preset`.

    Options (RULES.md section 2 names each):

    * ``strict``: ``head`` (follow suit, beat the led card, else trump) or ``follow`` (suit only).
    * ``exchange_needs_trick``: the exchange needs a trick won in this deal.
    * ``exchange_min_stock``: cards the stock must hold (turned card included) to exchange.
    * ``exchange_rank``: the trump rank exchanged for the turned card (9, or J in Schnapsen).
    * ``marriages_in_strict_phase``: marriages may be declared once the stock is gone or closed.
    * ``close_min_stock``: cards the stock must hold (turned card included) to close it.
    * ``last_trick_bonus``: extra points for the last trick of a played-out stock.
    * ``claim``: ``auto`` (the deal ends at 66) or ``manual`` (the player claims; no scores shown).
    * ``loser_counts_marriages``: the loser's credited marriages count toward 33.
    * ``close_fail``: what a failed close costs.
    * ``wrong_claim``: what a wrong claim costs (manual mode).
    * ``schwarz``: when the winner scores 3: the loser took ``no_tricks`` or has ``zero_points``.
    * ``target``: game points that win the match.
    * ``deck``, ``hand_size``, ``players``, ``deal_order``: the deal's shape.
    """

    variant: str = "sixty-six"
    players: int = 2
    deck: int = 24
    hand_size: int = 6
    deal_order: str = "classic"
    strict: str = "head"
    exchange_needs_trick: bool = True
    exchange_min_stock: int = 3
    exchange_rank: str = "9"
    marriages_in_strict_phase: bool = False
    close_min_stock: int = 3
    last_trick_bonus: int = 10
    claim: str = "auto"
    loser_counts_marriages: bool = True
    close_fail: str = "opponent_2_or_3"
    wrong_claim: str = "opponent_2_or_3"
    schwarz: str = "no_tricks"
    target: int = 7

    def __post_init__(self) -> None:
        _check_choice("strict", self.strict, STRICT_MODES)
        _check_choice("claim", self.claim, CLAIM_MODES)
        _check_choice("close_fail", self.close_fail, CLOSE_FAIL_MODES)
        _check_choice("wrong_claim", self.wrong_claim, WRONG_CLAIM_MODES)
        _check_choice("schwarz", self.schwarz, SCHWARZ_MODES)
        _check_choice("deal_order", self.deal_order, DEAL_ORDERS)
        for name in ("exchange_needs_trick", "marriages_in_strict_phase", "loser_counts_marriages"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"option {name} must be true or false")
        if self.deck not in DECK_RANKS:
            raise ValueError(f"option deck must be one of 20, 24, 32, 48, not {self.deck!r}")
        _check_int("players", self.players, 2, 2)
        _check_int("target", self.target, 1, 100)
        _check_int("exchange_min_stock", self.exchange_min_stock, 1, 48)
        _check_int("close_min_stock", self.close_min_stock, 1, 48)
        _check_int("last_trick_bonus", self.last_trick_bonus, 0, 100)
        _check_int("hand_size", self.hand_size, 3, 8)
        if self.exchange_rank not in DECK_RANKS[self.deck]:
            raise ValueError(
                f"option exchange_rank {self.exchange_rank!r} is not a rank of the "
                f"{self.deck}-card deck"
            )
        if self.players * self.hand_size + 1 > self.deck:
            raise ValueError(
                f"option hand_size {self.hand_size} leaves no stock for {self.players} players "
                f"with {self.deck} cards"
            )
        if self.deal_order == "schnapsen" and self.hand_size != 5:
            raise ValueError("option deal_order 'schnapsen' deals 3+2 and needs hand_size 5")

    def options(self) -> dict[str, Any]:
        """The options as a JSON-ready dict (everything but ``variant``)."""
        data = asdict(self)
        del data["variant"]
        return data

    @classmethod
    def from_options(cls, variant: str, options: dict[str, Any] | None = None) -> Rules:
        """The preset ``variant`` with ``options`` applied; ValueError names any bad field."""
        return preset(variant, **(options or {}))


def _check_choice(name: str, value: object, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise ValueError(f"option {name} must be one of {', '.join(allowed)}, not {value!r}")


def _check_int(name: str, value: object, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"option {name} must be a whole number from {low} to {high}")


_PRESETS: Final[dict[str, Rules]] = {
    "sixty-six": Rules(),
    "schnapsen": Rules(
        variant="schnapsen",
        deck=20,
        hand_size=5,
        deal_order="schnapsen",
        exchange_rank="J",
        exchange_needs_trick=False,
        marriages_in_strict_phase=True,
        last_trick_bonus=0,
    ),
    "german-32": Rules(variant="german-32", deck=32, hand_size=6, exchange_rank="7"),
}

PRESETS: Final = tuple(_PRESETS)
"""The names :func:`preset` accepts."""

OPTION_NAMES: Final = tuple(f.name for f in fields(Rules) if f.name != "variant")


def preset(name: str, **overrides: Any) -> Rules:
    """The rules of preset ``name`` with ``overrides`` applied.

    Raises ValueError naming an unknown preset, an unknown option, or a bad value.

    >>> preset("sixty-six", target=10).target
    10
    >>> preset("schnapsen").exchange_rank
    'J'
    """
    try:
        base = _PRESETS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown variant {name!r} (use one of {', '.join(PRESETS)})") from None
    for key in overrides:
        if key not in OPTION_NAMES:
            raise ValueError(f"unknown option {key!r}")
    return replace(base, **overrides)
