"""Finished matches: history and exports (``service``), paged replays (``replay``),
analyses by the bot worker (``analysis``) and the byte-bounded cache they share.
"""
