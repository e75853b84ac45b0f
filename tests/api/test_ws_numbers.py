"""Numbers at the table socket's edge (app/api/ws.py, ``parse``): whole numbers a JSON reader
keeps exact pass; fractions, exponents and integers past 2^53 are refused with
``bad_number`` before anything reads them."""

from __future__ import annotations

import pytest

from app.api.ws import MAX_WHOLE, parse


@pytest.mark.parametrize(
    "number", ["0", "-7", "66", str(MAX_WHOLE), str(-MAX_WHOLE), '"1.5e3"', '"v1.2"']
)
def test_whole_numbers_and_strings_that_look_like_numbers_pass(number: str) -> None:
    message, problem = parse(f'{{"type": "ping", "id": 1, "pad": [{{"n": {number}}}]}}')
    assert problem is None and message is not None


@pytest.mark.parametrize(
    "number", ["1.0", "0.5", "1e3", "-1E5", str(MAX_WHOLE + 1), str(2**64), str(-(2**70))]
)
def test_fractions_exponents_and_huge_integers_are_refused(number: str) -> None:
    level = f'{{"type": "bid", "level": {number}}}'
    bid = f'{{"type": "action", "id": "b", "version": 0, "action": {level}}}'
    message, problem = parse(bid)
    assert message is None and problem is not None
    assert (problem["code"], problem["id"]) == ("bad_number", "b")
    nested = f'{{"type": "ping", "id": 1, "pad": [[{{"deep": [{number}]}}]]}}'
    assert parse(nested)[1] == {**problem, "id": 1}
