"""JSON columns are written by orjson (``json_text``): whatever ``json.dumps`` wrote reads
back the same from it."""

from __future__ import annotations

import json
from typing import Any

import numpy
import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.store.db import json_text

LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
)
DOCUMENTS = st.recursive(
    LEAVES,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
    max_leaves=30,
)


@given(DOCUMENTS)
def test_a_document_reads_back_as_json_dumps_wrote_it(document: Any) -> None:
    assert json.loads(json_text(document)) == json.loads(json.dumps(document))


def test_keys_that_are_not_strings_and_floats_of_numpy_are_written_as_json_dumps_does() -> None:
    document = {0: {"seat": 0}, 2: [numpy.float64(0.25), (1, 2)]}  # a tuple is a list
    assert json.loads(json_text(document)) == json.loads(json.dumps(document))
    assert json_text({"a": 1}) == '{"a":1}'  # compact, as the protocol's frames


def test_what_json_cannot_write_and_integers_beyond_64_bits_are_refused() -> None:
    with pytest.raises(TypeError):
        json_text({"x": object()})
    with pytest.raises(TypeError):
        json_text({"x": 2**64})
