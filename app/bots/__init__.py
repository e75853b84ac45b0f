"""Computer players that see only their seat's view, their fast playouts, and an arena.

>>> from app.engine import new_deal, preset, view
>>> state = new_deal(preset("schnapsen"), seed="doc")
>>> action = choose_action(view(state, state.to_move), "medium")
>>> action["type"] in {"play", "exchange", "close"}
True
"""

from .choose import LEVELS, choose_action

__all__ = ["LEVELS", "choose_action"]
