"""docs/fairness.md is enough to re-deal: an implementation written from its words alone (below,
standard library only, nothing from the engine) and its test vectors agree with the engine."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

from app.engine import preset
from app.engine.dealing import (
    bot_contribution,
    deal_cards,
    deal_seed,
    first_dealer,
    seed_commitment,
    shuffled_deck,
)
from app.engine.dealing import match_seed as engine_match_seed

DOC = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"
RANKS = {24: "9JQKTA", 20: "JQKTA", 32: "789JQKTA"}


def vectors() -> dict:
    text = DOC.read_text()
    block = text[text.index("<!-- vectors -->") : text.index("<!-- /vectors -->")]
    return json.loads(block.split("```json", 1)[1].split("```", 1)[0])


# -- the page's algorithm, section by section ----------------------------------------------


def doc_match_seed(server_seed: str, contributions: list[str]) -> str:
    text = "talon-match:" + server_seed + "".join(":" + c for c in contributions)
    return hashlib.sha256(text.encode()).hexdigest()


def doc_bot_contribution(server_seed: str, seat: int) -> str:
    return hashlib.sha256(f"talon-bot:{server_seed}:{seat}".encode()).hexdigest()


def doc_deal_seed(match_seed: str, k: int) -> str:
    return hashlib.sha256(f"talon-deal:{match_seed}:{k}".encode()).hexdigest()


def doc_deck(size: int) -> list[str]:
    if size == 48:
        return doc_deck(24) * 2
    return [rank + suit for suit in "CDHS" for rank in RANKS[size]]


def doc_first_dealer(match_seed: str, players: int) -> int:
    digest = hashlib.sha256(f"talon-dealer:{match_seed}".encode()).digest()
    return int.from_bytes(digest[0:4], "big") % players


def doc_words(seed: str):  # type: ignore[no-untyped-def]
    i = 0
    while True:
        block = hashlib.sha256(f"{seed}:{i}".encode()).digest()
        for k in range(8):
            yield int.from_bytes(block[4 * k : 4 * k + 4], "big")
        i += 1


def doc_shuffle(size: int, seed: str) -> list[str]:
    cards = doc_deck(size)
    stream = doc_words(seed)
    for i in range(size - 1, 0, -1):
        n = i + 1
        limit = (2**32 // n) * n
        w = next(stream)
        while w >= limit:
            w = next(stream)
        j = w % n
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def doc_table(order: list[str], dealer: int, schnapsen: bool) -> tuple[list[list[str]], str]:
    """Two players: each seat's hand and the turned card (section 7)."""
    other = 1 - dealer
    hands: list[list[str]] = [[], []]
    if schnapsen:
        hands[other] += order[0:3] + order[7:9]
        hands[dealer] += order[3:6] + order[9:11]
        return hands, order[6]
    hands[other] += order[0:3] + order[6:9]
    hands[dealer] += order[3:6] + order[9:12]
    return hands, order[12]


# -- the checks ---------------------------------------------------------------------------


def test_the_vectors_are_the_engine_s() -> None:
    v = vectors()
    assert seed_commitment(v["commitment"]["seed"]) == v["commitment"]["sha256"]
    server = v["server_commitment"]
    assert seed_commitment(server["server_seed"]) == server["sha256"]
    for case in v["bot_contributions"]:
        assert bot_contribution(case["server_seed"], case["seat"]) == case["value"]
        assert doc_bot_contribution(case["server_seed"], case["seat"]) == case["value"]
    for case in v["match_seeds"]:
        assert engine_match_seed(case["server_seed"], case["contributions"]) == case["seed"]
        assert doc_match_seed(case["server_seed"], case["contributions"]) == case["seed"]
    for case in v["deal_seeds"]:
        assert deal_seed(case["match_seed"], case["deal"]) == case["seed"]
    for case in v["first_dealer"]:
        assert first_dealer(case["match_seed"], case["players"]) == case["dealer"]
    stream = doc_words(v["words"]["seed"])
    assert [next(stream) for _ in v["words"]["first"]] == v["words"]["first"]
    for case in v["decks"]:
        engine = [c.code for c in shuffled_deck(case["size"], case["seed"])]
        assert engine == case["order"].split(), case


def test_the_page_s_algorithm_re_deals_what_the_engine_deals() -> None:
    rng = random.Random(66)
    for _ in range(300):
        match_seed = rng.randbytes(16).hex()
        k = rng.randrange(1, 20)
        assert doc_deal_seed(match_seed, k) == deal_seed(match_seed, k)
        assert doc_first_dealer(match_seed, 2) == first_dealer(match_seed, 2)
        seed = deal_seed(match_seed, k)
        parts = [rng.choice(["", rng.randbytes(16).hex()]) for _ in range(rng.randrange(2, 5))]
        assert doc_match_seed(match_seed, parts) == engine_match_seed(match_seed, parts)
        assert doc_bot_contribution(match_seed, k % 4) == bot_contribution(match_seed, k % 4)
        for size in (24, 20, 32, 48):
            assert doc_shuffle(size, seed) == [c.code for c in shuffled_deck(size, seed)]


def test_the_page_s_dealing_is_the_engine_s() -> None:
    rng = random.Random(7)
    for variant, schnapsen in (("sixty-six", False), ("schnapsen", True)):
        rules = preset(variant)
        for _ in range(50):
            seed, dealer = rng.randbytes(8).hex(), rng.randrange(2)
            order = doc_shuffle(rules.deck, seed)
            deal = deal_cards(rules, shuffled_deck(rules.deck, seed), dealer)
            assert deal.turned is not None
            assert doc_table(order, dealer, schnapsen) == (
                [[c.code for c in hand] for hand in deal.hands],
                deal.turned.code,
            )
