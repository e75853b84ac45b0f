"""A short run of the connection, soak, relay-floor, group-commit and command-path benchmarks,
so that they cannot rot unseen: each plays every move it tries, with no timeout, dropped
connection, version gap or error in a seat's reader (the soak benchmark no desync; the relay
floor answers every move on both servers and prints their ratio, and holds its idle
connections; the group commit and the command path measure both trees, the command path with
no action refused, and it counts instructions under callgrind). Only counts are checked, never
a timing or a size."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def run(script: str, *args: str) -> str:
    """The benchmark's printed figures (it starts and stops its own server)."""
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def count(pattern: str, text: str) -> tuple[int, ...]:
    found = re.search(pattern, text)
    assert found, f"no line matches {pattern!r} in:\n{text}"
    return tuple(int(group) for group in found.groups())


def test_the_connections_benchmark_plays_every_move() -> None:
    out = run("connections.py", "--tables", "20", "--hold", "2")
    assert count(r"connections opened: (\d+) of (\d+)", out) == (40, 40)
    moves, planned = count(r"moves: (\d+) of (\d+)", out)
    assert moves == planned == 40
    assert "refused moves: {}" in out, out
    assert count(
        r"dropped: (\d+) .*timeouts: (\d+)  version gaps: (\d+)  reader errors: (\d+)", out
    ) == (0, 0, 0, 0)


def test_the_soak_benchmark_plays_with_no_error_or_desync() -> None:
    out = run(
        "soak.py", "--tables", "20", "--duration", "4", "--min-pause", "0.1", "--max-pause", "0.3"
    )
    assert count(r"accepted moves: (\d+)", out)[0] >= 20  # as many as tables, at the least
    assert count(
        r"refused (\d+) .*timeouts (\d+)  dropped connections (\d+)  version gaps (\d+)"
        r"  reader errors (\d+)",
        out,
    ) == (0, 0, 0, 0, 0)
    assert count(r"desyncs: (\d+) of (\d+)", out) == (0, 40)


def test_the_relay_floor_benchmark_measures_both_servers_and_another_tree() -> None:
    # Two rounds: another tree's Talon (this one, as ``--against``) and this Talon, taking
    # turns at going first, then the bare relay, each answering every move; both ratios.
    tree = str(BENCHMARKS.parent)
    out = run(
        "relay_floor.py",
        *("--tables", "3", "--duration", "1", "--rounds", "2", "--against", tree),
    )
    runs = re.findall(r"--- round (\d) of 2: (Talon of|Talon \(talon serve|the bare relay)", out)
    assert runs == [
        ("1", "Talon of"),
        ("1", "Talon (talon serve"),
        ("1", "the bare relay"),
        ("2", "Talon (talon serve"),
        ("2", "Talon of"),
        ("2", "the bare relay"),
    ], out
    for played in re.split(r"--- round \d of 2: the bare relay", out)[:2]:
        assert len(count(r"accepted moves: (\d+) ", played)) == 1
    assert all(moves > 0 for moves in map(int, re.findall(r"accepted moves: (\d+) ", out)))
    assert count(r"round trips: (\d+) ", out)[0] > 0
    assert "refused: 0\n" in out.split("the bare relay")[1], out
    assert re.search(r"ratio \d+\.\d+", out), out
    assert re.search(rf"the same for {re.escape(tree)}: \d+\.\d+, \d+\.\d+", out), out
    # Each Talon run reads its group commit from /metrics: every move it counted was stored
    # (and some in flight when the players stopped).
    sections = re.split(r"--- round \d of 2: ", out)[1:]
    talons = [section for section in sections if section.startswith("Talon")]
    assert len(talons) == 4, out
    for talon in talons:
        moves = count(r"accepted moves: (\d+) ", talon)[0]
        batches, actions = count(r"group commit: (\d+) transactions, (\d+) actions", talon)
        assert 0 < batches <= actions and actions >= moves, talon


def test_the_relay_floor_benchmark_measures_its_idle_connections() -> None:
    out = run("relay_floor.py", "--idle", "20")
    found = re.search(r"the bare relay: (\d+) idle connections, .*: (-?\d+\.\d) KiB", out)
    assert found, out
    assert found.group(1) == "20"


def test_the_group_commit_benchmark_measures_both_trees() -> None:
    tree = str(BENCHMARKS.parent)
    out = run(
        "group_commit.py",
        *("--tables", "3", "--batch", "2", "--batches", "5", "--rounds", "2", "--against", tree),
    )
    # The two trees take turns at going first.
    order = re.findall(r"round (\d): (this tree|/\S+):", out)
    assert order == [("1", tree), ("1", "this tree"), ("2", "this tree"), ("2", tree)], out
    assert re.search(r"this tree: median \d+\.\d us per action", out), out
    assert re.search(rf"{re.escape(tree)}: median \d+\.\d us per action", out), out


def test_the_command_path_benchmark_measures_both_trees_with_no_action_refused() -> None:
    tree = str(BENCHMARKS.parent)
    out = run(
        "command_path.py",
        *("--tables", "4", "--moves", "60", "--rounds", "2", "--against", tree),
    )  # a refused action fails the run (its exit code)
    order = re.findall(r"round (\d): (this tree|/\S+):", out)
    assert order == [("1", tree), ("1", "this tree"), ("2", "this tree"), ("2", tree)], out
    assert re.search(r"this tree: median \d+\.\d us per action", out), out


def test_the_command_path_benchmark_counts_instructions_under_callgrind() -> None:
    out = run(
        "command_path.py",
        *("--instructions", "--tables", "2", "--moves", "30", "--rounds", "1"),
    )
    found = re.search(r"this tree: median (\d+\.\d) k instructions per action", out)
    assert found, out
    assert float(found.group(1)) > 0  # counted only while the actions were measured
