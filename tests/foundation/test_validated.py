"""config.serializers.validated: a body is accepted or refused exactly as is_valid does it."""

from __future__ import annotations

import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.exceptions import ValidationError

from config.serializers import validated
from matches.web.api.serializers.writes import (
    MatchClockWriteSerializer,
    MatchEventWriteSerializer,
    MatchUndoWriteSerializer,
)

SERIALIZERS = [MatchEventWriteSerializer, MatchUndoWriteSerializer, MatchClockWriteSerializer]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=6,
)
keys = st.sampled_from(
    ["event", "expected_version", "idempotency_key", "action", "remaining_seconds", "other"]
)
field_values = (
    json_values
    | st.integers(min_value=-2, max_value=10**20)
    | st.text(max_size=120)
    | st.sampled_from(["start", "adjust", " key ", "", "\x00", "12"])
    | st.dictionaries(st.text(max_size=5), json_values, max_size=3)
)
bodies = st.dictionaries(keys, field_values, max_size=4) | json_values


def by_is_valid(serializer_class, body):
    serializer = serializer_class(data=body)
    if serializer.is_valid():
        return "valid", serializer.validated_data
    return "refused", serializer.errors


def by_validated(serializer_class, body):
    try:
        return "valid", validated(serializer_class, body)
    except ValidationError as exc:
        return "refused", exc.detail


@settings(max_examples=300, deadline=None)
@given(serializer_class=st.sampled_from(SERIALIZERS), body=bodies)
def test_every_body_gets_what_is_valid_gives(serializer_class, body) -> None:
    assert by_validated(serializer_class, body) == by_is_valid(serializer_class, body)


def test_a_refused_body_does_not_spoil_the_next_one() -> None:
    good = {"event": {"type": "break"}, "expected_version": 3, "idempotency_key": " k "}
    with pytest.raises(ValidationError) as refused:
        validated(MatchEventWriteSerializer, {"event": [], "expected_version": -1})
    assert set(refused.value.detail) == {"event", "expected_version"}
    assert validated(MatchEventWriteSerializer, good) == {
        "event": {"type": "break"},
        "expected_version": 3,
        "idempotency_key": "k",
    }


def test_threads_validate_side_by_side() -> None:
    """Each thread has its own instance: bodies validated at once never mix."""
    results: dict[int, object] = {}

    def work(n: int) -> None:
        for _ in range(200):
            got = validated(MatchEventWriteSerializer, {"event": {"n": n}, "expected_version": n})
            if got != {"event": {"n": n}, "expected_version": n}:
                results[n] = got
                return
        results[n] = "ok"

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == dict.fromkeys(range(4), "ok")
