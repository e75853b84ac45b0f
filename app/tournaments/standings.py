"""Swiss standings: points, Buchholz and Sonneborn-Berger.

Scale: a win scores 1, a loss 0, a pairing-allocated bye ``SwissOptions.bye_points`` (1 by
default). A match of Sixty-Six always has a winner, so 0.5 appears only as a half-point bye;
a double forfeit (both players gone) scores 0 for both.

Tie-breaks follow the FIDE Handbook (C.02, Annex 3, "Tie-break regulations", 2012-2022):

* **Buchholz**: the sum of the final scores of the player's opponents.
* **Sonneborn-Berger**: the sum of the final scores of the opponents it beat, plus half the
  final scores of those it drew with (no draws in 66 except a half-point bye).
* **Unplayed rounds** (a bye, or a game won or lost by forfeit: ``Game.forfeit``) are counted,
  for the player who did not play, as a game against a *virtual opponent* who has the player's
  score before that round, gets the opposite of the player's result in that round, and draws
  every later round: ``Svon = SPR + (1 - SfPR) + 0.5 * (n - R)`` where ``SPR`` is the player's
  score before round ``R``, ``SfPR`` its result in round ``R`` and ``n`` the number of rounds.
  The virtual opponent enters the Buchholz, and the Sonneborn-Berger as ``Svon * SfPR``. The
  opponents' own scores are their final scores, byes and forfeits included.

Order: points, then Buchholz, then Sonneborn-Berger, then id (for a stable listing). Computer
entrants are ranked like anyone and marked (``Standing.computer``) so that no prize place goes
to one silently.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Game:
    """A finished game of round ``round`` (1-based) between ``a`` and ``b`` and their points.

    ``forfeit`` marks a game decided without play (a player was gone or its clock ran out
    before it moved): both sides count it as unplayed for the tie-breaks.
    """

    round: int
    a: str
    b: str
    a_points: float
    b_points: float
    forfeit: bool = False


@dataclass(frozen=True)
class Bye:
    """A pairing-allocated bye of round ``round``, scoring ``points``."""

    round: int
    entrant: str
    points: float


@dataclass(frozen=True)
class Standing:
    """One line of the standings; ``rank`` counts from 1."""

    rank: int
    id: str
    points: float
    buchholz: float
    sonneborn_berger: float
    games: int
    wins: int
    computer: bool


@dataclass
class _Line:
    points: float = 0.0
    games: int = 0
    wins: int = 0


def standings(
    entrants: Iterable[str],
    results: Iterable[Game | Bye],
    *,
    rounds: int,
    computers: Iterable[str] = (),
) -> list[Standing]:
    """The standings after ``results``, in an event of ``rounds`` rounds (for ``Svon``).

    >>> rows = standings(["a", "b"], [Game(1, "a", "b", 1, 0)], rounds=1)
    >>> [(s.id, s.points, s.buchholz, s.sonneborn_berger) for s in rows]
    [('a', 1.0, 0.0, 0.0), ('b', 0.0, 1.0, 0.0)]
    """
    ids = list(dict.fromkeys(entrants))
    ordered = sorted(results, key=lambda r: r.round)
    lines = {i: _Line() for i in ids}
    # (round, own result, opponent id or None for a virtual opponent, score before the round)
    history: dict[str, list[tuple[int, float, str | None, float]]] = {i: [] for i in ids}

    def play(player: str, rnd: int, got: float, opponent: str | None, played: bool) -> None:
        line = lines[player]
        history[player].append((rnd, got, opponent if played else None, line.points))
        line.points += got
        if played:
            line.games += 1
            line.wins += got == 1

    for r in ordered:
        if isinstance(r, Bye):
            play(r.entrant, r.round, r.points, None, played=False)
        else:
            play(r.a, r.round, r.a_points, r.b, played=not r.forfeit)
            play(r.b, r.round, r.b_points, r.a, played=not r.forfeit)

    computer_ids = set(computers)
    rows = []
    for i in ids:
        buchholz = 0.0
        berger = 0.0
        for rnd, got, opponent, before in history[i]:
            if opponent is None:
                their = before + (1 - got) + 0.5 * (rounds - rnd)
            else:
                their = lines[opponent].points
            buchholz += their
            berger += their * got
        rows.append((i, lines[i], buchholz, berger))
    rows.sort(key=lambda row: (-row[1].points, -row[2], -row[3], row[0]))
    return [
        Standing(
            rank=n,
            id=i,
            points=line.points,
            buchholz=buchholz,
            sonneborn_berger=berger,
            games=line.games,
            wins=line.wins,
            computer=i in computer_ids,
        )
        for n, (i, line, buchholz, berger) in enumerate(rows, start=1)
    ]
