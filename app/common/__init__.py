"""What every area shares and nothing of the game: the error kinds with their stable codes
(``errors``), metrics, the Redis bus between workers, fault points for the kill tests, and a
table's rules as stored (``rules``).
"""
