"""The greedy playout policy's choices in positions where one answer is right."""

from __future__ import annotations

import numpy as np

from app.bots.cards import card_id, mask_of, suit_id
from app.bots.playout import (
    CLOSE_COL,
    N_OPTIONS,
    Batch,
    Position,
    Table,
    greedy_choice,
    legal_options,
)
from app.engine import preset


def _choice(score: int, stock: list[str], pending: int = 0) -> int:
    """The greedy leader's column holding the ace and ten of trumps (spades), the opponent
    holding lower trumps and no hearts."""
    position = Position(
        hands=(mask_of(["AS", "TS", "AH", "TH", "JC"]), mask_of(["QS", "KS", "QC", "KD", "JD"])),
        stock=tuple(card_id(c) for c in stock),
        trump=suit_id("S"),
        to_move=0,
        card_points=(score, 10),
        pending=(pending, 0),
        tricks=(3, 1),
    )
    return _greedy("schnapsen", position)


def _greedy(variant: str, position: Position) -> int:
    """The greedy policy's column in ``position``, without noise."""
    batch = Batch.from_positions(Table.from_rules(preset(variant)), [position])
    noise = np.zeros((1, N_OPTIONS), dtype=np.float32)
    return int(greedy_choice(batch, legal_options(batch), noise)[0])


def test_the_greedy_leader_closes_when_its_safe_cards_bring_it_to_66():
    """With 45 points and the two top trumps (21 points nobody can beat) it closes; with 44
    (its ace of hearts, which the opponent can trump, does not count) it leads instead; a
    pending marriage counts, but not below a score of 30."""
    stock = ["QH", "KH", "TC", "JS"]
    assert _choice(45, stock) == CLOSE_COL
    assert _choice(44, stock) != CLOSE_COL
    assert _choice(35, stock, pending=20) == CLOSE_COL
    assert _choice(26, stock, pending=20) != CLOSE_COL


def test_the_greedy_leader_does_not_close_a_stock_too_small_to_close():
    """Below the preset's smallest stock for closing (Schnapsen: 3 cards) closing is no
    option at all."""
    assert _choice(60, ["QH", "JS"]) != CLOSE_COL


def _follow(score: int) -> int:
    """The greedy follower's card (Sixty-Six, spades trump) on a plain jack of hearts led,
    holding the trump ace and two nines of other plain suits."""
    position = Position(
        hands=(
            mask_of(["QH", "KH", "TC", "JC", "QD"]),
            mask_of(["AS", "9C", "9D", "KC", "QC", "TD"]),
        ),
        stock=tuple(card_id(c) for c in ["JD", "KD", "AD", "JS"]),
        trump=suit_id("S"),
        to_move=1,
        lead=card_id("JH"),
        card_points=(20, score),
        tricks=(2, 2),
    )
    return _greedy("sixty-six", position)


def test_the_greedy_follower_takes_a_trick_that_brings_it_to_66():
    """Trumping a jack with the trump ace costs more than the trick is worth, so the follower
    throws a nine; at 53 points the 13 of the trick bring it to 66, and it trumps."""
    assert _follow(52) in (card_id("9C"), card_id("9D"))
    assert _follow(53) == card_id("AS")
