"""Challenges: one player invites another (or anyone holding a link) to a game; accepting
opens the table with both seated (``service.ChallengeService``, checks in ``rules``)."""
