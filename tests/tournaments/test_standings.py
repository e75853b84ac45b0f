"""Swiss standings: points, Buchholz and Sonneborn-Berger on a hand-worked event."""

from __future__ import annotations

import doctest
import importlib

from app.tournaments.standings import Bye, Game, standings

# Five entrants, three rounds, a win's point for a bye.
#   R1: A beats B, C beats D, E bye.
#   R2: A beats C, E beats B, D bye.
#   R3: A beats E, B wins by forfeit against D (D was gone), C bye.
# Final points: A 3, B 1, C 2, D 1, E 2. Unplayed rounds meet a virtual opponent with
# Svon = SPR + (1 - SfPR) + 0.5 * (n - R):
#   B, R3 forfeit win:  0 + 0 + 0   = 0     -> Buchholz 3 + 2 + 0 = 5,    S-B 0
#   C, R3 bye:          1 + 0 + 0   = 1     -> Buchholz 1 + 3 + 1 = 5,    S-B 1 + 1 = 2
#   D, R2 bye:          0 + 0 + 0.5 = 0.5   ;  R3 forfeit loss: 1 + 1 + 0 = 2
#                                           -> Buchholz 2 + 0.5 + 2 = 4.5, S-B 0.5
#   E, R1 bye:          0 + 0 + 1   = 1     -> Buchholz 1 + 1 + 3 = 5,    S-B 1 + 1 = 2
#   A: opponents B 1, C 2, E 2              -> Buchholz 5, S-B 5
# C and E tie on everything and are listed by id.
RESULTS = [
    Game(1, "A", "B", 1, 0),
    Game(1, "C", "D", 1, 0),
    Bye(1, "E", 1),
    Game(2, "A", "C", 1, 0),
    Game(2, "E", "B", 1, 0),
    Bye(2, "D", 1),
    Game(3, "A", "E", 1, 0),
    Game(3, "B", "D", 1, 0, forfeit=True),
    Bye(3, "C", 1),
]


def test_the_hand_worked_event_has_the_hand_worked_standings():
    rows = standings("ABCDE", RESULTS, rounds=3, computers=["D"])
    got = [(s.rank, s.id, s.points, s.buchholz, s.sonneborn_berger) for s in rows]
    assert got == [
        (1, "A", 3, 5, 5),
        (2, "C", 2, 5, 2),
        (3, "E", 2, 5, 2),
        (4, "B", 1, 5, 0),
        (5, "D", 1, 4.5, 0.5),
    ]
    assert [s.id for s in rows if s.computer] == ["D"]
    assert {s.id: (s.games, s.wins) for s in rows} == {
        "A": (3, 3),
        "B": (2, 0),
        "C": (2, 1),
        "D": (1, 0),
        "E": (2, 1),
    }


def test_a_half_point_bye_scores_half_and_weighs_half_in_sonneborn_berger():
    results = [Game(1, "A", "B", 1, 0), Bye(1, "C", 0.5)]
    rows = {s.id: s for s in standings("ABC", results, rounds=1)}
    assert rows["C"].points == 0.5
    # Virtual opponent: 0 + (1 - 0.5) + 0 = 0.5; S-B 0.5 * 0.5.
    assert (rows["C"].buchholz, rows["C"].sonneborn_berger) == (0.5, 0.25)


def test_results_are_counted_in_round_order_whatever_order_they_arrive_in():
    forward = standings("ABCDE", RESULTS, rounds=3)
    backward = standings("ABCDE", list(reversed(RESULTS)), rounds=3)
    assert forward == backward


def test_the_docstring_examples_hold():
    # The package exports the function `standings`, which hides the module of that name.
    module = importlib.import_module("app.tournaments.standings")
    assert doctest.testmod(module).failed == 0
