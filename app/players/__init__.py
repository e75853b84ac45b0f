"""The players: accounts, passwords and passkeys, names and identity, profiles and
statistics, ratings, revoked tokens, the players online, and the computer players' rows.
"""
