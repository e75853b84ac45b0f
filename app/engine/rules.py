"""House rules: every option of RULES.md as one immutable value, and the named presets.

Where the original texts disagree or are silent, the default follows what most texts say and the
other reading is an option; docs/rules.md lists every such choice. The ones made here:

* ``german-32`` exchanges the lowest trump (the seven); seed 002 does not mention the exchange.
* In ``manual`` claim mode a claim is allowed whenever the claimer is on move (the trick winner
  is always on move right after winning, so "right after winning a trick" is covered).
* ``resign`` ends the whole match in favour of the other side with the most game points.
* ``german-32`` for three: 21 cards dealt, the turned card and 8 hidden cards form the talon, and
  the 2 cards between (32 is not 21 plus a multiple of 3) are set aside unseen for the deal.
* Against two or more opponents the winner's game points come from the best-placed one
  (``game_points_from``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from functools import lru_cache
from typing import Any, Final

from .cards import DECK_RANKS

STRICT_MODES: Final = ("head", "follow")
CLAIM_MODES: Final = ("auto", "manual")
CLOSE_FAIL_MODES: Final = ("opponent_2_or_3", "closer_minus_3", "closer_value_min_2")
WRONG_CLAIM_MODES: Final = ("opponent_2_or_3", "claimer_value")
SCHWARZ_MODES: Final = ("no_tricks", "zero_points")
DEAL_ORDERS: Final = ("classic", "schnapsen")
TRUMP_FROM: Final = ("turned", "dealer_last", "first_led")
PLAYED_OUT_MODES: Final = ("last_trick", "redeal")
GAME_POINTS_FROM: Final = ("best_opponent", "lowest_opponent")
ALL_PASS_MODES: Final = ("next_dealer", "same_dealer")
LUNA_MODES: Final = ("every_trick", "sixty_six")
FAILED_BID_MODES: Final = ("defenders_gain", "bidders_lose")


CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "strict": STRICT_MODES,
    "claim": CLAIM_MODES,
    "close_fail": CLOSE_FAIL_MODES,
    "wrong_claim": WRONG_CLAIM_MODES,
    "schwarz": SCHWARZ_MODES,
    "deal_order": DEAL_ORDERS,
    "trump_from": TRUMP_FROM,
    "played_out": PLAYED_OUT_MODES,
    "game_points_from": GAME_POINTS_FROM,
    "all_pass": ALL_PASS_MODES,
    "luna": LUNA_MODES,
    "failed_bid": FAILED_BID_MODES,
}
"""The options that take one of a few named values, with those values."""

FLAGS: Final = (
    "exchange_needs_trick",
    "marriages_in_strict_phase",
    "loser_counts_marriages",
    "partners",
    "marriage_needs_trick",
    "bidding",
    "defenders_score",
)
"""The options that are true or false."""

WHOLE_NUMBERS: Final[dict[str, tuple[int, int]]] = {
    "players": (2, 4),
    "target": (1, 100),
    "exchange_min_stock": (1, 48),
    "close_min_stock": (1, 48),
    "last_trick_bonus": (0, 100),
    "hand_size": (3, 8),
}
"""The options that are whole numbers, with their lowest and highest values (``deck`` takes
the sizes of :data:`DECK_RANKS`; ``exchange_rank`` a rank of the chosen deck)."""


@dataclass(frozen=True, slots=True)
class Rules:
    """Every house-rule option of a table. Build one with :func:`preset`.

    Options (RULES.md section 2 names each):

    * ``strict``: ``head`` (follow suit, beat the led card, else trump) or ``follow`` (suit only).
    * ``exchange_needs_trick``: the exchange needs a trick won in this deal.
    * ``exchange_min_stock``: cards the stock must hold (turned card included) to exchange.
    * ``exchange_rank``: the trump rank exchanged for the turned card (9, or J in Schnapsen).
    * ``marriages_in_strict_phase``: marriages may be declared once the stock is gone or closed.
    * ``close_min_stock``: cards the stock must hold (turned card included) to close it.
    * ``last_trick_bonus``: extra points for the last trick of a played-out stock.
    * ``claim``: ``auto`` (the deal ends at 66) or ``manual`` (the player claims; no scores shown).
    * ``loser_counts_marriages``: the loser's credited marriages count toward 33.
    * ``close_fail``: what a failed close costs.
    * ``wrong_claim``: what a wrong claim costs (manual mode).
    * ``schwarz``: when the winner scores 3: the loser took ``no_tricks`` or has ``zero_points``.
    * ``target``: game points that win the match.
    * ``deck``, ``hand_size``, ``players``, ``deal_order``: the deal's shape.
    * ``trump_from``: ``turned`` (the card after the hands, under the stock), ``dealer_last``
      (the dealer's last card, kept in the dealer's hand; no stock) or ``first_led`` (the suit of
      the first card led after the bidding; no stock).
    * ``partners``: four players in two sides, seats 0 and 2 against 1 and 3.
    * ``played_out``: all cards played and nobody at 66: ``last_trick`` (its winner wins the deal,
      1 game point) or ``redeal`` (the deal is void, nobody scores, the next deal follows).
    * ``game_points_from``: against two or more opponents, the winner's game points count the
      ``best_opponent``'s points and tricks or the ``lowest_opponent``'s.
    * ``marriage_needs_trick``: a marriage counts only once its side has won a trick.
    * ``bidding``: four-hand bidding before play; then ``all_pass`` (who redeals when everyone
      passes), ``defenders_score`` (the defenders score the levels their points reach) and
      ``luna`` (the lone bidder of level 5 must take ``every_trick`` or reach ``sixty_six``)
      and ``failed_bid`` (a failed bid's level goes to the defenders, ``defenders_gain``, or is
      taken off the bidders, ``bidders_lose``; see :data:`LEGACY_OPTIONS`).
    """

    variant: str = "sixty-six"
    players: int = 2
    deck: int = 24
    hand_size: int = 6
    deal_order: str = "classic"
    strict: str = "head"
    exchange_needs_trick: bool = True
    exchange_min_stock: int = 3
    exchange_rank: str = "9"
    marriages_in_strict_phase: bool = False
    close_min_stock: int = 3
    last_trick_bonus: int = 10
    claim: str = "auto"
    loser_counts_marriages: bool = True
    close_fail: str = "opponent_2_or_3"
    wrong_claim: str = "opponent_2_or_3"
    schwarz: str = "no_tricks"
    target: int = 7
    trump_from: str = "turned"
    partners: bool = False
    played_out: str = "last_trick"
    game_points_from: str = "best_opponent"
    marriage_needs_trick: bool = True
    bidding: bool = False
    all_pass: str = "next_dealer"
    defenders_score: bool = False
    luna: str = "every_trick"
    failed_bid: str = "defenders_gain"

    def __post_init__(self) -> None:
        for name, allowed in CHOICES.items():
            _check_choice(name, getattr(self, name), allowed)
        for name in FLAGS:
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"option {name} must be true or false")
        if self.deck not in DECK_RANKS:
            raise ValueError(f"option deck must be one of 20, 24, 32, 48, not {self.deck!r}")
        for name, (low, high) in WHOLE_NUMBERS.items():
            _check_int(name, getattr(self, name), low, high)
        if self.exchange_rank not in DECK_RANKS[self.deck]:
            raise ValueError(
                f"option exchange_rank {self.exchange_rank!r} is not a rank of the "
                f"{self.deck}-card deck"
            )
        self._check_shape()

    def _check_shape(self) -> None:
        """Refuse option combinations that describe no game."""
        dealt = self.players * self.hand_size
        if self.trump_from == "turned":
            if dealt + 1 > self.deck:
                raise ValueError(
                    f"option hand_size {self.hand_size} leaves no stock for {self.players} "
                    f"players with {self.deck} cards"
                )
        elif dealt != self.deck:
            raise ValueError(
                f"option trump_from {self.trump_from!r} deals the whole deck: hand_size times "
                f"players must be {self.deck}"
            )
        if self.deal_order == "schnapsen" and (self.hand_size != 5 or self.players != 2):
            raise ValueError("option deal_order 'schnapsen' deals 3+2 to two players")
        if self.partners and self.players != 4:
            raise ValueError("option partners needs 4 players")
        if self.bidding != (self.trump_from == "first_led"):
            raise ValueError("option bidding goes with trump_from 'first_led' (and only with it)")
        if self.bidding and not self.partners:
            raise ValueError("option bidding is for partners (four-hand)")
        if self.bidding and self.claim != "auto":
            raise ValueError("option claim must be 'auto' with bidding: the bid decides the deal")
        if self.trump_from != "turned" and not self.marriages_in_strict_phase:
            raise ValueError(
                "option marriages_in_strict_phase must be true without a stock (play is strict "
                "from the first trick)"
            )

    @property
    def sides(self) -> int:
        """How many sides play: two with ``partners``, else one per seat."""
        return 2 if self.partners else self.players

    def seat_sides(self) -> list[int]:
        """The side each seat plays for: partners across (seats 0 and 2 are side 0, 1 and 3
        side 1), else every seat its own side (as the view's ``sides``).

        >>> preset("four-hand").seat_sides()
        [0, 1, 0, 1]
        """
        return [self.side_of(seat) for seat in range(self.players)]

    def side_of(self, seat: int) -> int:
        """The side ``seat`` plays for: ``seat % 2`` with partners, else the seat itself."""
        return seat % 2 if self.partners else seat

    @property
    def has_stock(self) -> bool:
        """True if the deal leaves a stock to draw from."""
        return self.trump_from == "turned"

    def options(self) -> dict[str, Any]:
        """The options as a JSON-ready dict (everything but ``variant``): a new dict each
        time, from one computed once per set of rules (every view holds them)."""
        return dict(_options(self))

    @classmethod
    def from_options(cls, variant: str, options: dict[str, Any] | None = None) -> Rules:
        """The preset ``variant`` with ``options`` applied; ValueError names any bad field."""
        return preset(variant, **(options or {}))

    @classmethod
    def from_stored(cls, variant: str, options: dict[str, Any]) -> Rules:
        """The rules a stored table or match was played under: like :meth:`from_options`, but
        an option missing from a full stored set of options takes the value it had before it
        existed (:data:`LEGACY_OPTIONS`), so an old record replays exactly as it was played.

        >>> Rules.from_stored("four-hand", preset("four-hand").options()).failed_bid
        'defenders_gain'
        >>> old = preset("four-hand").options()
        >>> del old["failed_bid"]
        >>> Rules.from_stored("four-hand", old).failed_bid
        'bidders_lose'
        """
        legacy = {
            name: value
            for name, value in LEGACY_OPTIONS.items()
            if name not in options and name not in fixed_options(variant)
        }
        return preset(variant, **{**legacy, **options})


def _check_choice(name: str, value: object, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise ValueError(f"option {name} must be one of {', '.join(allowed)}, not {value!r}")


def _check_int(name: str, value: object, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"option {name} must be a whole number from {low} to {high}")


_PRESETS: Final[dict[str, Rules]] = {
    "sixty-six": Rules(),
    "schnapsen": Rules(
        variant="schnapsen",
        deck=20,
        hand_size=5,
        deal_order="schnapsen",
        exchange_rank="J",
        exchange_needs_trick=False,
        marriages_in_strict_phase=True,
        last_trick_bonus=0,
    ),
    "german-32": Rules(variant="german-32", deck=32, hand_size=6, exchange_rank="7"),
    "three-hand": Rules(
        variant="three-hand",
        players=3,
        hand_size=8,
        trump_from="dealer_last",
        marriages_in_strict_phase=True,
        played_out="redeal",
        target=10,
    ),
    "four-hand": Rules(
        variant="four-hand",
        players=4,
        hand_size=6,
        trump_from="first_led",
        partners=True,
        bidding=True,
        marriages_in_strict_phase=True,
        last_trick_bonus=0,
    ),
    "german-48": Rules(variant="german-48", players=4, deck=48, hand_size=7),
}

PRESETS: Final = tuple(_PRESETS)
"""The names :func:`preset` accepts."""

OPTION_NAMES: Final = tuple(f.name for f in fields(Rules) if f.name != "variant")

_SEATS: Final = {
    "sixty-six": (2,),
    "schnapsen": (2,),
    "german-32": (2, 3),
    "three-hand": (3,),
    "four-hand": (4,),
    "german-48": (4,),
}
"""The player counts each preset seats."""

_HAND_FOR: Final = {("german-32", 3): 7}
"""Hand sizes that follow a chosen player count unless ``hand_size`` is given too."""

_STOCK_OPTIONS: Final = (
    "exchange_needs_trick",
    "exchange_min_stock",
    "exchange_rank",
    "close_min_stock",
    "close_fail",
    "deal_order",
)
_BIDDING_OPTIONS: Final = ("all_pass", "defenders_score", "luna", "failed_bid")

LEGACY_OPTIONS: Final[dict[str, Any]] = {"failed_bid": "bidders_lose"}
"""Options added after records were stored, each with the value that a stored record without
it meant: a table or match stored before ``failed_bid`` existed took a failed bid off the
bidders (:meth:`Rules.from_stored`)."""


def seats_for(name: str) -> tuple[int, ...]:
    """The player counts preset ``name`` seats (KeyError for an unknown preset).

    >>> seats_for("german-32")
    (2, 3)
    """
    return _SEATS[name]


def fixed_options(name: str) -> dict[str, str]:
    """The options preset ``name`` does not let a table change, each with the reason.

    >>> fixed_options("four-hand")["claim"]
    'four-hand has no claim: the bid decides the deal'
    """
    base = _PRESETS[name]
    fixed = {
        "trump_from": f"{name} takes its trump one way only",
        "bidding": "only four-hand bids",
    }
    if name != "german-48":
        fixed["partners"] = "only german-48 lets the seats pair up"
    if not base.bidding:
        fixed |= {option: "only four-hand bids" for option in _BIDDING_OPTIONS}
    else:
        no_claim = f"{name} has no claim: the bid decides the deal"
        fixed |= {"claim": no_claim, "wrong_claim": no_claim}
    if not base.has_stock:
        fixed |= {option: f"{name} deals no stock" for option in _STOCK_OPTIONS}
        fixed["marriages_in_strict_phase"] = f"{name} is strict from the first trick"
    if max(_SEATS[name]) == 2 or base.partners:
        fixed["game_points_from"] = f"{name} has one opponent side"
    return fixed


def preset(name: str, **overrides: Any) -> Rules:
    """The rules of preset ``name`` with ``overrides`` applied.

    Raises ValueError naming an unknown preset, an unknown option, a bad value, or an option
    that makes no sense for the preset (restating a preset's own value is always allowed).

    >>> preset("sixty-six", target=10).target
    10
    >>> preset("schnapsen").exchange_rank
    'J'
    >>> preset("german-32", players=3).hand_size
    7
    >>> preset("three-hand", close_fail="closer_minus_3")
    Traceback (most recent call last):
    ...
    ValueError: option close_fail cannot be changed in three-hand: three-hand deals no stock
    """
    try:
        base = _PRESETS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown variant {name!r} (use one of {', '.join(PRESETS)})") from None
    for key in overrides:
        if key not in OPTION_NAMES:
            raise ValueError(f"unknown option {key!r}")
    players = overrides.get("players", base.players)
    if players not in _SEATS[name]:
        seats = " or ".join(str(n) for n in _SEATS[name])
        raise ValueError(f"option players must be {seats} in {name}, not {players!r}")
    if "hand_size" not in overrides and (name, players) in _HAND_FOR:
        overrides["hand_size"] = _HAND_FOR[name, players]
    fixed = fixed_options(name)
    for key, value in overrides.items():
        if key in fixed and value != getattr(base, key):
            raise ValueError(f"option {key} cannot be changed in {name}: {fixed[key]}")
    return replace(base, **overrides)


@lru_cache(maxsize=256)
def _options(rules: Rules) -> dict[str, Any]:
    """``rules``' options, computed once (``Rules.options`` copies them: never change this)."""
    data = asdict(rules)
    del data["variant"]
    return data
