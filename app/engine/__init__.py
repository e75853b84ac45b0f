"""The rules engine: pure functions over immutable values; no I/O, no imports outside the
standard library and this package.

>>> from app.engine import apply, legal_actions, new_match, preset, view
>>> state = new_match(preset("sixty-six"), seed="demo", dealer=0)
>>> state.to_move
1
>>> state, events = apply(state, legal_actions(state)[0])
>>> view(state, 0)["trick"][0]["seat"]
1
"""

from .actions import Action
from .cards import SUITS, Card, full_deck, parse_card
from .catalog import OptionDomain, VariantInfo, catalog, variant_info
from .dealing import deck_for, new_deal, new_match, seed_commitment, shuffled_deck
from .errors import ActionError, EngineError, Illegal, IllegalAction
from .events import Event, redact
from .play import apply as apply
from .play import legal_actions, marriage_offers, unplayable
from .rules import OPTION_NAMES, PRESETS, Rules, preset
from .state import DealResult, Outcome, State, Termination
from .views import SeatOptions, View, seat_options, view

__all__ = [
    "OPTION_NAMES",
    "PRESETS",
    "SUITS",
    "Action",
    "ActionError",
    "Card",
    "DealResult",
    "EngineError",
    "Event",
    "Illegal",
    "IllegalAction",
    "OptionDomain",
    "Outcome",
    "Rules",
    "SeatOptions",
    "State",
    "Termination",
    "VariantInfo",
    "View",
    "apply",
    "catalog",
    "deck_for",
    "full_deck",
    "legal_actions",
    "marriage_offers",
    "new_deal",
    "new_match",
    "parse_card",
    "preset",
    "redact",
    "seat_options",
    "seed_commitment",
    "shuffled_deck",
    "unplayable",
    "variant_info",
    "view",
]
