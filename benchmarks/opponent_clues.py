"""What a player's leads, follows and closings say about its hand, measured on a level's own play.

Run ``python benchmarks/opponent_clues.py --deals 300`` (figures only, no assertions). Seeded
Schnapsen deals are played by a level against itself (hard by default; with ``--from DIR``,
the level of the checkout in DIR, through :class:`app.bots.arena.PipedBot`). At every follow to a
lead while the stock is open, each clue of :func:`app.bots.knowledge.follow_clues` names cards
the follower then lacked (and at every lead without a marriage, each clue of
:func:`app.bots.knowledge.lead_clues` those the leader lacked); the script compares how often it
really held one of them with the chance a random hand dealt from what the other seat had not
seen holds one, and prints each clue's
likelihood ratio (the ``leak`` of :data:`app.bots.knowledge.LEAKS`: 1 says nothing, 0 is a
rule kept every time). It also prints how often a player closed the stock, when it could, by
the trumps it held (:data:`app.bots.knowledge.CLOSING_ODDS`). With ``--worlds N`` it also
measures how well the worlds dealt at each decision with hidden cards fit the opponent's true
hand, with the clues and without them (:meth:`Knowledge.without_clues`): the cross-entropy,
in nats per decision, of the true hand under how often the worlds give each unseen card to
the opponent (lower fits better).
"""

from __future__ import annotations

import argparse
import math
import random
from collections import defaultdict

from app.bots.arena import PipedBot
from app.bots.cards import SUIT_MASK, card_id, mask_of, suit_id
from app.bots.choose import choose_action
from app.bots.knowledge import LEAKS, Knowledge, follow_clues, lead_clues, sample_positions
from app.engine import apply, new_deal, preset, view


def chance_of_any(cards: int, pool: int, hand: int) -> float:
    """The chance that ``hand`` cards dealt at random from ``pool`` include one of ``cards``."""
    size, hits = pool.bit_count(), (cards & pool).bit_count()
    return 1.0 - math.comb(size - hits, hand) / math.comb(size, hand)


def likelihood_ratio(events: list[tuple[float, bool]]) -> float:
    """The ratio ``r`` that makes the expected count of held cards (each event's chance
    reweighted by ``r``) equal the count seen: 1 when play says nothing about the cards."""
    held = sum(seen for _, seen in events)
    low, high = 1e-4, 100.0
    for _ in range(60):
        mid = (low * high) ** 0.5
        expected = sum(1.0 if p >= 1 else p * mid / (p * mid + 1 - p) for p, _ in events)
        low, high = (mid, high) if expected < held else (low, mid)
    return (low * high) ** 0.5


def record(
    events: dict[str, list[tuple[float, bool]]],
    other: Knowledge,
    clues: list[tuple[str, int]],
    played: int,
    hand: int,
) -> None:
    """Add to ``events``, for each clue of the card ``played`` from ``hand``, the chance that
    a hand dealt from what the ``other`` seat had not seen holds one of the cards it names, and
    whether ``hand`` did."""
    pool = other.unseen & ~other.opponent_known
    count = other.opponent_count - other.opponent_known.bit_count()
    for name, cards in clues:
        lacked = cards & ~(1 << played)
        if lacked:
            known = bool(lacked & other.opponent_known)
            chance = 1.0 if known else chance_of_any(lacked, pool, count)
            events[name].append((chance, bool(lacked & hand)))


def cross_entropy(k: Knowledge, truth: int, worlds: int, rng: random.Random) -> float:
    """Nats of the opponent's true hand ``truth`` under the share of ``worlds`` sampled
    worlds that give it each card it might hold."""
    dealt = [w.hands[k.opponent] for w in sample_positions(k, worlds, rng)]
    nats = 0.0
    for card in range(32):
        if not (k.unseen >> card) & 1 or card == k.turned:
            continue
        share = sum((hand >> card) & 1 for hand in dealt) / worlds
        share = min(max(share, 0.5 / worlds), 1 - 0.5 / worlds)
        nats -= math.log(share if (truth >> card) & 1 else 1 - share)
    return nats


def main() -> None:
    """Play the deals and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--worlds", type=int, default=0)
    parser.add_argument("--from", dest="root", help="play the level of this checkout")
    args = parser.parse_args()
    piped = PipedBot(args.root, args.level, 0.15, args.seed) if args.root else None
    fits: dict[str, list[float]] = defaultdict(list)
    rng = random.Random(args.seed)
    events: dict[str, list[tuple[float, bool]]] = defaultdict(list)
    closings: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for d in range(args.deals):
        state = new_deal(preset("schnapsen"), seed=f"clues-{args.seed}-{d}", dealer=d % 2)
        while not state.deal_over:
            seat = state.to_move
            assert seat is not None
            seen = view(state, seat)
            if piped is not None:
                action = piped(dict(seen), rng)
            else:
                action = choose_action(dict(seen), args.level, rng, 0.15)
            hand = mask_of(c.code for c in state.hands[seat])
            if args.worlds and seen["stock"]:
                k = Knowledge.from_view(seen)
                truth = mask_of(c.code for c in state.hands[1 - seat])
                phase = "closed" if seen["closed"] else "open"
                same = len(fits[f"{phase}, clues"])  # the same random deals for both
                for name, known in (("clues", k), ("no clues", k.without_clues())):
                    fits[f"{phase}, {name}"].append(
                        cross_entropy(known, truth, args.worlds, random.Random(same))
                    )
            trump = suit_id(seen["trump"])
            if any(a["type"] == "close" for a in seen["legal"]):
                closings[(hand & int(SUIT_MASK[trump])).bit_count()][action["type"] == "close"] += 1
            open_stock = seen["stock"] and not seen["closed"]
            if action["type"] == "play" and open_stock:
                played = card_id(action["card"])
                if seen["trick"]:
                    other = seen["trick"][0]["seat"]
                    clues = follow_clues(card_id(seen["trick"][0]["card"]), played, trump)
                else:
                    other = 1 - seat
                    clues = [] if action.get("marriage") else lead_clues(played, trump)
                record(events, Knowledge.from_view(view(state, other)), clues, played, hand)
            state, _ = apply(state, action)
    if piped is not None:
        piped.close()
    player = f"{args.level} of {args.root}" if args.root else args.level
    print(f"{args.deals} Schnapsen deals, {player} against itself (seed {args.seed})")
    print(f"{'clue':18} {'plays':>7} {'by chance':>9} {'held':>6} {'ratio':>6} {'in use':>6}")
    for name in LEAKS:
        found = events.get(name, [])
        if not found:
            print(f"{name:18} {0:7}")
            continue
        chance = sum(p for p, _ in found) / len(found)
        held = sum(s for _, s in found) / len(found)
        ratio = likelihood_ratio(found)
        print(f"{name:18} {len(found):7} {chance:9.2f} {held:6.2f} {ratio:6.2f} {LEAKS[name]:6.2f}")
    print("closing the stock when allowed, by trumps in hand: turns, closed, share")
    for trumps in sorted(closings):
        kept, closed = closings[trumps]
        print(
            f"  {trumps} trumps: {kept + closed:5} turns, {closed:4} closed, "
            f"{closed / (kept + closed):.1%}"
        )
    if fits:
        print(f"fit of {args.worlds} worlds to the opponent's hand (nats per decision, lower fits)")
        for name, nats in sorted(fits.items()):
            print(f"  {name:16} {len(nats):5} decisions  {sum(nats) / len(nats):.3f}")


if __name__ == "__main__":
    main()
