"""The turned trump card goes, face up, to whoever draws the stock's last card: the other
player's page shows it in that hand, among the cards known to be there, until it is played."""

from __future__ import annotations

import random
from typing import Any

from tests.e2e.conftest import Server, shot
from tests.e2e.play import dismiss_summary, face_up, play_until_deal_ends, start_private_table


def test_the_turned_card_drawn_last_shows_face_up_in_the_takers_hand(
    new_page: Any, server: Server
) -> None:
    seats = start_private_table(new_page)
    anna, bela = seats.pages
    turned: list[str] = face_up(anna, "trump")
    checked: list[str] = []

    def look(_version: int) -> None:
        nonlocal turned
        if checked:
            return
        now = face_up(anna, "trump")
        if now or face_up(anna, "stock"):
            turned = now  # an exchange may change it; play here never closes the stock
            return
        if not turned:
            return  # a new deal whose turned card was not yet seen
        (card,) = turned
        taker, other = (anna, bela) if card in face_up(anna, "hand") else (bela, anna)
        assert card in face_up(taker, "hand")
        assert card in face_up(other, "shown"), (card, face_up(other, "shown,back"))
        shot(other, "turned-card-taken")
        checked.append(card)

    rng = random.Random(11)
    for _deal in range(8):  # a deal can end before its stock does (66 reached, a marriage)
        play_until_deal_ends(seats, [], rng, after_each=look)
        if checked:
            break
        for page in seats.pages:
            dismiss_summary(page)
        turned = face_up(anna, "trump")
    assert checked, "no deal of eight played its stock out"
