"""Table chat: the rooms and their limits (``service``), the word filter (``text``) and the
operators' mutes and reports (``operators``).
"""
