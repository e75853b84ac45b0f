"""Talon: an authoritative multiplayer server for Sixty-Six and Schnapsen."""
