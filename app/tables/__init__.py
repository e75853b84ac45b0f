"""The tables: one actor per table (``authority``) and what it is made of: its truth from the
store (``snapshot``), its frames (``presenter``), the group commit (``committer``), presence,
rematch offers, turn clocks and their alarms, computer seats (``bots``), fair seeds, the hub
that routes frames to viewers, and with several workers the leases and the relay to a table's
owner. ``service`` is the lobby and the registry of the tables this worker holds.
"""
